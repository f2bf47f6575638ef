import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http, { type Server } from 'node:http';
import path from 'node:path';
import { expect } from 'chai';
import sharp from 'sharp';
import request from 'supertest';
import { SOURCE_TAG_HEAD_BYTES, sourceTagIn, sourceTagOf } from '../../server/core/media/source-tag.js';
import { THUMBNAIL_SIZE_NAMES, THUMBNAIL_SIZES, thumbnailFile } from '../../server/core/media-catalogue.js';
import { eventually, GalleryFixture } from '../support/gallery-fixture.js';
import { createMediaTestApp, type MediaTestApp, writeJpeg } from '../support/media-fixtures.js';
import { makeTempDir, removeTempDir } from '../support/temp-dir.js';

/**
 * Each size is made when it is asked for, from a decode at that size; the other sizes follow
 * as background work; every size exists as JPEG and WebP (docs/api.md#get-apithumbnailpathsizeformat).
 */
describe('thumbnails made on demand', function () {
  this.timeout(60_000);
  let root: string;
  let albumsDir: string;
  let cacheDir: string;
  const original = (rel: string) => path.join(albumsDir, ...rel.split('/'));
  const cached = (size: (typeof THUMBNAIL_SIZE_NAMES)[number], rel: string, format: 'jpeg' | 'webp' = 'jpeg') => thumbnailFile(cacheDir, size, rel, format);
  const url = (rel: string, size: string, format?: string) =>
    `/api/thumbnail?path=${encodeURIComponent(rel)}&size=${size}${format === undefined ? '' : `&format=${format}`}`;

  before(async function () {
    root = makeTempDir('thumbnail-on-demand-');
    albumsDir = path.join(root, 'albums');
    cacheDir = path.join(root, 'cache');
    await Promise.all([
      writeJpeg(original('2024/trip/big.jpg'), 2400, 1600),
      writeJpeg(original('2024/trip/webp.jpg'), 1600, 1200),
      writeJpeg(original('2024/trip/changing.jpg'), 640, 480),
      writeJpeg(original('2024/trip/shared.jpg'), 1600, 1200),
      writeJpeg(original('2024/trip/dropped.jpg'), 1600, 1200),
      writeJpeg(original('2024/trip/sent.jpg'), 1600, 1200),
      writeJpeg(original('2024/trip/front.jpg'), 1600, 1200),
    ]);
  });
  after(() => removeTempDir(root));

  describe('with background work allowed soon', function () {
    let media: MediaTestApp;
    let server: Server;
    before(async function () {
      media = await createMediaTestApp({ albumsDir, cacheDir, backgroundDelayMs: 300 });
      server = media.app.listen(0, '127.0.0.1');
    });
    after(async function () {
      server?.close();
      await media?.close();
    });

    it('should send a size just made exactly as its cache file, with the ETag a later cache hit has', async function () {
      const rel = '2024/trip/sent.jpg';
      for (const format of ['jpeg', 'webp'] as const) {
        const made = await request(server)
          .get(url(rel, 'row', format))
          .expect(200);
        const file = fs.readFileSync(cached('row', rel, format));
        expect((made.body as Buffer).equals(file), format).to.equal(true);
        expect(Number(made.headers['content-length']), format).to.equal(file.length);
        expect(sourceTagIn(file.subarray(0, SOURCE_TAG_HEAD_BYTES)), format).to.equal(sourceTagOf(fs.statSync(original(rel))));
        const hit = await request(server)
          .get(url(rel, 'row', format))
          .expect(200);
        expect(hit.headers.etag, format).to.equal(made.headers.etag);
        await request(server)
          .get(url(rel, 'row', format))
          .set('If-None-Match', made.headers.etag!)
          .expect(304);
      }
    });

    it('should make only the small size for a small request, then the others in the background', async function () {
      const rel = '2024/trip/big.jpg';
      const before = media.pool.tasksRun;
      const res = await request(server).get(url(rel, 'small')).expect(200).expect('Content-Type', 'image/jpeg');
      expect((await sharp(res.body as Buffer).metadata()).width).to.equal(THUMBNAIL_SIZES.small);
      expect(media.pool.tasksRun - before, 'one task, for the small JPEG').to.equal(1);
      expect(fs.existsSync(cached('small', rel))).to.equal(true);
      expect(fs.existsSync(cached('small', rel, 'webp')), 'its WebP comes later').to.equal(false);
      for (const size of THUMBNAIL_SIZE_NAMES.filter((s) => s !== 'small')) expect(fs.existsSync(cached(size, rel)), `${size} right after`).to.equal(false);

      // Background work: one more task for every other size, once the pool has been quiet a moment.
      await eventually(
        () => THUMBNAIL_SIZE_NAMES.every((s) => fs.existsSync(cached(s, rel)) && fs.existsSync(cached(s, rel, 'webp'))),
        10_000,
        'the other sizes',
      );
      await eventually(() => media.pool.inFlight('main') === 0, 5000, 'the pool idle');
      expect(media.pool.tasksRun - before).to.equal(2);
      const tag = sourceTagOf(fs.statSync(original(rel)));
      for (const size of THUMBNAIL_SIZE_NAMES) {
        const meta = await sharp(cached(size, rel, 'webp')).metadata();
        expect(meta.format, size).to.equal('webp');
        expect(meta.width, size).to.equal(Math.min(THUMBNAIL_SIZES[size], 2400));
      }
      // Nothing left to make: asking every size now runs nothing.
      for (const size of THUMBNAIL_SIZE_NAMES) {
        await request(server).get(url(rel, size)).expect(200);
        expect(sourceTagIn(fs.readFileSync(cached(size, rel)).subarray(0, SOURCE_TAG_HEAD_BYTES))).to.equal(tag);
      }
      expect(media.pool.tasksRun - before).to.equal(2);
    });
  });

  describe('with background work held back', function () {
    let media: MediaTestApp;
    let server: Server;
    before(async function () {
      // An hour of required quiet: background work never starts while these tests run.
      media = await createMediaTestApp({ albumsDir, cacheDir, workers: 1 });
      server = media.app.listen(0, '127.0.0.1');
    });
    after(async function () {
      server?.close();
      await media?.close();
    });

    it('should serve the WebP with its type, tagged with the original it was made from', async function () {
      const rel = '2024/trip/webp.jpg';
      const webp = await request(server)
        .get(url(rel, 'medium', 'webp'))
        .expect(200)
        .expect('Content-Type', 'image/webp');
      const meta = await sharp(webp.body as Buffer).metadata();
      expect(meta).to.include({ format: 'webp', width: 1200, height: 900 });
      expect(meta.exif, 'no metadata').to.equal(undefined);
      expect(sourceTagIn((webp.body as Buffer).subarray(0, SOURCE_TAG_HEAD_BYTES))).to.equal(sourceTagOf(fs.statSync(original(rel))));
      const jpeg = await request(server)
        .get(url(rel, 'medium', 'jpeg'))
        .expect(200)
        .expect('Content-Type', 'image/jpeg');
      expect(jpeg.headers.etag).to.not.equal(webp.headers.etag);
      expect((webp.body as Buffer).length, 'the WebP is the smaller').to.be.below((jpeg.body as Buffer).length);
      // Conditional requests work for the WebP as for the JPEG.
      await request(server)
        .get(url(rel, 'medium', 'webp'))
        .set('If-None-Match', webp.headers.etag as string)
        .expect(304);
    });

    it('should answer 400 JSON for a format it does not make', async function () {
      for (const format of ['png', 'WEBP', '', 'webp&format=jpeg']) {
        const res = await request(server)
          .get(url('2024/trip/webp.jpg', 'small', format))
          .expect(400)
          .expect('Content-Type', /json/);
        expect(res.body).to.deep.equal({ error: 'Invalid parameter: format must be one of jpeg, webp' });
      }
    });

    it('should make a new WebP when the original is replaced', async function () {
      const rel = '2024/trip/changing.jpg';
      const first = await request(server)
        .get(url(rel, 'small', 'webp'))
        .expect(200);
      expect((await sharp(first.body as Buffer).metadata()).width).to.equal(400);
      await writeJpeg(original(rel), 300, 200);
      const second = await request(server)
        .get(url(rel, 'small', 'webp'))
        .expect(200);
      expect((await sharp(second.body as Buffer).metadata()).width).to.equal(300);
      expect(second.headers.etag).to.not.equal(first.headers.etag);
      expect(sourceTagIn(fs.readFileSync(cached('small', rel, 'webp')).subarray(0, SOURCE_TAG_HEAD_BYTES))).to.equal(sourceTagOf(fs.statSync(original(rel))));
    });

    describe('while the only worker is busy', function () {
      let fifo: string;
      let blocker: Promise<unknown>;
      beforeEach(async function () {
        await eventually(() => media.pool.inFlight('main') === media.pool.queueSize, 10_000, 'no visitor task running');
        fifo = path.join(root, `hold-${Date.now()}.fifo`);
        execFileSync('mkfifo', [fifo]);
        // A video probe waits on the FIFO (image tasks refuse anything but a regular file).
        const started = media.pool.tasksRun;
        blocker = media.pool.videoInfo({ src: fifo }, { priority: 'grid' }).catch(() => undefined);
        await eventually(() => media.pool.tasksRun > started, 5000, 'the worker to take the holding task');
      });
      afterEach(async function () {
        if (!fs.existsSync(fifo)) return;
        const writer = fs.openSync(fifo, 'w');
        fs.rmSync(fifo);
        fs.closeSync(writer);
        await blocker;
      });
      const releaseWorker = async () => {
        const writer = fs.openSync(fifo, 'w');
        fs.rmSync(fifo);
        fs.closeSync(writer);
        await blocker;
      };

      /** Asks `rel`'s small tile of `target`, aborts while its task waits, and checks the task left the queue and never ran. */
      async function abortWhileQueued(target: Server, rel: string): Promise<void> {
        const queued = media.pool.queueSize;
        const cancelled = media.pool.tasksCancelled;
        const req = request(target).get(url(rel, 'small'));
        const settled = req.then(
          () => 'answered',
          () => 'aborted',
        );
        await eventually(() => media.pool.queueSize === queued + 1, 5000, 'the thumbnail task queued');
        req.abort();
        expect(await settled).to.equal('aborted');
        await eventually(() => media.pool.tasksCancelled === cancelled + 1, 5000, 'the task dropped');
        expect(media.pool.queueSize).to.equal(queued);
        const ran = media.pool.tasksRun;
        await releaseWorker();
        await new Promise((r) => setTimeout(r, 300));
        expect(media.pool.tasksRun).to.equal(ran);
        expect(fs.existsSync(cached('small', rel))).to.equal(false);
      }

      it('should drop the task of a request the browser aborted, and never run it', async function () {
        await abortWhileQueued(server, '2024/trip/dropped.jpg');
      });

      it('should drop the task of an aborted request the front door was making (a public tile), and never run it', async function () {
        const rel = '2024/trip/front.jpg';
        const front = http.createServer(media.handler).listen(0, '127.0.0.1');
        try {
          await abortWhileQueued(front, rel);
          // Asked again and waited for, it is made by the front door.
          const res = await request(front).get(url(rel, 'small')).expect(200).expect('Content-Type', 'image/jpeg');
          expect((res.body as Buffer).equals(fs.readFileSync(cached('small', rel)))).to.equal(true);
        } finally {
          front.close();
        }
      });

      it('should keep a shared task for the requests still waiting when one goes away', async function () {
        const rel = '2024/trip/shared.jpg';
        const queued = media.pool.queueSize;
        const leaving = request(server).get(url(rel, 'small'));
        const leavingOutcome = leaving.then(
          () => 'answered',
          () => 'aborted',
        );
        const staying = request(server)
          .get(url(rel, 'small'))
          .then((res) => res);
        await eventually(() => media.pool.queueSize === queued + 1, 5000, 'one task queued for both');
        await new Promise((r) => setTimeout(r, 100));
        expect(media.pool.queueSize, 'single flight').to.equal(queued + 1);
        leaving.abort();
        expect(await leavingOutcome).to.equal('aborted');
        await new Promise((r) => setTimeout(r, 100));
        expect(media.pool.queueSize, 'still queued for the other').to.equal(queued + 1);
        await releaseWorker();
        const res = await staying;
        expect(res.status).to.equal(200);
        expect(res.headers['content-type']).to.equal('image/jpeg');
      });
    });
  });
});

describe('a page of cold tiles asked at once, default settings', function () {
  this.timeout(120_000);
  const fx = new GalleryFixture();
  const TILES = 50;

  before(async function () {
    await fx.build({ '2024/x/new': { meta: { title: 'Just added' } } });
    await Promise.all(Array.from({ length: TILES }, (_, i) => writeJpeg(fx.path(`2024/x/new/IMG_${i}.jpg`), 1600, 1200)));
    await fx.start({ env: { WORKERS: '1' } });
    await fx.gallery.index.rescan();
  });
  after(() => fx.close());

  it('should answer every one 200, none 503', async function () {
    const app = request(fx.gallery.handler);
    const responses = await Promise.all(Array.from({ length: TILES }, (_, i) => app.get(`/api/thumbnail?path=2024/x/new/IMG_${i}.jpg&size=small`)));
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s !== 200)).to.deep.equal([]);
  });
});
