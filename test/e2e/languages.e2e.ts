import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { newShareLinkId } from '../../server/core/albums/share-links.js';
import { loadConfig } from '../../server/core/config.js';
import { createGallery, type Gallery } from '../../server/gallery.js';
import { launchBrowser } from '../support/browser.js';
import { quietLogger } from '../support/capture-logger.js';
import { listenOnLoopback, type LoopbackServer } from '../support/loopback-server.js';
import { CAMERA, writeCameraJpeg, writeJpeg, writeVideo } from '../support/media-fixtures.js';
import { makeTempDir, removeTempDir, writeAlbum } from '../support/temp-dir.js';

/**
 * Every page type in the visitor's language, in Debian's Chromium against the real gallery
 * (README "Languages"): opened with `Accept-Language: de`, a page shows none of the strings its
 * English version shows (but the owner's titles, file names, camera data and names that stay
 * as they are: "Live Photo", "LIVE"); the switcher, a share link's language and the site's
 * default language each choose it; Arabic is laid out right to left, the viewer mirrored.
 */

const ALBUM = '2024/lisbon';
const ALBUM_FILES = ['1-harbour.jpg', '2-tram.mp4', '3-steps.jpg', '4-cafe.jpg'];
const SECRET = '2024/secret';
const PASSWORD = 'open sesame';
const GRANDMA = { id: newShareLinkId(), name: 'Grandma', created: new Date(Date.now() - 3_600_000).toISOString(), downloads: true, language: 'de' };
/** What both languages show alike: the owner's words, file names and figures (the camera's, a video's length). */
const SAME_IN_EVERY_LANGUAGE = [
  'Gallery',
  'Lisboa',
  'Secret',
  '2024',
  ...ALBUM_FILES,
  'Live Photo',
  'LIVE',
  'Esc',
  'Tab',
  'Codec',
  `${CAMERA.Make} ${CAMERA.Model}`,
  CAMERA.LensModel,
];

const PHONE: BrowserContextOptions = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };
const DESKTOP: BrowserContextOptions = { viewport: { width: 1280, height: 860 } };

/**
 * The strings a page shows a visitor: its text, and the labels assistive technology reads. A
 * script in a string: functions defined in a test file are compiled with helpers the page lacks.
 */
const VISIBLE_STRINGS = `(() => {
  const found = new Set([document.title]);
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = (node.textContent || '').replace(/\\s+/g, ' ').trim();
    const parent = node.parentElement;
    if (text && parent && !parent.closest('script, style, template') && parent.checkVisibility({ checkVisibilityCSS: true })) found.add(text);
  }
  for (const el of document.querySelectorAll('[title], [aria-label], [alt], [placeholder]')) {
    if (!el.checkVisibility({ checkVisibilityCSS: true })) continue;
    for (const name of ['title', 'aria-label', 'alt', 'placeholder']) {
      const value = (el.getAttribute(name) || '').trim();
      if (value) found.add(value);
    }
  }
  return [...found];
})()`;
const visibleStrings = (page: Page): Promise<string[]> => page.evaluate(VISIBLE_STRINGS);

/** Strings without a word (figures, arrows, "·"), or figures with a unit ("35 mm", "1/250 s", "2 MP"). */
/** Said alike in every language: the owner's words, names and figures, alone or joined by " · " (a page's title: "Lisboa · Gallery"). */
const sameInEveryLanguage = (text: string) => text.split(' · ').every((part) => SAME_IN_EVERY_LANGUAGE.includes(part) || wordless(part));
const wordless = (text: string) => !/\p{L}{2,}/u.test(text) || /^[\d\s.,:/×()–-]+(mm|s|fps|MP|ISO \d+)?[\d\s.,:/×()]*$/u.test(text) || /^ISO \d+$/.test(text);

