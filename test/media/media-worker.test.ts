import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import sharp from 'sharp';
import { thumbHashToApproximateAspectRatio, thumbHashToAverageRGBA } from 'thumbhash';
import { createMediaPool, MediaTaskError, type MediaPool } from '../../server/media/pool.js';
import { SOURCE_TAG_HEAD_BYTES, sourceTagIn, sourceTagOf } from '../../server/core/media/source-tag.js';
import { lockFileOf } from '../../server/core/media-catalogue.js';
import {
  CAMERA,
  cornerColours,
  DISPLAY_HEIGHT,
  DISPLAY_WIDTH,
  writeCameraJpeg,
  writeJpeg,
  writeOrientedJpeg,
  writePng,
  writeTruncatedJpeg,
  writeUnreadableJpeg,
  writeVideo,
} from '../support/media-fixtures.js';
import { makeTempDir, removeTempDir } from '../support/temp-dir.js';
import { quietLogger } from '../support/capture-logger.js';

/** The worker tasks, run through a real pool on real files. */
describe('media worker', function () {
  let dir: string;
  let pool: MediaPool;
  const file = (name: string) => path.join(dir, 'in', name);
  const out = (name: string) => path.join(dir, 'out', name);

  before(async function () {
    dir = makeTempDir('media-worker-');
    pool = createMediaPool({ workers: 2, maxQueue: 50, log: quietLogger });
    await Promise.all([
      writeCameraJpeg(file('camera.jpg'), 2400, 1600),
      writeJpeg(file('tiny.jpg'), 300, 200),
      writePng(file('plain.png'), 500, 250),
      sharp({ create: { width: 120, height: 90, channels: 3, background: '#7a7a7a' } })
        .greyscale()
        .png()
        .toFile(file('grey.png')),
      fs.promises.copyFile(path.join(import.meta.dirname, '..', 'fixtures', 'heic', 'IMG_5195.HEIC'), file('IMG_5195.HEIC')),
      writeTruncatedJpeg(file('truncated.jpg')),
      writeUnreadableJpeg(file('unreadable.jpg')),
      writeVideo(file('clip.mp4'), { width: 320, height: 240, seconds: 2 }),
      writeVideo(file('portrait.mp4'), { width: 320, height: 240, seconds: 2, rotate: 90 }),
      ...[1, 2, 3, 4, 5, 6, 7, 8].map((o) => writeOrientedJpeg(file(`orientation-${o}.jpg`), o)),
    ]);
  });

  after(async function () {
    await pool?.close();
    removeTempDir(dir);
  });

  describe('thumbnail', function () {
    it('should write every size from one task, each at its maximum width', async function () {
      const outputs = [
        { size: 'small', width: 400, dest: out('s/camera.jpg.jpg') },
        { size: 'medium', width: 1200, dest: out('m/camera.jpg.jpg') },
        { size: 'large', width: 1920, dest: out('l/camera.jpg.jpg') },
      ];
      const before = pool.tasksRun;
      const result = await pool.thumbnail({ src: file('camera.jpg'), kind: 'image', outputs });
      expect(pool.tasksRun - before).to.equal(1);
      expect(result).to.deep.include.members([
        { size: 'small', width: 400, height: 267 },
        { size: 'medium', width: 1200, height: 800 },
        { size: 'large', width: 1920, height: 1280 },
      ]);
      for (const o of outputs) {
        const meta = await sharp(o.dest).metadata();
        expect(meta.format).to.equal('jpeg');
        expect(meta.width).to.equal(o.width);
      }
    });

    it('should not enlarge an original smaller than the preset', async function () {
      const dest = out('l/tiny.jpg.jpg');
      await pool.thumbnail({ src: file('tiny.jpg'), kind: 'image', outputs: [{ size: 'large', width: 1920, dest }] });
      const meta = await sharp(dest).metadata();
      expect([meta.width, meta.height]).to.deep.equal([300, 200]);
    });

    it('should leave no EXIF (camera, GPS) in the output', async function () {
      expect((await sharp(file('camera.jpg')).metadata()).exif, 'fixture has EXIF').to.be.an.instanceOf(Buffer);
      const dest = out('s/camera-noexif.jpg');
      await pool.thumbnail({ src: file('camera.jpg'), kind: 'image', outputs: [{ size: 'small', width: 400, dest }] });
      const meta = await sharp(dest).metadata();
      expect(meta.exif).to.equal(undefined);
      expect(meta.xmp).to.equal(undefined);
      expect(fs.readFileSync(dest).includes('Canon')).to.equal(false);
    });

    it('should write the tag it is given into the head of every output, a JPEG still', async function () {
      const dests = [out('s/tagged.jpg'), out('m/tagged.jpg')];
      const tag = sourceTagOf({ size: 12345, mtimeMs: Date.UTC(2020, 0, 1, 12, 0, 0, 1) + 0.25, ino: 987654321 });
      await pool.thumbnail({ src: file('tiny.jpg'), kind: 'image', outputs: dests.map((dest, i) => ({ size: String(i), width: 400 - i * 100, dest })), tag });
      for (const dest of dests) {
        expect(sourceTagIn(fs.readFileSync(dest).subarray(0, SOURCE_TAG_HEAD_BYTES))).to.equal(tag);
        expect((await sharp(dest).metadata()).format).to.equal('jpeg');
        await sharp(dest).raw().toBuffer();
      }
    });

    it('should leave out, as it starts, a file already made from this version (leaveOut: fresh), and write the others', async function () {
      const tag = sourceTagOf(fs.statSync(file('camera.jpg')));
      const made = out('fresh/s.jpg');
      await pool.thumbnail({ src: file('camera.jpg'), kind: 'image', outputs: [{ size: 'small', width: 400, dest: made }], tag });
      const before = fs.statSync(made);
      // An older version's file is stale: written again. A file without a tag too.
      const stale = out('fresh/m.jpg');
      await pool.thumbnail({ src: file('camera.jpg'), kind: 'image', outputs: [{ size: 'medium', width: 800, dest: stale }], tag: 'older.version.1' });
      const untagged = out('fresh/l.webp');
      fs.writeFileSync(untagged, 'not ours');
      const outputs = [
        { size: 'small', width: 400, dest: made, webpDest: out('fresh/s.webp') },
        { size: 'medium', width: 800, dest: stale },
        { size: 'large', width: 1200, webpDest: untagged },
      ];
      const results = await pool.thumbnail({ src: file('camera.jpg'), kind: 'image', outputs, tag, leaveOut: 'fresh' });
      expect(results.map((r) => r.size).sort()).to.deep.equal(['large', 'medium', 'small']);
      expect(fs.statSync(made).mtimeMs, 'the fresh JPEG untouched').to.equal(before.mtimeMs);
      expect(fs.statSync(made).ino).to.equal(before.ino);
      for (const f of [out('fresh/s.webp'), stale, untagged]) expect(sourceTagIn(fs.readFileSync(f).subarray(0, SOURCE_TAG_HEAD_BYTES)), f).to.equal(tag);

      // Everything fresh: nothing decoded, nothing written.
      const again = await pool.thumbnail({ src: file('camera.jpg'), kind: 'image', outputs, tag, leaveOut: 'fresh' });
      expect(again).to.deep.equal([]);
      expect(fs.statSync(made).ino).to.equal(before.ino);
    });

    it('should leave out a file another process is making (leaveOut: freshOrLocked), and only then', async function () {
      const tag = sourceTagOf(fs.statSync(file('tiny.jpg')));
      const locked = out('locked/s.jpg');
      const free = out('locked/m.jpg');
      fs.mkdirSync(out('locked'), { recursive: true });
      fs.writeFileSync(lockFileOf(locked), JSON.stringify({ host: 'other-machine', pid: 7 }));
      const outputs = [
        { size: 'small', width: 400, dest: locked },
        { size: 'medium', width: 300, dest: free },
      ];
      const results = await pool.thumbnail({ src: file('tiny.jpg'), kind: 'image', outputs, tag, leaveOut: 'freshOrLocked' });
      expect(results.map((r) => r.size)).to.deep.equal(['medium']);
      expect(fs.existsSync(locked), 'the locked one left to its maker').to.equal(false);
      expect(fs.existsSync(free)).to.equal(true);
      // A visitor's task (leaveOut: fresh) is the lock holder's own: it writes past a lock.
      await pool.thumbnail({ src: file('tiny.jpg'), kind: 'image', outputs, tag, leaveOut: 'fresh' });
      expect(fs.existsSync(locked)).to.equal(true);
    });

    it('should leave no temp file beside the outputs', async function () {
      await pool.thumbnail({ src: file('tiny.jpg'), kind: 'image', outputs: [{ size: 'small', width: 400, dest: out('clean/tiny.jpg.jpg') }] });
      expect(fs.readdirSync(out('clean'))).to.deep.equal(['tiny.jpg.jpg']);
    });

    for (const orientation of [1, 2, 3, 4, 5, 6, 7, 8]) {
      it(`should auto-orient EXIF orientation ${orientation}`, async function () {
        const dest = out(`o/orientation-${orientation}.jpg`);
        const [result] = await pool.thumbnail({ src: file(`orientation-${orientation}.jpg`), kind: 'image', outputs: [{ size: 'small', width: 400, dest }] });
        expect([result!.width, result!.height]).to.deep.equal([DISPLAY_WIDTH, DISPLAY_HEIGHT]);
        expect(await cornerColours(dest)).to.deep.equal({ topLeft: 'red', bottomRight: 'blue' });
      });
    }

    it('should make a JPEG from a frame of a video', async function () {
      const dest = out('s/clip.mp4.jpg');
      const [result] = await pool.thumbnail({ src: file('clip.mp4'), kind: 'video', outputs: [{ size: 'small', width: 400, dest }] });
      const { bytes, ...size } = result!;
      expect(size).to.deep.equal({ size: 'small', width: 320, height: 240 });
      expect((await sharp(dest).metadata()).format).to.equal('jpeg');
      // One size in one format: its bytes come back as written, so the cache need not read the file.
      expect(Buffer.from(bytes!).equals(fs.readFileSync(dest))).to.equal(true);
    });

    it('should make a portrait thumbnail of a rotated video', async function () {
      const dest = out('s/portrait.mp4.jpg');
      const [result] = await pool.thumbnail({ src: file('portrait.mp4'), kind: 'video', outputs: [{ size: 'small', width: 400, dest }] });
      expect([result!.width, result!.height]).to.deep.equal([240, 320]);
    });

    it('should show what decodes of a truncated JPEG: its top half, the rest grey', async function () {
      const dest = out('s/truncated.jpg.jpg');
      const [made] = await pool.thumbnail({ src: file('truncated.jpg'), kind: 'image', outputs: [{ size: 'small', width: 400, dest }] });
      expect([made!.width, made!.height]).to.deep.equal([400, 300]);
      const { data } = await sharp(dest).greyscale().raw().toBuffer({ resolveWithObject: true });
      const spread = (from: number, to: number) => {
        const rows = data.subarray(from * 400, to * 400);
        const mean = rows.reduce((sum, v) => sum + v, 0) / rows.length;
        return Math.sqrt(rows.reduce((sum, v) => sum + (v - mean) ** 2, 0) / rows.length);
      };
      // The noise of the photo where its data is, libjpeg's flat grey past the cut.
      expect(spread(0, 60)).to.be.above(20);
      expect(spread(260, 300)).to.be.below(3);
    });

    it('should reject a JPEG cut before its image data with an Error, and keep working', async function () {
      const dest = out('s/unreadable.jpg.jpg');
      const err = await pool.thumbnail({ src: file('unreadable.jpg'), kind: 'image', outputs: [{ size: 'small', width: 400, dest }] }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).to.be.an.instanceOf(MediaTaskError);
      expect((err as MediaTaskError).timedOut).to.equal(false);
      expect((err as MediaTaskError).cause).to.be.an.instanceOf(Error);
      expect(fs.existsSync(dest)).to.equal(false);
      const [ok] = await pool.thumbnail({ src: file('tiny.jpg'), kind: 'image', outputs: [{ size: 'small', width: 400, dest: out('s/after.jpg') }] });
      expect(ok!.width).to.equal(300);
    });
  });

  describe('exif', function () {
    it('should answer every field of the camera fixture with its exact value and type', async function () {
      const record = await pool.exif({ src: file('camera.jpg') });
      expect(record).to.deep.equal({ ...CAMERA, ImageWidth: 2400, ImageHeight: 1600 });
      expect(record.ExposureTime).to.be.a('number');
      expect(record.DateTimeOriginal).to.match(/^\d{4}:\d{2}:\d{2} \d{2}:\d{2}:\d{2}$/);
    });

    it('should answer nulls and the pixel size for a PNG without EXIF', async function () {
      expect(await pool.exif({ src: file('plain.png') })).to.deep.equal({
        Make: null,
        Model: null,
        LensModel: null,
        FocalLength: null,
        FNumber: null,
        ExposureTime: null,
        ISO: null,
        DateTimeOriginal: null,
        ImageWidth: 500,
        ImageHeight: 250,
      });
    });

    it('should give the stored size, not the displayed one, of an oriented photo', async function () {
      const record = await pool.exif({ src: file('orientation-6.jpg') });
      expect([record.ImageWidth, record.ImageHeight]).to.deep.equal([DISPLAY_HEIGHT, DISPLAY_WIDTH]);
    });

    it('should read EXIF from a PNG that carries it', async function () {
      const png = file('with-exif.png');
      await sharp(file('camera.jpg')).keepExif().png().toFile(png);
      const record = await pool.exif({ src: png });
      expect(record).to.include({ Make: 'Canon', ExposureTime: 0.004, ImageWidth: 2400 });
    });

    it('should reject a file that is not an image', async function () {
      const junk = file('junk.jpg');
      fs.writeFileSync(junk, 'not a picture at all');
      await pool.exif({ src: junk }).then(
        () => expect.fail('should have rejected'),
        (err: unknown) => expect(err).to.be.an.instanceOf(MediaTaskError),
      );
    });
  });

  describe('videoInfo', function () {
    it('should answer duration, size, codec and frame rate', async function () {
      const info = await pool.videoInfo({ src: file('clip.mp4') });
      expect(info.duration).to.be.closeTo(2, 0.1);
      expect([info.width, info.height]).to.deep.equal([320, 240]);
      expect(info.codec).to.equal('h264');
      expect(info.fps).to.be.closeTo(29.97, 0.01);
    });

    it('should swap width and height of a video rotated by 90°', async function () {
      const info = await pool.videoInfo({ src: file('portrait.mp4') });
      expect([info.width, info.height]).to.deep.equal([240, 320]);
    });
  });

  describe('dimensions', function () {
    it('should answer the displayed size of photos and videos', async function () {
      expect(await pool.dimensions({ src: file('orientation-6.jpg'), kind: 'image' })).to.include({ width: DISPLAY_WIDTH, height: DISPLAY_HEIGHT });
      expect(await pool.dimensions({ src: file('orientation-3.jpg'), kind: 'image' })).to.include({ width: DISPLAY_WIDTH, height: DISPLAY_HEIGHT });
      expect(await pool.dimensions({ src: file('portrait.mp4'), kind: 'video' })).to.deep.equal({ width: 240, height: 320 });
    });

    it("should give a photo's date taken from its EXIF, in a JPEG and a HEIC alike, and none where it has none", async function () {
      // CAMERA.DateTimeOriginal, '2024:05:01 12:34:56', as a wall clock without a zone.
      expect(await pool.dimensions({ src: file('camera.jpg'), kind: 'image' })).to.include({ taken: '2024-05-01T12:34:56' });
      // The iPhone's own photo of the HEIC fixture (test/fixtures/heic/ATTRIBUTION.md).
      expect(await pool.dimensions({ src: file('IMG_5195.HEIC'), kind: 'image' })).to.include({ taken: '2021-04-11T15:47:53' });
      expect(await pool.dimensions({ src: file('tiny.jpg'), kind: 'image' })).to.not.have.property('taken');
      expect((await pool.videoInfo({ src: file('clip.mp4') })).taken).to.equal(null);
    });

    describe('the ThumbHash placeholder', function () {
      /** The photo's mean colour, 0–255 per channel, as sharp measures it. */
      async function meanColour(src: string): Promise<number[]> {
        const { channels } = await sharp(src).stats();
        return channels.slice(0, 3).map((c) => c.mean);
      }

      for (const name of ['camera.jpg', 'plain.png', 'grey.png']) {
        it(`should decode back to the average colour of ${name}`, async function () {
          const { thumbHash } = await pool.dimensions({ src: file(name), kind: 'image' });
          expect(thumbHash).to.be.a('string');
          const bytes = Buffer.from(thumbHash!, 'base64');
          // Some 20–30 bytes: it is inlined in the page once per tile.
          expect(bytes.length).to.be.within(5, 40);
          const { r, g, b, a } = thumbHashToAverageRGBA(bytes);
          const expected = await meanColour(file(name));
          expect(a).to.be.closeTo(1, 0.01);
          for (const [i, c] of [r, g, b].entries()) expect(c * 255, `channel ${i}`).to.be.closeTo(expected[i]!, 12);
        });
      }

      it('should follow the EXIF orientation: the hash has the displayed aspect ratio', async function () {
        const { thumbHash } = await pool.dimensions({ src: file('orientation-6.jpg'), kind: 'image' });
        const ratio = thumbHashToApproximateAspectRatio(Buffer.from(thumbHash!, 'base64'));
        expect(ratio).to.be.closeTo(DISPLAY_WIDTH / DISPLAY_HEIGHT, 0.25);
      });

      it('should give a HEIC none (decoding one takes up to a second), only its size', async function () {
        const size = await pool.dimensions({ src: file('IMG_5195.HEIC'), kind: 'image' });
        expect(size).to.include({ width: 2566, height: 3313 }).and.not.have.property('thumbHash');
      });

      it('should give a video none', async function () {
        expect(await pool.dimensions({ src: file('clip.mp4'), kind: 'video' })).to.not.have.property('thumbHash');
      });

      it('should give a truncated JPEG its size and the placeholder of what decodes', async function () {
        const size = await pool.dimensions({ src: file('truncated.jpg'), kind: 'image' });
        expect(size).to.include({ width: 400, height: 300 }).and.to.have.property('thumbHash').that.is.a('string');
      });
    });
  });
});
