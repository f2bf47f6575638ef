import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import sharp from 'sharp';
import { thumbHashToApproximateAspectRatio } from 'thumbhash';
import type { MediaItem, TreeNode } from '../../server/core/albums/album-tree.js';
import { createMediaPool, type MediaPool } from '../../server/media/pool.js';
import { DimensionsCache, type HeaderReader } from '../../server/media/dimensions.js';
import { quietLogger } from '../support/capture-logger.js';
import { DISPLAY_HEIGHT, DISPLAY_WIDTH, writeOrientedJpeg } from '../support/media-fixtures.js';
import { makeTempDir, removeTempDir } from '../support/temp-dir.js';
import { type Colour, cornerPng, cornersOf } from '../support/turn-fixtures.js';

/** Where the red quarter of the test pictures (red top-left, blue elsewhere) is once turned clockwise. */
const TURNED: Record<number, { topLeft: Colour; topRight: Colour; bottomRight: Colour }> = {
  90: { topLeft: 'blue', topRight: 'red', bottomRight: 'blue' },
  180: { topLeft: 'blue', topRight: 'blue', bottomRight: 'red' },
  270: { topLeft: 'blue', topRight: 'blue', bottomRight: 'blue' },
};

const corners = async (file: string) => {
  const { topLeft, topRight, bottomRight } = await cornersOf(fs.readFileSync(file));
  return { topLeft, topRight, bottomRight };
};

