import type { Server } from 'node:http';
import path from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import { createMediaPool } from '../../server/media/pool.js';
import { createMediaTestApp, type MediaTestApp, writeJpeg } from '../support/media-fixtures.js';
import { makeTempDir, removeTempDir } from '../support/temp-dir.js';
import { quietLogger } from '../support/capture-logger.js';

describe('media pool limits', function () {
  describe('createMediaPool', function () {
    it('should refuse a worker count below 1', function () {
      expect(() => createMediaPool({ workers: 0, maxQueue: 1, log: quietLogger })).to.throw(RangeError, /workers/);
    });

    it('should refuse a negative queue', function () {
      expect(() => createMediaPool({ workers: 1, maxQueue: -1, log: quietLogger })).to.throw(RangeError, /maxQueue/);
    });
  });

  describe('with one worker and a queue of one', function () {
    const COLD = 8;
    let root: string;
    let albumsDir: string;
    let media: MediaTestApp;
    let server: Server;

    before(async function () {
      root = makeTempDir('pool-limits-');
      albumsDir = path.join(root, 'albums');
      await Promise.all(Array.from({ length: COLD }, (_, i) => writeJpeg(path.join(albumsDir, 'a', `p${i}.jpg`), 2000, 1500)));
      media = await createMediaTestApp({ albumsDir, cacheDir: path.join(root, 'cache'), workers: 1, maxQueue: 1 });
      server = media.app.listen(0, '127.0.0.1');
    });

    after(async function () {
      server?.close();
      await media?.close();
      removeTempDir(root);
    });

    it('should answer 503 with Retry-After past the queue, and keep serving', async function () {
      const responses = await Promise.all(Array.from({ length: COLD }, (_, i) => request(server).get(`/api/thumbnail?path=a/p${i}.jpg&size=small`)));
      const statuses = responses.map((r) => r.status);
      expect(
        statuses.every((s) => s === 200 || s === 503),
        statuses.join(),
      ).to.equal(true);
      expect(statuses.filter((s) => s === 200).length).to.be.at.least(1);
      const busy = responses.filter((r) => r.status === 503);
      expect(busy.length).to.be.at.least(1);
      for (const r of busy) {
        expect(Number(r.headers['retry-after'])).to.be.greaterThan(0);
        expect(r.body.error).to.be.a('string');
      }
      // Refused requests ran nothing and can be retried.
      expect(media.pool.tasksRun).to.equal(statuses.filter((s) => s === 200).length);
      const retry = responses.findIndex((r) => r.status === 503);
      await request(server).get(`/api/thumbnail?path=a/p${retry}.jpg&size=small`).expect(200);
    });
  });
});
