import type { Server } from 'node:http';
import path from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import { BOMB_MAKE, writeExifBomb } from '../support/exif-bomb.js';
import { createMediaTestApp, type MediaTestApp, writeJpeg } from '../support/media-fixtures.js';
import { makeTempDir, removeTempDir } from '../support/temp-dir.js';

/** Seconds of CPU per request before the parsing was bounded; now a handful of milliseconds. */
const PROMPT_MS = 2000;

describe('a JPEG with a hostile EXIF block', function () {
  this.timeout(20_000);
  let root: string;
  let albumsDir: string;
  let media: MediaTestApp;
  let server: Server;

  before(async function () {
    root = makeTempDir('exif-bomb-');
    albumsDir = path.join(root, 'albums');
    await Promise.all([
      writeExifBomb(path.join(albumsDir, 'a', 'bomb-1.jpg'), 800, 600),
      writeExifBomb(path.join(albumsDir, 'a', 'bomb-2.jpg')),
      writeExifBomb(path.join(albumsDir, 'a', 'bomb-3.jpg')),
      writeJpeg(path.join(albumsDir, 'a', 'cold.jpg'), 1600, 1200),
    ]);
    media = await createMediaTestApp({ albumsDir, cacheDir: path.join(root, 'cache'), workers: 2 });
    server = media.app.listen(0, '127.0.0.1');
    // Workers started and warm: the timings below measure the tasks, not the pool's start.
    await request(server).get('/api/thumbnail?path=a/cold.jpg&size=small').expect(200);
  });

  after(async function () {
    server?.close();
    await media?.close();
    removeTempDir(root);
  });

  describe('GET /api/exif', function () {
    it('should answer promptly with the fields it can read, ignoring the loops and the oversized tag', async function () {
      const started = Date.now();
      const res = await request(server).get('/api/exif?path=a/bomb-1.jpg');
      expect(Date.now() - started).to.be.below(PROMPT_MS);
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.include({ Make: BOMB_MAKE, Model: 'Loop', ImageWidth: 800, ImageHeight: 600, LensModel: null, ISO: null });
    });

    it('should not keep the workers from serving a cold thumbnail meanwhile', async function () {
      const bombs = [request(server).get('/api/exif?path=a/bomb-2.jpg'), request(server).get('/api/exif?path=a/bomb-3.jpg')];
      // Let both bomb tasks reach the two workers first.
      await new Promise((resolve) => setTimeout(resolve, 50));
      const started = Date.now();
      await request(server).get('/api/thumbnail?path=a/cold.jpg&size=medium').expect(200);
      expect(Date.now() - started).to.be.below(PROMPT_MS);
      for (const res of await Promise.all(bombs)) expect(res.status).to.equal(200);
    });
  });
});
