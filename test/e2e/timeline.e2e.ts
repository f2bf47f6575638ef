import { expect } from 'chai';
import type { BrowserContextOptions, Page } from 'playwright-core';
import { datedGallery, exifDate } from '../timeline/dated-gallery.js';
import { browseGallery } from './trip-browsing.js';

/**
 * The timeline in Debian's Chromium against the real gallery (README "Finding photos"): it
 * scrolls through months (the second page arrives by itself, its month gets its header), a
 * tile opens the album page's viewer on the file, and Back closes it on the timeline; on a
 * phone and on a desktop.
 */

const PHONE: BrowserContextOptions = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true };
const DESKTOP: BrowserContextOptions = { viewport: { width: 1440, height: 900 } };
const DEVICES = { phone: PHONE, desktop: DESKTOP } as const;

/** 40 photos a month, June to March 2023, in two albums: the first page (120) ends with May, March comes with the second. */
const MONTHS = [6, 5, 4, 3];
const PER_MONTH = 40;

describe('the timeline in Chromium', function () {
  this.timeout(120_000);
  const timeline = browseGallery(() => {
    const summer: Record<string, string> = {};
    const spring: Record<string, string> = {};
    for (const month of MONTHS)
      for (let i = 0; i < PER_MONTH; i++)
        (i % 2 ? summer : spring)[`${month}-${String(i).padStart(2, '0')}.jpg`] = exifDate(2023, month, 1 + (i % 28), 8 + (i % 12));
    return datedGallery({ 'family/summer': { meta: { title: 'Summer' }, files: summer }, 'family/spring': { meta: { title: 'Spring' }, files: spring } });
  });

  const months = (page: Page) => page.locator('.timeline__month h3').allTextContents();

  for (const [name, device] of Object.entries(DEVICES)) {
    describe(`on a ${name}`, () => {
      it('should scroll through the months, the second page arriving with its month’s header', async () => {
        const { page } = await timeline.open(device, '/timeline');
        expect(await months(page)).to.deep.equal(['June 2023', 'May 2023', 'April 2023']);
        expect(await page.locator('#media .media__item').count()).to.equal(120);
        // The headers stick under the site's header.
        const sticky = await page
          .locator('.timeline__month')
          .first()
          .evaluate((el) => getComputedStyle(el).position);
        expect(sticky).to.equal('sticky');
        // Scrolling down: no click, the next page comes as the end nears.
        await page.mouse.wheel(0, 200_000);
        await page.waitForFunction(() => document.querySelectorAll('#media .media__item').length === 160, undefined, { timeout: 15_000 });
        expect(await months(page)).to.deep.equal(['June 2023', 'May 2023', 'April 2023', 'March 2023']);
        const indices = await page.locator('#media a.media__link').evaluateAll((links) => links.map((a) => Number((a as HTMLElement).dataset.index)));
        expect(indices).to.deep.equal(indices.map((_, i) => i));
      });

      it('should open a tile in the viewer, and Back should close it on the timeline', async () => {
        const { page } = await timeline.open(device, '/timeline');
        const tile = page.locator('a.media__link[data-index="45"]');
        const file = await tile.getAttribute('data-name');
        await tile.scrollIntoViewIfNeeded();
        if (device.hasTouch) await tile.tap();
        else await tile.click();
        await page.waitForFunction(
          (hash) => document.querySelector('.pswp.pswp--opened') !== null && window.location.hash === hash,
          `#photo=${encodeURIComponent(file!)}`,
          { timeout: 15_000 },
        );
        // The next photo is the timeline's next, whichever album it is in.
        await page.keyboard.press('ArrowRight');
        const next = await page.locator('a.media__link[data-index="46"]').getAttribute('data-name');
        await page.waitForFunction((hash) => window.location.hash === hash, `#photo=${encodeURIComponent(next!)}`, { timeout: 15_000 });
        await page.goBack();
        await page.waitForFunction(() => document.querySelector('.pswp') === null, undefined, { timeout: 15_000 });
        expect(new URL(page.url()).pathname).to.equal('/timeline');
        expect(new URL(page.url()).hash).to.equal('');
        expect(await page.locator('a.media__link[data-index="46"]').isVisible()).to.equal(true);
      });

      it('should open a deep link to a file on the second page', async () => {
        const target = 'family/spring/3-10.jpg';
        const { page } = await timeline.open(device, `/timeline#photo=${encodeURIComponent(target)}`);
        await page.waitForFunction(
          (hash) => document.querySelector('.pswp.pswp--opened') !== null && window.location.hash === hash,
          `#photo=${encodeURIComponent(target)}`,
          { timeout: 15_000 },
        );
        await page.goBack();
        await page.waitForFunction(() => document.querySelector('.pswp') === null, undefined, { timeout: 15_000 });
        expect(new URL(page.url()).pathname).to.equal('/timeline');
      });
    });
  }
});
