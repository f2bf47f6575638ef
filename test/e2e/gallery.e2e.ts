import path from 'node:path';
import { expect } from 'chai';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, showsFile } from '../support/browser.js';
import {
  BIG_ALBUM,
  BIG_COUNT,
  BrowserGallery,
  LANDSCAPE,
  LAYOUT_ALBUMS,
  LAYOUT_FILES,
  PANORAMA,
  PASSWORD,
  PORTRAIT,
  SECRET_ALBUM,
  VIDEO,
} from './gallery-fixtures.js';

/**
 * The album page and the lightbox in Debian's Chromium, against the real gallery
 * (thumbnails are never waited for, so a slow pool cannot make these tests flaky).
 */

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1440, height: 900 };

interface Box {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

describe('album page in Chromium', function () {
  this.timeout(90_000);
  const fx = new BrowserGallery();
  let browser: Browser;
  const contexts: BrowserContext[] = [];

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

  afterEach(async () => {
    await Promise.all(contexts.splice(0).map((c) => c.close()));
  });

  /** A fresh page (own cookies) that records CSP violations and script errors. */
  async function openPage(
    url: string,
    viewport = DESKTOP,
    opts: { javaScriptEnabled?: boolean; beforeGoto?: (page: Page) => Promise<unknown>; waitUntil?: 'load' | 'domcontentloaded' } = {},
  ): Promise<{ page: Page; problems: string[] }> {
    const context = await browser.newContext({ viewport, javaScriptEnabled: opts.javaScriptEnabled ?? true });
    contexts.push(context);
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
    page.on('console', (msg) => {
      if (/Content Security Policy|Refused to/i.test(msg.text())) problems.push(`console: ${msg.text()}`);
    });
    // Init scripts run outside the page's CSP; the listener catches what the console may not say.
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (e) => {
        (window as unknown as { cspViolations: string[] }).cspViolations ??= [];
        (window as unknown as { cspViolations: string[] }).cspViolations.push(`${e.violatedDirective} ${e.blockedURI}`);
      });
    });
    await opts.beforeGoto?.(page);
    await page.goto(`${fx.url}${url}`, { waitUntil: opts.waitUntil ?? 'load' });
    return { page, problems };
  }

  const albumUrl = (albumPath: string) => `/photos/${albumPath}`;
  const lightbox = (page: Page) => page.locator('.pswp');
  const counter = (page: Page) => page.locator('.pswp__counter').textContent();

  async function cspViolations(page: Page): Promise<string[]> {
    return page.evaluate(() => (window as unknown as { cspViolations?: string[] }).cspViolations ?? []);
  }

  /** Waits until the lightbox shows the file `name` and takes keys (its opening animation is over). */
  async function waitForSlide(page: Page, name: string): Promise<void> {
    await page.waitForFunction(showsFile, name, { timeout: 10_000 });
  }

  describe('a locked album', () => {
    it('should focus the password field and show the error of a wrong password', async () => {
      const { page } = await openPage(albumUrl(SECRET_ALBUM));
      expect(await page.evaluate(() => document.activeElement?.id)).to.equal('password');
      expect(await page.locator('img').count()).to.equal(0);
      await page.locator('#password').fill('not it');
      await Promise.all([page.waitForEvent('load'), page.getByRole('button', { name: 'Unlock album' }).click()]);
      expect(await page.getByRole('alert').textContent()).to.match(/Wrong password/);
      // Shown once: ?error= leaves the address bar (test/e2e/locked-states.e2e.ts has the rest).
      await page.waitForFunction(() => !location.search.includes('error='));
      expect(await page.locator('#password').getAttribute('aria-invalid')).to.equal('true');
    });

    it('should open through the form and show its photos', async () => {
      const { page } = await openPage(albumUrl(SECRET_ALBUM));
      await page.locator('#password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Unlock album' }).click();
      await page.locator('#media').waitFor();
      expect(page.url()).to.equal(`${fx.url}${albumUrl(SECRET_ALBUM)}`);
      expect(await page.locator('#media a.media__link').evaluateAll((links) => links.map((a) => a.getAttribute('data-name')))).to.deep.equal([
        'birthday.jpg',
        'cake.jpg',
      ]);
    });
  });

  describe('the lightbox', () => {
    it('should move with the arrow keys and close the help, then the details, then itself on Escape', async () => {
      const { page, problems } = await openPage(albumUrl(LAYOUT_ALBUMS.grid));
      const before = LAYOUT_FILES[LAYOUT_FILES.indexOf(LANDSCAPE.name) - 1]!;
      await page.locator(`a.media__link[data-name="${before}"]`).click();
      await lightbox(page).waitFor();
      await waitForSlide(page, before);

      await page.keyboard.press('ArrowRight');
      await waitForSlide(page, LANDSCAPE.name);
      expect(await counter(page)).to.equal(`${LAYOUT_FILES.indexOf(LANDSCAPE.name) + 1} / ${LAYOUT_FILES.length}`);
      expect(new URL(page.url()).hash).to.equal(`#photo=${LANDSCAPE.name}`);
      // The large thumbnail is what is displayed, at the photo's own proportions.
      const img = page.locator('.pswp__item[aria-hidden="false"] img.pswp__img:not(.pswp__img--placeholder)');
      expect(await img.getAttribute('src')).to.include('size=large');
      const box = (await img.boundingBox())!;
      expect(box.width / box.height).to.be.closeTo(LANDSCAPE.width / LANDSCAPE.height, 0.02);

      const exif = page.locator('#exif-panel');
      await page.keyboard.press('i');
      await exif.waitFor();
      await page.waitForFunction((model) => document.querySelector('#exif-panel')?.textContent?.includes(model), LANDSCAPE.model, { timeout: 10_000 });
      const panel = await exif.textContent();
      expect(panel).to.include('f/2.8').and.include('1/250 s').and.include('35 mm').and.include('ISO 200');

      const help = page.locator('#help-overlay');
      await page.keyboard.press('?');
      await help.waitFor();
      expect(await help.textContent())
        .to.include('Esc')
        .and.include('Previous / next photo');

      await page.keyboard.press('Escape');
      await help.waitFor({ state: 'hidden' });
      expect(await exif.isVisible()).to.equal(true);
      expect(await lightbox(page).isVisible()).to.equal(true);

      await page.keyboard.press('Escape');
      await exif.waitFor({ state: 'hidden' });
      expect(await lightbox(page).isVisible()).to.equal(true);

      await page.keyboard.press('Escape');
      await lightbox(page).waitFor({ state: 'detached' });
      expect(new URL(page.url()).hash).to.equal('');
      expect(problems).to.deep.equal([]);
      expect(await cspViolations(page)).to.deep.equal([]);
    });

    it('should open the photo of a deep link, and again after a reload', async () => {
      const { page } = await openPage(`${albumUrl(LAYOUT_ALBUMS.masonry)}#photo=${encodeURIComponent(PORTRAIT.name)}`);
      await lightbox(page).waitFor();
      await waitForSlide(page, PORTRAIT.name);
      expect(await counter(page)).to.equal(`${LAYOUT_FILES.indexOf(PORTRAIT.name) + 1} / ${LAYOUT_FILES.length}`);
      expect(new URL(page.url()).hash).to.equal(`#photo=${PORTRAIT.name}`);

      await page.reload();
      await lightbox(page).waitFor();
      await waitForSlide(page, PORTRAIT.name);
    });

    it('should show the original on demand and offer it for download', async () => {
      const { page } = await openPage(`${albumUrl(LAYOUT_ALBUMS.single)}#photo=${PANORAMA.name}`);
      await waitForSlide(page, PANORAMA.name);
      const original = `/albums/${LAYOUT_ALBUMS.single}/${PANORAMA.name}`;
      expect(await page.locator('.pswp__button--download-button').getAttribute('href')).to.equal(original);
      const img = page.locator('.pswp__item[aria-hidden="false"] img.pswp__img:not(.pswp__img--placeholder)');
      expect(await img.getAttribute('src')).to.include('size=large');
      await page.getByRole('button', { name: 'View at full resolution' }).click();
      await page.waitForFunction(
        (src) => document.querySelector('.pswp__item[aria-hidden="false"] img.pswp__img:not(.pswp__img--placeholder)')?.getAttribute('src') === src,
        original,
      );
      expect(await img.getAttribute('srcset')).to.equal(null);
      // Done once per photo: the button goes away.
      await page.locator('.pswp__button--original-button').waitFor({ state: 'hidden' });
    });

    it('should play a video inline', async () => {
      const { page } = await openPage(`${albumUrl(LAYOUT_ALBUMS.grid)}#photo=${VIDEO}`);
      await lightbox(page).waitFor();
      await waitForSlide(page, VIDEO);
      const video = page.locator('.pswp video.pswp__video');
      await video.waitFor();
      expect(
        await video.evaluate((v) => ({
          controls: (v as HTMLVideoElement).controls,
          inline: (v as HTMLVideoElement).playsInline,
          // An H.264 MP4 with its index first plays as it is: the original is the first source.
          src: v.querySelector('source')?.getAttribute('src'),
        })),
      ).to.deep.equal({
        controls: true,
        inline: true,
        src: `/albums/${LAYOUT_ALBUMS.grid}/${VIDEO}`,
      });
      await video.evaluate((v) => {
        const el = v as HTMLVideoElement;
        el.muted = true;
        return el.play();
      });
      await page.waitForFunction(() => ((document.querySelector('.pswp video') as HTMLVideoElement | null)?.currentTime ?? 0) > 0.3, null, { timeout: 10_000 });
      // Moving on pauses it.
      await page.keyboard.press('ArrowLeft');
      await page.waitForFunction(() => (document.querySelector('.pswp video') as HTMLVideoElement | null)?.paused === true);
    });

    it('should reach photos of the album that are not on the page', async () => {
      const { page } = await openPage(albumUrl(BIG_ALBUM));
      expect(await page.locator('#media > li').count()).to.equal(200);
      await page.locator('a.media__link[data-index="0"]').click();
      await waitForSlide(page, 'IMG_1.jpg');
      // Back from the first photo wraps around to the last one, on the album's page 2.
      await page.keyboard.press('ArrowLeft');
      await waitForSlide(page, `IMG_${BIG_COUNT}.jpg`);
      expect(await counter(page)).to.equal(`${BIG_COUNT} / ${BIG_COUNT}`);
      await page.keyboard.press('ArrowLeft');
      await waitForSlide(page, `IMG_${BIG_COUNT - 1}.jpg`);
    });

    it('should open a deep link to a photo on a later page', async () => {
      const { page } = await openPage(`${albumUrl(BIG_ALBUM)}#photo=IMG_240.jpg`);
      await waitForSlide(page, 'IMG_240.jpg');
      expect(await counter(page)).to.equal(`240 / ${BIG_COUNT}`);
    });
  });

  describe('infinite scroll', () => {
    it('should load page 2 as the visitor reaches the end, then stop', async () => {
      const { page } = await openPage(albumUrl(BIG_ALBUM), PHONE);
      expect(await page.locator('#media > li').count()).to.equal(200);
      await page.locator('.pagination').scrollIntoViewIfNeeded();
      await page.waitForFunction((n) => document.querySelectorAll('#media > li').length === n, BIG_COUNT, { timeout: 10_000 });
      const indices = await page.locator('#media a.media__link').evaluateAll((links) => links.map((a) => Number(a.getAttribute('data-index'))));
      expect(indices).to.deep.equal(Array.from({ length: BIG_COUNT }, (_, i) => i));
      expect(await page.locator('.pagination a[rel=next], .pagination button').count()).to.equal(0);
      expect(await page.locator('.pagination').textContent()).to.include(`1–${BIG_COUNT} of ${BIG_COUNT}`);
    });

    it('should keep the plain page links without JavaScript', async () => {
      const { page } = await openPage(albumUrl(BIG_ALBUM), DESKTOP, { javaScriptEnabled: false });
      await page.locator('.pagination a[rel=next]').click();
      await page.waitForURL(/\?page=2$/);
      expect(await page.locator('#media > li').count()).to.equal(BIG_COUNT - 200);
      // A tile is a plain link to the original.
      expect(await page.locator('a.media__link').first().getAttribute('href')).to.equal(`/albums/${BIG_ALBUM}/IMG_201.jpg`);
    });
  });

  describe('layouts', () => {
    for (const [style, albumPath] of Object.entries(LAYOUT_ALBUMS)) {
      for (const [device, viewport] of Object.entries({ phone: PHONE, desktop: DESKTOP })) {
        it(`should lay out "${style}" on a ${device} without overlapping tiles`, async () => {
          // Thumbnails are held back for a moment: sizes come with the page, so what is
          // measured before any image arrives must not move when they do.
          let release!: () => void;
          const held = new Promise<void>((resolve) => (release = resolve));
          const { page, problems } = await openPage(albumUrl(albumPath), viewport, {
            beforeGoto: (p) =>
              p.route('**/api/thumbnail?**', async (route) => {
                await held;
                await route.continue();
              }),
            waitUntil: 'domcontentloaded',
          });
          const tiles = page.locator('#media a.media__link');
          const early = await boxes(tiles);
          release();
          await page.waitForLoadState('networkidle');
          await page.screenshot({ path: path.join(fx.shotsDir, `${style}-${device}.png`), fullPage: true });
          const late = await boxes(tiles);
          expect(late).to.have.length(LAYOUT_FILES.length);
          expect(late.map(round)).to.deep.equal(early.map(round));

          for (const [i, a] of late.entries()) {
            expect(a.width, `tile ${i} width`).to.be.greaterThan(40);
            expect(a.height, `tile ${i} height`).to.be.greaterThan(40);
            expect(a.x, `tile ${i} left`).to.be.at.least(0);
            expect(a.x + a.width, `tile ${i} right`).to.be.at.most(viewport.width + 0.5);
            for (const b of late.slice(i + 1)) expect(overlap(a, b), `tiles ${i} and ${late.indexOf(b)} overlap`).to.be.at.most(1);
          }
          expect(await page.evaluate(() => document.documentElement.scrollWidth)).to.be.at.most(viewport.width);

          // grid: even squares; masonry and single: each photo's own shape, so nothing is cropped.
          const ratios = await tiles.evaluateAll((links) => links.map((a) => Number(a.getAttribute('data-width')) / Number(a.getAttribute('data-height'))));
          for (const [i, box] of late.entries()) {
            const expected = style === 'grid' ? 1 : ratios[i]!;
            expect(box.width / box.height, `tile ${i} shape`).to.be.closeTo(expected, 0.03);
          }
          expect(problems).to.deep.equal([]);
          expect(await cspViolations(page)).to.deep.equal([]);
        });
      }
    }

    it('should show a visible focus ring on a tile and open it with Enter', async () => {
      const { page } = await openPage(albumUrl(LAYOUT_ALBUMS.masonry));
      const first = page.locator('a.media__link').first();
      await first.focus();
      await page.keyboard.press('Shift+Tab');
      await page.keyboard.press('Tab');
      expect(await first.evaluate((a) => a.matches(':focus-visible') && getComputedStyle(a).outlineStyle !== 'none')).to.equal(true);
      await page.keyboard.press('Enter');
      await lightbox(page).waitFor();
      await waitForSlide(page, LAYOUT_FILES[0]!);
    });
  });
});

async function boxes(locator: ReturnType<Page['locator']>): Promise<Box[]> {
  return locator.evaluateAll((links) =>
    links.map((a) => {
      const r = a.getBoundingClientRect();
      return { x: r.x + window.scrollX, y: r.y + window.scrollY, width: r.width, height: r.height };
    }),
  );
}

function round(b: Box): Box {
  return { x: Math.round(b.x), y: Math.round(b.y), width: Math.round(b.width), height: Math.round(b.height) };
}

/** Area shared by two boxes (0 when they only touch). */
function overlap(a: Box, b: Box): number {
  const w = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  return w > 0 && h > 0 ? w * h : 0;
}
