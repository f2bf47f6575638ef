import path from 'node:path';
import { expect } from 'chai';
import cookieParser from 'cookie-parser';
import express from 'express';
import { ipKeyGenerator } from 'express-rate-limit';
import request from 'supertest';
import { createResolvers } from '../../server/public/access/gallery-access.js';
import { createPasswordLimiter, LOCKOUT_MS, MAX_FAILED_ATTEMPTS, type PasswordLimiter } from '../../server/public/access/password-limiter.js';
import { AlbumIndex } from '../../server/core/albums/album-index.js';
import { errorHandler } from '../../server/http/error-handler.js';
import { albumPageHandler } from '../../server/public/pages/album-page.js';
import { assetLocals } from '../../server/public/pages/asset-urls.js';
import type { DimensionsProvider } from '../../server/media/dimensions.js';
import { MediaStats } from '../../server/public/pages/media-stats.js';
import { CARD_SIZES } from '../../server/public/pages/tile-sizes.js';
import { ROOT_DIR, VIEWS_DIR } from '../../server/core/root-dir.js';
import { GalleryFixture } from '../support/gallery-fixture.js';
import { quietLogger } from '../support/capture-logger.js';

const fakeDimensions: DimensionsProvider = async (_node, items) =>
  items.map((m) => (m.kind === 'video' ? { width: 1280, height: 720, duration: 65 } : m.name === 'tall.jpg' ? { width: 800, height: 1200 } : undefined));

/** The album page route alone, set up as createApp sets it up, with the optional deps under test. */
function pageApp(index: AlbumIndex, albumsDir: string, deps: { dimensions?: DimensionsProvider; limiter?: PasswordLimiter } = {}) {
  const app = express();
  app.set('view engine', 'ejs');
  app.set('views', VIEWS_DIR);
  Object.assign(
    app.locals,
    assetLocals({
      '/assets/': path.join(VIEWS_DIR, 'assets'),
      '/vendor/photoswipe/': path.join(ROOT_DIR, 'node_modules', 'photoswipe', 'dist'),
    }),
  );
  app.use(cookieParser());
  const { readableMedia, locateMedia } = createResolvers(index, albumsDir);
  app.get('/photos/*splat', albumPageHandler({ index, stats: new MediaStats(locateMedia), readableMedia, production: false, ...deps }));
  app.use(errorHandler({ log: quietLogger }));
  return request(app);
}

