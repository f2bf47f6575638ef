import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import express from 'express';
import request from 'supertest';
import { forbidden } from '../../server/core/errors.js';
import { VIEWS_DIR } from '../../server/core/root-dir.js';
import { errorHandler } from '../../server/http/error-handler.js';
import { createAssetUrls } from '../../server/public/pages/asset-urls.js';
import { refusedPageFor } from '../../server/public/pages/refused-page.js';
import { translatorFor } from '../../server/http/i18n.js';
import { writeVideo } from '../support/media-fixtures.js';
import { quietLogger } from '../support/capture-logger.js';
import { accessCookie, GalleryFixture } from '../support/gallery-fixture.js';

/** What Chromium sends when a link is opened in a tab (a navigation). */
const BROWSER_NAVIGATION =
  'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7';
/** What Chromium sends for an `<img>`. */
const IMAGE_REQUEST = 'image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8';
const LOCKED_ERROR = { error: 'This album is protected: unlock it first' };

/**
 * A browser that opens a file, a thumbnail or the ZIP of an album it may not read gets a page
 * in the site's look with a link to unlock the album; API clients (fetch, curl, supertest:
 * `*\/*` or nothing) keep the JSON error exactly as before (docs/api.md, conventions).
 */
describe('refused files in a browser', function () {
  this.timeout(60_000);
  const fx = new GalleryFixture();
  let app: ReturnType<typeof request>;
  const LOCKED = '2024/family/wedding';
  const q = (p: string) => encodeURIComponent(p);

  before(async () => {
    await fx.build({
      '2024/open': { meta: { title: 'Open album' }, files: ['pub.jpg'] },
      [LOCKED]: { meta: { title: 'Our wedding', password: 'pw', token: 't-wedding' }, files: ['kiss.jpg'] },
    });
    await writeVideo(fx.path(LOCKED, 'dance.mp4'), { seconds: 1 });
    // A link in a public album to a photo of the locked one: the page must not name the target.
    fs.symlinkSync(path.relative(fx.path('2024/open'), fx.path(LOCKED, 'kiss.jpg')), fx.path('2024/open', 'linked.jpg'));
    await fx.start({ env: { WORKERS: '1' } });
    app = request(fx.gallery.handler);
  });
  after(() => fx.close());

  const refusedUrls = {
    original: `/albums/${LOCKED}/kiss.jpg`,
    'original that does not exist': `/albums/${LOCKED}/no-such.jpg`,
    video: `/albums/${LOCKED}/dance.mp4`,
    thumbnail: `/api/thumbnail?path=${q(`${LOCKED}/kiss.jpg`)}&size=small`,
    'full-size': `/api/full-size?path=${q(`${LOCKED}/kiss.jpg`)}`,
    'web video': `/api/web-video?path=${q(`${LOCKED}/dance.mp4`)}`,
    EXIF: `/api/exif?path=${q(`${LOCKED}/kiss.jpg`)}`,
    'video info': `/api/video-info?path=${q(`${LOCKED}/dance.mp4`)}`,
    ZIP: `/api/download-album?path=${q(LOCKED)}`,
    'ZIP with videos': `/api/download-album?path=${q(LOCKED)}&videos=1`,
  };

  for (const [what, url] of Object.entries(refusedUrls)) {
    it(`should answer a browser opening the ${what} with a styled 401 page linking to the album`, async () => {
      const res = await app.get(url).set('Accept', BROWSER_NAVIGATION).expect(401);
      expect(res.headers['content-type']).to.equal('text/html; charset=utf-8');
      expect(res.headers['cache-control']).to.equal('no-store');
      expect(res.headers.vary).to.include('Accept');
      expect(res.headers['content-disposition']).to.equal(undefined);
      // The site's page: its stylesheet, header and the way to unlock.
      expect(res.text).to.match(/<link rel="stylesheet" href="\/assets\/site\.css\?v=[0-9a-f]{10}">/);
      expect(res.text).to.include('<header class="site-header">').and.include('This is in a private album');
      expect(res.text).to.include(`<a class="button" href="/photos/${LOCKED}">Unlock “Our wedding”</a>`);
      expect(res.text).to.not.include('kiss.jpg').and.not.include('dance.mp4').and.not.include('{"error"');
    });

    it(`should keep the JSON error of the ${what} for API clients`, async () => {
      const bare = await app.get(url).expect(401);
      expect(bare.body).to.deep.equal(LOCKED_ERROR);
      for (const accept of ['*/*', 'application/json', IMAGE_REQUEST, 'application/json, text/html;q=0.5']) {
        const res = await app.get(url).set('Accept', accept).expect(401);
        expect(res.headers['content-type'], accept).to.equal('application/json; charset=utf-8');
        expect(res.text, accept).to.equal(bare.text);
      }
    });
  }

  it('should link a refused symlink to the album the visitor asked for, never to the one it leads into', async () => {
    const res = await app.get('/albums/2024/open/linked.jpg').set('Accept', BROWSER_NAVIGATION).expect(401);
    expect(res.text).to.include('href="/photos/2024/open"').and.not.include('wedding').and.not.include('Our wedding');
  });

  it('should serve the file itself to a browser that has unlocked the album', async () => {
    const res = await app
      .get(refusedUrls.original)
      .set('Accept', BROWSER_NAVIGATION)
      .set('Cookie', accessCookie(['t-wedding']))
      .expect(200);
    expect(res.headers['content-type']).to.equal('image/jpeg');
  });

  it('should keep JSON for errors other than 401 and 403, and for requests that are not navigations', async () => {
    const missing = await app.get('/albums/2024/open/no-such.jpg').set('Accept', BROWSER_NAVIGATION).expect(404);
    expect(missing.body).to.deep.equal({ error: 'File not found' });
    const bad = await app.get('/api/thumbnail?path=..%2Fx.jpg&size=small').set('Accept', BROWSER_NAVIGATION).expect(400);
    expect(bad.headers['content-type']).to.match(/json/);
    const crossSite = await app
      .post('/api/unlock')
      .type('form')
      .set('Accept', BROWSER_NAVIGATION)
      .set('Sec-Fetch-Site', 'cross-site')
      .send({ albumPath: LOCKED, password: 'pw' })
      .expect(403);
    expect(crossSite.headers['content-type']).to.match(/json/);
  });

  describe('a 403 (a file refused for another reason, such as a link without downloads)', () => {
    /** The public app's error path on a route that refuses with 403, as a share link without downloads does. */
    function refusingApp() {
      const small = express();
      small.set('view engine', 'ejs');
      small.set('views', VIEWS_DIR);
      small.locals.asset = createAssetUrls({ '/assets/': path.join(VIEWS_DIR, 'assets') });
      small.get('/api/download-album', () => {
        throw forbidden('Downloads are turned off for this link');
      });
      small.use(errorHandler({ log: quietLogger, refusedPage: refusedPageFor(fx.gallery.index, () => translatorFor('en')) }));
      return request(small);
    }

    it('should give a browser the same styled page, with the reason and a link back to the album', async () => {
      const res = await refusingApp()
        .get(`/api/download-album?path=${q(LOCKED)}`)
        .set('Accept', BROWSER_NAVIGATION)
        .expect(403);
      expect(res.headers['content-type']).to.equal('text/html; charset=utf-8');
      expect(res.text)
        .to.include('This share link does not allow downloads: ask the person who sent it for the original.')
        .and.include(`<a class="button" href="/photos/${LOCKED}">Back to “Our wedding”</a>`);
    });

    it('should keep the JSON error for API clients', async () => {
      const res = await refusingApp()
        .get(`/api/download-album?path=${q(LOCKED)}`)
        .set('Accept', '*/*')
        .expect(403);
      expect(res.body).to.deep.equal({ error: 'Downloads are turned off for this link' });
    });

    it('should link to all albums when the request names no album', async () => {
      const res = await refusingApp().get('/api/download-album?path=no%2Fsuch').set('Accept', BROWSER_NAVIGATION).expect(403);
      expect(res.text).to.include('<a class="button" href="/photos">Back to the albums</a>');
    });
  });
});
