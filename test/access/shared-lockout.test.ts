import crypto from 'node:crypto';
import { expect } from 'chai';
import { ipKeyGenerator } from 'express-rate-limit';
import { newShareLinkId } from '../../server/core/albums/share-links.js';
import request from 'supertest';
import { loadConfig } from '../../server/core/config.js';
import { createGallery, type Gallery } from '../../server/gallery.js';
import { LOCKOUT_MS, MAX_FAILED_ATTEMPTS } from '../../server/public/access/password-limiter.js';
import { LOCKOUT_KEY_PREFIX, RedisLockoutStore } from '../../server/public/access/redis-lockout-store.js';
import { connectRedis, redactedRedisUrl } from '../../server/public/redis-connection.js';
import { captureLogger } from '../support/capture-logger.js';
import { eventually, GalleryFixture } from '../support/gallery-fixture.js';
import { onPath, RedisServer } from '../support/redis-server.js';

const FAMILY_TOKEN = crypto.randomUUID();
const GRANDMA = { id: newShareLinkId(), name: 'Grandma', created: '2024-05-01T10:00:00.000Z', downloads: true };
const TREE = {
  '2024/open/public': { meta: { title: 'Public', token: 't-public' }, files: ['pub.jpg'] },
  // A token written by hand: as guessable as a password, it opens only where a password would be checked.
  '2024/family/wedding': { meta: { title: 'Wedding', password: 'Open-Sesame', token: 't-wedding' }, files: ['kiss.jpg'] },
  '2024/family/picnic': {
    meta: { title: 'Picnic', password: 'basket', allowAnonymous: true, token: FAMILY_TOKEN, shareLinks: [GRANDMA] },
    files: ['cake.jpg'],
  },
};
const cookieOf = (name: string, values: readonly string[]) => `${name}=${encodeURIComponent(JSON.stringify(values))}`;
/** supertest connects from IPv4 loopback: the key express-rate-limit makes of it. */
const KEY = `${LOCKOUT_KEY_PREFIX}${ipKeyGenerator('::ffff:127.0.0.1')}`;

/**
 * The password lockout in Redis (REDIS_URL), shared by two galleries on one album tree as two
 * processes would share it, against a real redis-server.
 */
