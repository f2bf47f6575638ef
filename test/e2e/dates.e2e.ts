import fs from 'node:fs';
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, showsFile } from '../support/browser.js';
import { eventually, GalleryFixture } from '../support/gallery-fixture.js';
import { listenOnLoopback, type LoopbackServer } from '../support/loopback-server.js';
import { writeDatedJpeg, writeJpeg } from '../support/media-fixtures.js';

/**
 * Dates taken in Debian's Chromium (docs/api.md#dates): the viewer's caption shows when the
 * photo was taken, in the visitor's locale and as the camera's clock showed it (no time-zone
 * shift), for photos of the page and for photos the viewer fetched from the album-media API;
 * the file name is in the details panel, not in the caption.
 */
describe('dates taken in Chromium', function () {
  this.timeout(120_000);
  const ALBUM = '2024/family';
  const BIG = '2024/many';
  const BIG_COUNT = 201;
  const CAPTIONED = '2024/party';
  const fx = new GalleryFixture();
  let server: LoopbackServer | undefined;
  let browser: Browser;

  before(async function () {
    this.timeout(180_000);
    await fx.build({
      [ALBUM]: { meta: { title: 'Family week', sort: 'date' } },
      [BIG]: { meta: { title: 'Many', sort: 'date' } },
      [CAPTIONED]: { meta: { title: 'Party', captions: { 'DSC_0001.jpg': "Grandma's 90th" } } },
    });
    await writeDatedJpeg(fx.path(CAPTIONED, 'DSC_0001.jpg'), '2024:06:03 14:03:00', 1200, 800);
    await writeDatedJpeg(fx.path(ALBUM, 'DSCF4102.jpg'), '2024:06:03 14:03:00', 1200, 800);
    await writeDatedJpeg(fx.path(ALBUM, 'IMG_0001.jpg'), '2024:06:09 18:30:00', 800, 1200);
    // 201 photos without EXIF, dated by their mtimes: IMG_1 is the newest, alone on page 2.
    const seed = fx.path(BIG, 'IMG_1.jpg');
    await writeJpeg(seed, 48, 32);
    for (let i = 1; i <= BIG_COUNT; i++) {
      const file = fx.path(BIG, `IMG_${i}.jpg`);
      if (i > 1) fs.copyFileSync(seed, file);
      const mtime = new Date(2024, 0, 1, 9, 0, BIG_COUNT - i);
      fs.utimesSync(file, mtime, mtime);
    }
    await fx.start({ env: { WORKERS: '2' } });
    server = await listenOnLoopback(fx.gallery.handler);
    // The dates are read in the background: wait until both albums have them all.
    for (const [albumPath, pages] of [
      [ALBUM, 1],
      [BIG, 2],
      [CAPTIONED, 1],
    ] as const) {
      await eventually(
        async () => {
          for (let page = 1; page <= pages; page++) {
            const res = await fetch(`${server!.url}/api/album-media?path=${albumPath}&page=${page}`);
            const body = (await res.json()) as { items: { taken: string | null }[] };
            if (body.items.some((i) => i.taken === null)) return false;
          }
          return true;
        },
        60_000,
        `the dates of ${albumPath}`,
      );
    }
    browser = await launchBrowser();
  });

  after(async () => {
    // The browser first: it holds connections to the server.
    await browser?.close();
    await server?.close();
    await fx.close();
  });

  const DESKTOP = { viewport: { width: 1440, height: 900 } };
  const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, hasTouch: true, isMobile: true };

  /** Runs `test` on `url` in a fresh context, closed afterwards; fails on any error of the page's scripts. */
  async function inPage(url: string, options: Parameters<Browser['newContext']>[0], test: (page: Page) => Promise<void>): Promise<void> {
    const context = await browser.newContext(options);
    try {
      const page = await context.newPage();
      const problems: string[] = [];
      page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
      await page.goto(`${server!.url}${url}`);
      await test(page);
      expect(problems).to.deep.equal([]);
    } finally {
      await context.close();
    }
  }

  const caption = (page: Page) => page.locator('.pswp__caption').textContent();

  it('should caption a photo with its date in the visitor’s locale, and name the file in the details panel (desktop)', async () => {
    await inPage(`/photos/${ALBUM}`, { ...DESKTOP, locale: 'en-GB', timezoneId: 'Europe/London' }, async (page) => {
      const tile = page.locator('a.media__link[data-name="DSCF4102.jpg"]');
      expect(await tile.getAttribute('data-taken')).to.equal('2024-06-03T14:03:00');
      expect(await tile.locator('img').getAttribute('alt')).to.equal('Photo taken 3 June 2024 at 14:03');
      await tile.click();
      await page.waitForFunction(showsFile, 'DSCF4102.jpg', { timeout: 10_000 });
      expect(await caption(page)).to.equal('3 Jun 2024, 14:03');

      await page.keyboard.press('i');
      const panel = page.locator('#exif-panel');
      await panel.waitFor({ state: 'visible' });
      expect(await panel.locator('h2').textContent()).to.equal('DSCF4102.jpg');
      expect(await caption(page)).not.to.include('DSCF4102');

      // On to the next photo: its own date.
      await page.keyboard.press('ArrowRight');
      await page.waitForFunction(showsFile, 'IMG_0001.jpg', { timeout: 10_000 });
      expect(await caption(page)).to.equal('9 Jun 2024, 18:30');
    });
  });

  it('should show the camera’s clock whatever the visitor’s time zone, in the visitor’s own format (phone)', async () => {
    await inPage(`/photos/${ALBUM}`, { ...PHONE, locale: 'de-DE', timezoneId: 'America/New_York' }, async (page) => {
      await page.locator('a.media__link[data-name="DSCF4102.jpg"]').tap();
      await page.waitForFunction(showsFile, 'DSCF4102.jpg', { timeout: 10_000 });
      expect(await caption(page)).to.equal('03.06.2024, 14:03');
    });
  });

  it('should caption a photo of a later page, which the viewer took from the album-media API', async () => {
    await inPage(`/photos/${BIG}#photo=IMG_1.jpg`, { ...DESKTOP, locale: 'en-GB' }, async (page) => {
      // Not on this page: its data came as JSON.
      expect(await page.locator('a.media__link[data-name="IMG_1.jpg"]').count()).to.equal(0);
      await page.waitForFunction(showsFile, 'IMG_1.jpg', { timeout: 15_000 });
      await page.waitForFunction(() => document.querySelector('.pswp__caption')?.textContent !== '', null, { timeout: 10_000 });
      // Its mtime, 09:03:20 on the server's clock, as a wall clock.
      expect(await caption(page)).to.equal('1 Jan 2024, 09:03');
      expect(await page.locator('.pswp__counter').textContent()).to.match(new RegExp(`^${BIG_COUNT}\\s*/\\s*${BIG_COUNT}$`));
    });
  });

  it('should put the owner’s caption before the date, and use it as the tile’s alt text', async () => {
    await inPage(`/photos/${CAPTIONED}`, { ...DESKTOP, locale: 'en-GB' }, async (page) => {
      const tile = page.locator('a.media__link[data-name="DSC_0001.jpg"]');
      expect(await tile.locator('img').getAttribute('alt')).to.equal("Grandma's 90th");
      await tile.click();
      await page.waitForFunction(showsFile, 'DSC_0001.jpg', { timeout: 10_000 });
      expect(await caption(page)).to.equal("Grandma's 90th · 3 Jun 2024, 14:03");
    });
  });
});
