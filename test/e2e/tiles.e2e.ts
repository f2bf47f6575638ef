import { galleryWithFactsRead } from './gallery-fixtures.js';
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import type { Browser, BrowserContext, Page, Route } from 'playwright-core';
import type { Gallery } from '../../server/gallery.js';
import { launchBrowser } from '../support/browser.js';
import { writeJpeg } from '../support/gallery-fixture.js';
import { listenOnLoopback, type LoopbackServer } from '../support/loopback-server.js';
import { writeUnreadableJpeg } from '../support/media-fixtures.js';
import { makeTempDir, removeTempDir, writeAlbum } from '../support/temp-dir.js';

const TRIP = '2024/trip';
const BIG = '2024/big';
/** Page 1 holds 200 media: the broken photo of the big album comes with infinite scroll. */
const BIG_COUNT = 203;
const THUMBNAILS = '**/api/thumbnail?*';

/**
 * Tiles that are never grey walls, never broken (docs/api.md#tiles), in Debian's Chromium:
 * ThumbHash placeholders before the thumbnails, a 503 retried after Retry-After, a designed
 * tile for a photo that cannot be shown, and the lightbox's code fetched before the first tap.
 */
describe('album tiles in Chromium', function () {
  this.timeout(90_000);
  const root = makeTempDir('tiles-e2e-');
  const albumsDir = path.join(root, 'albums');
  let gallery: Gallery;
  let server: LoopbackServer | undefined;
  let browser: Browser;
  const contexts: BrowserContext[] = [];

  before(async function () {
    this.timeout(120_000);
    const trip = writeAlbum(albumsDir, TRIP, { title: 'Trip' });
    for (let i = 1; i <= 4; i++) await writeJpeg(path.join(trip, `IMG_${i}.jpg`), 800, 600, i * 70);
    await writeUnreadableJpeg(path.join(trip, 'IMG_5.jpg'));
    const big = writeAlbum(albumsDir, BIG, { title: 'Big' });
    await writeJpeg(path.join(big, 'IMG_1.jpg'), 64, 48);
    for (let i = 2; i < BIG_COUNT; i++) fs.copyFileSync(path.join(big, 'IMG_1.jpg'), path.join(big, `IMG_${i}.jpg`));
    await writeUnreadableJpeg(path.join(big, `IMG_${BIG_COUNT}.jpg`));
    gallery = await galleryWithFactsRead(root);
    server = await listenOnLoopback(gallery.handler);
    browser = await launchBrowser();
  });

  after(async () => {
    await browser?.close();
    await server?.close();
    await gallery?.close();
    removeTempDir(root);
  });

  afterEach(async () => {
    await Promise.all(contexts.splice(0).map((c) => c.close()));
  });

  /** A fresh page (own cache) that records script errors; `routes` are set before it loads. */
  async function openPage(albumPath: string, routes?: (page: Page) => Promise<unknown>): Promise<{ page: Page; errors: string[] }> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    contexts.push(context);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));
    await routes?.(page);
    await page.goto(`${server!.url}/photos/${albumPath}`, { waitUntil: 'domcontentloaded' });
    return { page, errors };
  }

  /** The tile of a file: its link and its thumbnail. */
  const tile = (page: Page, name: string) => page.locator(`a.media__link[data-name="${name}"]`);

  /** Waits until every named tile's thumbnail is decoded and shown. */
  async function waitForLoaded(page: Page, names: readonly string[]): Promise<void> {
    await page.waitForFunction(
      (ns) =>
        ns.every((n) => {
          const link = document.querySelector<HTMLElement>(`a.media__link[data-name="${n}"]`);
          const img = link?.querySelector('img');
          return img?.complete && img.naturalWidth > 0 && link?.dataset.image !== 'loading' && getComputedStyle(img).opacity === '1';
        }),
      names,
      { timeout: 30_000 },
    );
  }

  describe('while the thumbnails are on their way', () => {
    it('should show each photo’s placeholder first, then fade its thumbnail in', async () => {
      const held: Route[] = [];
      const { page, errors } = await openPage(TRIP, (p) => p.route(THUMBNAILS, (route) => void held.push(route)));
      await page.waitForFunction(
        () => document.querySelector<HTMLElement>('a.media__link[data-name="IMG_1.jpg"]')?.style.backgroundImage.startsWith('url("data:image/png'),
        null,
        {
          timeout: 10_000,
        },
      );
      const before = await tile(page, 'IMG_1.jpg').evaluate((link) => {
        const img = link.querySelector('img')!;
        return { state: (link as HTMLElement).dataset.image, opacity: getComputedStyle(img).opacity, loaded: img.naturalWidth > 0 };
      });
      expect(before).to.deep.equal({ state: 'loading', opacity: '0', loaded: false });
      // Each photo its own colours: the placeholders differ.
      const backgrounds = await page.$$eval('a.media__link', (links) => links.map((l) => (l as HTMLElement).style.backgroundImage));
      expect(new Set(backgrounds.slice(0, 4)).size).to.equal(4);

      // The fade: opacities in between 0 and 1 are seen while the thumbnail comes in.
      // (No named function inside: the test's compiler would wrap it in a helper the page lacks.)
      const seen = tile(page, 'IMG_1.jpg').evaluate(
        (link) =>
          new Promise<number[]>((resolve) => {
            const img = link.querySelector('img')!;
            const values: number[] = [];
            const timer = setInterval(() => {
              values.push(Number(getComputedStyle(img).opacity));
              if (values.at(-1) !== 1 && values.length < 1000) return;
              clearInterval(timer);
              resolve(values);
            }, 10);
          }),
      );
      for (const route of held.splice(0)) await route.continue();
      await page.unroute(THUMBNAILS);
      const opacities = await seen;
      expect(opacities.at(-1)).to.equal(1);
      expect(
        opacities.some((o) => o > 0 && o < 1),
        `opacities ${opacities.join(' ')}`,
      ).to.equal(true);
      await waitForLoaded(page, ['IMG_1.jpg']);
      // The placeholder goes once the thumbnail is shown.
      await page.waitForFunction(() => document.querySelector<HTMLElement>('a.media__link[data-name="IMG_1.jpg"]')?.style.backgroundImage === '', null, {
        timeout: 5000,
      });
      expect(errors).to.deep.equal([]);
    });

    it('should show the thumbnail without a fade to a visitor who asks for reduced motion', async () => {
      const { page } = await openPage(TRIP, (p) => p.emulateMedia({ reducedMotion: 'reduce' }));
      const duration = await tile(page, 'IMG_1.jpg').evaluate((link) => getComputedStyle(link.querySelector('img')!).transitionDuration);
      expect(duration.split(',').every((d) => Number.parseFloat(d) === 0)).to.equal(true);
    });
  });

  describe('a thumbnail the server is too busy for', () => {
    it('should be asked again after Retry-After and end up shown, never as a broken image', async () => {
      // Per URL, when each request came: the <img>'s and the script's first look both get a 503.
      const asked = new Map<string, number[]>();
      const { page, errors } = await openPage(TRIP, (p) =>
        p.route(THUMBNAILS, (route) => {
          const url = route.request().url();
          const times = asked.get(url) ?? [];
          times.push(Date.now());
          asked.set(url, times);
          if (times.length > 2) return void route.continue();
          return void route.fulfill({
            status: 503,
            headers: { 'Retry-After': '1', 'Cache-Control': 'no-store' },
            contentType: 'application/json',
            body: '{"error":"The server is busy, try again shortly"}',
          });
        }),
      );
      const names = ['IMG_1.jpg', 'IMG_2.jpg', 'IMG_3.jpg', 'IMG_4.jpg'];
      await waitForLoaded(page, names);
      for (const name of names) {
        const state = await tile(page, name).evaluate((link) => ({
          state: (link as HTMLElement).dataset.image,
          opacity: getComputedStyle(link.querySelector('img')!).opacity,
          unavailable: link.querySelector('.media__unavailable') !== null,
        }));
        expect(state, name).to.deep.equal({ state: 'loaded', opacity: '1', unavailable: false });
      }
      for (const [url, times] of asked) {
        if (url.includes('IMG_5.jpg')) continue;
        expect(times.length, url).to.be.at.least(3);
        // Retry-After: 1 was honoured, with jitter on top and never less.
        expect(times[2]! - times[1]!, url).to.be.within(950, 2500);
      }
      expect(errors).to.deep.equal([]);
    });
  });

  describe('a slide the server is too busy for', () => {
    it('should say so, ask again after Retry-After, and show the photo, never "could not be loaded"', async () => {
      const { page, errors } = await openPage(TRIP);
      await waitForLoaded(page, ['IMG_1.jpg', 'IMG_2.jpg']);
      // From now on (the tiles are in), every thumbnail URL is answered 503 twice: the slide's
      // <img> and the script's first look; the script's next look, after Retry-After, gets it.
      const asked = new Map<string, number>();
      await page.route(THUMBNAILS, (route) => {
        const url = route.request().url();
        const n = (asked.get(url) ?? 0) + 1;
        asked.set(url, n);
        if (n > 2) return void route.continue();
        return void route.fulfill({
          status: 503,
          headers: { 'Retry-After': '1', 'Cache-Control': 'no-store' },
          contentType: 'application/json',
          body: '{"error":"The server is busy, try again shortly"}',
        });
      });
      await tile(page, 'IMG_2.jpg').click();
      await page.locator('.pswp.pswp--open').waitFor({ timeout: 15_000 });
      const message = page.locator('.pswp__item[aria-hidden="false"] .pswp__error-msg');
      await message.waitFor({ timeout: 15_000 });
      expect(await message.textContent()).to.be.oneOf(['Loading…', 'The server is busy: trying again…']);
      await page.waitForFunction(
        () => {
          const img = document.querySelector<HTMLImageElement>('.pswp__item[aria-hidden="false"] img.pswp__img:not(.pswp__img--placeholder)');
          return img?.complete === true && img.naturalWidth > 0 && !document.querySelector('.pswp__item[aria-hidden="false"] .pswp__error-msg');
        },
        undefined,
        { timeout: 20_000 },
      );
      const slideUrls = [...asked.keys()].filter((u) => !/size=(small|tile)\b/.test(u) || asked.get(u)! > 2);
      expect(slideUrls.length, 'a slide size was asked for').to.be.at.least(1);
      expect(Math.max(...asked.values()), 'asked again after the busy answers').to.be.at.least(3);
      expect(errors).to.deep.equal([]);
    });
  });

  describe('a photo that cannot be decoded', () => {
    it('should show the designed "cannot show" tile at the tile’s size, still linking to the original', async () => {
      const { page, errors } = await openPage(TRIP);
      const broken = tile(page, 'IMG_5.jpg');
      await broken.locator('.media__unavailable').waitFor({ state: 'visible', timeout: 30_000 });
      expect(await broken.locator('.media__unavailable').textContent()).to.equal('Cannot show this photo');
      expect(await broken.locator('img').evaluate((img) => getComputedStyle(img).visibility)).to.equal('hidden');
      expect(await broken.getAttribute('href')).to.equal(`/albums/${TRIP}/IMG_5.jpg`);
      const [good, bad] = await Promise.all([tile(page, 'IMG_1.jpg').boundingBox(), broken.boundingBox()]);
      expect(bad?.width).to.be.closeTo(good!.width, 1);
      expect(bad?.height).to.be.closeTo(good!.height, 1);
      expect(errors).to.deep.equal([]);
    });

    it('should do the same for a tile that infinite scroll added', async () => {
      const { page } = await openPage(BIG);
      await page.locator('.pagination').scrollIntoViewIfNeeded();
      const broken = tile(page, `IMG_${BIG_COUNT}.jpg`);
      await broken.waitFor({ state: 'attached', timeout: 30_000 });
      await broken.scrollIntoViewIfNeeded();
      await broken.locator('.media__unavailable').waitFor({ state: 'visible', timeout: 30_000 });
    });
  });

  describe('the lightbox', () => {
    it('should fetch its code once the page is idle, before any tap', async () => {
      const requested: string[] = [];
      const { page } = await openPage(TRIP, async (p) => p.on('request', (req) => requested.push(new URL(req.url()).pathname)));
      const lightboxCode = ['/assets/lightbox.js', '/vendor/photoswipe/photoswipe-lightbox.esm.min.js', '/vendor/photoswipe/photoswipe.esm.min.js'];
      const deadline = Date.now() + 10_000;
      while (!lightboxCode.every((p) => requested.includes(p)) && Date.now() < deadline) await page.waitForTimeout(100);
      expect(requested).to.include.members(lightboxCode);
      expect(await page.locator('.pswp').count()).to.equal(0);
    });

    it('should mark the tapped tile while its code loads, then open', async () => {
      const held: Route[] = [];
      const { page } = await openPage(TRIP, (p) => p.route('**/assets/lightbox.js?*', (route) => void held.push(route)));
      await waitForLoaded(page, ['IMG_1.jpg']);
      await tile(page, 'IMG_1.jpg').click();
      expect(await tile(page, 'IMG_1.jpg').getAttribute('data-opening')).to.equal('');
      for (const route of held.splice(0)) await route.continue();
      await page.unroute('**/assets/lightbox.js?*');
      await page.locator('.pswp').waitFor({ state: 'visible', timeout: 10_000 });
      await page.waitForFunction(() => !document.querySelector('a.media__link[data-opening]'), null, { timeout: 5000 });
    });
  });
});
