import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { type LibraryAlbum, writeLibrary, yearsOfAlbums } from '../support/album-library.js';
import { launchBrowser } from '../support/browser.js';
import { GalleryFixture } from '../support/gallery-fixture.js';

/**
 * /photos and folder pages of a library too big to show whole, in Debian's Chromium: a year's
 * newest albums in rows, its "All N albums" link on a line of its own leading to its page,
 * and a folder of 400 albums paged (server/public/pages/photos-outline.ts, folder-listing.ts).
 */

const PHONE: BrowserContextOptions = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true };
const DESKTOP: BrowserContextOptions = { viewport: { width: 1440, height: 900 } };

describe('/photos and folder pages of a big library in Chromium', function () {
  this.timeout(120_000);
  const fx = new GalleryFixture();
  let server: http.Server;
  let url = '';
  let browser: Browser;

  before(async function () {
    this.timeout(180_000);
    await fx.build({});
    const big = Array.from({ length: 400 }, (_, i): LibraryAlbum => ({ path: `2000/big/album-${String(i).padStart(4, '0')}`, title: `Big ${i}` }));
    await writeLibrary(fx.albumsDir, [...yearsOfAlbums(2024, 6, 10, 5), ...big]);
    await fx.start();
    server = http.createServer(fx.gallery.handler).listen(0, '127.0.0.1');
    await new Promise<void>((resolve) => server.once('listening', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    server?.closeAllConnections();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    await fx.close();
  });

  async function open(path: string, options: BrowserContextOptions): Promise<{ page: Page; problems: string[] }> {
    const context = await browser.newContext(options);
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (err) => problems.push(err.message));
    page.on('console', (msg) => {
      if (/Content Security Policy|Refused to/i.test(msg.text())) problems.push(msg.text());
    });
    await page.goto(`${url}${path}`, { waitUntil: 'load' });
    return { page, problems };
  }

  type Box = { top: number; bottom: number; width: number; height: number };
  /** The boxes of a section's cards and of its "All N albums" link, in CSS px. */
  const sectionLayout = (page: Page, anchor: string) =>
    page.locator(`#${anchor}`).evaluate((section) => {
      // No named helpers in here: the page runs this function as its source text.
      const [cards, links] = [':scope > .cards > .card', ':scope > .tree-more a'].map((selector) =>
        [...section.querySelectorAll(selector)].map((el) => {
          const r = el.getBoundingClientRect();
          return { top: r.top, bottom: r.bottom, width: r.width, height: r.height };
        }),
      ) as [Box[], Box[]];
      return { cards, link: links[0] ?? null, pageWidth: document.documentElement.clientWidth, scrollWidth: document.documentElement.scrollWidth };
    });

  for (const [device, options] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    it(`should show a year's newest albums in rows on a ${device}, its link to all of them on a line of its own`, async () => {
      const { page, problems } = await open('/photos', options);
      const year = await sectionLayout(page, 's-2024');
      expect(year.cards.length).to.be.within(20, 30);
      const firstRow = year.cards.filter((c) => Math.abs(c.top - year.cards[0]!.top) < 1);
      if (device === 'desktop') {
        // Rows of 260 px cards, as a category's.
        expect(year.cards[0]!.width).to.be.closeTo(260, 1);
        expect(firstRow.length).to.be.at.least(4);
      } else {
        expect(firstRow.length).to.equal(2);
      }
      expect(year.link, 'the "All albums" link').to.not.equal(null);
      expect(year.link!.top).to.be.at.least(Math.max(...year.cards.map((c) => c.bottom)));
      expect(year.link!.height).to.be.at.least(44 - 0.01);
      expect(year.scrollWidth, 'nothing wider than the page').to.be.at.most(year.pageWidth);
      expect(problems).to.deep.equal([]);

      await page.getByRole('link', { name: 'All 50 albums of 2024' }).click();
      await page.waitForURL(`${url}/photos/2024`);
      expect(await page.locator('h1').textContent()).to.equal('2024');
      expect(await page.locator('.cards > .card').count()).to.equal(10);
      await page.context().close();
    });
  }

  it('should page a folder of 400 albums, 150 a page, forwards and back', async () => {
    const { page, problems } = await open('/photos/2000/big', DESKTOP);
    const cards = page.locator('.cards > .card');
    expect(await cards.count()).to.equal(150);
    expect(await page.locator('.pagination__where').textContent()).to.equal('Page 1 of 3');
    await page.getByRole('link', { name: 'Next →' }).click();
    await page.waitForURL(`${url}/photos/2000/big?page=2`);
    expect(await cards.first().locator('.card__title').textContent()).to.equal('Big 150');
    await page.getByRole('link', { name: 'Next →' }).click();
    await page.waitForURL(`${url}/photos/2000/big?page=3`);
    expect(await cards.count()).to.equal(100);
    expect(await page.getByRole('link', { name: 'Next →' }).count()).to.equal(0);
    await page.getByRole('link', { name: '← Previous' }).click();
    await page.waitForURL(`${url}/photos/2000/big?page=2`);
    expect(problems).to.deep.equal([]);
    await page.context().close();
  });
});
