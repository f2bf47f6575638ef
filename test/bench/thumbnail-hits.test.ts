import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import request from 'supertest';
import { createResolvers } from '../../server/public/access/gallery-access.js';
import { createThumbnailCache } from '../../server/media/thumbnails.js';
import { createPublicThumbnailRoute } from '../../server/public/routes/media-api.js';
import { createThumbnailAnswer } from '../../server/public/routes/thumbnail-answer.js';
import { accessCookie, GalleryFixture, writeJpeg } from '../support/gallery-fixture.js';
import { captureLogger } from '../support/capture-logger.js';
import { writeNoisyJpeg, writeUnreadableJpeg } from '../support/media-fixtures.js';

/**
 * Public thumbnails are answered by the front door before Express (server/public/front-door.ts,
 * server/public/routes/media-api.ts, made for the benchmark's cache-hit figure), with the
 * answer the Express route gives too (server/public/routes/thumbnail-answer.ts). These tests
 * hold that path to what the full path answers, and above all to the same access rules: a
 * cached file must never skip a check.
 */
describe('cached thumbnails answered by the front door', () => {
  const fx = new GalleryFixture();
  const { logger: requestLog, raw: lines } = captureLogger();
  let app: ReturnType<typeof request>;
  const thumb = (p: string, size = 'small') => `/api/thumbnail?path=${encodeURIComponent(p)}&size=${size}`;
  /** A conditional request that matches nothing: it takes the full path and still gets a 200. */
  const fullPath = (url: string) => app.get(url).set('If-None-Match', '"no-such-etag"');

  before(async function () {
    this.timeout(30_000);
    await fx.build({
      '2024/x/public': {
        meta: { title: 'Public', token: 't-public' },
        files: ['pub.jpg', 'gone.jpg', 'changing.jpg', 'uncached.jpg', 'cold.jpg', 'broken.jpg', 'broken-too.jpg'],
      },
      '2024/x/locked': { meta: { title: 'Locked', password: 'pw', token: 't-locked' }, files: ['secret.jpg'] },
      '2024/x/locked/child': { meta: { title: 'Child', token: 't-child' }, files: ['kid.jpg'] },
    });
    // Listed as photos, but cut off half way: they cannot be decoded.
    for (const name of ['broken.jpg', 'broken-too.jpg']) {
      const jpeg = fs.readFileSync(fx.path(`2024/x/public/${name}`));
      fs.writeFileSync(fx.path(`2024/x/public/${name}`), jpeg.subarray(0, Math.floor(jpeg.length / 2)));
    }
    // A public album's file that is really a file of the locked album.
    fs.symlinkSync(fx.path('2024/x/locked/secret.jpg'), fx.path('2024/x/public/link.jpg'));
    // Headers and no picture at all: nothing decodes it. And one whose large size is streamed, not read whole.
    await writeUnreadableJpeg(fx.path('2024/x/public/unreadable.jpg'));
    await writeNoisyJpeg(fx.path('2024/x/public/noise.jpg'), 2000, 1500);
    await fx.start({ requestLog });
    app = request(fx.gallery.handler);
  });
  after(() => fx.close());

  it('should answer a public hit exactly as the full path does', async () => {
    await app.get(thumb('2024/x/public/pub.jpg')).expect(200);
    const fast = await app.get(thumb('2024/x/public/pub.jpg')).expect(200);
    const full = await fullPath(thumb('2024/x/public/pub.jpg')).expect(200);
    const { date: _a, ...fastHeaders } = fast.headers;
    const { date: _b, ...fullHeaders } = full.headers;
    expect(fastHeaders).to.deep.equal(fullHeaders);
    expect(Buffer.compare(fast.body as Buffer, full.body as Buffer)).to.equal(0);
    expect(fast.headers['cache-control']).to.equal('public, max-age=31536000, immutable');
    expect(fast.headers['x-content-type-options']).to.equal('nosniff');
    // A JPEG runs nothing: the document-only headers stay off it (server/http/security-headers.ts).
    expect(fast.headers).to.not.have.property('content-security-policy');
    expect(fast.headers).to.not.have.property('x-powered-by');
  });

  it('should make a cold public tile itself, answering as the full path does once it is made', async () => {
    const tasks = fx.gallery.pool.tasksRun;
    const made = await app.get(thumb('2024/x/public/cold.jpg')).expect(200);
    expect(fx.gallery.pool.tasksRun - tasks, 'one task').to.equal(1);
    const full = await fullPath(thumb('2024/x/public/cold.jpg')).expect(200);
    const { date: _a, ...madeHeaders } = made.headers;
    const { date: _b, ...fullHeaders } = full.headers;
    expect(madeHeaders).to.deep.equal(fullHeaders);
    expect(Buffer.compare(made.body as Buffer, full.body as Buffer)).to.equal(0);
  });

  it('should hand a tile that cannot be made to the full path with its error, without making it twice', async () => {
    const tasks = fx.gallery.pool.tasksRun;
    const res = await app.get(thumb('2024/x/public/broken.jpg')).expect(500).expect('Content-Type', /json/);
    expect(res.body).to.have.property('error').that.is.a('string');
    expect(res.headers['cache-control']).to.equal('no-store');
    expect(fx.gallery.pool.tasksRun - tasks, 'one decode, not one per path').to.equal(1);
    // The server keeps serving.
    await app.get(thumb('2024/x/public/pub.jpg')).expect(200);
  });

  it('should answer the error of a tile that cannot be made exactly as the full path does', async () => {
    const early = await app.get(thumb('2024/x/public/unreadable.jpg')).expect(500);
    const full = await fullPath(thumb('2024/x/public/unreadable.jpg')).expect(500);
    const { date: _a, ...earlyHeaders } = early.headers;
    const { date: _b, ...fullHeaders } = full.headers;
    expect(earlyHeaders).to.deep.equal(fullHeaders);
    expect(early.body).to.deep.equal(full.body);
    // A JSON answer is a document: the app set its document headers (server/http/security-headers.ts).
    expect(early.headers['content-security-policy']).to.be.a('string');
    expect(early.headers.vary, 'through the app, its compression middleware included').to.include('Accept-Encoding');
  });

  it('should stream a large public tile exactly as the full path does', async function () {
    this.timeout(20_000);
    const made = await app.get(thumb('2024/x/public/noise.jpg', 'large')).expect(200);
    expect(Number(made.headers['content-length']), 'big enough to be streamed').to.be.greaterThan(512 * 1024);
    const fast = await app.get(thumb('2024/x/public/noise.jpg', 'large')).expect(200);
    const full = await fullPath(thumb('2024/x/public/noise.jpg', 'large')).expect(200);
    const { date: _a, ...fastHeaders } = fast.headers;
    const { date: _b, ...fullHeaders } = full.headers;
    expect(fastHeaders).to.deep.equal(fullHeaders);
    expect(Buffer.compare(fast.body as Buffer, full.body as Buffer)).to.equal(0);
    expect(Buffer.compare(fast.body as Buffer, made.body as Buffer)).to.equal(0);
  });

  it('should answer a public WebP hit exactly as the full path does', async () => {
    const url = `${thumb('2024/x/public/pub.jpg')}&format=webp`;
    await app.get(url).expect(200);
    const fast = await app.get(url).expect(200);
    const full = await fullPath(url).expect(200);
    const { date: _a, ...fastHeaders } = fast.headers;
    const { date: _b, ...fullHeaders } = full.headers;
    expect(fastHeaders).to.deep.equal(fullHeaders);
    expect(fast.headers['content-type']).to.equal('image/webp');
    expect(Buffer.compare(fast.body as Buffer, full.body as Buffer)).to.equal(0);
    // Another representation of the same thumbnail: another ETag.
    const jpeg = await app.get(thumb('2024/x/public/pub.jpg')).expect(200);
    expect(jpeg.headers['content-type']).to.equal('image/jpeg');
    expect(jpeg.headers.etag).to.not.equal(fast.headers.etag);
  });

  it('should write one request log line per hit', async () => {
    await app.get(thumb('2024/x/public/pub.jpg')).expect(200);
    lines.length = 0;
    const res = await app.get(`${thumb('2024/x/public/pub.jpg')}&token=leak-me`).expect(200);
    expect(lines).to.have.length(1);
    const line = JSON.parse(lines[0]!) as { method: string; url: string; status: number; bytes: number };
    expect(line).to.include({ method: 'GET', status: 200, bytes: Number(res.headers['content-length']) });
    expect(line.url).to.include('/api/thumbnail?').and.not.include('leak-me');
  });

  it('should answer 401 for a cached thumbnail of a locked album without access', async () => {
    // Cached by a visitor who had the cookie.
    await app
      .get(thumb('2024/x/locked/secret.jpg'))
      .set('Cookie', accessCookie(['t-locked']))
      .expect(200);
    await app.get(thumb('2024/x/locked/secret.jpg')).expect(401).expect('Content-Type', /json/);
    await app
      .get(thumb('2024/x/locked/secret.jpg'))
      .set('Cookie', accessCookie(['t-public']))
      .expect(401);
    await app.get(`${thumb('2024/x/locked/secret.jpg')}&token=t-locked`).expect(401);
    const res = await app
      .get(thumb('2024/x/locked/secret.jpg'))
      .set('Cookie', accessCookie(['t-locked']))
      .expect(200);
    expect(res.headers['cache-control']).to.match(/^private/);
  });

  it('should answer 401 for a cached thumbnail of a passwordless child of a locked album', async () => {
    await app
      .get(thumb('2024/x/locked/child/kid.jpg'))
      .set('Cookie', accessCookie(['t-locked']))
      .expect(200);
    await app.get(thumb('2024/x/locked/child/kid.jpg')).expect(401);
  });

  it('should answer 401 for a cached thumbnail reached through a symlink into a locked album', async () => {
    await app
      .get(thumb('2024/x/public/link.jpg'))
      .set('Cookie', accessCookie(['t-locked']))
      .expect(200);
    await app.get(thumb('2024/x/public/link.jpg')).expect(401);
  });

  it('should still answer a matching If-None-Match with 304, and HEAD without a body', async () => {
    const first = await app.get(thumb('2024/x/public/pub.jpg', 'medium')).expect(200);
    await app
      .get(thumb('2024/x/public/pub.jpg', 'medium'))
      .set('If-None-Match', first.headers.etag as string)
      .expect(304);
    const head = await app.head(thumb('2024/x/public/pub.jpg', 'medium')).expect(200);
    expect(head.headers['content-length']).to.equal(first.headers['content-length']);
  });

  it('should not serve a cached thumbnail older than its original', async () => {
    const before = await app.get(thumb('2024/x/public/changing.jpg')).expect(200);
    await writeJpeg(fx.path('2024/x/public/changing.jpg'), 96, 64, 200);
    const later = new Date(Date.now() + 5000);
    fs.utimesSync(fx.path('2024/x/public/changing.jpg'), later, later);
    const after = await app.get(thumb('2024/x/public/changing.jpg')).expect(200);
    expect(after.headers.etag).to.not.equal(before.headers.etag);
    expect(Buffer.compare(after.body as Buffer, before.body as Buffer)).to.not.equal(0);
  });

  it('should answer 404 once the original is gone, even with its thumbnail cached', async () => {
    await app.get(thumb('2024/x/public/gone.jpg')).expect(200);
    fs.rmSync(fx.path('2024/x/public/gone.jpg'));
    await app.get(thumb('2024/x/public/gone.jpg')).expect(404).expect('Content-Type', /json/);
  });

  it('should leave bad requests to the full path', async () => {
    await app.get('/api/thumbnail?path=2024/x/public/pub.jpg').expect(400);
    await app.get('/api/thumbnail?path=2024/x/public/pub.jpg&size=huge').expect(400);
    await app.get('/api/thumbnail?path=2024/x/public/pub.jpg&path=x&size=small').expect(400);
    await app.get(thumb('2024/x/../x/public/pub.jpg')).expect(400);
    await app.get(thumb('2024/x/public/nope.jpg')).expect(404);
  });

  it('should answer public hits itself and hand everything else on', async () => {
    const { mediaFor } = createResolvers(fx.gallery.index, fx.albumsDir);
    const thumbnails = createThumbnailCache({ cacheDir: fx.cacheDir, pool: fx.gallery.pool });
    const answer = createPublicThumbnailRoute(createThumbnailAnswer({ thumbnails, mediaFor, log: captureLogger().logger }));
    let answers = 0;
    const server = http.createServer((req, res) => {
      void Promise.resolve(answer(req, res)).then(
        (answered) => {
          if (answered) answers++;
          else res.writeHead(299).end('handed on');
        },
        // What the front door hands to the app's error handler.
        () => res.writeHead(599).end('error handed in'),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const status = async (url: string, headers: Record<string, string> = {}) => (await fetch(`${base}${url}`, { headers })).status;
    try {
      expect(await status(thumb('2024/x/public/pub.jpg'))).to.equal(200);
      expect(answers).to.equal(1);
      await app.get(`${thumb('2024/x/public/pub.jpg')}&format=webp`).expect(200);
      expect(await status(`${thumb('2024/x/public/pub.jpg')}&format=webp`)).to.equal(200);
      expect(answers).to.equal(2);
      // An unknown format is the full path's to refuse (400).
      expect(await status(`${thumb('2024/x/public/pub.jpg')}&format=gif`)).to.equal(299);
      // Cached, but access depends on the visitor: never answered here, cookie or not.
      const cookie = { Cookie: accessCookie(['t-locked']) };
      expect(await status(thumb('2024/x/locked/secret.jpg'), cookie)).to.equal(299);
      expect(await status(thumb('2024/x/locked/child/kid.jpg'), cookie)).to.equal(299);
      expect(await status(thumb('2024/x/public/link.jpg'), cookie)).to.equal(299);
      // Not cached yet: made here; the error of one that cannot be made is handed on, to be answered by the app's error handler.
      expect(await status(thumb('2024/x/public/uncached.jpg'))).to.equal(200);
      expect(answers).to.equal(3);
      expect(await status(thumb('2024/x/public/broken-too.jpg'))).to.equal(599);
      // A large one is streamed here too.
      await app.get(thumb('2024/x/public/noise.jpg', 'large')).expect(200);
      expect(await status(thumb('2024/x/public/noise.jpg', 'large'))).to.equal(200);
      expect(answers).to.equal(4);
      // Conditional, or not a plain GET of the exact path.
      expect(await status(thumb('2024/x/public/pub.jpg'), { 'If-None-Match': '"x"' })).to.equal(299);
      expect(await status(thumb('2024/x/public/pub.jpg').replace('/api/thumbnail', '/api/thumbnail/'))).to.equal(299);
      expect(answers).to.equal(4);
    } finally {
      server.close();
    }
  });
});