describe('album page', () => {
  const fx = new GalleryFixture();
  let index: AlbumIndex;

  before(async function () {
    this.timeout(30_000);
    await fx.build({
      '2024/trip': { meta: { title: 'Trip', style: 'masonry' }, files: ['wide.jpg', 'tall.jpg', 'clip.mp4'] },
      '2024/trip/day-two': { meta: { title: 'Day two' }, files: ['d.jpg'] },
      '2024/trip/locked-day': { meta: { title: 'Locked day', password: 'pw' }, files: ['locked-photo.jpg'] },
      '2024/secret': { meta: { title: 'Secret', password: 'pw' }, files: ['s.jpg'] },
    });
    index = await AlbumIndex.open({ albumsDir: fx.albumsDir, watch: false, log: quietLogger });
  });
  after(async () => {
    index.close();
    await fx.close();
  });

  describe('with sizes from the dimensions provider', () => {
    it('should give each image its width and height, and its tile its aspect ratio', async () => {
      const res = await pageApp(index, fx.albumsDir, { dimensions: fakeDimensions }).get('/photos/2024/trip').expect(200);
      expect(res.text).to.match(
        /<li class="media__item media__item--image" data-ar="0\.6667">\s*<a class="media__link" href="\/albums\/2024\/trip\/tall\.jpg" data-index="1" data-name="tall\.jpg"[^>]* data-width="800" data-height="1200"/,
      );
      expect(res.text).to.match(/<img [^>]*alt="Photo 2 of 3" loading="lazy" decoding="async" width="800" height="1200">/);
    });

    it('should show a video with a play mark and its duration', async () => {
      const res = await pageApp(index, fx.albumsDir, { dimensions: fakeDimensions }).get('/photos/2024/trip').expect(200);
      expect(res.text).to.include('media__item--video" data-ar="1.7778"').and.include('class="media__play"');
      expect(res.text).to.include('<span class="badge badge--video">1:05</span>');
      expect(res.text).to.include('data-duration="65"').and.include('alt="Video 1 of 3, 1:05"');
    });

    it('should leave sizes out where they are unknown', async () => {
      const res = await pageApp(index, fx.albumsDir, { dimensions: fakeDimensions }).get('/photos/2024/trip').expect(200);
      const wide = /<li[^>]*>\s*<a[^>]*data-name="wide\.jpg"[^>]*>\s*<picture>\s*<source[^>]*>\s*<img[^>]*>/.exec(res.text)?.[0];
      expect(wide).to.be.a('string').and.not.include('data-ar').and.not.include('width=');
    });
  });

  describe('responsive images', () => {
    /** The <picture> of one tile, by file name. */
    const pictureOf = (html: string, name: string) =>
      /<picture>\s*<source ([^>]*)>\s*<img ([^>]*)>\s*<\/picture>/.exec(html.slice(html.indexOf(`data-name="${name}"`)))!;
    const attr = (attrs: string, name: string) => new RegExp(`\\b${name}="([^"]*)"`).exec(attrs)?.[1]?.replaceAll('&amp;', '&');
    const widthsOf = (srcset: string) => srcset.split(', ').map((c) => c.split(' ')[1]);

    it('should offer WebP in a <source> before the JPEG <img>, over the same five sizes', async () => {
      const res = await pageApp(index, fx.albumsDir, { dimensions: fakeDimensions }).get('/photos/2024/trip').expect(200);
      const [, source, img] = pictureOf(res.text, 'tall.jpg');
      expect(attr(source!, 'type')).to.equal('image/webp');
      const webp = attr(source!, 'srcset')!;
      const jpeg = attr(img!, 'srcset')!;
      expect(widthsOf(webp)).to.deep.equal(['400w', '600w', '800w', '1200w', '1920w']);
      expect(widthsOf(jpeg)).to.deep.equal(['400w', '600w', '800w', '1200w', '1920w']);
      expect(webp).to.include('/api/thumbnail?path=2024%2Ftrip%2Ftall.jpg&size=tile&format=webp&v=');
      expect(jpeg).to.include('/api/thumbnail?path=2024%2Ftrip%2Ftall.jpg&size=tile&v=').and.not.include('format=');
      expect(attr(img!, 'src')).to.match(/&size=small&v=/);
      // Both name the same sizes; the <img> keeps alt, dimensions and lazy loading.
      expect(attr(source!, 'sizes')).to.equal(attr(img!, 'sizes'));
      expect(img).to.include('alt="Photo 2 of 3" loading="lazy" decoding="async" width="800" height="1200"');
    });

    it('should size masonry tiles by their aspect ratio, and tiles of unknown shape by the default one', async () => {
      const res = await pageApp(index, fx.albumsDir, { dimensions: fakeDimensions }).get('/photos/2024/trip').expect(200);
      // 800×1200: a third of the width of a 2:1 photo in the same row.
      expect(attr(pictureOf(res.text, 'tall.jpg')[2]!, 'sizes')).to.equal('(max-width: 600px) min(94vw, 94px), min(94vw, 176px)');
      expect(attr(pictureOf(res.text, 'wide.jpg')[2]!, 'sizes')).to.equal('(max-width: 600px) min(94vw, 210px), min(94vw, 396px)');
    });

    it('should size album cards by the card grid', async () => {
      const res = await pageApp(index, fx.albumsDir).get('/photos/2024/trip').expect(200);
      const card = /<li class="card">[\s\S]*?<\/li>/.exec(res.text)![0];
      const [, source, img] = /<picture>\s*<source ([^>]*)>\s*<img ([^>]*)>/.exec(card)!;
      expect(attr(source!, 'type')).to.equal('image/webp');
      // A card is at most 362 px wide (1,086 px on a 3× screen): the 1920 px size is never picked, and not offered.
      expect(widthsOf(attr(source!, 'srcset')!)).to.deep.equal(['400w', '600w', '800w', '1200w']);
      expect(attr(source!, 'srcset')).to.include('format=webp');
      // The album page's cards sit in a grid, however deep the child album is.
      expect(attr(img!, 'sizes')).to.equal(CARD_SIZES.grid).and.equal(attr(source!, 'sizes'));
    });
  });

  describe('the page itself', () => {
    let text: string;
    before(async () => {
      text = (await pageApp(index, fx.albumsDir).get('/photos/2024/trip').expect(200)).text;
    });

    it('should list child albums as cards, with a lock on protected ones', async () => {
      expect(text).to.include('id="albums-heading"').and.include('Day two').and.include('card card--locked');
      expect(text).to.not.include('locked-photo');
    });

    it('should offer the ZIP download and the photo count', async () => {
      expect(text).to.include('href="/api/download-album?path=2024%2Ftrip">').and.include('2 photos · 1 video · 2 albums');
    });

    it('should hand the scripts versioned module URLs and the album-media API', async () => {
      expect(text).to.include('data-api="/api/album-media?path=2024%2Ftrip"');
      expect(text).to.match(/data-assets="[^"]*\/assets\/lightbox\.js\?v=[0-9a-f]{10}/);
      expect(text).to.match(/\/vendor\/photoswipe\/photoswipe\.esm\.min\.js\?v=[0-9a-f]{10}/);
      expect(text).to.match(/<script type="module" src="\/assets\/album\.js\?v=[0-9a-f]{10}"><\/script>/);
    });

    it('should hold nothing the CSP would block: no inline script (its words are a JSON data block), no style attribute', async () => {
      expect(text).to.not.match(/<script(?![^>]*\b(?:src=|type="application\/json"))/);
      expect(text).to.not.match(/\sstyle=/);
    });
  });

  describe('a locked album', () => {
    it('should put the focus in the password field and name the album', async () => {
      const res = await pageApp(index, fx.albumsDir).get('/photos/2024/secret').expect(200);
      expect(res.text)
        .to.match(/<input id="password"[^>]* autofocus/)
        .and.include('Secret');
      expect(res.text).to.not.include('role="alert"').and.not.include('s.jpg');
    });

    it('should explain a wrong password and mark the field', async () => {
      const res = await pageApp(index, fx.albumsDir).get('/photos/2024/secret?error=wrong-password').expect(200);
      expect(res.text).to.include('role="alert"').and.include('Wrong password').and.include('aria-invalid="true"');
    });

    it('should ignore an unknown error code', async () => {
      const res = await pageApp(index, fx.albumsDir).get('/photos/2024/secret?error=%3Cb%3E').expect(200);
      expect(res.text).to.not.include('role="alert"').and.not.include('<b>');
    });

    it("should tell how long a locked-out visitor still has to wait, by the limiter's clock, and disable the form", async () => {
      let clock = Date.now();
      const limiter = createPasswordLimiter(() => clock);
      const key = ipKeyGenerator('::ffff:127.0.0.1');
      for (let i = 0; i < MAX_FAILED_ATTEMPTS; i++) await limiter.store.increment(key);
      // A lockout that started ten minutes ago has five minutes left.
      clock += 10 * 60_000;
      const res = await pageApp(index, fx.albumsDir, { limiter }).get('/photos/2024/secret?error=rate-limited').expect(200);
      expect(res.text).to.include('Your password was not checked.').and.include('You can try again in <time class="lockout__time" datetime="PT5M0S"');
      expect(res.text)
        .to.include('data-lockout-seconds="300"')
        .and.match(/<fieldset class="unlock__fields" disabled>/);
      expect(LOCKOUT_MS).to.equal(15 * 60_000);
    });

    it('should say the lockout is over when the limiter holds none', async () => {
      const res = await pageApp(index, fx.albumsDir, { limiter: createPasswordLimiter() }).get('/photos/2024/secret?error=rate-limited').expect(200);
      expect(res.text)
        .to.include('You can try again now.')
        .and.not.include('data-lockout-seconds')
        .and.not.match(/<fieldset[^>]* disabled/);
    });

    it('should fall back to the full lockout when it cannot tell the time left', async () => {
      const res = await pageApp(index, fx.albumsDir).get('/photos/2024/secret?error=rate-limited').expect(200);
      expect(res.text).to.include('Please retry in 15 minutes.');
    });
  });
});
