import fs from 'node:fs';
import type { Server } from 'node:http';
import path from 'node:path';
import { expect } from 'chai';
import { THUMBNAIL_SIZE_NAMES } from '../../server/core/media-catalogue.js';
import sharp from 'sharp';
import request from 'supertest';
import { SOURCE_TAG_HEAD_BYTES, sourceTagIn, sourceTagOf } from '../../server/core/media/source-tag.js';
import {
  createMediaTestApp,
  type MediaTestApp,
  UNLOCKED,
  writeCameraJpeg,
  writeJpeg,
  writeNoisyJpeg,
  writeUnreadableJpeg,
  writeVideo,
} from '../support/media-fixtures.js';
import { makeTempDir, removeTempDir } from '../support/temp-dir.js';

describe('GET /api/thumbnail', function () {
  let root: string;
  let albumsDir: string;
  let cacheDir: string;
  let media: MediaTestApp;
  let server: Server;
  const original = (rel: string) => path.join(albumsDir, ...rel.split('/'));
  const cached = (size: string, rel: string) => `${path.join(cacheDir, 'thumbnails', size, ...rel.split('/'))}.jpg`;
  const get = (query: string) => request(server).get(`/api/thumbnail?${query}`);

  before(async function () {
    root = makeTempDir('thumbnail-api-');
    albumsDir = path.join(root, 'albums');
    cacheDir = path.join(root, 'cache');
    await Promise.all([
      writeCameraJpeg(original('2024/trip/camera.jpg'), 2400, 1600),
      writeJpeg(original('2024/trip/tiny.jpg'), 300, 200),
      writeJpeg(original('2024/trip/popular.jpg'), 1000, 800),
      writeJpeg(original('2024/trip/changing.jpg'), 640, 480),
      writeJpeg(original('2024/trip/etag.jpg'), 640, 480),
      writeJpeg(original('2024/secret/hidden.jpg'), 640, 480),
      writeNoisyJpeg(original('2024/trip/noise.jpg'), 2000, 1500),
      writeJpeg(original('2024/trip/portrait.jpg'), 800, 600, { orientation: 6 }),
      writeUnreadableJpeg(original('2024/trip/broken.jpg')),
      writeVideo(original('2024/trip/clip.mp4'), { width: 320, height: 240, seconds: 2 }),
    ]);
    media = await createMediaTestApp({ albumsDir, cacheDir, protectedAlbums: ['2024/secret'] });
    server = media.app.listen(0, '127.0.0.1');
  });

  after(async function () {
    server?.close();
    await media?.close();
    removeTempDir(root);
  });

  describe('with missing or invalid parameters', function () {
    it('should answer 400 when path is missing', async function () {
      const res = await get('size=small');
      expect(res.status).to.equal(400);
      expect(res.body).to.deep.equal({ error: 'Missing required parameter: path' });
    });

    it('should answer 400 when size is missing', async function () {
      const res = await get('path=2024/trip/tiny.jpg');
      expect(res.status).to.equal(400);
      expect(res.body).to.deep.equal({ error: 'Missing required parameter: size' });
    });

    it('should answer 400 for an unknown size', async function () {
      const res = await get('path=2024/trip/tiny.jpg&size=huge');
      expect(res.status).to.equal(400);
      expect(res.body.error).to.match(/size must be one of small, tile, row, medium, large/);
    });

    it('should answer 400 for a repeated size', async function () {
      const res = await get('path=2024/trip/tiny.jpg&size=small&size=large');
      expect(res.status).to.equal(400);
    });

    it('should answer 400 for a path with ".."', async function () {
      const res = await get('path=2024/../../etc/passwd.jpg&size=small');
      expect(res.status).to.equal(400);
      expect(res.body.error).to.be.a('string');
    });

    it('should answer 404 for a missing original', async function () {
      const res = await get('path=2024/trip/nope.jpg&size=small');
      expect(res.status).to.equal(404);
      expect(res.body.error).to.be.a('string');
    });
  });

  describe('for a photo', function () {
    for (const [size, width] of [
      ['small', 400],
      ['medium', 1200],
      ['large', 1920],
    ] as const) {
      it(`should answer a ${width} px wide JPEG for size ${size}`, async function () {
        const res = await get(`path=2024/trip/camera.jpg&size=${size}`);
        expect(res.status).to.equal(200);
        expect(res.headers['content-type']).to.equal('image/jpeg');
        const meta = await sharp(res.body as Buffer).metadata();
        expect(meta.format).to.equal('jpeg');
        expect(meta.width).to.equal(width);
        expect(meta.exif, 'no EXIF may reach a thumbnail').to.equal(undefined);
      });
    }

    it('should not enlarge a small original', async function () {
      const res = await get('path=2024/trip/tiny.jpg&size=large');
      const meta = await sharp(res.body as Buffer).metadata();
      expect([meta.width, meta.height]).to.deep.equal([300, 200]);
    });

    it('should turn an orientation-6 photo upright (portrait)', async function () {
      const res = await get('path=2024/trip/portrait.jpg&size=small');
      const meta = await sharp(res.body as Buffer).metadata();
      expect([meta.width, meta.height]).to.deep.equal([400, 533]);
      expect(meta.orientation ?? 1).to.equal(1);
    });

    it('should send public, immutable caching for a public album', async function () {
      const res = await get('path=2024/trip/tiny.jpg&size=small&v=123');
      expect(res.headers['cache-control']).to.equal('public, max-age=31536000, immutable');
    });

    it('should answer 401 for a protected album without its token', async function () {
      await get('path=2024/secret/hidden.jpg&size=small').expect(401);
    });

    it('should send private caching for a protected album', async function () {
      const res = await get('path=2024/secret/hidden.jpg&size=small').set(UNLOCKED);
      expect(res.status).to.equal(200);
      expect(res.headers['cache-control']).to.equal('private, max-age=31536000, immutable');
    });

    it('should stream a large thumbnail whole', async function () {
      const res = await get('path=2024/trip/noise.jpg&size=large').expect(200);
      const onDisk = fs.readFileSync(cached('large', '2024/trip/noise.jpg'));
      expect(onDisk.length, 'big enough to take the streaming path').to.be.greaterThan(512 * 1024);
      expect(Number(res.headers['content-length'])).to.equal(onDisk.length);
      expect(Buffer.compare(res.body as Buffer, onDisk)).to.equal(0);
    });

    it('should answer HEAD with the length and no body', async function () {
      const res = await request(server).head('/api/thumbnail?path=2024/trip/tiny.jpg&size=small');
      expect(res.status).to.equal(200);
      expect(Number(res.headers['content-length'])).to.equal(fs.statSync(cached('small', '2024/trip/tiny.jpg')).size);
    });
  });

  describe('the cache', function () {
    it('should write the asked size and format alone, at CACHE_DIR/thumbnails/{size}/{path}.jpg, from one task', async function () {
      const fresh = '2024/trip/popular.jpg';
      const start = media.pool.tasksRun;
      await get(`path=${fresh}&size=medium`).expect(200);
      expect(media.pool.tasksRun - start).to.equal(1);
      expect(fs.existsSync(cached('medium', fresh))).to.equal(true);
      // Its WebP comes with the background work, not before the answer.
      expect(fs.existsSync(cached('medium', fresh).replace(/\.jpg$/, '.webp'))).to.equal(false);
      // The other sizes wait in the background queue (held back by this app's long quiet time).
      for (const size of ['small', 'tile', 'large']) expect(fs.existsSync(cached(size, fresh)), size).to.equal(false);
    });

    it('should serve a cached thumbnail without running a task', async function () {
      await get('path=2024/trip/tiny.jpg&size=medium').expect(200);
      const before = media.pool.tasksRun;
      const res = await get('path=2024/trip/tiny.jpg&size=medium').expect(200);
      expect(media.pool.tasksRun).to.equal(before);
      expect(Buffer.compare(res.body as Buffer, fs.readFileSync(cached('medium', '2024/trip/tiny.jpg')))).to.equal(0);
    });

    it('should regenerate a thumbnail when the original changes', async function () {
      const rel = '2024/trip/changing.jpg';
      const first = await get(`path=${rel}&size=large`).expect(200);
      expect((await sharp(first.body as Buffer).metadata()).width).to.equal(640);

      // Replace the photo; make sure its mtime is newer whatever the file system's resolution.
      await writeJpeg(original(rel), 800, 600);
      const later = new Date(Date.now() + 5000);
      fs.utimesSync(original(rel), later, later);
      const before = media.pool.tasksRun;
      const second = await get(`path=${rel}&size=large`).expect(200);
      expect(media.pool.tasksRun - before).to.equal(1);
      expect((await sharp(second.body as Buffer).metadata()).width).to.equal(800);
      // The cache file names the version of the original it was made from.
      const head = fs.readFileSync(cached('large', rel)).subarray(0, SOURCE_TAG_HEAD_BYTES);
      expect(sourceTagIn(head)).to.equal(sourceTagOf(fs.statSync(original(rel))));

      // …and then serves it from the cache again.
      await get(`path=${rel}&size=large`).expect(200);
      expect(media.pool.tasksRun - before).to.equal(1);
    });

    it('should generate a missing thumbnail once per size for 30 concurrent requests', async function () {
      await writeJpeg(original('2024/trip/burst.jpg'), 1600, 1200);
      await media.index.rescan();
      const before = media.pool.tasksRun;
      const sizes = [...THUMBNAIL_SIZE_NAMES];
      const responses = await Promise.all(Array.from({ length: 30 }, (_, i) => get(`path=2024/trip/burst.jpg&size=${sizes[i % sizes.length]}`)));
      expect(responses.map((r) => r.status)).to.deep.equal(Array(30).fill(200));
      expect(media.pool.tasksRun - before).to.equal(sizes.length);
      const smalls = responses.filter((_, i) => i % sizes.length === 0).map((r) => (r.body as Buffer).toString('base64'));
      expect(new Set(smalls).size).to.equal(1);
    });

    it('should leave no temp files in the cache', async function () {
      const dir = path.dirname(cached('small', '2024/trip/x.jpg'));
      expect(fs.readdirSync(dir).filter((n) => n.startsWith('.'))).to.deep.equal([]);
    });
  });

  describe('conditional requests', function () {
    it('should send an ETag and answer a matching If-None-Match with 304', async function () {
      const first = await get('path=2024/trip/etag.jpg&size=small').expect(200);
      const etag = first.headers.etag as string;
      expect(etag).to.be.a('string').and.not.equal('');
      const again = await get('path=2024/trip/etag.jpg&size=small').set('If-None-Match', etag);
      expect(again.status).to.equal(304);
      expect(again.headers.etag).to.equal(etag);
      expect(again.text ?? '').to.equal('');
    });

    it('should answer 200 for an If-None-Match of another version', async function () {
      const res = await get('path=2024/trip/etag.jpg&size=small').set('If-None-Match', 'W/"1-1"');
      expect(res.status).to.equal(200);
    });
  });

  describe('for a video', function () {
    it('should answer a JPEG of a frame, cached as {file}.mp4.jpg', async function () {
      const res = await get('path=2024/trip/clip.mp4&size=small');
      expect(res.status).to.equal(200);
      expect(res.headers['content-type']).to.equal('image/jpeg');
      const meta = await sharp(res.body as Buffer).metadata();
      expect([meta.format, meta.width, meta.height]).to.deep.equal(['jpeg', 320, 240]);
      expect(fs.existsSync(cached('small', '2024/trip/clip.mp4'))).to.equal(true);
    });
  });

  describe('for a corrupt file', function () {
    it('should answer 500 JSON and keep serving', async function () {
      const res = await get('path=2024/trip/broken.jpg&size=small');
      expect(res.status).to.equal(500);
      expect(res.headers['content-type']).to.match(/application\/json/);
      expect(res.body).to.have.property('error').that.is.a('string');
      expect(res.body.error).to.not.match(/broken|\/|jpeg/i, 'no internal detail leaks');
      expect(media.logged.length).to.be.greaterThan(0);

      // The same version fails again (at once: server/media/failed-decodes.ts), others still work.
      await get('path=2024/trip/broken.jpg&size=small').expect(500);
      await get('path=2024/trip/tiny.jpg&size=small').expect(200);
    });
  });
});
