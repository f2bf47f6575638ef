import fs from 'node:fs';
import type { Server } from 'node:http';
import path from 'node:path';
import { expect } from 'chai';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import sharp from 'sharp';
import { createAdminApp } from '../../server/admin/app.js';
import { AlbumIndex } from '../../server/core/albums/album-index.js';
import { loadConfig } from '../../server/core/config.js';
import { launchBrowser } from '../support/browser.js';
import { quietLogger } from '../support/capture-logger.js';
import { makeTempDir, removeTempDir, writeAlbum } from '../support/temp-dir.js';
import { makeJpeg } from '../admin/support/admin-fixture.js';
import { BIG_ALBUM, BrowserGallery, LANDSCAPE, LAYOUT_ALBUMS, SECRET_ALBUM } from './gallery-fixtures.js';

/**
 * The site's identity and layout in Debian's Chromium (issue 16): touch targets measured on
 * the rendered pages, two album cards a row on a phone, /home centred at any width, the light
 * theme and its toggle, link previews, and the public address the admin builds share links from.
 */

const PHONE: BrowserContextOptions = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true };
const DESKTOP: BrowserContextOptions = { viewport: { width: 1440, height: 900 } };
const WIDE: BrowserContextOptions = { viewport: { width: 2560, height: 1440 } };
/** WCAG 2.5.5's smallest target, in CSS pixels (less a rounding error of layout). */
const MIN_TARGET = 44 - 0.01;
/** The category folder of the layout albums, titled by its folder.json. */
const FOLDER = path.posix.dirname(LAYOUT_ALBUMS.grid);
const FOLDER_TITLE = 'Lisbon, three ways';

interface Target {
  readonly what: string;
  readonly width: number;
  readonly height: number;
}

/** Every visible control of the page, with its size: links, buttons, form fields. */
function measureTargets(page: Page): Promise<Target[]> {
  return page.evaluate(() => {
    const selector = 'a[href], button, input:not([type="hidden"]), select, textarea, summary, [role="button"], [tabindex]:not([tabindex="-1"])';
    return [...document.querySelectorAll<HTMLElement>(selector)]
      .filter((el) => {
        // The skip link is off screen until it has the focus (and is then 44 px too).
        if (el.classList.contains('skip-link')) return false;
        const style = getComputedStyle(el);
        const box = el.getBoundingClientRect();
        // Not a target: what takes no pointer (a tile's choose box on a phone, where the whole tile is tapped).
        if (style.pointerEvents === 'none') return false;
        return style.visibility !== 'hidden' && style.display !== 'none' && box.width > 0 && box.height > 0;
      })
      .map((el) => {
        const box = el.getBoundingClientRect();
        const label = (el.getAttribute('aria-label') ?? el.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 40);
        return { what: `${el.tagName.toLowerCase()}.${el.className || '-'} "${label}"`, width: box.width, height: box.height };
      });
  });
}

