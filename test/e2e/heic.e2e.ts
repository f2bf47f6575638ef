import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import type { Browser } from 'playwright-core';
import { loadConfig } from '../../server/core/config.js';
import { createGallery, type Gallery } from '../../server/gallery.js';
import { launchBrowser } from '../support/browser.js';
import { listenOnLoopback, type LoopbackServer } from '../support/loopback-server.js';
import { quietLogger } from '../support/capture-logger.js';
import { makeTempDir, removeTempDir, writeAlbum } from '../support/temp-dir.js';

/** A real iPhone HEIC (CC BY-SA 4.0, see test/fixtures/heic/ATTRIBUTION.md), 2566x3313. */
const IPHONE = path.join(import.meta.dirname, '..', 'fixtures', 'heic', 'IMG_5195.HEIC');

/**
 * Chromium cannot display HEIC: the tile and the viewer must show JPEGs made of it, and "view
 * full resolution" the full-size JPEG, never the HEIC itself.
 */
describe('HEIC photos in Chromium', function () {
  this.timeout(90_000);
  const root = makeTempDir('heic-e2e-');
  const albumsDir = path.join(root, 'albums');
  let gallery: Gallery;
  let server: LoopbackServer | undefined;
  let browser: Browser;
  let url = '';

  before(async function () {
    const phone = writeAlbum(albumsDir, '2025/phone', { title: 'Phone' });
    fs.copyFileSync(IPHONE, path.join(phone, 'IMG_5195.HEIC'));
    const config = loadConfig({ ALBUMS_DIR: albumsDir, CACHE_DIR: path.join(root, 'cache'), CONTENT_DIR: path.join(root, 'content'), WORKERS: '2' });
    gallery = await createGallery(config, { watch: false, log: quietLogger });
    server = await listenOnLoopback(gallery.handler);
    url = server.url;
    browser = await launchBrowser();
  });

  after(async () => {
    await browser?.close();
    await server?.close();
    await gallery?.close();
    removeTempDir(root);
  });

  it('should show the tile and the viewer as JPEGs, and the full-size JPEG at full resolution', async function () {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));
    const heicFetched: string[] = [];
    page.on('request', (req) => {
      if (/\.HEIC$/i.test(new URL(req.url()).pathname)) heicFetched.push(req.url());
    });
    try {
      await page.goto(`${url}/photos/2025/phone`);
      const tile = page.locator('a.media__link[data-name="IMG_5195.HEIC"] img');
      await page.waitForFunction(
        () => ((document.querySelector('a.media__link[data-name="IMG_5195.HEIC"] img') as HTMLImageElement | null)?.naturalWidth ?? 0) > 0,
        null,
        {
          timeout: 30_000,
        },
      );
      expect(await tile.evaluate((img) => (img as HTMLImageElement).currentSrc)).to.match(/\/api\/thumbnail\?/);

      await tile.click();
      await page.waitForFunction(
        () =>
          Array.from(document.querySelectorAll<HTMLImageElement>('.pswp__img')).some(
            (img) => img.complete && img.naturalWidth > 0 && img.currentSrc.includes('size='),
          ),
        null,
        { timeout: 30_000 },
      );
      const button = page.locator('.pswp__button--original-button');
      await button.waitFor({ state: 'visible' });
      await button.click();
      await page.waitForFunction(
        () =>
          Array.from(document.querySelectorAll<HTMLImageElement>('.pswp__img')).some(
            (img) => img.currentSrc.includes('/api/full-size') && img.complete && img.naturalWidth > 0,
          ),
        null,
        { timeout: 30_000 },
      );
      // What the slide now shows, decoded at its own size (Chromium reports the element's natural
      // size through the density of the srcset candidate it replaced).
      const shown = await page.evaluate(async () => {
        const img = Array.from(document.querySelectorAll<HTMLImageElement>('.pswp__img')).find((i) => i.currentSrc.includes('/api/full-size'))!;
        const probe = new Image();
        probe.src = img.currentSrc;
        await probe.decode();
        return [probe.naturalWidth, probe.naturalHeight];
      });
      expect(shown).to.deep.equal([2566, 3313]);
      expect(heicFetched, 'the browser never fetches the HEIC itself').to.deep.equal([]);
      expect(errors).to.deep.equal([]);
    } finally {
      await page.close();
    }
  });
});
