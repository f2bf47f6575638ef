import { expect } from 'chai';
import type { BrowserContextOptions, Page } from 'playwright-core';
import { DEVICES, LISBON, PORTO } from './across-gallery.js';
import { browseTripGallery } from './trip-browsing.js';

/**
 * Search in Chromium against the real gallery (README "Finding photos"), on a phone (390×844
 * at 3×, touch) and a desktop: from the header (a desktop's box; a phone's magnifier, then the
 * results page's own box), the results of the open albums only, a result opening the viewer
 * on its file, and Back closing it on the results.
 */
describe('search in Chromium', function () {
  this.timeout(120_000);
  const trip = browseTripGallery();
  const open = async (device: BrowserContextOptions, url: string): Promise<Page> => (await trip.open(device, url)).page;

  const resultPaths = (page: Page) => page.$$eval('#media a.media__link', (links) => links.map((a) => (a as HTMLElement).dataset.path));

  /** Searches from the header of the page, as a visitor on this device would. */
  async function searchFromHeader(page: Page, device: BrowserContextOptions, words: string): Promise<void> {
    const headerBox = page.locator('.site-header .site-search input');
    if (device.hasTouch) {
      // A phone's header has no room for the box: its magnifier opens the results page, whose own box takes the words.
      expect(await headerBox.isVisible()).to.equal(false);
      await page.locator('.site-header .site-search__button').tap();
      await page.waitForURL((url) => url.pathname === '/search');
      const box = page.locator('.search-page__form input');
      await box.tap();
      await box.fill(words);
    } else {
      await headerBox.click();
      await headerBox.fill(words);
    }
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.pathname === '/search' && url.searchParams.get('q') === words);
  }

  for (const [name, device] of Object.entries(DEVICES)) {
    describe(`on a ${name}`, () => {
      it('should search from the header and list what the open albums hold, newest first', async () => {
        const page = await open(device, '/photos');
        await searchFromHeader(page, device, 'porto');
        expect(await page.locator('h1').textContent()).to.equal('Results for “porto”');
        expect(await resultPaths(page)).to.deep.equal([`${PORTO}/IMG_0001.jpg`, `${PORTO}/bridge.jpg`, `${PORTO}/river.jpg`]);
        // The locked album matches "trip" too, and shows nothing of itself.
        await page.goto(`${trip.url}/search?q=trip`);
        const paths = await resultPaths(page);
        expect(paths).to.have.length(7);
        expect(paths.some((p) => p?.startsWith('trips/secret'))).to.equal(false);
        expect(await page.content()).to.not.include('Secret');
      });

      it('should open a result in the viewer, and Back should close it on the results', async () => {
        const page = await open(device, '/search?q=trip');
        const target = `${LISBON}/tram.jpg`;
        const link = page.locator(`a.media__link[data-path="${target}"]`);
        await link.scrollIntoViewIfNeeded();
        if (device.hasTouch) await link.tap();
        else await link.click();
        await page.waitForFunction(
          (hash) => document.querySelector('.pswp.pswp--opened') !== null && window.location.hash === hash,
          `#photo=${encodeURIComponent(target)}`,
          { timeout: 15_000 },
        );
        await page.goBack();
        await page.waitForFunction(() => document.querySelector('.pswp') === null, undefined, { timeout: 15_000 });
        const url = new URL(page.url());
        expect(url.pathname + url.search).to.equal('/search?q=trip');
        expect(url.hash).to.equal('');
        expect(await page.locator('h1').textContent()).to.equal('Results for “trip”');
        expect(await link.isVisible()).to.equal(true);
      });
    });
  }
});
