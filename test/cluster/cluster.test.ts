import fs from 'node:fs';
import http2 from 'node:http2';
import path from 'node:path';
import zlib from 'node:zlib';
import { expect } from 'chai';
import { MAX_FAILED_ATTEMPTS } from '../../server/public/access/password-limiter.js';
import { eventually, GalleryFixture, writeJpeg } from '../support/gallery-fixture.js';
import { type GalleryProcess, startGalleryProcess } from '../support/gallery-process.js';
import { writeVideo } from '../support/media-fixtures.js';
import { NginxServer } from '../support/nginx.js';
import { freePorts, onPath, RedisServer } from '../support/redis-server.js';
import { writeAlbum } from '../support/temp-dir.js';
import { ask } from './ask.js';

const json = (body: unknown) => ({ headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });

/** The public server's 'thumbnail made' lines for `relPath` (server/media/thumbnails.ts). */
const madeLines = (p: GalleryProcess, relPath: string) => p.lines().filter((l) => l.msg === 'thumbnail made' && l.path === relPath);

/**
 * The gallery as issue 17 deploys it, with the real parts: Redis, two gallery processes on
 * one album tree and one cache, and nginx running deploy/nginx.conf in front of them (HTTPS,
 * HTTP/2, its thumbnail cache). Needs Debian's redis-server and nginx (nginx-light); skipped
 * with a message without them. Every process is started here and stopped by its PID.
 */
