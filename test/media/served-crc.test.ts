import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { expect } from 'chai';
import request from 'supertest';
import { thumbnailFile } from '../../server/core/media-catalogue.js';
import { LOCATION_PATCH_VERSION } from '../../server/core/media/location/location-patches.js';
import type { MediaItem, TreeNode } from '../../server/core/albums/album-tree.js';
import type { Stored } from '../../server/media/dimensions-file.js';
import { createMediaPool, type MediaPool } from '../../server/media/pool.js';
import { CRC_STRETCH_BYTES, createServedCrcs } from '../../server/media/served-crc.js';
import { quietLogger } from '../support/capture-logger.js';
import { eventually, GalleryFixture, writeJpeg } from '../support/gallery-fixture.js';
import { gpsImage } from '../support/located-media.js';
import { makeTempDir, removeTempDir } from '../support/temp-dir.js';

/**
 * Each file's CRC-32 as its album's ZIP sends it, computed once per version of the file while
 * its album is prepared (issue 27, server/media/served-crc.ts) and kept with its facts.
 */
const PREPARING = { PREPARE: 'on' };

interface FactsFile {
  version: number;
  entries: Record<string, Stored>;
}

const factsOf = (fx: GalleryFixture, albumPath: string): FactsFile =>
  JSON.parse(fs.readFileSync(path.join(fx.cacheDir, 'dimensions', ...albumPath.split('/'), '.dimensions.json'), 'utf8')) as FactsFile;

const crcOf = (bytes: Buffer) => zlib.crc32(bytes);

describe('the CRCs of the files an album ZIP sends', function () {
  this.timeout(60_000);
  const fixtures: GalleryFixture[] = [];
  afterEach(async () => {
    for (const fx of fixtures.splice(0)) await fx.close();
  });

  async function gallery(): Promise<GalleryFixture> {
    const fx = await new GalleryFixture().build({
      '2024/rome': { meta: { title: 'Rome' }, files: ['a.jpg', 'b.jpg'] },
      '2024/paris': { meta: { title: 'Paris', hideLocation: true } },
    });
    fs.writeFileSync(fx.path('2024/paris/photo.jpg'), await gpsImage('jpeg'));
    fixtures.push(fx);
    await fx.start({ backgroundDelayMs: 0, env: PREPARING });
    await fx.gallery.preparer!.idle();
    // The covers' crops too, which the preparation queues without waiting: a restart then runs only what it must.
    await eventually(() => fx.gallery.pool.queueSize === 0 && fx.gallery.pool.inFlight('main') === 0, 10_000, 'an idle pool');
    return fx;
  }

  it("should be computed by the preparation and kept with each file's facts", async () => {
    const fx = await gallery();
    const { version, entries } = factsOf(fx, '2024/rome');
    expect(version).to.equal(6);
    for (const name of ['a.jpg', 'b.jpg']) {
      const st = fs.statSync(fx.path('2024/rome', name));
      expect(entries[name]?.crc32, name).to.deep.equal({ value: crcOf(fs.readFileSync(fx.path('2024/rome', name))), ino: st.ino, form: 'file' });
    }
  });

  it('should be, for an album that hides locations, the CRC of the bytes without them', async () => {
    const fx = await gallery();
    const served = (await request(fx.gallery.handler).get('/albums/2024/paris/photo.jpg').buffer(true).parse(rawBody).expect(200)).body as Buffer;
    const onDisk = fs.readFileSync(fx.path('2024/paris/photo.jpg'));
    expect(served.equals(onDisk)).to.equal(false);
    expect(factsOf(fx, '2024/paris').entries['photo.jpg']?.crc32).to.include({ value: crcOf(served), form: `noloc${LOCATION_PATCH_VERSION}` });
  });

  it('should be computed again for the other bytes when the album starts hiding locations', async () => {
    const fx = await gallery();
    const file = fx.path('2024/rome/b.jpg');
    fs.writeFileSync(file, await gpsImage('jpeg'));
    fs.writeFileSync(fx.path('2024/rome/album.json'), JSON.stringify({ title: 'Rome', hideLocation: true, token: fx.token('2024/rome') }));
    await fx.gallery.index.rescan();
    await fx.gallery.preparer!.idle();
    const served = (await request(fx.gallery.handler).get('/albums/2024/rome/b.jpg').buffer(true).parse(rawBody).expect(200)).body as Buffer;
    expect(factsOf(fx, '2024/rome').entries['b.jpg']?.crc32).to.include({ value: crcOf(served), form: `noloc${LOCATION_PATCH_VERSION}` });
  });

  it('should not be computed again after a restart', async () => {
    const fx = await gallery();
    const before = factsOf(fx, '2024/rome').entries;
    await fx.gallery.close();
    await fx.start({ backgroundDelayMs: 0, env: PREPARING });
    await fx.gallery.preparer!.idle();
    expect(fx.gallery.preparer!.progress().filesPrepared).to.equal(0);
    expect(fx.gallery.pool.tasksRun).to.equal(0);
    expect(factsOf(fx, '2024/rome').entries).to.deep.equal(before);
  });

  it('should be computed, and nothing else made again, for the files of facts kept before CRCs were', async () => {
    const fx = await gallery();
    await fx.gallery.close();
    // The facts file as the previous version of the gallery wrote it: no CRC anywhere.
    const file = path.join(fx.cacheDir, 'dimensions', '2024', 'rome', '.dimensions.json');
    const { entries } = factsOf(fx, '2024/rome');
    const older = Object.fromEntries(Object.entries(entries).map(([name, { crc32: _crc32, ...rest }]) => [name, rest]));
    fs.writeFileSync(file, JSON.stringify({ entries: older, version: 5 }));
    const thumbnail = thumbnailFile(fx.cacheDir, 'small', '2024/rome/a.jpg');
    const madeAt = fs.statSync(thumbnail).mtimeMs;
    await fx.start({ backgroundDelayMs: 0, env: PREPARING });
    await fx.gallery.preparer!.idle();
    // Its facts were kept (no header read again), its thumbnails too: only the two CRCs were computed.
    expect(fx.gallery.pool.tasksRun).to.equal(2);
    expect(fx.gallery.preparer!.progress().filesPrepared).to.equal(2);
    expect(fs.statSync(thumbnail).mtimeMs).to.equal(madeAt);
    expect(factsOf(fx, '2024/rome').entries).to.deep.equal(entries);
  });
});