describe('site identity and layout in Chromium', function () {
  this.timeout(120_000);
  const fx = new BrowserGallery();
  let browser: Browser;
  const contexts: BrowserContext[] = [];

  before(async function () {
    this.timeout(180_000);
    await fx.build();
    fs.writeFileSync(path.join(fx.albumsDir, ...FOLDER.split('/'), 'folder.json'), JSON.stringify({ title: FOLDER_TITLE }));
    // A home page with a hero and three cards, as an owner would set it up.
    fs.mkdirSync(path.join(fx.contentDir, 'assets', 'hero'), { recursive: true });
    fs.mkdirSync(path.join(fx.contentDir, 'assets', 'cards'), { recursive: true });
    await sharp(await makeJpeg(1600, 600)).toFile(path.join(fx.contentDir, 'assets', 'hero', 'hero.jpg'));
    await sharp(await makeJpeg(600, 400)).toFile(path.join(fx.contentDir, 'assets', 'cards', 'card.jpg'));
    const card = (n: number) => ({ id: `c${n}`, title: `Card ${n}`, description: 'Photos of the year', image: 'card.jpg', link: `/photos/${FOLDER}` });
    fs.writeFileSync(
      path.join(fx.contentDir, 'home.json'),
      JSON.stringify({ intro: { title: 'Welcome home', body: 'Photos of the family, sorted by year.' }, cards: [card(1), card(2), card(3)] }),
    );
    fs.writeFileSync(path.join(fx.contentDir, 'site.json'), JSON.stringify({ name: 'The Silvas', publicUrl: 'https://photos.example.com' }));
    await fx.start();
    browser = await launchBrowser();
  });

  after(async () => {
    await browser?.close();
    await fx.close();
  });

  afterEach(async () => {
    await Promise.all(contexts.splice(0).map((c) => c.close()));
  });

  /** A fresh page (own cookies and storage) that records script errors and CSP violations. */
  async function openPage(url: string, options: BrowserContextOptions): Promise<{ page: Page; problems: string[] }> {
    const context = await browser.newContext(options);
    contexts.push(context);
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
    page.on('console', (msg) => {
      if (/Content Security Policy|Refused to/i.test(msg.text())) problems.push(`console: ${msg.text()}`);
    });
    await page.goto(`${fx.url}${url}`, { waitUntil: 'load' });
    return { page, problems };
  }

  describe('touch targets', () => {
    const pages = ['/', '/home', '/photos', `/photos/${FOLDER}`, `/photos/${LAYOUT_ALBUMS.grid}`, `/photos/${BIG_ALBUM}`, `/photos/${SECRET_ALBUM}`];
    for (const [device, options] of [
      ['phone', PHONE],
      ['desktop', DESKTOP],
    ] as const) {
      it(`should be at least 44 × 44 CSS px on every page, on a ${device}`, async () => {
        for (const url of pages) {
          const { page, problems } = await openPage(url, options);
          await page.locator('[data-theme-toggle]:not([hidden])').waitFor();
          if (url.endsWith(BIG_ALBUM)) await page.getByRole('button', { name: 'Show more' }).waitFor();
          const targets = await measureTargets(page);
          expect(targets.length, url).to.be.greaterThan(3);
          const small = targets
            .filter((t) => t.width < MIN_TARGET || t.height < MIN_TARGET)
            .map((t) => `${t.what}: ${t.width.toFixed(1)}×${t.height.toFixed(1)}`);
          expect(small, `${url} on a ${device}`).to.deep.equal([]);
          expect(problems, url).to.deep.equal([]);
          await page.context().close();
        }
      });
    }

    it('should keep the breadcrumbs, the main way up, at 44 px on a phone', async () => {
      const { page } = await openPage(`/photos/${LAYOUT_ALBUMS.grid}`, PHONE);
      const crumbs = await page.locator('.breadcrumbs a').evaluateAll((links) => links.map((a) => a.getBoundingClientRect().height));
      expect(crumbs).to.have.length(3);
      for (const h of crumbs) expect(h).to.be.at.least(MIN_TARGET);
      expect(await page.locator('.breadcrumbs a').nth(2).textContent()).to.equal(FOLDER_TITLE);
    });

    it("should make the lightbox details' close button 44 px", async () => {
      const { page } = await openPage(`/photos/${LAYOUT_ALBUMS.grid}`, DESKTOP);
      await page.locator(`a.media__link[data-name="${LANDSCAPE.name}"]`).click();
      await page.locator('.pswp.pswp--opened').waitFor();
      await page.keyboard.press('i');
      const close = page.locator('#exif-panel .overlay__close');
      await close.waitFor();
      const box = (await close.boundingBox())!;
      expect(box.width).to.be.at.least(MIN_TARGET);
      expect(box.height).to.be.at.least(MIN_TARGET);
    });
  });

  describe('album cards on a phone', () => {
    /** The cards of each list on the page, as rows: how many share the first card's row. */
    const firstRows = (page: Page) =>
      page.locator('ul.cards').evaluateAll((lists) =>
        lists.map((list) => {
          const cards = [...list.children].map((c) => c.getBoundingClientRect());
          return { count: cards.length, firstRow: cards.filter((c) => Math.abs(c.top - cards[0]!.top) < 1).length, width: cards[0]!.width };
        }),
      );

    for (const url of ['/photos', `/photos/${FOLDER}`]) {
      it(`should put two cards in a row on ${url}`, async () => {
        const { page } = await openPage(url, PHONE);
        const lists = await firstRows(page);
        const many = lists.filter((l) => l.count >= 2);
        expect(many.length, url).to.be.greaterThan(0);
        for (const l of many) {
          expect(l.firstRow).to.equal(2);
          expect(l.width).to.be.within(150, 195);
        }
        // On /photos, a category of one album shares its row with the next one.
        if (url === '/photos') {
          const singles = await page
            .locator('.tree-depth-1')
            .evaluateAll((sections) => sections.filter((s) => s.querySelectorAll('.card').length === 1).map((s) => Math.round(s.getBoundingClientRect().top)));
          expect(singles.length).to.equal(2);
          expect(singles[0]).to.equal(singles[1]);
        }
      });
    }
  });

  describe('/home', () => {
    /** Left and right margins of the content and the header's brand and nav, in CSS px. */
    const layout = (page: Page) =>
      page.evaluate(() => {
        // No named helpers in here: the page runs this function as its source text.
        const width = document.documentElement.clientWidth;
        const [hero, title, first, last, brand, nav] = [
          '.home-intro__hero',
          '.home-intro h1',
          '.cards--home > .card:first-child',
          '.cards--home > .card:last-child',
          '.brand',
          '.site-header nav',
        ].map((sel) => document.querySelector(sel)!.getBoundingClientRect()) as [DOMRect, DOMRect, DOMRect, DOMRect, DOMRect, DOMRect];
        return {
          hero: { left: hero.left, right: width - hero.right, width: hero.width },
          title: { left: title.left, right: width - title.right },
          cardsRow: [...document.querySelectorAll('.cards--home > .card')].map((c) => Math.round(c.getBoundingClientRect().top)),
          firstCard: first.left,
          lastCard: width - last.right,
          brand: brand.left,
          nav: width - nav.right,
        };
      });

    for (const [name, options, heroWidth] of [
      ['1440', DESKTOP, [1300, 1400]],
      ['2560', WIDE, [1500, 1600]],
    ] as const) {
      it(`should use the width and stay centred at ${name} px, the brand lined up with the content`, async () => {
        const { page } = await openPage('/home', options);
        await page.locator('.home-intro__hero').evaluate((img: HTMLImageElement) => img.decode());
        const l = await layout(page);
        expect(l.hero.width).to.be.within(heroWidth[0], heroWidth[1]);
        expect(Math.abs(l.hero.left - l.hero.right)).to.be.below(2);
        expect(Math.abs(l.title.left - l.title.right)).to.be.below(2);
        // Three cards on one row, the row centred under the hero.
        expect(new Set(l.cardsRow).size).to.equal(1);
        expect(Math.abs(l.firstCard - l.lastCard)).to.be.below(2);
        expect(Math.abs(l.brand - l.hero.left)).to.be.below(2);
        expect(Math.abs(l.nav - l.hero.right)).to.be.below(20);
      });
    }

    it('should stay centred on a phone', async () => {
      const { page } = await openPage('/home', PHONE);
      const l = await layout(page);
      expect(Math.abs(l.hero.left - l.hero.right)).to.be.below(2);
      expect(Math.abs(l.firstCard - l.lastCard)).to.be.below(2);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).to.equal(390);
    });
  });

  describe('the light theme', () => {
    const background = (page: Page) => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    const DARK_BG = 'rgb(14, 15, 17)';
    const LIGHT_BG = 'rgb(247, 245, 240)';

    /** Records the theme <html> carries when <body> is parsed, before anything can be painted. */
    async function themeAtFirstPaint(page: Page): Promise<void> {
      await page.addInitScript(() => {
        new MutationObserver((_changes, observer) => {
          if (!document.body) return;
          (window as unknown as { themeAtBody: string | undefined }).themeAtBody = document.documentElement.dataset.theme;
          observer.disconnect();
        }).observe(document, { childList: true, subtree: true });
      });
    }
    const recorded = (page: Page) => page.evaluate(() => (window as unknown as { themeAtBody: string | undefined }).themeAtBody);

    it("should follow the system's light scheme from the first paint, and switch with the toggle, remembered", async () => {
      const context = await browser.newContext({ ...PHONE, colorScheme: 'light' });
      contexts.push(context);
      const page = await context.newPage();
      await themeAtFirstPaint(page);
      await page.goto(`${fx.url}/photos`);
      expect(await recorded(page)).to.equal('light');
      expect(await background(page)).to.equal(LIGHT_BG);
      expect(await page.locator('meta[name="theme-color"]').first().getAttribute('content')).to.equal('#f7f5f0');

      const toggle = page.locator('[data-theme-toggle]');
      expect(await toggle.getAttribute('title')).to.equal('Switch to the dark theme');
      await toggle.click();
      expect(await page.evaluate(() => document.documentElement.dataset.theme)).to.equal('dark');
      expect(await background(page)).to.equal(DARK_BG);
      expect(await page.evaluate(() => localStorage.getItem('gallery-theme'))).to.equal('dark');
      expect(await toggle.getAttribute('title')).to.equal('Switch to the light theme');

      // The choice holds on the next page, from its first paint, against the system's scheme.
      await page.goto(`${fx.url}/photos/${LAYOUT_ALBUMS.grid}`);
      expect(await recorded(page)).to.equal('dark');
      expect(await background(page)).to.equal(DARK_BG);
    });

    it('should start dark for a dark system, and take a light choice from the first paint', async () => {
      const context = await browser.newContext({ ...DESKTOP, colorScheme: 'dark' });
      contexts.push(context);
      const page = await context.newPage();
      await themeAtFirstPaint(page);
      await page.goto(`${fx.url}/home`);
      expect(await recorded(page)).to.equal('dark');
      expect(await background(page)).to.equal(DARK_BG);
      await page.locator('[data-theme-toggle]').click();
      expect(await background(page)).to.equal(LIGHT_BG);
      await page.reload();
      expect(await recorded(page)).to.equal('light');
      expect(await background(page)).to.equal(LIGHT_BG);
      // The lightbox stays dark in the light theme.
      await page.goto(`${fx.url}/photos/${LAYOUT_ALBUMS.grid}`);
      await page.locator(`a.media__link[data-name="${LANDSCAPE.name}"]`).click();
      await page.locator('.pswp.pswp--opened').waitFor();
      expect(await page.locator('.pswp').evaluate((el) => getComputedStyle(el).getPropertyValue('--fg').trim())).to.equal('#ecebe7');
    });
  });

  describe('link previews', () => {
    const meta = (page: Page, property: string) =>
      page
        .locator(`meta[property="${property}"]`)
        .getAttribute('content', { timeout: 1000 })
        .catch(() => null);

    it('should describe a public album with its title and cover, and a protected one with neither', async () => {
      const { page } = await openPage(`/photos/${LAYOUT_ALBUMS.grid}`, DESKTOP);
      expect(await meta(page, 'og:title')).to.equal('Lisbon (grid)');
      expect(await meta(page, 'og:url')).to.equal(`https://photos.example.com/photos/${LAYOUT_ALBUMS.grid}`);
      expect(await meta(page, 'og:image')).to.match(/^https:\/\/photos\.example\.com\/api\/thumbnail\?path=2024%2Flisbon%2Fgrid%2F.+&size=medium/);

      const locked = await openPage(`/photos/${SECRET_ALBUM}`, DESKTOP);
      expect(await meta(locked.page, 'og:title')).to.equal('The Silvas');
      expect(await meta(locked.page, 'og:image')).to.not.include('thumbnail');
      const tags = await locked.page
        .locator('meta[property^="og:"], meta[name^="twitter:"], meta[name="description"]')
        .evaluateAll((els) => els.map((e) => e.getAttribute('content')).join('\n'));
      expect(tags).to.not.include('Family secrets').and.not.include('birthday').and.not.include('secret');
    });
  });

  describe('the public address in the admin', () => {
    let root: string;
    let index: AlbumIndex;
    let server: Server;
    let adminUrl: string;
    const SHARED = 'family/party';

    before(async () => {
      root = makeTempDir('gallery-site-admin-');
      fs.mkdirSync(path.join(root, 'albums'));
      fs.mkdirSync(path.join(root, 'cache'));
      const dir = writeAlbum(path.join(root, 'albums'), SHARED, { title: 'The party', password: 'pw', allowAnonymous: true, token: 'party-token' });
      fs.writeFileSync(path.join(dir, 'one.jpg'), await makeJpeg(320, 240));
      // The admin edits the content of the gallery under test: its site settings show there.
      const config = loadConfig({ ALBUMS_DIR: 'albums', CONTENT_DIR: fx.contentDir, CACHE_DIR: 'cache', ADMIN_PORT: '0', PORT: '3000' }, root);
      fs.rmSync(path.join(fx.contentDir, 'site.json'), { force: true });
      index = await AlbumIndex.open({ albumsDir: config.albumsDir, watch: false, log: quietLogger });
      const app = createAdminApp(config, { index, log: quietLogger });
      server = await new Promise<Server>((resolve) => {
        const s = app.listen(0, '127.0.0.1', () => resolve(s));
      });
      adminUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    });

    after(async () => {
      await new Promise((resolve) => server?.close(resolve));
      index?.close();
      if (root) removeTempDir(root);
    });

    async function openAdmin(): Promise<Page> {
      const context = await browser.newContext({ ...DESKTOP });
      contexts.push(context);
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: adminUrl });
      const page = await context.newPage();
      await page.goto(`${adminUrl}/`);
      return page;
    }

    const siteJson = () => JSON.parse(fs.readFileSync(path.join(fx.contentDir, 'site.json'), 'utf8')) as Record<string, unknown>;

    it('should ask for the address on first start, warn about a local one, and build every copied link from it', async () => {
      const page = await openAdmin();
      const banner = page.locator('#site-address-banner');
      await banner.getByRole('heading', { name: 'Where will your family open the gallery?' }).waitFor();
      // Until it is set, links point at this computer.
      await page
        .locator('#album-tree')
        .getByRole('button', { name: /The party/ })
        .click();
      await page.getByText('More ways to share').click();
      expect(await page.getByRole('textbox', { name: 'Link for everyone', exact: true }).inputValue()).to.equal(
        'http://localhost:3000/photos/family/party?token=party-token',
      );

      await banner.getByLabel('Public address of the gallery').fill('http://127.0.0.1:3000');
      await banner.getByRole('button', { name: 'Save address' }).click();
      await banner.getByRole('heading', { name: 'Share links will not open for your family' }).waitFor();
      expect(await banner.textContent()).to.include('only works on this computer');

      await banner.getByLabel('Public address of the gallery').fill('https://photos.example.com/');
      await banner.getByRole('button', { name: 'Save address' }).click();
      await banner.waitFor({ state: 'hidden' });
      expect(siteJson()).to.deep.equal({ publicUrl: 'https://photos.example.com' });

      const expected = 'https://photos.example.com/photos/family/party?token=party-token';
      await page.waitForFunction(
        (link) => (document.querySelector('input[aria-label="Link for everyone"]') as HTMLInputElement | null)?.value === link,
        expected,
      );
      // The panel is drawn again with the new address: its "More ways to share" is folded again.
      await page.getByText('More ways to share').click();
      await page.getByRole('button', { name: 'Copy link for everyone' }).click();
      await page.getByText('Copied to the clipboard').waitFor();
      expect(await page.evaluate(() => navigator.clipboard.readText())).to.equal(expected);

      await page.getByRole('link', { name: 'Who can see what' }).click();
      await page.evaluate(() => navigator.clipboard.writeText(''));
      await page.getByRole('button', { name: 'Copy the link for everyone of The party' }).click();
      await page.waitForFunction(async (link) => (await navigator.clipboard.readText()) === link, expected);
    });

    it('should keep the address on the server: another browser builds the same links, without the banner', async () => {
      const page = await openAdmin();
      await page
        .locator('#album-tree')
        .getByRole('button', { name: /The party/ })
        .click();
      await page.waitForFunction(() =>
        (document.querySelector('input[aria-label="Link for everyone"]') as HTMLInputElement | null)?.value.startsWith('https://'),
      );
      await page.getByText('More ways to share').click();
      expect(await page.getByRole('textbox', { name: 'Link for everyone', exact: true }).inputValue()).to.equal(
        'https://photos.example.com/photos/family/party?token=party-token',
      );
      expect(await page.locator('#site-address-banner').isHidden()).to.equal(true);
      expect(await page.evaluate(() => localStorage.length)).to.equal(0);
    });

    it('should edit the site name, subtitle and accent in the Site tab, shown by the public site', async () => {
      const page = await openAdmin();
      await page.getByRole('link', { name: 'Site', exact: true }).click();
      const form = page.getByRole('form', { name: 'Site settings' });
      await form.getByLabel('Site name').fill('Silva Family');
      await form.getByLabel('Landing subtitle').fill('Since 1998');
      await form.getByLabel('Accent colour').fill('#2a6f97');
      await form.getByRole('button', { name: 'Save site settings' }).click();
      await page.getByText('Site settings saved').waitFor();
      expect(siteJson()).to.deep.equal({ publicUrl: 'https://photos.example.com', name: 'Silva Family', subtitle: 'Since 1998', accent: '#2a6f97' });

      // An address the server refuses (the gallery lives at the root of its host) is answered with the
      // reason, and nothing changes on disk.
      await form.getByLabel('Public address').fill('https://photos.example.com/gallery');
      await form.getByRole('button', { name: 'Save site settings' }).click();
      await page.getByText(/publicUrl must be an absolute http\(s\) address/).waitFor();
      expect(siteJson().publicUrl).to.equal('https://photos.example.com');

      await fx.gallery.home.load();
      const { page: site } = await openPage('/', PHONE);
      expect(await site.title()).to.equal('Silva Family');
      expect(await site.locator('.brand__name').textContent()).to.equal('Silva Family');
      expect(await site.locator('.lead').textContent()).to.equal('Since 1998');
      const accent = await site.evaluate(() => getComputedStyle(document.querySelector('.button')!).backgroundColor);
      expect(accent).to.equal('rgb(42, 111, 151)');
    });
  });
});
