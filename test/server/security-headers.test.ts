import type { Readable } from 'node:stream';
import { expect } from 'chai';
import request from 'supertest';
import { isInertMediaType } from '../../server/http/security-headers.js';
import { GalleryFixture } from '../support/gallery-fixture.js';
import { writeUnreadableJpeg, writeVideo } from '../support/media-fixtures.js';

/**
 * Which responses carry which security headers (server/http/security-headers.ts): the front
 * door gives every response nosniff and the referrer policy, the app the document-only ones
 * where it makes documents.
 */
describe('security headers', () => {
  const fx = new GalleryFixture();
  let app: ReturnType<typeof request>;
  const documentOnly = ['content-security-policy', 'x-frame-options', 'cross-origin-opener-policy'];

  before(async function () {
    this.timeout(60_000);
    await fx.build({ '2024/trip': { meta: { title: 'Trip' }, files: ['a.jpg'] } });
    await writeVideo(fx.path('2024/trip/clip.mp4'));
    await writeUnreadableJpeg(fx.path('2024/trip/unreadable.jpg'));
    await fx.start();
    // The facts read first: a page made before them is made again once they land, with
    // another ETag (the 304 test asked across that change once, under a full run's load).
    await fx.knownFacts('2024/trip');
    app = request(fx.gallery.handler);
  });
  after(() => fx.close());

  it('should give pages, JSON, SVG and error pages every header', async () => {
    for (const [url, status] of [
      ['/photos/2024/trip', 200],
      ['/', 200],
      ['/api/album-media?path=2024%2Ftrip', 200],
      ['/api/exif?path=2024%2Ftrip%2Fa.jpg', 200],
      ['/favicon.svg', 200],
      ['/manifest.webmanifest', 200],
      // A JSON file among the static files is a document too.
      ['/assets/tsconfig.json', 200],
      ['/photos/nowhere', 404],
      ['/api/nowhere', 404],
      ['/api/thumbnail?path=2024%2Ftrip%2Fmissing.jpg&size=small', 404],
      ['/albums/2024/trip/missing.jpg', 404],
      // A public tile that cannot be made: its error met by the front door, answered by the app.
      ['/api/thumbnail?path=2024%2Ftrip%2Funreadable.jpg&size=small', 500],
    ] as const) {
      // Headers only: the bodies are not parsed (the static JSON file has comments).
      const res = await app
        .get(url)
        .buffer(true)
        .parse((res, done) => {
          // superagent hands its parsers Node's response stream.
          const stream = res as unknown as Readable;
          stream.resume();
          stream.on('end', () => done(null, undefined));
        })
        .expect(status);
      for (const name of documentOnly) expect(res.headers[name], `${name} of ${url}`).to.be.a('string');
      expect(res.headers['x-content-type-options'], url).to.equal('nosniff');
      expect(res.headers['referrer-policy'], url).to.equal('same-origin');
      expect(res.headers, url).to.not.have.property('x-powered-by');
    }
  });

  it('should keep them on a page answered 304', async () => {
    const page = await app.get('/photos/2024/trip').expect(200);
    const again = await app
      .get('/photos/2024/trip')
      .set('If-None-Match', page.headers.etag as string)
      .expect(304);
    for (const name of documentOnly) expect(again.headers[name], name).to.be.a('string');
  });

  it('should leave the document-only headers off thumbnails, originals, videos, ZIPs, scripts and styles, keeping nosniff', async () => {
    const page = await app.get('/photos/2024/trip').expect(200);
    const css = /href="(\/assets\/site\.css\?v=[^"]+)"/.exec(page.text)![1]!;
    for (const url of [
      css,
      '/assets/album.js',
      '/vendor/photoswipe/photoswipe.esm.min.js',
      '/api/thumbnail?path=2024%2Ftrip%2Fa.jpg&size=small',
      '/api/thumbnail?path=2024%2Ftrip%2Fa.jpg&size=small&format=webp',
      '/api/thumbnail?path=2024%2Ftrip%2Fa.jpg&size=small',
      '/albums/2024/trip/a.jpg',
      '/albums/2024/trip/clip.mp4',
      '/api/download-album?path=2024%2Ftrip',
      '/site-theme.css',
      '/icons/icon-192.png',
    ]) {
      const res = await app.get(url).expect(200);
      for (const name of documentOnly) expect(res.headers, `${name} of ${url}`).to.not.have.property(name);
      expect(res.headers['x-content-type-options'], url).to.equal('nosniff');
      expect(res.headers['referrer-policy'], url).to.equal('same-origin');
      expect(res.headers, url).to.not.have.property('x-powered-by');
    }
    // A Range answer of a video, and a thumbnail answered 304, too.
    const part = await app.get('/albums/2024/trip/clip.mp4').set('Range', 'bytes=0-99').expect(206);
    expect(part.headers).to.not.have.property('content-security-policy');
    const tile = await app.get('/api/thumbnail?path=2024%2Ftrip%2Fa.jpg&size=small').expect(200);
    const again = await app
      .get('/api/thumbnail?path=2024%2Ftrip%2Fa.jpg&size=small')
      .set('If-None-Match', tile.headers.etag as string)
      .expect(304);
    expect(again.headers).to.not.have.property('content-security-policy');
  });

  it('should count only raster images, video, audio, ZIP, scripts and styles as inert', () => {
    for (const t of [
      'image/jpeg',
      'image/webp',
      'image/png; charset=binary',
      'video/mp4',
      'video/quicktime',
      'audio/mpeg',
      'application/zip',
      'text/css; charset=UTF-8',
      'text/javascript; charset=UTF-8',
      'application/javascript',
    ]) {
      expect(isInertMediaType(t), t).to.equal(true);
    }
    for (const t of ['image/svg+xml', 'text/html; charset=utf-8', 'application/json', 'text/plain', 'application/xml', 'image/svg', '', undefined, 42]) {
      expect(isInertMediaType(t), String(t)).to.equal(false);
    }
  });
});
