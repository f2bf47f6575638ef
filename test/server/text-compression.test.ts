import fs from 'node:fs';
import { expect } from 'chai';
import request from 'supertest';
import { isCompressibleText } from '../../server/http/text-compression.js';
import { GalleryFixture } from '../support/gallery-fixture.js';

/** The body as a Buffer (superagent has already decoded gzip and brotli by then). */
const raw = (res: request.Response, done: (err: Error | null, body: Buffer) => void) => {
  const chunks: Buffer[] = [];
  res.on('data', (c: Buffer) => chunks.push(c));
  res.on('end', () => done(null, Buffer.concat(chunks)));
};

/** Vary names Accept-Encoding (among others). */
const variesByEncoding = (res: request.Response) => /\baccept-encoding\b/i.test(res.headers.vary ?? '');

/** docs/api.md#compression: text compressed by what the browser accepts, media never. */
describe('compression', () => {
  const fx = new GalleryFixture();
  let app: ReturnType<typeof request>;

  before(async function () {
    this.timeout(60_000);
    const files = Array.from({ length: 12 }, (_, i) => `IMG_${i + 1}.jpg`);
    await fx.build({ '2024/trip': { meta: { title: 'Trip' }, files } });
    await fx.start();
    app = request(fx.gallery.handler);
  });
  after(() => fx.close());

  describe('of text', () => {
    for (const encoding of ['br', 'gzip']) {
      it(`should send an album page with ${encoding} when the browser takes it`, async () => {
        const res = await app.get('/photos/2024/trip').set('Accept-Encoding', `${encoding}`).buffer(true).parse(raw).expect(200);
        expect(res.headers['content-encoding']).to.equal(encoding);
        expect(variesByEncoding(res)).to.equal(true);
        expect((res.body as Buffer).toString()).to.include('<picture>');
      });
    }

    it('should prefer brotli when both are offered, as Chromium offers them', async () => {
      const res = await app.get('/photos').set('Accept-Encoding', 'gzip, deflate, br, zstd').buffer(true).parse(raw).expect(200);
      expect(res.headers['content-encoding']).to.equal('br');
    });

    it('should send it as it is to a client that takes no encoding', async () => {
      const res = await app.get('/photos/2024/trip').set('Accept-Encoding', 'identity').expect(200);
      expect(res.headers['content-encoding']).to.equal(undefined);
      expect(variesByEncoding(res)).to.equal(true);
    });

    it('should compress the stylesheet, the scripts and the album-media JSON', async () => {
      const page = (await app.get('/photos/2024/trip').expect(200)).text;
      const css = /href="(\/assets\/site\.css\?v=[^"]+)"/.exec(page)![1]!;
      for (const url of [css, '/assets/lightbox.js', '/vendor/photoswipe/photoswipe.esm.min.js', '/api/album-media?path=2024%2Ftrip']) {
        const res = await app.get(url).set('Accept-Encoding', 'gzip').buffer(true).parse(raw).expect(200);
        expect(res.headers['content-encoding'], url).to.equal('gzip');
        expect(variesByEncoding(res), url).to.equal(true);
        expect((res.body as Buffer).length, url).to.be.greaterThan(1000);
      }
    });

    it('should send a kept page compressed, the same each time, decoding to the page itself', async () => {
      // A final page: its photos' facts known (a page made before them is made again when they come).
      await fx.knownFacts('2024/trip');
      for (const url of ['/photos', '/photos/2024/trip']) {
        const plain = await app.get(url).set('Accept-Encoding', 'identity').buffer(true).parse(raw).expect(200);
        for (const encoding of ['br', 'gzip']) {
          // superagent decodes the body; the compressed size is the Content-Length.
          const first = await app.get(url).set('Accept-Encoding', encoding).buffer(true).parse(raw).expect(200);
          const second = await app.get(url).set('Accept-Encoding', encoding).buffer(true).parse(raw).expect(200);
          expect(first.headers['content-encoding'], url).to.equal(encoding);
          const sent = Number(first.headers['content-length']);
          expect(sent, url)
            .to.be.greaterThan(0)
            .and.lessThan((plain.body as Buffer).length / 3);
          expect(Number(second.headers['content-length']), url).to.equal(sent);
          expect(second.headers.etag, url).to.equal(plain.headers.etag);
          expect((first.body as Buffer).equals(plain.body as Buffer), url).to.equal(true);
        }
      }
    });

    it('should keep the ETag and 304 of pages, compressed or not', async () => {
      for (const url of ['/photos', '/photos/2024/trip']) {
        const first = await app.get(url).set('Accept-Encoding', 'br').buffer(true).parse(raw).expect(200);
        const etag = first.headers.etag;
        expect(etag, url).to.be.a('string');
        await app.get(url).set('Accept-Encoding', 'br').set('If-None-Match', etag!).expect(304);
        await app.get(url).set('Accept-Encoding', 'identity').set('If-None-Match', etag!).expect(304);
      }
    });
  });

  describe('of media', () => {
    it('should send thumbnails as they are, from the app and from the front door', async () => {
      const url = '/api/thumbnail?path=2024%2Ftrip%2FIMG_1.jpg&size=small';
      // The first one is made by the app, the second answered early from the cache.
      for (let i = 0; i < 2; i++) {
        const res = await app.get(url).set('Accept-Encoding', 'gzip, br').buffer(true).parse(raw).expect(200).expect('Content-Type', 'image/jpeg');
        expect(res.headers['content-encoding']).to.equal(undefined);
        expect(variesByEncoding(res)).to.equal(false);
        expect(Number(res.headers['content-length'])).to.equal((res.body as Buffer).length);
      }
    });

    it('should answer a Range on an original with 206 and exactly those bytes', async () => {
      const bytes = fs.readFileSync(fx.path('2024/trip/IMG_2.jpg'));
      const res = await app
        .get('/albums/2024/trip/IMG_2.jpg')
        .set('Accept-Encoding', 'gzip, br')
        .set('Range', 'bytes=10-209')
        .buffer(true)
        .parse(raw)
        .expect(206);
      expect(res.headers['content-encoding']).to.equal(undefined);
      expect(res.headers['content-range']).to.equal(`bytes 10-209/${bytes.length}`);
      expect(res.headers['content-length']).to.equal('200');
      expect((res.body as Buffer).equals(bytes.subarray(10, 210))).to.equal(true);
      const whole = await app.get('/albums/2024/trip/IMG_2.jpg').set('Accept-Encoding', 'gzip, br').buffer(true).parse(raw).expect(200);
      expect(whole.headers['content-encoding']).to.equal(undefined);
      expect(variesByEncoding(whole)).to.equal(false);
    });

    it('should stream the ZIP as it is, with its exact length', async () => {
      const res = await app.get('/api/download-album?path=2024%2Ftrip').set('Accept-Encoding', 'gzip, br').buffer(true).parse(raw).expect(200);
      expect(res.headers['content-type']).to.match(/^application\/zip/);
      expect(res.headers['content-encoding']).to.equal(undefined);
      expect(Number(res.headers['content-length'])).to.equal((res.body as Buffer).length);
    });
  });

  describe('isCompressibleText', () => {
    it('should take text, scripts, JSON and SVG, and nothing already compressed', () => {
      for (const t of [
        'text/html; charset=utf-8',
        'text/css',
        'text/javascript; charset=UTF-8',
        'application/javascript',
        'application/json',
        'image/svg+xml',
      ]) {
        expect(isCompressibleText(t), t).to.equal(true);
      }
      for (const t of ['image/jpeg', 'image/webp', 'video/mp4', 'application/zip', 'application/octet-stream', 'text/html-ish', undefined, 42]) {
        expect(isCompressibleText(t), String(t)).to.equal(false);
      }
    });
  });
});