describe('the password lockout shared in Redis', function () {
  this.timeout(30_000);
  const fx = new GalleryFixture();
  const redis = new RedisServer();
  const galleries: Gallery[] = [];
  let a: ReturnType<typeof request>;
  let b: ReturnType<typeof request>;
  const logs = captureLogger();

  before(async function () {
    if (!onPath('redis-server')) {
      console.log('    (skipped: redis-server is not installed; Debian: apt-get install redis-server)');
      this.skip();
    }
    await fx.build(TREE);
    await redis.start();
  });
  after(async () => {
    await Promise.all(galleries.map((g) => g.close()));
    await redis.close();
    await fx.close();
  });

  async function startGallery(): Promise<Gallery> {
    const config = loadConfig({ ALBUMS_DIR: fx.albumsDir, CACHE_DIR: fx.cacheDir, CONTENT_DIR: fx.contentDir, REDIS_URL: redis.url, INSTANCES: '2' });
    const gallery = await createGallery(config, { watch: false, log: logs.logger });
    galleries.push(gallery);
    return gallery;
  }

  beforeEach(async () => {
    await redis.start();
    await redis.command('FLUSHALL');
    if (galleries.length === 0) {
      a = request((await startGallery()).handler);
      b = request((await startGallery()).handler);
    }
    await eventually(
      async () => (await a.post('/api/check-password').send({ albumPath: '2024/family/wedding', password: 'Open-Sesame' })).status === 200,
      10_000,
      'gallery a connected',
    );
    await eventually(
      async () => (await b.post('/api/check-password').send({ albumPath: '2024/family/wedding', password: 'Open-Sesame' })).status === 200,
      10_000,
      'gallery b connected',
    );
  });

  const guess = (app: ReturnType<typeof request>, password = 'wrong') => app.post('/api/check-password').send({ albumPath: '2024/family/wedding', password });

  describe('with Redis up', () => {
    it('should not make a cleared count again when a give-back lands after it (an extra guess for good)', async () => {
      // An attempt that was not a failure gives its count back once answered; the record may
      // be gone by then (an unlock elsewhere, an expiry, a flush).
      const connection = connectRedis(redis.url, logs.logger);
      try {
        const store = new RedisLockoutStore(connection.client, { maxFailures: MAX_FAILED_ATTEMPTS, lockoutMs: LOCKOUT_MS, log: logs.logger });
        await eventually(() => connection.client.isReady, 5000, 'a connection');
        await store.decrement('203.0.113.7');
        expect(await redis.command('EXISTS', `${LOCKOUT_KEY_PREFIX}203.0.113.7`)).to.match(/:0\s*$/);
        // A count that exists still goes down, keeping its expiry.
        await redis.command('SET', `${LOCKOUT_KEY_PREFIX}203.0.113.7`, '3', 'PX', '60000');
        await store.decrement('203.0.113.7');
        expect(await redis.command('GET', `${LOCKOUT_KEY_PREFIX}203.0.113.7`)).to.match(/\r\n2\s*$/);
        expect(await redis.command('PTTL', `${LOCKOUT_KEY_PREFIX}203.0.113.7`)).to.match(/:[1-9]\d*\s*$/);
      } finally {
        await connection.close();
      }
    });

    it('should lock an IP out after 10 failures spread over both galleries, on either', async () => {
      for (let i = 0; i < MAX_FAILED_ATTEMPTS; i++) {
        const res = await guess(i % 2 === 0 ? a : b).expect(401);
        expect(res.body.remainingAttempts).to.equal(MAX_FAILED_ATTEMPTS - i - 1);
      }
      const onA = await guess(a).expect(429);
      expect(onA.body).to.include({ success: false, rateLimited: true });
      await guess(b, 'Open-Sesame').expect(429);
      const form = await b.post('/api/unlock').type('form').send({ albumPath: '2024/family/wedding', password: 'Open-Sesame' }).expect(302);
      expect(form.headers.location).to.equal('/photos/2024/family/wedding?error=rate-limited');
      expect(form.headers['set-cookie']).to.equal(undefined);
      const page = await a.get('/photos/2024/family/wedding?error=rate-limited').expect(200);
      // The time left comes from Redis (the key's expiry), counted down by the form.
      expect(page.text).to.include('Your password was not checked.').and.include('passwords are paused');
      expect(page.text).to.match(/\b(15 min|14 min \d+ s)\b/);
    });

    it('should answer exactly 10 of 100 concurrent wrong guesses over both galleries with 401', async () => {
      const answers = await Promise.all(Array.from({ length: 100 }, (_, i) => guess(i % 2 === 0 ? a : b)));
      const statuses = answers.map((r) => r.status);
      expect(statuses.filter((s) => s === 401)).to.have.length(MAX_FAILED_ATTEMPTS);
      expect(statuses.filter((s) => s === 429)).to.have.length(100 - MAX_FAILED_ATTEMPTS);
    });

    it('should lock out for 15 minutes from the 10th failure, however early the first one was', async () => {
      for (let i = 0; i < MAX_FAILED_ATTEMPTS - 1; i++) await guess(a).expect(401);
      // As if the first failure was 14 minutes ago: a minute left of its window.
      await redis.command('PEXPIRE', KEY, '60000');
      await guess(b).expect(401);
      const ttl = Number((await redis.command('PTTL', KEY)).slice(1));
      expect(ttl).to.be.within(LOCKOUT_MS - 5000, LOCKOUT_MS);
    });

    it('should clear the failures on a success, and not count a request that checks no password', async () => {
      for (let i = 0; i < 5; i++) await guess(a).expect(401);
      expect(await redis.command('GET', KEY)).to.match(/^\$1\r\n5/);
      await a.post('/api/check-password').send({ albumPath: '2024/open/public', password: 'anything' }).expect(200);
      expect(await redis.command('GET', KEY)).to.match(/^\$1\r\n5/);
      await guess(b, 'Open-Sesame').expect(200);
      // Removed, and not made again by a give-back (Redis's DECR would leave -1 for ever).
      await eventually(async () => (await redis.command('EXISTS', KEY)) === ':0', 2000, 'the record removed');
      await new Promise((r) => setTimeout(r, 200));
      expect(await redis.command('EXISTS', KEY)).to.equal(':0');
    });
  });

  describe('with Redis gone', () => {
    it('should refuse password checks with 503 and unlock nothing, while pages and media work; then work again when it is back', async () => {
      await guess(a).expect(401);
      await redis.stop();
      for (const app of [a, b]) {
        const wrong = await guess(app).expect(503);
        expect(wrong.body).to.deep.equal({ error: 'Password checks are unavailable right now, try again shortly' });
        expect(wrong.headers['retry-after']).to.equal('5');
        const right = await guess(app, 'Open-Sesame').expect(503);
        expect(right.headers['set-cookie']).to.equal(undefined);
        const form = await app.post('/api/unlock').type('form').send({ albumPath: '2024/family/wedding', password: 'Open-Sesame' }).expect(503);
        expect(form.headers['set-cookie']).to.equal(undefined);
        await app.post('/api/check-access').send({ albumPath: '2024/family/wedding', password: 'Open-Sesame' }).expect(503);
        // Asking without a password is no attempt: it needs no lockout.
        const asked = await app.post('/api/check-access').send({ albumPath: '2024/family/wedding' }).expect(401);
        expect(asked.body.requiresPassword).to.equal(true);
        await app.get('/photos/2024/open/public').expect(200);
        await app.get('/photos/2024/family/wedding?error=rate-limited').expect(200);
        await app.get('/api/thumbnail?path=2024/open/public/pub.jpg&size=small').expect(200);
        await app.get('/albums/2024/open/public/pub.jpg').expect(200);
        await app.get('/photos').expect(200);
      }
      expect(logs.lines.some((l) => /Redis at redis:\/\/127\.0\.0\.1:\d+\/? is unavailable/.test(l.msg ?? ''))).to.equal(true);

      await redis.start();
      await eventually(async () => (await guess(b)).status === 401, 10_000, 'the lockout back');
      // Redis lost its data with the restart: the failure counted now is the first.
      expect(await redis.command('GET', KEY)).to.match(/^\$1\r\n1/);
      for (let i = 1; i < MAX_FAILED_ATTEMPTS; i++) await guess(i % 2 === 0 ? a : b).expect(401);
      await guess(a).expect(429);
    });
  });

  describe('with Redis gone, what is no guess', () => {
    it('should open working share links and random tokens, answer a wrong link 404, and not count what opens nothing', async () => {
      await redis.stop();
      for (const app of [a, b]) {
        // Was a bare 503: a link or a random token is a 144- or 122-bit secret, nothing for the lockout to protect.
        const viaLink = await app.get(`/s/${GRANDMA.id}`).expect(200);
        expect(viaLink.text).to.include('<h1>Picnic</h1>').and.include('data-name="cake.jpg"');
        await app
          .get('/api/thumbnail?path=2024%2Ffamily%2Fpicnic%2Fcake.jpg&size=small')
          .set('Cookie', cookieOf('album-links', [GRANDMA.id]))
          .expect(200);
        const viaCookie = await app
          .get('/photos/2024/family/picnic')
          .set('Cookie', cookieOf('album-access', [FAMILY_TOKEN]))
          .expect(200);
        expect(viaCookie.text).to.include('data-name="cake.jpg"');
        await app.get(`/photos/2024/family/picnic?token=${FAMILY_TOKEN}`).expect(200);
        await app.get('/albums/2024/family/picnic/cake.jpg').set('X-Album-Token', FAMILY_TOKEN).expect(200);
        // What opens nothing cannot be counted now: it opens nothing, and is answered as always (never 503).
        await app.get(`/s/${newShareLinkId()}`).expect(404);
        await app.get('/api/thumbnail?path=2024%2Ffamily%2Fpicnic%2Fcake.jpg&size=small').set('X-Album-Token', crypto.randomUUID()).expect(401);
        // A token written by hand is checked only when the lockout can be: like the password, not now.
        await app.get('/api/thumbnail?path=2024%2Ffamily%2Fwedding%2Fkiss.jpg&size=small').set('X-Album-Token', 't-wedding').expect(401);
      }
      await redis.start();
      await eventually(async () => (await guess(a)).status === 401, 10_000, 'the lockout back');
      // Only that wrong password is counted: none of the guesses made while Redis was away.
      expect(await redis.command('GET', KEY)).to.match(/^\$1\r\n1/);
      await a.get('/api/thumbnail?path=2024%2Ffamily%2Fwedding%2Fkiss.jpg&size=small').set('X-Album-Token', 't-wedding').expect(200);
    });
  });

  describe('with Redis slow', () => {
    it('should give back a count that lands after its attempt was answered 503, a right password above all', async () => {
      await guess(a).expect(401);
      await guess(b).expect(401);
      expect(await redis.command('GET', KEY)).to.match(/^\$1\r\n2/);
      // Redis holds every write (the counting script included) for 3 s: longer than the 2 s a count may take.
      await redis.command('CLIENT', 'PAUSE', '3000', 'WRITE');
      const right = await guess(a, 'Open-Sesame').expect(503);
      expect(right.headers['set-cookie']).to.equal(undefined);
      // The count runs once Redis resumes, and is given back as it lands.
      await new Promise((r) => setTimeout(r, 1500));
      await eventually(async () => /^\$1\r\n2/.test(await redis.command('GET', KEY)), 5000, 'the late count given back');
      await new Promise((r) => setTimeout(r, 300));
      expect(await redis.command('GET', KEY)).to.match(/^\$1\r\n2/);
      await guess(b).expect(401);
      expect(await redis.command('GET', KEY)).to.match(/^\$1\r\n3/);
    });
  });

  describe('when Redis is away at start', () => {
    it('should start, refuse password checks, and count them once Redis comes', async () => {
      await redis.stop();
      const late = request((await startGallery()).handler);
      await late.get('/photos/2024/open/public').expect(200);
      await guess(late).expect(503);
      await redis.start();
      await eventually(async () => (await guess(late)).status === 401, 10_000, 'the lockout once Redis is up');
      expect(await redis.command('GET', KEY)).to.match(/^\$1\r\n1/);
    });
  });
});

describe('redactedRedisUrl', () => {
  it('should hide the password of a Redis URL, and only that', () => {
    expect(redactedRedisUrl('redis://:s3cret@10.0.0.5:6379/1')).to.equal('redis://:***@10.0.0.5:6379/1');
    expect(redactedRedisUrl('rediss://user:s3cret@cache.example.org:6380')).to.equal('rediss://user:***@cache.example.org:6380');
    expect(redactedRedisUrl('redis://127.0.0.1:6379')).to.equal('redis://127.0.0.1:6379');
  });
});
