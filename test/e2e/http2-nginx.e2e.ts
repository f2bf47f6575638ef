import path from 'node:path';
import { expect } from 'chai';
import type { Browser, BrowserContext } from 'playwright-core';
import { loadConfig } from '../../server/core/config.js';
import { createGallery, type Gallery } from '../../server/gallery.js';
import { launchBrowser } from '../support/browser.js';
import { quietLogger } from '../support/capture-logger.js';
import { writeJpeg } from '../support/gallery-fixture.js';
import { listenOnLoopback, type LoopbackServer } from '../support/loopback-server.js';
import { NginxServer } from '../support/nginx.js';
import { freePorts, onPath } from '../support/redis-server.js';
import { makeTempDir, removeTempDir, writeAlbum } from '../support/temp-dir.js';

const ALBUM = '2024/wedding/guests';
const PHOTOS = 60;

/**
 * An album page of 60 cold photos opened in Chromium over HTTP/2 through nginx
 * (deploy/nginx.conf, TLS with a certificate made for the test): every tile's thumbnail is
 * asked at once on one connection, nginx spreads them over its kept-alive connections to the
 * gallery, and not one tile may end broken. Needs Debian's nginx and openssl; skipped without.
 */
describe('a cold album page over HTTP/2 through nginx, in Chromium', function () {
  this.timeout(180_000);
  const root = makeTempDir('http2-e2e-');
  const albumsDir = path.join(root, 'albums');
  let gallery: Gallery | undefined;
  let server: LoopbackServer | undefined;
  let nginx: NginxServer | undefined;
  let browser: Browser | undefined;
  let context: BrowserContext | undefined;

  before(async function () {
    const missing = ['nginx', 'openssl'].filter((c) => !onPath(c));
    if (missing.length > 0) {
      console.log(`    (skipped: ${missing.join(', ')} not installed; Debian: apt-get install nginx-light openssl)`);
      this.skip();
    }
    const dir = writeAlbum(albumsDir, ALBUM, { title: 'Guests' });
    for (let i = 1; i <= PHOTOS; i++) await writeJpeg(path.join(dir, `IMG_${i}.jpg`), 1600, 1200, (i * 47) % 360);
    const config = loadConfig({ ALBUMS_DIR: albumsDir, CACHE_DIR: path.join(root, 'cache'), CONTENT_DIR: path.join(root, 'content'), TRUST_PROXY: 'loopback' });
    gallery = await createGallery(config, { watch: false, log: quietLogger });
    server = await listenOnLoopback(gallery.handler);
    const [httpPort, httpsPort] = (await freePorts(2)) as [number, number];
    nginx = new NginxServer({ upstreams: [new URL(server.url).host], httpPort, httpsPort });
    await nginx.start();
    browser = await launchBrowser();
  });

  after(async () => {
    await context?.close();
    await browser?.close();
    await nginx?.close();
    await server?.close();
    await gallery?.close();
    removeTempDir(root);
  });

  it('should show every tile, none broken, every thumbnail over h2', async () => {
    // The certificate is the test's own: the browser is told to accept it.
    context = await browser!.newContext({ viewport: { width: 1440, height: 900 }, deviceScaleFactor: 2, ignoreHTTPSErrors: true });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));
    const failed: string[] = [];
    page.on('requestfailed', (req) => failed.push(`${req.url()}: ${req.failure()?.errorText}`));
    await page.goto(`${nginx!.httpsUrl}/photos/${ALBUM}`, { waitUntil: 'domcontentloaded' });
    expect(await page.evaluate(() => (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming).nextHopProtocol)).to.equal('h2');

    // Down the page, so the lazy tiles are asked for too.
    const tiles = page.locator('a.media__link');
    expect(await tiles.count()).to.equal(PHOTOS);
    for (let y = 0; y < 20; y++) {
      await page.mouse.wheel(0, 600);
      await page.waitForTimeout(150);
    }
    await page.waitForFunction(
      () =>
        [...document.querySelectorAll<HTMLElement>('a.media__link')].every((link) => {
          const img = link.querySelector('img');
          return (img?.complete && img.naturalWidth > 0 && link.dataset.image !== 'loading') || link.querySelector('.media__unavailable') !== null;
        }),
      null,
      { timeout: 150_000, polling: 500 },
    );
    const broken = await page.$$eval('a.media__link', (links) =>
      links
        .filter((link) => {
          const img = link.querySelector('img');
          return !img || img.naturalWidth === 0 || link.querySelector('.media__unavailable') !== null;
        })
        .map((link) => (link as HTMLElement).dataset.name),
    );
    expect(broken, 'broken tiles').to.deep.equal([]);
    const protocols = await page.evaluate(() =>
      (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).filter((e) => e.name.includes('/api/thumbnail')).map((e) => e.nextHopProtocol),
    );
    expect(protocols.length).to.be.at.least(PHOTOS);
    expect(new Set(protocols)).to.deep.equal(new Set(['h2']));
    expect(failed, 'failed requests').to.deep.equal([]);
    expect(errors).to.deep.equal([]);
  });
});
