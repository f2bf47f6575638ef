import { expect } from 'chai';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { launchBrowser } from '../support/browser.js';
import { GalleryFixture, writeJpeg } from '../support/gallery-fixture.js';
import { listenOnLoopback, type LoopbackServer } from '../support/loopback-server.js';

/**
 * "New" marks in Chromium (README "What is new"): what arrived since this browser's last visit
 * of a page is marked on the album's tiles and on the album's card of /photos, in the page's
 * language, kept through reloads of the same visit, and gone on the next visit.
 */

const PHONE: BrowserContextOptions = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true, locale: 'de-DE' };
const DESKTOP: BrowserContextOptions = { viewport: { width: 1280, height: 900 }, locale: 'en-GB' };

describe('new marks in Chromium', function () {
  this.timeout(120_000);
  const fx = new GalleryFixture();
  let server: LoopbackServer;
  let browser: Browser;

  before(async function () {
    await fx.build({ '2024/trip': { meta: { title: 'Trip' }, files: ['a.jpg', 'b.jpg'] }, '2024/other': { meta: { title: 'Other' }, files: ['o.jpg'] } });
    await fx.start();
    server = await listenOnLoopback(fx.gallery.handler);
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
    await fx.close();
  });

  /** Names of the tiles marked new, and the marks' words. */
  async function markedTiles(page: Page): Promise<{ names: string[]; words: string[] }> {
    return page.evaluate(() => {
      const marked = [...document.querySelectorAll('.media__link')].filter((a) => a.querySelector('.badge--new'));
      return { names: marked.map((a) => a.getAttribute('data-name') ?? ''), words: marked.map((a) => a.querySelector('.badge--new')?.textContent ?? '') };
    });
  }
  const markedCards = (page: Page) =>
    page.evaluate(() =>
      [...document.querySelectorAll('.card')].filter((c) => c.querySelector('.badge--new')).map((c) => c.querySelector('.card__title')?.textContent ?? ''),
    );

  /** Opens `path` in a new tab of the context (a new visit: its own sessionStorage) once its scripts ran. */
  async function visit(pages: { newPage(): Promise<Page> }, path: string): Promise<Page> {
    const page = await pages.newPage();
    await page.goto(`${server.url}${path}`, { waitUntil: 'load' });
    // new-marks.js says how many it marked once it is done.
    await page.waitForFunction(() => document.body.dataset.newMarks !== undefined);
    return page;
  }

  for (const [device, options, word] of [
    ['a phone', PHONE, 'Neu'],
    ['a desktop', DESKTOP, 'New'],
  ] as const) {
    it(`should mark on ${device} what arrived since the last visit, and only that`, async () => {
      const context = await browser.newContext(options);
      try {
        const album = '/photos/2024/trip';
        // A first visit marks nothing: everything would be new.
        const first = await visit(context, album);
        expect(await markedTiles(first)).to.deep.equal({ names: [], words: [] });
        await visit(context, '/photos');
        await first.close();

        const added = `new-${device.replace(/\W/g, '')}.jpg`;
        await writeJpeg(fx.path(`2024/trip/${added}`));
        await fx.gallery.index.rescan();

        const next = await visit(context, album);
        expect(await markedTiles(next)).to.deep.equal({ names: [added], words: [word] });
        // The word is part of the tile's accessible name.
        expect(await next.locator(`a.media__link[data-name="${added}"]`).evaluate((a) => a.textContent ?? '')).to.include(word);
        // A reload within the visit keeps the marks not looked at yet.
        await next.reload({ waitUntil: 'load' });
        await next.waitForFunction(() => document.body.dataset.newMarks !== undefined);
        expect((await markedTiles(next)).names).to.deep.equal([added]);

        const photos = await visit(context, '/photos');
        expect(await markedCards(photos)).to.deep.equal(['Trip']);

        // The next visit has seen it.
        const later = await visit(context, album);
        expect(await markedTiles(later)).to.deep.equal({ names: [], words: [] });
      } finally {
        await context.close();
      }
    });
  }
});
