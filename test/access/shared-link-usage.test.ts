import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import { linkUsageFile } from '../../server/core/access/link-usage.js';
import { loadConfig } from '../../server/core/config.js';
import { createGallery, type Gallery } from '../../server/gallery.js';
import { captureLogger } from '../support/capture-logger.js';
import { eventually, GalleryFixture } from '../support/gallery-fixture.js';
import { onPath, RedisServer } from '../support/redis-server.js';

const newId = () => crypto.randomBytes(18).toString('base64url');
const GRANDMA = newId();
const COUSIN = newId();
const links = [GRANDMA, COUSIN].map((id, i) => ({ id, name: `Person ${i}`, created: '2026-01-01T00:00:00.000Z', downloads: true }));

/**
 * Share links' visits counted by two galleries together (REDIS_URL, as two processes of PM2's
 * cluster would), against a real redis-server: the counts agree whichever process a visitor
 * reaches, the admin's file says the totals, and counts kept in the file before Redis was used
 * carry over.
 */
describe('share-link visits shared in Redis', function () {
  // The tests build on one another: counts carry from one to the next.
  this.timeout(30_000);
  const fx = new GalleryFixture();
  const redis = new RedisServer();
  const galleries: Gallery[] = [];
  const logs = captureLogger();

  before(async function () {
    if (!onPath('redis-server')) {
      console.log('    (skipped: redis-server is not installed; Debian: apt-get install redis-server)');
      this.skip();
    }
    await fx.build({ '2024/family/wedding': { meta: { title: 'Wedding', password: 'pw', token: 't-wedding', shareLinks: links }, files: ['kiss.jpg'] } });
    // What one process counted before the owner turned to several.
    const file = linkUsageFile(fx.cacheDir);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, JSON.stringify({ links: { [COUSIN]: { visits: 5, lastUsed: '2026-02-01T10:00:00.000Z' } } }));
    await redis.start();
    await redis.command('FLUSHALL');
  });
  after(async () => {
    await Promise.all(galleries.map((g) => g.close()));
    await redis.close();
    await fx.close();
  });

  async function startGallery(): Promise<ReturnType<typeof request>> {
    const config = loadConfig({ ALBUMS_DIR: fx.albumsDir, CACHE_DIR: fx.cacheDir, CONTENT_DIR: fx.contentDir, REDIS_URL: redis.url, INSTANCES: '2' });
    const gallery = await createGallery(config, { watch: false, log: logs.logger });
    galleries.push(gallery);
    return request(gallery.handler);
  }

  const usageFile = () => JSON.parse(fs.readFileSync(linkUsageFile(fx.cacheDir), 'utf8')) as { links: Record<string, { visits: number; lastUsed: string }> };

  it('should count the visits of two browsers on two processes as two, in the file the admin reads', async () => {
    const [a, b] = [await startGallery(), await startGallery()];
    const started = Date.now();
    await a.get(`/s/${GRANDMA}`).set('User-Agent', 'phone of Grandma').expect(200);
    await b.get(`/s/${GRANDMA}`).set('User-Agent', 'tablet of Grandma').expect(200);
    // A second view of the same browser on the same process within the half hour: the same visit.
    await b.get(`/s/${GRANDMA}`).set('User-Agent', 'tablet of Grandma').expect(200);
    await eventually(() => fs.existsSync(linkUsageFile(fx.cacheDir)) && usageFile().links[GRANDMA]?.visits === 2, 10_000, 'both visits in the file');
    const grandma = usageFile().links[GRANDMA]!;
    expect(Date.parse(grandma.lastUsed)).to.be.within(started - 1000, Date.now());
    // The count is Redis's (a bulk string reply), not one process's.
    expect(await redis.command('HGET', 'gallery:share-links:visits', GRANDMA)).to.match(/\r\n2$/);
  });

  it('should carry counts kept in the file before Redis was used over, once, and add to them', async () => {
    const [a, b] = [galleries[0] ? request(galleries[0].handler) : await startGallery(), galleries[1] ? request(galleries[1].handler) : await startGallery()];
    await a.get(`/s/${COUSIN}`).set('User-Agent', 'laptop of the cousin').expect(200);
    await b.get(`/s/${COUSIN}`).set('User-Agent', 'phone of the cousin').expect(200);
    await eventually(() => usageFile().links[COUSIN]?.visits === 7, 10_000, 'the cousin’s five earlier visits and two new ones');
    // Grandma's count was not touched meanwhile.
    expect(usageFile().links[GRANDMA]?.visits).to.equal(2);
  });

  it('should carry the totals over again when Redis comes back empty', async () => {
    const a = request(galleries[0]!.handler);
    // What a restart of a Redis that persists nothing leaves.
    await redis.command('FLUSHALL');
    await a.get(`/s/${COUSIN}`).set('User-Agent', 'desktop of the cousin').expect(200);
    await eventually(() => usageFile().links[COUSIN]?.visits === 8, 10_000, 'the cousin’s seven visits and a new one');
    expect(usageFile().links[GRANDMA]?.visits).to.equal(2);
  });
});
