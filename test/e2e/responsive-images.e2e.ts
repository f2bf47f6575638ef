import { expect } from 'chai';
import type { Browser, BrowserContextOptions } from 'playwright-core';
import { THUMBNAIL_SIZES, type ThumbnailSize } from '../../server/core/media-catalogue.js';
import { launchBrowser } from '../support/browser.js';
import { BIG_ALBUM, BrowserGallery, LAYOUT_ALBUMS } from './gallery-fixtures.js';

/**
 * Which thumbnail Chromium picks from the tiles' `srcset` and `sizes`
 * (server/public/pages/tile-sizes.ts): the smallest sharp one, never the 1200 px one a
 * 200 px tile used to take on a phone. Only the choice is looked at (`currentSrc`), not the
 * image: a slow pool cannot make this flaky.
 */
describe('responsive tiles in Chromium', function () {
  this.timeout(90_000);
  const fx = new BrowserGallery();
  let browser: Browser;

  before(async function () {
    this.timeout(120_000);
    await fx.build();
    await fx.start();
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await fx.close();
  });

  /** The preset widths the tiles in view chose (their `currentSrc`), WebP or JPEG alike. */
  async function chosenWidths(albumPath: string, device: BrowserContextOptions): Promise<number[]> {
    const context = await browser.newContext(device);
    try {
      const page = await context.newPage();
      await page.goto(`${fx.url}/photos/${albumPath}`, { waitUntil: 'domcontentloaded' });
      // Tiles above the fold; functions, not strings: the page's CSP allows no eval.
      await page.waitForFunction(
        () => {
          const tiles = [...document.querySelectorAll<HTMLImageElement>('#media img')].filter((img) => img.getBoundingClientRect().top < window.innerHeight);
          return tiles.length > 0 && tiles.every((img) => img.currentSrc !== '');
        },
        null,
        { timeout: 30_000 },
      );
      const sizes = await page.evaluate(() =>
        [...document.querySelectorAll<HTMLImageElement>('#media img')]
          .filter((img) => img.getBoundingClientRect().top < window.innerHeight)
          .map((img) => new URL(img.currentSrc).searchParams.get('size')),
      );
      return sizes.map((s) => THUMBNAIL_SIZES[s as ThumbnailSize]);
    } finally {
      await context.close();
    }
  }

  const PHONE: BrowserContextOptions = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true };
  const DESKTOP: BrowserContextOptions = { viewport: { width: 1440, height: 900 }, deviceScaleFactor: 2 };

  for (const album of [LAYOUT_ALBUMS.grid, BIG_ALBUM]) {
    it(`should take at most the 600 px thumbnails for the grid of ${album} on a 3× phone`, async () => {
      const widths = await chosenWidths(album, PHONE);
      expect(widths.length).to.be.greaterThan(1);
      expect(Math.max(...widths)).to.be.at.most(600);
    });
  }

  it('should take the 600 px thumbnails, not 1200, for a desktop grid at 2×', async () => {
    const widths = await chosenWidths(LAYOUT_ALBUMS.grid, DESKTOP);
    expect(new Set(widths)).to.deep.equal(new Set([600]));
  });

  it('should take the 400 px thumbnails at 1×', async () => {
    const widths = await chosenWidths(LAYOUT_ALBUMS.grid, { ...DESKTOP, deviceScaleFactor: 1 });
    expect(new Set(widths)).to.deep.equal(new Set([400]));
  });

  describe('album cards', () => {
    /** What each cover in view chose (`size`), and its width on screen in device pixels. */
    async function chosenCovers(url: string, device: BrowserContextOptions): Promise<{ chosen: number; needs: number }[]> {
      const context = await browser.newContext(device);
      try {
        const page = await context.newPage();
        await page.goto(`${fx.url}${url}`, { waitUntil: 'domcontentloaded' });
        await page.waitForFunction(
          () => {
            const covers = [...document.querySelectorAll<HTMLImageElement>('.card__cover img')].filter(
              (img) => img.getBoundingClientRect().top < window.innerHeight,
            );
            return covers.length > 0 && covers.every((img) => img.currentSrc !== '');
          },
          null,
          { timeout: 30_000 },
        );
        const covers = await page.evaluate(() =>
          [...document.querySelectorAll<HTMLImageElement>('.card__cover img')]
            .filter((img) => img.getBoundingClientRect().top < window.innerHeight)
            .map((img) => ({ size: new URL(img.currentSrc).searchParams.get('size'), needs: img.getBoundingClientRect().width * window.devicePixelRatio })),
        );
        return covers.map(({ size, needs }) => ({ chosen: THUMBNAIL_SIZES[size as ThumbnailSize], needs }));
      } finally {
        await context.close();
      }
    }

    /** The smallest thumbnail at least as wide as the cover on screen (device pixels). */
    const smallestSharp = (needs: number) => Math.min(...Object.values(THUMBNAIL_SIZES).filter((w) => w >= needs - 0.5));

    const TABLET: BrowserContextOptions = { viewport: { width: 768, height: 1024 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };
    const LANDSCAPE_TABLET: BrowserContextOptions = { ...TABLET, viewport: { width: 1024, height: 768 } };
    const LAPTOP: BrowserContextOptions = { viewport: { width: 1366, height: 768 }, deviceScaleFactor: 1 };
    const devices = {
      'a 3× phone (390 px)': PHONE,
      'a 2× tablet (768 px)': TABLET,
      'a 2× tablet in landscape (1024 px)': LANDSCAPE_TABLET,
      'a 2× desktop (1440 px)': DESKTOP,
      'a 1× laptop (1366 px)': LAPTOP,
    };
    // A folder page lays its cards out in a grid; /photos puts a category's albums in rows.
    const pages = { 'a folder page': '/photos/2024/lisbon', '/photos': '/photos' };

    for (const [pageName, url] of Object.entries(pages)) {
      for (const [deviceName, device] of Object.entries(devices)) {
        it(`should take the smallest sharp cover on ${pageName}, on ${deviceName}`, async () => {
          const covers = await chosenCovers(url, device);
          expect(covers.length).to.be.greaterThan(1);
          for (const { chosen, needs } of covers) expect(chosen, `a cover ${Math.round(needs)} device px wide`).to.equal(smallestSharp(needs));
        });
      }
    }

    it('should take the 600 px covers on a 3× phone, where 1200 px ones were taken', async () => {
      const covers = await chosenCovers('/photos/2024/lisbon', PHONE);
      expect(new Set(covers.map((c) => c.chosen))).to.deep.equal(new Set([600]));
    });
  });
});
