import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { formatBytes } from '../../views/assets/byte-size.js';
import { launchBrowser } from '../support/browser.js';
import { GalleryFixture } from '../support/gallery-fixture.js';
import { writeVideo } from '../support/media-fixtures.js';
import { unzip, unzipTest } from '../zip/support.js';

/**
 * Choosing photos on an album page (issue 30, README "Choosing photos"), in Chromium with a
 * mouse, the keyboard and touch: the bar counts and sizes what is chosen, Download fetches a
 * ZIP of exactly those files (GET, or a form POST past 8 KB of address), the choice survives
 * infinite scroll and Back, Escape leaves.
 */
const TRIP = 'trips/lisbon';
const BIG = 'trips/big';
const TRIP_FILES = Array.from({ length: 12 }, (_, i) => `IMG_${String(i + 1).padStart(2, '0')}.jpg`);
/** Long names, as phones write them: 200 chosen make an address past 8 KB. */
const BIG_FILES = Array.from({ length: 250 }, (_, i) => `a-long-camera-roll-name-for-the-photo-${String(i + 1).padStart(4, '0')}.jpg`);

const DEVICES: [string, BrowserContextOptions][] = [
  ['a phone', { viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true, acceptDownloads: true }],
  ['a desktop', { viewport: { width: 1280, height: 800 }, acceptDownloads: true }],
];