describe('what the media worker makes of a photo the owner turned (docs/api.md#rotations)', function () {
  this.timeout(60_000);
  let dir: string;
  let pool: MediaPool;
  const file = (name: string) => path.join(dir, 'in', name);
  const out = (name: string) => path.join(dir, 'out', name);

  before(async () => {
    dir = makeTempDir('gallery-turned-');
    pool = createMediaPool({ workers: 1, maxQueue: 100, log: quietLogger });
    fs.mkdirSync(path.join(dir, 'in'));
    const png = await cornerPng();
    fs.writeFileSync(file('corner.png'), png);
    // The same picture with its pixels turned: what the turned derivatives must match.
    for (const r of [90, 180, 270])
      await sharp(png)
        .rotate(r)
        .png()
        .toFile(file(`corner-${r}.png`));
    for (const o of [1, 2, 3, 4, 5, 6, 7, 8]) await writeOrientedJpeg(file(`orientation-${o}.jpg`), o);
  });
  after(async () => {
    await pool.close();
    removeTempDir(dir);
  });

  describe('thumbnail', () => {
    for (const orientation of [1, 2, 3, 4, 5, 6, 7, 8]) {
      for (const rotate of [90, 180, 270]) {
        it(`should turn a JPEG of EXIF orientation ${orientation} by ${rotate}° more, in JPEG and WebP`, async () => {
          const [dest, webpDest] = [out(`t/${orientation}-${rotate}.jpg`), out(`t/${orientation}-${rotate}.webp`)];
          const [result] = await pool.thumbnail({
            src: file(`orientation-${orientation}.jpg`),
            kind: 'image',
            outputs: [{ size: 'small', width: 400, dest, webpDest }],
            rotate,
          });
          const size = rotate === 180 ? [DISPLAY_WIDTH, DISPLAY_HEIGHT] : [DISPLAY_HEIGHT, DISPLAY_WIDTH];
          expect([result!.width, result!.height]).to.deep.equal(size);
          expect(await corners(dest)).to.deep.equal(TURNED[rotate]);
          expect(await corners(webpDest)).to.deep.equal(TURNED[rotate]);
        });
      }
    }

    it('should turn first and then scale: a turned portrait gets the preset width, every size from one task', async () => {
      const outputs = [
        { size: 'small', width: 100, dest: out('s/corner.png.jpg') },
        { size: 'medium', width: 200, dest: out('m/corner.png.jpg') },
      ];
      const results = await pool.thumbnail({ src: file('corner.png'), kind: 'image', outputs, rotate: 90 });
      for (const o of outputs) {
        const made = results.find((r) => r.size === o.size)!;
        // 320 × 240 turned is 240 × 320: scaled to the preset's width, within a pixel of rounding.
        expect(made.width).to.equal(o.width);
        expect(made.height).to.be.closeTo((o.width * 4) / 3, 1);
      }
      for (const o of outputs) expect(await corners(o.dest)).to.deep.equal(TURNED[90]);
    });
  });

  describe('fullSize', () => {
    it('should write the whole photo turned, as a JPEG', async () => {
      const dest = out('full/corner.png.jpg');
      expect(await pool.fullSize({ src: file('corner.png'), dest, rotate: 270 })).to.deep.equal({ width: 240, height: 320 });
      expect((await sharp(dest).metadata()).format).to.equal('jpeg');
      expect(await corners(dest)).to.deep.equal(TURNED[270]);
    });
  });

  describe('dimensions', () => {
    it('should give the turned size on top of the EXIF orientation', async () => {
      expect(await pool.dimensions({ src: file('orientation-6.jpg'), kind: 'image', rotate: 90 })).to.include({ width: DISPLAY_HEIGHT, height: DISPLAY_WIDTH });
      expect(await pool.dimensions({ src: file('orientation-6.jpg'), kind: 'image', rotate: 180 })).to.include({
        width: DISPLAY_WIDTH,
        height: DISPLAY_HEIGHT,
      });
    });

    for (const rotate of [90, 180, 270]) {
      it(`should give the ThumbHash of the picture turned ${rotate}°, that of its pixels turned`, async () => {
        const turned = await pool.dimensions({ src: file('corner.png'), kind: 'image', rotate });
        const reference = await pool.dimensions({ src: file(`corner-${rotate}.png`), kind: 'image' });
        expect(turned).to.deep.equal(reference);
        expect(thumbHashToApproximateAspectRatio(Buffer.from(turned.thumbHash!, 'base64'))).to.be.closeTo(rotate === 180 ? 4 / 3 : 3 / 4, 0.2);
      });
    }
  });

  describe('coverFocus', () => {
    for (const rotate of [90, 180, 270]) {
      it(`should place the crop of a cover turned ${rotate}° where it falls in its pixels turned`, async () => {
        const box = { width: 300, height: 200 };
        const turned = await pool.coverFocus({ src: file('corner.png'), box, rotate });
        expect(turned).to.deep.equal(await pool.coverFocus({ src: file(`corner-${rotate}.png`), box }));
      });
    }
  });

  describe('the dimensions cache of pages', () => {
    /** The pool as the gallery hands it over, counting the reads it is asked for. */
    const counting = (asked: unknown[]): HeaderReader => ({
      dimensions: (task, opts) => {
        asked.push(task);
        return pool.dimensions(task, opts);
      },
      videoInfo: (task, opts) => pool.videoInfo(task, opts),
    });
    const album = (): TreeNode => ({
      path: 'trip',
      name: 'trip',
      meta: undefined,
      parent: undefined,
      children: [],
      media: [{ name: 'corner.png', kind: 'image' }],
    });

    it('should read a photo again when its turn changes, and keep the turn it read with on disk', async () => {
      const cacheDir = path.join(dir, 'cache');
      let rotation = 0;
      const asked: unknown[] = [];
      const open = () =>
        new DimensionsCache({
          locate: async () => ({
            absPath: file('corner.png'),
            rotation,
            mtimeMs: fs.statSync(file('corner.png')).mtimeMs,
            size: fs.statSync(file('corner.png')).size,
          }),
          cacheDir,
          reader: counting(asked),
          log: quietLogger,
        });
      const cache = open();
      // A page never waits for a read: what is known once the reads a look started are over.
      const known = async (node: ReturnType<typeof album>) => {
        await cache.complete(node, node.media);
        return cache.provide(node, node.media);
      };
      const first = album();
      expect((await known(first))[0]).to.include({ width: 320, height: 240 });
      // A rescan makes new items: looked up again, the turn now differs from the one read.
      rotation = 90;
      const second = album();
      expect((await known(second))[0]).to.include({ width: 240, height: 320 });
      expect(asked).to.deep.equal([
        { src: file('corner.png'), kind: 'image' },
        { src: file('corner.png'), kind: 'image', rotate: 90 },
      ]);
      await cache.flush();
      const stored = JSON.parse(fs.readFileSync(cache.fileOf('trip'), 'utf8')) as { entries: Record<string, { rotation?: number }> };
      expect(stored.entries['corner.png']).to.include({ rotation: 90, width: 240, height: 320 });
      // After a restart, what is on disk answers without a read.
      const third = album();
      expect((await open().provide(third, third.media as MediaItem[]))[0]).to.include({ width: 240, height: 320 });
      expect(asked).to.have.length(2);
    });
  });
});