describe('languages in Chromium', function () {
  this.timeout(120_000);
  const root = makeTempDir('languages-e2e-');
  const albumsDir = path.join(root, 'albums');
  const contentDir = path.join(root, 'content');
  let gallery: Gallery;
  let server: LoopbackServer | undefined;
  let browser: Browser;
  let url = '';
  const contexts: BrowserContext[] = [];

  before(async function () {
    this.timeout(180_000);
    const album = writeAlbum(albumsDir, ALBUM, { title: 'Lisboa', style: 'grid' });
    await writeCameraJpeg(path.join(album, ALBUM_FILES[0]!), 900, 600);
    await writeVideo(path.join(album, ALBUM_FILES[1]!), { seconds: 1 });
    await writeJpeg(path.join(album, ALBUM_FILES[2]!), 600, 900);
    await writeJpeg(path.join(album, ALBUM_FILES[3]!), 800, 800);
    const secret = writeAlbum(albumsDir, SECRET, { title: 'Secret', password: PASSWORD, shareLinks: [GRANDMA] });
    await writeJpeg(path.join(secret, 'cake.jpg'), 600, 400);
    fs.mkdirSync(contentDir, { recursive: true });
    const config = loadConfig({ ALBUMS_DIR: albumsDir, CACHE_DIR: path.join(root, 'cache'), CONTENT_DIR: contentDir, WORKERS: '2' });
    gallery = await createGallery(config, { watch: false, log: quietLogger });
    server = await listenOnLoopback(gallery.handler);
    url = server.url;
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

  /** A page of a browser set to `language` (its Accept-Language and navigator.language), recording script errors. */
  async function pageIn(language: string, device = DESKTOP): Promise<{ page: Page; errors: string[] }> {
    const context = await browser.newContext({ ...device, locale: language, extraHTTPHeaders: { 'Accept-Language': language } });
    contexts.push(context);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));
    page.on('console', (msg) => {
      if (msg.type() === 'error' && /Content Security Policy/.test(msg.text())) errors.push(msg.text());
    });
    return { page, errors };
  }

  /** Opens the viewer on the album's first photo and waits until it takes keys. */
  async function openViewer(page: Page): Promise<void> {
    await page.goto(`${url}/photos/${ALBUM}`);
    await page.locator('a.media__link[data-index="0"]').click();
    await page.waitForFunction(() => document.querySelector('.pswp.pswp--opened') !== null, null, { timeout: 15_000 });
  }

  /** The states of the pages a visitor meets, each reached the same way in both languages. */
  const PAGE_STATES: Record<string, (page: Page) => Promise<void>> = {
    album: async (page) => {
      await page.goto(`${url}/photos/${ALBUM}`);
    },
    locked: async (page) => {
      await page.goto(`${url}/photos/${SECRET}?error=wrong-password`);
    },
    'share link': async (page) => {
      await page.goto(`${url}/s/${newShareLinkId()}`);
    },
    refused: async (page) => {
      await page.goto(`${url}/albums/${SECRET}/cake.jpg`);
    },
    error: async (page) => {
      await page.goto(`${url}/no/such/page`);
    },
    viewer: async (page) => {
      await openViewer(page);
      await page.keyboard.press('i');
      await page.locator('#exif-panel dt').first().waitFor();
    },
    help: async (page) => {
      await openViewer(page);
      await page.keyboard.press('?');
      await page.locator('#help-overlay[open]').waitFor();
    },
    slideshow: async (page) => {
      await openViewer(page);
      await page.keyboard.press('s');
      await page.locator('.pswp__slideshow:not([hidden])').waitFor();
      // Paused: the bar offers to resume, in words.
      await page.keyboard.press('Shift');
      await page.keyboard.press('x');
      await page.waitForFunction(() => document.querySelector('.pswp__slideshow-status')?.textContent !== '');
    },
  };

  async function stringsOf(language: string, state: string): Promise<string[]> {
    const { page, errors } = await pageIn(language);
    await PAGE_STATES[state]!(page);
    const strings = await visibleStrings(page);
    expect(errors, `${state} in ${language}`).to.deep.equal([]);
    return strings;
  }

  for (const state of Object.keys(PAGE_STATES)) {
    it(`should show the ${state} page with Accept-Language: de in German, none of its English strings`, async () => {
      const english = await stringsOf('en-GB', state);
      const german = await stringsOf('de', state);
      const left = german.filter((s) => english.includes(s) && !sameInEveryLanguage(s));
      expect(left, `${state}: English left on the German page`).to.deep.equal([]);
      expect(german.length, `${state}: the German page shows something`).to.be.above(5);
    });
  }

  it("should take the visitor's choice from the header's switcher, and keep it", async () => {
    const { page } = await pageIn('en-GB', PHONE);
    await page.goto(`${url}/photos/${ALBUM}`);
    await page.locator('.language-menu > summary').click();
    await page.locator('.language-menu button[lang="it"]').click();
    await page.waitForFunction(() => document.documentElement.lang === 'it');
    expect(page.url()).to.equal(`${url}/photos/${ALBUM}`);
    expect(await page.locator('.button--download span').innerText()).to.match(/^Scarica 3 foto · /);
    await page.goto(`${url}/photos`);
    expect(await page.locator('h1').innerText()).to.equal('Foto');
  });

  it("should show a share link's album in the language the owner chose for it, whatever the browser's", async () => {
    const { page } = await pageIn('en-GB');
    await page.goto(`${url}/s/${GRANDMA.id}`);
    expect(await page.locator('html').getAttribute('lang')).to.equal('de');
    expect(await page.locator('.album-meta:not(.album-dates)').innerText()).to.equal('1 Foto');
    // And on the pages the visitor goes on to.
    await page.goto(`${url}/photos`);
    expect(await page.locator('html').getAttribute('lang')).to.equal('de');
  });

  it("should fall back to the site's language for a browser whose languages the gallery does not have", async () => {
    fs.writeFileSync(path.join(contentDir, 'site.json'), JSON.stringify({ language: 'fr' }));
    await gallery.home.load();
    try {
      const { page } = await pageIn('ja');
      await page.goto(`${url}/photos/${ALBUM}`);
      expect(await page.locator('html').getAttribute('lang')).to.equal('fr');
      expect(await page.locator('.album-meta:not(.album-dates)').innerText()).to.equal('3 photos · 1 vidéo');
    } finally {
      fs.rmSync(path.join(contentDir, 'site.json'));
      await gallery.home.load();
    }
  });

  describe('right to left (Arabic)', () => {
    it('should mirror the page: dir="rtl", the header and breadcrumbs from the right', async () => {
      const { page, errors } = await pageIn('ar', PHONE);
      await page.goto(`${url}/photos/${ALBUM}`);
      expect(await page.locator('html').getAttribute('dir')).to.equal('rtl');
      const brand = await page.locator('.brand').boundingBox();
      const nav = await page.locator('.site-header nav').boundingBox();
      expect(brand!.x, 'the brand at the right').to.be.above(nav!.x);
      const crumbs = await page.locator('.breadcrumbs li').evaluateAll((items) => items.map((li) => li.getBoundingClientRect().x));
      expect(crumbs[0], 'the first crumb at the right').to.be.above(crumbs[1]!);
      expect(errors).to.deep.equal([]);
    });

    it("should put the viewer's next arrow on the left, and go to the album's next photo by it, by ← and by a swipe to the right", async () => {
      const { page, errors } = await pageIn('ar');
      await openViewer(page);
      const next = page.locator('.pswp__button--arrow--prev');
      expect(await next.getAttribute('title')).to.equal('التالية (←)');
      const box = await next.boundingBox();
      const other = await page.locator('.pswp__button--arrow--next').boundingBox();
      expect(box!.x, 'next on the left').to.be.below(other!.x);
      expect(await page.locator('.pswp__counter').innerText()).to.match(/^1 \/ 4$/);
      const showing = (name: string) =>
        page.waitForFunction((hash) => window.location.hash === hash, `#photo=${encodeURIComponent(name)}`, { timeout: 15_000 });
      await next.click();
      await showing(ALBUM_FILES[1]!);
      expect(await page.locator('.pswp__counter').innerText()).to.match(/^2 \/ 4$/);
      await page.waitForFunction(() => document.querySelector('.pswp.pswp--opened') !== null);
      await page.keyboard.press('ArrowLeft');
      await showing(ALBUM_FILES[2]!);
      await page.keyboard.press('ArrowRight');
      await showing(ALBUM_FILES[1]!);
      expect(errors).to.deep.equal([]);
    });

    it('should move to the next photo with a swipe to the right on a phone', async () => {
      const { page } = await pageIn('ar', PHONE);
      await page.goto(`${url}/photos/${ALBUM}`);
      await page.locator('a.media__link[data-index="0"]').tap();
      await page.waitForFunction(() => document.querySelector('.pswp.pswp--opened') !== null, null, { timeout: 15_000 });
      const cdp = await page.context().newCDPSession(page);
      const { width, height } = page.viewportSize()!;
      const y = Math.round(height / 2);
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x: Math.round(width * 0.2), y }] });
      for (let step = 1; step <= 8; step++) {
        await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x: Math.round(width * (0.2 + step * 0.075)), y }] });
      }
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
      await cdp.detach();
      await page.waitForFunction((hash) => window.location.hash === hash, `#photo=${encodeURIComponent(ALBUM_FILES[1]!)}`, { timeout: 15_000 });
    });
  });

  it('should show the lockout in German, counting down in German', async () => {
    // Ten wrong passwords from this address lock it out (docs/api.md#password-endpoints): after every test of the locked album.
    for (let i = 0; i < 10; i++) {
      await fetch(`${url}/api/unlock`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ albumPath: SECRET, password: `wrong ${i}` }),
        redirect: 'manual',
      });
    }
    const english = await stringsOf('en-GB', 'locked');
    const { page } = await pageIn('de');
    await page.goto(`${url}/photos/${SECRET}`);
    await page.waitForFunction(() => /\d+ Min\. \d+ Sek\.|\d+ Sek\./.test(document.querySelector('.lockout__time')?.textContent ?? ''));
    const german = await visibleStrings(page);
    expect(german.join(' ')).to.include('Passwörter').and.include('erneut versuchen');
    expect(german.filter((s) => english.includes(s) && !sameInEveryLanguage(s))).to.deep.equal([]);
  });
});