describe('choosing photos, in Chromium', function () {
  this.timeout(180_000);
  const fx = new GalleryFixture();
  let browser: Browser;
  let server: http.Server;
  let base: string;

  before(async () => {
    await fx.build({ [TRIP]: { meta: { title: 'Lisbon' }, files: TRIP_FILES }, [BIG]: { meta: { title: 'Big' } } });
    // IMG_03.MOV is IMG_03.jpg's Live Photo movie: choosing the still brings it, and its bytes.
    await writeVideo(fx.path(TRIP, 'IMG_03.MOV'), { seconds: 1 });
    for (const name of BIG_FILES) fs.copyFileSync(fx.path(TRIP, 'IMG_01.jpg'), fx.path(BIG, name));
    await fx.start({ env: { WORKERS: '1' } });
    server = http.createServer(fx.gallery.handler);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
    await fx.close();
  });

  const sizeOf = (album: string, names: readonly string[]) =>
    names.reduce((sum, n) => sum + fs.statSync(fx.path(album, n)).size + (n === 'IMG_03.jpg' ? fs.statSync(fx.path(album, 'IMG_03.MOV')).size : 0), 0);
  const tile = (page: Page, name: string) => page.locator(`.media__item:has(a.media__link[data-name="${name}"])`);
  const chosenNames = (page: Page) => page.$$eval('.media__item.is-chosen a.media__link', (links) => links.map((a) => (a as HTMLElement).dataset.name));
  const barText = (page: Page) => page.locator('.select-bar__count').textContent();
  /** The locale the page writes numbers in (views/assets/strings.js). */
  const pageLocale = (page: Page) => page.evaluate(() => JSON.parse(document.getElementById('strings')!.textContent!).locale as string);

  /** Clicks Download and returns the request's method and the ZIP's entry names, checked by unzip -t. */
  async function download(page: Page): Promise<{ method: string; entries: string[] }> {
    const asked = page.waitForRequest((r) => r.url().includes('/api/download-album'));
    const arrived = page.waitForEvent('download');
    await page.locator('.select-bar__download').click();
    const [request, file] = await Promise.all([asked, arrived]);
    const zip = fs.readFileSync((await file.path())!);
    await unzipTest(zip);
    return { method: request.method(), entries: [...(await unzip(zip)).keys()] };
  }

  for (const [device, options] of DEVICES) {
    describe(`on ${device}`, () => {
      let context: BrowserContext;
      let page: Page;
      const touch = options.hasTouch === true;

      beforeEach(async () => {
        context = await browser.newContext(options);
        page = await context.newPage();
        await page.goto(`${base}/photos/${TRIP}`);
        await page.locator('.button--select').waitFor();
      });
      afterEach(() => context.close());

      /** A tap on a phone, a click on a desktop. */
      const press = async (name: string, modifiers: 'Shift'[] = []) => {
        if (touch && modifiers.length === 0) {
          // To the middle of the screen, as a thumb would scroll it: the bar covers the bottom.
          await tile(page, name).evaluate((el) => el.scrollIntoView({ block: 'center', behavior: 'instant' }));
          const box = (await tile(page, name).boundingBox())!;
          await page.touchscreen.tap(box.x + box.width / 2, box.y + box.height / 2);
        } else await tile(page, name).locator('a.media__link').click({ modifiers });
      };

      it('should choose with the Select button and taps, say how many and how big, and download exactly those files', async () => {
        await page.locator('.button--select').click();
        expect(await barText(page)).to.equal('Choose photos to download or share');
        const names = ['IMG_02.jpg', 'IMG_03.jpg', 'IMG_07.jpg'];
        for (const n of names) await press(n);
        expect(await chosenNames(page)).to.deep.equal(names);
        // No viewer opened: a tap chooses while choosing.
        expect(await page.locator('.pswp').count()).to.equal(0);
        expect(await barText(page)).to.equal(`3 photos · ${formatBytes(sizeOf(TRIP, names), await pageLocale(page))}`);
        const got = await download(page);
        expect(got.method).to.equal('GET');
        expect(got.entries).to.deep.equal(['IMG_02.jpg', 'IMG_03.jpg', 'IMG_03.MOV', 'IMG_07.jpg']);
        // A tap on a chosen tile takes it back out.
        await press('IMG_03.jpg');
        expect(await barText(page)).to.match(/^2 photos · /);
      });

      if (touch) {
        it('should start choosing on a long press, then choose by taps', async () => {
          // In view first: a touch outside the viewport lands on nothing (the header above the grid may be tall).
          await tile(page, 'IMG_05.jpg').scrollIntoViewIfNeeded();
          const box = (await tile(page, 'IMG_05.jpg').boundingBox())!;
          const cdp = await context.newCDPSession(page);
          const point = { x: Math.round(box.x + box.width / 2), y: Math.round(box.y + box.height / 2) };
          await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [point] });
          // Held until the tile shows chosen, however long the machine takes.
          await page.locator('.media__item.is-chosen').waitFor();
          await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
          expect(await page.locator('.select-bar').isVisible()).to.equal(true);
          await press('IMG_06.jpg');
          await press('IMG_08.jpg');
          expect(await chosenNames(page)).to.deep.equal(['IMG_05.jpg', 'IMG_06.jpg', 'IMG_08.jpg']);
          expect(await page.locator('.pswp').count()).to.equal(0);
          expect(await barText(page)).to.match(/^3 photos · /);
        });

        it('should still open the viewer on a plain tap when not choosing', async () => {
          await press('IMG_04.jpg');
          await page.locator('.pswp.pswp--open').waitFor();
          expect(await chosenNames(page)).to.deep.equal([]);
        });
      } else {
        it("should choose with a tile's checkbox, then a range with shift-click", async () => {
          await tile(page, 'IMG_02.jpg').hover();
          await tile(page, 'IMG_02.jpg').locator('input.select-check').click();
          await tile(page, 'IMG_06.jpg')
            .locator('a.media__link')
            .click({ modifiers: ['Shift'] });
          expect(await chosenNames(page)).to.deep.equal(['IMG_02.jpg', 'IMG_03.jpg', 'IMG_04.jpg', 'IMG_05.jpg', 'IMG_06.jpg']);
          expect(await barText(page)).to.match(/^5 photos · /);
          expect((await download(page)).entries).to.have.length(6);
        });

        it('should choose a whole day where tiles are grouped by day, and clear it again', async () => {
          // The album page is not grouped: its first four tiles are put in a day of their own,
          // as the timeline renders them (data-select-group around tiles, a head for its button).
          await page.evaluate(() => {
            const grid = document.getElementById('media')!;
            const day = document.createElement('li');
            day.dataset.selectGroup = '';
            day.innerHTML = '<h3 data-select-group-head>6 May</h3><ul></ul>';
            day.querySelector('ul')!.append(...[...grid.querySelectorAll(':scope > .media__item')].slice(0, 4));
            grid.prepend(day);
          });
          const dayButton = page.locator('[data-select-group] [data-select-day]');
          await dayButton.waitFor({ state: 'attached' });
          expect(await dayButton.isVisible()).to.equal(false);
          await page.locator('.button--select').click();
          await dayButton.click();
          expect(await chosenNames(page)).to.deep.equal(['IMG_01.jpg', 'IMG_02.jpg', 'IMG_03.jpg', 'IMG_04.jpg']);
          expect(await dayButton.getAttribute('aria-pressed')).to.equal('true');
          await dayButton.click();
          expect(await chosenNames(page)).to.deep.equal([]);
        });

        it('should be reachable by keyboard: Space chooses, Escape leaves', async () => {
          await page.locator('.button--select').focus();
          await page.keyboard.press('Enter');
          await page.keyboard.press('Tab');
          await page.keyboard.press('Space');
          await page.keyboard.press('Tab');
          await page.keyboard.press('Tab');
          await page.keyboard.press('Space');
          expect(await chosenNames(page)).to.deep.equal(['IMG_01.jpg', 'IMG_03.jpg']);
          expect(await page.evaluate(() => document.activeElement?.matches('input.select-check'))).to.equal(true);
          await page.keyboard.press('Escape');
          expect(await page.locator('.select-bar').isVisible()).to.equal(false);
          expect(await chosenNames(page)).to.deep.equal([]);
          expect(await page.evaluate(() => document.activeElement?.classList.contains('button--select'))).to.equal(true);
        });
      }

      it('should keep the choice through infinite scroll and Back, and post a long choice as a form', async () => {
        await page.goto(`${base}/photos/${BIG}`);
        await page.locator('.button--select').click();
        await press(BIG_FILES[0]!);
        await tile(page, BIG_FILES[199]!)
          .locator('a.media__link')
          .click({ modifiers: ['Shift'] });
        expect(await barText(page)).to.match(/^200 photos · /);
        // The next page's tiles arrive as the end comes into view; one of them is chosen too.
        await tile(page, BIG_FILES[230]!)
          .waitFor({ state: 'attached', timeout: 60_000 })
          .catch(async () => {
            await page.locator('.pagination button').click();
            await tile(page, BIG_FILES[230]!).waitFor({ state: 'attached' });
          });
        await tile(page, BIG_FILES[230]!).scrollIntoViewIfNeeded();
        await press(BIG_FILES[230]!);
        expect(await barText(page)).to.equal(`201 photos · ${formatBytes(sizeOf(BIG, [...BIG_FILES.slice(0, 200), BIG_FILES[230]!]), await pageLocale(page))}`);
        // Away and Back: the page comes back with its first 200 tiles and the whole choice.
        await page.goto(`${base}/photos/${TRIP}`);
        await page.goBack();
        await page.locator('.select-bar:not([hidden])').waitFor();
        expect(await barText(page)).to.match(/^201 photos · /);
        expect(await page.locator('.media__item.is-chosen').count()).to.be.at.least(200);
        const got = await download(page);
        expect(got.method).to.equal('POST');
        expect(got.entries).to.deep.equal([...BIG_FILES.slice(0, 200), BIG_FILES[230]]);
      });
    });
  }

  describe('sharing', () => {
    it("should hand the album's own address to the share sheet, and hide Share where there is none", async () => {
      const context = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
      try {
        const page = await context.newPage();
        await page.goto(`${base}/photos/${TRIP}`);
        await page.locator('.button--select').click();
        expect(await page.locator('.select-bar__share').isVisible()).to.equal(await page.evaluate(() => typeof navigator.share === 'function'));
        // A share sheet standing in for the system's, which headless Chromium on Linux lacks.
        await page.addInitScript(() => {
          const shared: ShareData[] = [];
          Object.assign(window, { shared });
          navigator.share = async (data?: ShareData) => void shared.push(data ?? {});
        });
        await page.reload();
        await page.locator('.select-bar__share').waitFor();
        await tile(page, 'IMG_04.jpg').locator('a.media__link').click();
        await page.locator('.select-bar__share').click();
        await tile(page, 'IMG_05.jpg').locator('a.media__link').click();
        await page.locator('.select-bar__share').click();
        const shared = await page.evaluate(() => (window as unknown as { shared: ShareData[] }).shared);
        expect(shared.map((s) => s.url)).to.deep.equal([`${base}/photos/${TRIP}#photo=IMG_04.jpg`, `${base}/photos/${TRIP}`]);
        expect(shared[0]!.title).to.equal('Lisbon');
      } finally {
        await context.close();
      }
    });
  });
});