describe('createServedCrcs().compute()', function () {
  this.timeout(60_000);
  let dir: string;
  let pool: MediaPool;
  const album = { path: 'album' } as TreeNode;
  const item = { name: 'clip.mp4', kind: 'video' } as MediaItem;

  before(() => {
    dir = makeTempDir('served-crc-');
    pool = createMediaPool({ workers: 1, maxQueue: 8, backgroundDelayMs: 0, log: quietLogger });
  });
  after(async () => {
    await pool.close();
    removeTempDir(dir);
  });

  /** The records of one entry, as server/media/dimensions-file.ts keeps them. */
  function records(entry: Stored) {
    let kept = entry;
    return {
      kept: () => kept,
      entry: async () => kept,
      amend: async (_node: TreeNode, _name: string, change: (stored: Stored) => Stored | undefined) => {
        kept = change(kept) ?? kept;
      },
    };
  }

  it('should continue the CRC from one stretch of a file to the next', async () => {
    const file = path.join(dir, 'clip.mp4');
    // Other bytes in each stretch: random at its start and end, zeros between.
    const fd = fs.openSync(file, 'w');
    for (const at of [0, CRC_STRETCH_BYTES - 1000, 2 * CRC_STRETCH_BYTES + 5]) fs.writeSync(fd, crypto.randomBytes(4096), 0, 4096, at);
    fs.closeSync(fd);
    const st = fs.statSync(file);
    expect(st.size).to.be.above(2 * CRC_STRETCH_BYTES);
    const store = records({ mtimeMs: st.mtimeMs, size: st.size, width: 1, height: 1 });
    await createServedCrcs({ records: store, pool }).compute(album, item, file, false);
    expect(store.kept().crc32).to.deep.equal({ value: crcOf(fs.readFileSync(file)), ino: st.ino, form: 'file' });
  });

  it('should keep nothing when the facts are of another version of the file', async () => {
    const file = path.join(dir, 'photo.jpg');
    await writeJpeg(file);
    const st = fs.statSync(file);
    const store = records({ mtimeMs: st.mtimeMs - 1000, size: st.size, width: 64, height: 48 });
    await createServedCrcs({ records: store, pool }).compute(album, item, file, false);
    expect(store.kept().crc32).to.equal(undefined);
  });
});

function rawBody(res: request.Response, done: (err: Error | null, body: Buffer) => void): void {
  const chunks: Buffer[] = [];
  res.on('data', (c: Buffer) => chunks.push(c));
  res.on('end', () => done(null, Buffer.concat(chunks)));
}
