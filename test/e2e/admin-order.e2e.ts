import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { makeJpeg } from '../admin/support/admin-fixture.js';
import { launchBrowser } from '../support/browser.js';
import { eventuallyPasses } from '../support/eventually-passes.js';
import { makeTempDir, removeTempDir, writeAlbum } from '../support/temp-dir.js';
import { type AdminAndSite, recordProblems, startAdminAndSite } from './admin-fixtures.js';

/**
 * The order of the albums that sit directly at the top of the album tree (issue 16), set in the
 * admin's "All albums" panel with ↑ ↓ and by dragging, and seen on the public /photos page.
 */

const PHONE: BrowserContextOptions = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true };
const DESKTOP: BrowserContextOptions = { viewport: { width: 1440, height: 900 } };
/** WCAG 2.5.5's smallest target, in CSS pixels (less a rounding error of layout). */
const MIN_TARGET = 44 - 0.01;

describe('the order of the albums at the top, in Chromium', function () {
  this.timeout(120_000);
  let root: string;
  let servers: AdminAndSite;
  let adminUrl: string;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  /** Script errors, CSP violations and failed requests of the admin page: it must run clean. */
  let problems: string[];

  const orderOf = (albumPath: string) =>
    (JSON.parse(fs.readFileSync(path.join(servers.config.albumsDir, ...albumPath.split('/'), 'album.json'), 'utf8')) as { order?: number }).order;

  /** The titles of the cards of the public /photos page, top to bottom. */
  async function publicCardTitles(): Promise<string[]> {
    const html = await (await fetch(`${servers.siteUrl}/photos`)).text();
    return [...html.matchAll(/<span class="card__title">([^<]*)<\/span>/g)].map((m) => m[1]!);
  }

  before(async () => {
    root = makeTempDir('gallery-admin-order-e2e-');
    for (const dir of ['albums', 'content', 'cache']) fs.mkdirSync(path.join(root, dir));
    const albums = path.join(root, 'albums');
    // Year and category folders, which keep their own order (newest year first)…
    writeAlbum(albums, '2024/trip', { title: 'Trip', token: 'trip-token-0123456789' });
    writeAlbum(albums, '2023/beach', { title: 'Beach', token: 'beach-token-0123456789' });
    writeAlbum(albums, 'travel/alps', { title: 'Alps', token: 'alps-token-0123456789' });
    // …and three albums directly at the top, one with a child album and one with a photo.
    const garden = writeAlbum(albums, 'garden', { title: 'Garden', token: 'garden-token-0123456789' });
    fs.writeFileSync(path.join(garden, 'IMG_1.jpg'), await makeJpeg(320, 240));
    writeAlbum(albums, 'birthdays', { title: 'Birthdays', token: 'birthdays-token-0123456789' });
    writeAlbum(albums, 'holidays', { title: 'Holidays', token: 'holidays-token-0123456789' });
    writeAlbum(albums, 'holidays/kids', { title: 'Kids', token: 'kids-token-0123456789' });

    servers = await startAdminAndSite(root);
    adminUrl = servers.adminUrl;
    browser = await launchBrowser();
  });

  after(async () => {
    await browser?.close();
    await servers?.close();
    removeTempDir(root);
  });

  beforeEach(() => {
    problems = [];
  });

  afterEach(async () => {
    await Promise.all(contexts.splice(0).map((c) => c.close()));
    expect(problems).to.deep.equal([]);
  });

  /** The admin page in a fresh context, on the "All albums" panel. */
  async function openTop(device: BrowserContextOptions): Promise<Page> {
    const context = await browser.newContext(device);
    contexts.push(context);
    const page = await context.newPage();
    recordProblems(page, problems);
    await page.goto(`${adminUrl}/`);
    // The first entry of the tree is its top.
    const top = page.locator('#album-tree > button').first();
    expect(await top.textContent()).to.equal('All albums');
    await top.click();
    await page.locator('#album-panel h2', { hasText: 'All albums' }).waitFor();
    expect(await top.getAttribute('aria-current')).to.equal('true');
    return page;
  }

  const titlesIn = (page: Page) => page.locator('#album-panel .order-list .order-title').allTextContents();

  it('should order them with ↑ ↓ from the keyboard and by dragging, and /photos should list them so, after the folders', async () => {
    // Before: no album has an order, so the gallery lists them by title.
    expect(await publicCardTitles()).to.deep.equal(['Trip', 'Beach', 'Alps', 'Birthdays', 'Garden', 'Holidays', 'Kids']);
    const page = await openTop(DESKTOP);
    await page.getByRole('heading', { name: 'Order of the albums at the top' }).waitFor();
    // Only the albums directly at the top: neither the folders nor a child album.
    expect(await titlesIn(page)).to.deep.equal(['Birthdays', 'Garden', 'Holidays']);

    // The keyboard: "Move Holidays up" twice. At the top its ↑ is disabled and ↓ takes the focus.
    await page.getByRole('button', { name: 'Move Holidays up' }).focus();
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    expect(await titlesIn(page)).to.deep.equal(['Holidays', 'Birthdays', 'Garden']);
    expect(await page.getByRole('button', { name: 'Move Holidays up' }).isDisabled()).to.equal(true);
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).to.equal('Move Holidays down');
    // The two quick saves are sent one after the other: the last order is the one on disk.
    await eventuallyPasses(async () => {
      expect(['holidays', 'birthdays', 'garden'].map(orderOf)).to.deep.equal([1, 2, 3]);
    });
    await eventuallyPasses(async () => {
      expect(await publicCardTitles()).to.deep.equal(['Trip', 'Beach', 'Alps', 'Holidays', 'Birthdays', 'Garden', 'Kids']);
    });

    // A drag: Garden dropped on the top half of Holidays goes first.
    const list = page.locator('#album-panel .order-list');
    await list.locator('li', { hasText: 'Garden' }).dragTo(list.locator('li', { hasText: 'Holidays' }), { targetPosition: { x: 20, y: 2 } });
    expect(await titlesIn(page)).to.deep.equal(['Garden', 'Holidays', 'Birthdays']);
    await eventuallyPasses(async () => {
      expect(['garden', 'holidays', 'birthdays'].map(orderOf)).to.deep.equal([1, 2, 3]);
    });
    await page.locator('#notice', { hasText: 'Order saved' }).waitFor();
    await eventuallyPasses(async () => {
      expect(await publicCardTitles()).to.deep.equal(['Trip', 'Beach', 'Alps', 'Garden', 'Holidays', 'Birthdays', 'Kids']);
    });

    // The new order holds after a reload of the admin.
    await page.reload();
    await page.locator('#album-tree > button', { hasText: 'All albums' }).click();
    await page.locator('#album-panel .order-list').waitFor();
    expect(await titlesIn(page)).to.deep.equal(['Garden', 'Holidays', 'Birthdays']);
  });

  it('should make ↑ ↓ and the "All albums" entry at least 44 × 44 CSS px on a phone, and move an album by a tap', async () => {
    const page = await openTop(PHONE);
    const sizes = await page.locator('#album-tree > button.tree-root, #album-panel .order-list button').evaluateAll((els) =>
      els.map((el) => {
        const box = el.getBoundingClientRect();
        return { what: el.getAttribute('aria-label') ?? el.textContent, width: box.width, height: box.height };
      }),
    );
    expect(sizes).to.have.length(1 + 3 * 2);
    for (const size of sizes) {
      expect(size.width, `${size.what} width`).to.be.at.least(MIN_TARGET);
      expect(size.height, `${size.what} height`).to.be.at.least(MIN_TARGET);
    }
    // The page is no wider than the phone (a wider one is zoomed out, and its targets shrink).
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).to.be.at.most(390);
    const first = (await titlesIn(page))[0]!;
    await page.getByRole('button', { name: `Move ${first} down` }).tap();
    expect((await titlesIn(page))[1]).to.equal(first);
    await page.locator('#notice', { hasText: 'Order saved' }).waitFor();
  });

  it('should say in a sentence when there is nothing to order at the top', async () => {
    // Two of the three top albums go to the trash through the admin's API.
    for (const name of ['garden', 'birthdays']) {
      expect((await fetch(`${adminUrl}/api/albums/${name}`, { method: 'DELETE' })).status).to.equal(200);
    }
    let page = await openTop(DESKTOP);
    await page.locator('#album-panel .explain', { hasText: 'One album sits directly at the top: nothing to order.' }).waitFor();
    expect(await page.locator('#album-panel .order-list').count()).to.equal(0);

    expect((await fetch(`${adminUrl}/api/albums/holidays`, { method: 'DELETE' })).status).to.equal(200);
    page = await openTop(DESKTOP);
    await page.locator('#album-panel .explain', { hasText: 'No album sits directly at the top' }).waitFor();
    expect(await page.locator('#album-panel .order-list').count()).to.equal(0);
  });
});