describe('two gallery processes with Redis and nginx (deploy/nginx.conf)', function () {
  this.timeout(180_000);
  const fx = new GalleryFixture();
  const redis = new RedisServer();
  let nginx: NginxServer | undefined;
  let one: GalleryProcess;
  let two: GalleryProcess;
  let ca: string;
  let site: string;

  before(async function () {
    const missing = ['redis-server', 'nginx', 'openssl'].filter((c) => !onPath(c));
    if (missing.length > 0) {
      console.log(`    (skipped: ${missing.join(', ')} not installed; Debian: apt-get install redis-server nginx-light openssl)`);
      this.skip();
    }
    await fx.build({
      '2024/open/public': { meta: { title: 'Public', token: 't-public' }, files: ['a.jpg', 'b.jpg', 'c.jpg', 'd.jpg'] },
      '2024/family/wedding': { meta: { title: 'Wedding', password: 'Open-Sesame', token: 't-wedding' }, files: ['kiss.jpg'] },
    });
    await writeJpeg(path.join(fx.albumsDir, '2024/open/public/big.jpg'), 2400, 1600);
    await writeVideo(path.join(fx.albumsDir, '2024/open/public/clip.mp4'), { width: 320, height: 240, seconds: 1 });
    await redis.start();
    const [port1, port2, httpPort, httpsPort] = (await freePorts(4)) as [number, number, number, number];
    const env = {
      HOST: '127.0.0.1',
      ALBUMS_DIR: fx.albumsDir,
      CACHE_DIR: fx.cacheDir,
      CONTENT_DIR: fx.contentDir,
      REDIS_URL: redis.url,
      INSTANCES: '2',
      NODE_ENV: 'production',
      TRUST_PROXY: 'loopback',
      // Shared storage: each process polls the tree.
      WATCH: 'poll',
      WATCH_INTERVAL: '0.5',
    };
    [one, two] = await Promise.all([startGalleryProcess({ ...env, PORT: String(port1) }), startGalleryProcess({ ...env, PORT: String(port2) })]);
    nginx = new NginxServer({ upstreams: [`127.0.0.1:${port1}`, `127.0.0.1:${port2}`], httpPort, httpsPort });
    await nginx.start();
    ca = fs.readFileSync(nginx.certificate, 'utf8');
    site = nginx.httpsUrl;
    // Both processes connected to Redis: a password check answers.
    for (const p of [one, two]) {
      await eventually(
        async () => (await ask(`${p.url}/api/check-password`, { method: 'POST', ...json({ albumPath: '2024/open/public', password: 'x' }) })).status === 200,
        20_000,
        'Redis',
      );
    }
    // Each of those checks was counted, then given back after its answer (password-limiter.ts).
    // A give-back landing after a test's FLUSHALL and first wrong guess would take that guess
    // back: under a full test run's load it did, and the 11th guess got 401.
    const SUM_OF_COUNTS =
      "local s = 0 for _, k in ipairs(redis.call('KEYS', '*')) do if redis.call('TYPE', k).ok == 'string' then s = s + (tonumber(redis.call('GET', k)) or 0) end end return s";
    await eventually(async () => (await redis.command('EVAL', SUM_OF_COUNTS, '0')) === ':0', 10_000, 'the checks given back');
  });

  after(async () => {
    await nginx?.close();
    await Promise.all([one?.stop(), two?.stop()]);
    await redis.close();
    await fx.close();
  });

  beforeEach(async () => {
    await redis.start();
    await redis.command('FLUSHALL');
    // FLUSHALL goes behind the processes' backs: each still remembers the lockout an earlier
    // test reached (redis-lockout-store.ts answers `lockedUntil` from memory) until it next
    // reads this client's count, and a process that remembers one opens no cookie token.
    // The locked album's page reads it, on each process, for loopback (the visitor nginx speaks for).
    for (const p of [one, two]) expect((await ask(`${p.url}/photos/2024/family/wedding`)).status).to.equal(200);
  });

  const guess = (base: string, password = 'wrong', headers: Record<string, string> = {}) =>
    ask(`${base}/api/check-password`, {
      method: 'POST',
      ca,
      headers: { 'Content-Type': 'application/json', ...headers },
      body: JSON.stringify({ albumPath: '2024/family/wedding', password }),
    });

  describe('the password lockout', () => {
    it('should hold across the processes: 10 failures spread over both, the 11th refused on either', async () => {
      for (let i = 0; i < MAX_FAILED_ATTEMPTS; i++) expect((await guess(i % 2 === 0 ? one.url : two.url)).status).to.equal(401);
      expect((await guess(one.url)).status).to.equal(429);
      expect((await guess(two.url, 'Open-Sesame')).status).to.equal(429);
      // Through nginx too, whatever X-Forwarded-For the visitor sends: nginx replaces it.
      const viaNginx = await guess(site, 'Open-Sesame', { 'X-Forwarded-For': '203.0.113.9' });
      expect(viaNginx.status).to.equal(429);
      expect(viaNginx.headers['set-cookie']).to.equal(undefined);
    });

    it('should count per visitor behind nginx (TRUST_PROXY), not per nginx', async () => {
      // The gallery processes see nginx (loopback) and trust its X-Forwarded-For: a visitor
      // locked out directly from another address is not the one nginx speaks for.
      for (let i = 0; i < MAX_FAILED_ATTEMPTS; i++) await guess(one.url, 'wrong', { 'X-Forwarded-For': '198.51.100.7' });
      expect((await guess(two.url, 'wrong', { 'X-Forwarded-For': '198.51.100.7' })).status).to.equal(429);
      expect((await guess(site)).status, 'the visitor behind nginx (127.0.0.1)').to.equal(401);
    });
  });

  describe('thumbnails', () => {
    it('should make a cold thumbnail asked of both processes at once only once', async () => {
      const rel = '2024/open/public/big.jpg';
      const url = `/api/thumbnail?path=${encodeURIComponent(rel)}&size=medium`;
      const [a, b] = await Promise.all([ask(`${one.url}${url}`), ask(`${two.url}${url}`)]);
      expect([a.status, b.status]).to.deep.equal([200, 200]);
      expect(Buffer.compare(a.body, b.body)).to.equal(0);
      await new Promise((r) => setTimeout(r, 300));
      const made = [...madeLines(one, rel), ...madeLines(two, rel)].filter((l) => (l.made as string[]).includes('medium.jpeg'));
      expect(made, JSON.stringify(made)).to.have.length(1);
    });

    it("should serve a public thumbnail and a video's poster from nginx's cache the second time", async () => {
      for (const rel of ['2024/open/public/a.jpg', '2024/open/public/clip.mp4']) {
        const url = `${site}/api/thumbnail?path=${encodeURIComponent(rel)}&size=small&v=1`;
        const first = await ask(url, { ca });
        expect(first.status, rel).to.equal(200);
        expect(first.headers['cache-control']).to.match(/^public/);
        const second = await ask(url, { ca });
        expect(second.headers['x-cache-status'], rel).to.equal('HIT');
        expect(Buffer.compare(first.body, second.body)).to.equal(0);
      }
    });

    it("should never answer a protected album's media from nginx's cache", async () => {
      const unlocked = await ask(`${site}/api/unlock`, {
        method: 'POST',
        ca,
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: 'albumPath=2024%2Ffamily%2Fwedding&password=Open-Sesame',
      });
      expect(unlocked.status).to.equal(302);
      const cookie = String(unlocked.headers['set-cookie']).split(';')[0]!;
      expect(cookie).to.match(/^album-access=/);
      const url = `${site}/api/thumbnail?path=2024%2Ffamily%2Fwedding%2Fkiss.jpg&size=small&v=1`;
      for (let i = 0; i < 2; i++) {
        const withCookie = await ask(url, { ca, headers: { Cookie: cookie } });
        expect(withCookie.status).to.equal(200);
        expect(withCookie.headers['cache-control']).to.match(/^private/);
        expect(withCookie.headers['x-cache-status']).to.not.equal('HIT');
      }
      const stranger = await ask(url, { ca });
      expect(stranger.status, 'a visitor without the cookie').to.equal(401);
      expect(stranger.headers['content-type']).to.match(/^application\/json/);
      const original = await ask(`${site}/albums/2024/family/wedding/kiss.jpg`, { ca });
      expect(original.status).to.equal(401);
    });
  });

  describe('the album tree on shared storage', () => {
    it('should show an album added on disk on both processes', async () => {
      writeAlbum(fx.albumsDir, '2025/new/arrival', { title: 'Arrival', token: 't-arrival' });
      await writeJpeg(path.join(fx.albumsDir, '2025/new/arrival/first.jpg'));
      for (const p of [one, two]) {
        await eventually(async () => (await ask(`${p.url}/photos/2025/new/arrival`)).status === 200, 10_000, `the new album on ${p.url}`);
        expect((await ask(`${p.url}/photos/2025/new/arrival`)).body.toString()).to.include('first.jpg');
      }
    });
  });

  describe('with Redis stopped', () => {
    it('should refuse password checks with 503 while pages and media work, and lock out again once Redis is back', async () => {
      await redis.stop();
      for (const base of [one.url, two.url, site]) {
        const wrong = await guess(base);
        expect(wrong.status, base).to.equal(503);
        const right = await guess(base, 'Open-Sesame');
        expect(right.status).to.equal(503);
        expect(right.headers['set-cookie']).to.equal(undefined);
        expect((await ask(`${base}/photos/2024/open/public`, { ca })).status).to.equal(200);
        expect((await ask(`${base}/api/thumbnail?path=2024%2Fopen%2Fpublic%2Fb.jpg&size=small`, { ca })).status).to.equal(200);
        expect((await ask(`${base}/albums/2024/open/public/b.jpg`, { ca })).status).to.equal(200);
      }
      await redis.start();
      await eventually(async () => (await guess(one.url)).status === 401, 15_000, 'the lockout back on one');
      await eventually(async () => (await guess(two.url)).status === 401, 15_000, 'the lockout back on two');
      for (let i = 2; i < MAX_FAILED_ATTEMPTS; i++) expect((await guess(i % 2 === 0 ? one.url : two.url)).status).to.equal(401);
      expect((await guess(site)).status).to.equal(429);
    });
  });

  describe('nginx', () => {
    it('should send plain HTTP to HTTPS', async () => {
      const res = await ask(`${nginx!.httpUrl}/photos?x=1`);
      expect(res.status).to.equal(301);
      expect(res.headers.location).to.equal('https://127.0.0.1/photos?x=1');
    });

    it('should speak HTTP/2 over TLS', async () => {
      const session = http2.connect(site, { ca });
      try {
        const { status, protocol } = await new Promise<{ status: number; protocol: string | undefined }>((resolve, reject) => {
          const req = session.request({ ':path': '/photos' });
          req.on('response', (headers) => resolve({ status: Number(headers[':status']), protocol: session.alpnProtocol }));
          req.on('error', reject);
          req.resume();
          req.end();
        });
        expect(status).to.equal(200);
        expect(protocol).to.equal('h2');
      } finally {
        session.close();
      }
    });

    it('should compress pages, CSS and JavaScript, and never a thumbnail', async () => {
      const page = await ask(`${site}/photos/2024/open/public`, { ca, headers: { 'Accept-Encoding': 'gzip' } });
      expect(page.headers['content-encoding']).to.equal('gzip');
      expect(zlib.gunzipSync(page.body).toString()).to.include('Public');
      const html = zlib.gunzipSync(page.body).toString();
      for (const asset of [/href="(\/assets\/[^"]+\.css[^"]*)"/, /src="(\/assets\/[^"]+\.js[^"]*)"/]) {
        const href = asset.exec(html)?.[1]?.replaceAll('&amp;', '&');
        expect(href, String(asset)).to.be.a('string');
        const res = await ask(`${site}${href}`, { ca, headers: { 'Accept-Encoding': 'gzip' } });
        expect(res.status).to.equal(200);
        expect(res.headers['content-encoding'], href).to.equal('gzip');
      }
      const thumb = await ask(`${site}/api/thumbnail?path=2024%2Fopen%2Fpublic%2Fc.jpg&size=small`, { ca, headers: { 'Accept-Encoding': 'gzip' } });
      expect(thumb.headers['content-encoding']).to.equal(undefined);
    });

    it('should refuse a body larger than the password form needs', async () => {
      const res = await ask(`${site}/api/check-password`, {
        method: 'POST',
        ca,
        headers: { 'Content-Type': 'application/json' },
        body: Buffer.alloc(300 * 1024, 0x20),
      });
      expect(res.status).to.equal(413);
    });

    it('should reach only the public server: no admin route answers', async () => {
      const res = await ask(`${site}/api/albums`, { ca });
      expect(res.status).to.equal(404);
      expect(JSON.parse(res.body.toString())).to.deep.equal({ error: 'Unknown API endpoint' });
    });

    it('should spread requests over both processes', async () => {
      const before = [one, two].map((p) => p.lines().filter((l) => l.url === '/photos').length);
      for (let i = 0; i < 6; i++) await ask(`${site}/photos`, { ca });
      const after = [one, two].map((p) => p.lines().filter((l) => l.url === '/photos').length);
      expect(after[0]! - before[0]!, 'requests on one').to.be.greaterThan(0);
      expect(after[1]! - before[1]!, 'requests on two').to.be.greaterThan(0);
    });
  });
});
