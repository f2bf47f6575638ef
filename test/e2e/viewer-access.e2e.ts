import fs from 'node:fs';
import { expect } from 'chai';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { launchBrowser, showsFile } from '../support/browser.js';
import { FILES, VisitorSite } from './visitor-site.js';

/**
 * The viewer for those who do not see it or do not want it to move (README "Accessibility"):
 * it says where the visitor is ("Photo 3 of 48") in their language, its buttons keep a
 * visible label or a tooltip in that language, and with the system's reduced motion a swipe
 * lands on the next photo without gliding.
 */

type Strings = Record<string, unknown>;
const catalogue = (lang: string): Strings => JSON.parse(fs.readFileSync(new URL(`../../locales/${lang}.json`, import.meta.url), 'utf8'));
/** Every string of a catalogue's part, flattened. */
const valuesOf = (part: unknown): string[] =>
  typeof part === 'string' ? [part] : part && typeof part === 'object' ? Object.values(part).flatMap(valuesOf) : [];

/** The words a German page must not show: the English client strings German writes otherwise, and PhotoSwipe's own English titles. */
function englishOnly(): Set<string> {
  const german = new Set(valuesOf(catalogue('de').client));
  const photoswipe = ['Close', 'Zoom', 'Previous', 'Next', 'Close (Esc)', 'Zoom (z)'];
  return new Set([...valuesOf(catalogue('en').client), ...photoswipe].filter((s) => !german.has(s)));
}

const DESKTOP: BrowserContextOptions = { viewport: { width: 1280, height: 860 } };

describe('the viewer for screen readers and reduced motion (Chromium)', function () {
  this.timeout(90_000);
  const site = new VisitorSite();
  let browser: Browser;

  before(async function () {
    this.timeout(180_000);
    await site.start();
    browser = await launchBrowser();
  });

  after(async () => {
    await browser?.close();
    await site.close();
  });

  async function pageIn(language: string, options: BrowserContextOptions = {}): Promise<Page> {
    const context = await browser.newContext({ ...DESKTOP, locale: language, extraHTTPHeaders: { 'Accept-Language': language }, ...options });
    return context.newPage();
  }

  /** What the live region says now, once it says something. */
  async function position(page: Page): Promise<string> {
    const region = page.locator('.pswp__position');
    expect(await region.getAttribute('aria-live')).to.equal('polite');
    await page.waitForFunction(() => (document.querySelector('.pswp__position')?.textContent ?? '') !== '');
    return (await region.textContent()) ?? '';
  }

  /** Steps to the album's next file and waits until the viewer shows it. */
  async function next(page: Page, name: string): Promise<void> {
    const rtl = (await page.evaluate('document.documentElement.dir')) === 'rtl';
    await page.keyboard.press(rtl ? 'ArrowLeft' : 'ArrowRight');
    await page.waitForFunction(showsFile, name);
  }

  describe('where the visitor is', () => {
    it('should say "Photo 1 of 4", then "Video 2 of 4", in a live region that is not seen', async () => {
      const page = await pageIn('en-GB');
      try {
        await site.openViewer(page);
        expect(await position(page)).to.equal(`Photo 1 of ${FILES.length}`);
        const box = await page.locator('.pswp__position').boundingBox();
        expect(box === null || (box.width <= 1 && box.height <= 1), 'only for screen readers').to.equal(true);
        await next(page, FILES[1]);
        expect(await position(page)).to.equal(`Video 2 of ${FILES.length}`);
      } finally {
        await page.context().close();
      }
    });

    it('should say it in German', async () => {
      const page = await pageIn('de');
      try {
        await site.openViewer(page);
        expect(await position(page)).to.equal(`Foto 1 von ${FILES.length}`);
      } finally {
        await page.context().close();
      }
    });

    it("should count in the album's order right to left, in Arabic and its digits", async () => {
      const page = await pageIn('ar');
      try {
        await site.openViewer(page);
        await next(page, FILES[1]);
        const digits = await page.evaluate(() => [2, 4].map((n) => new Intl.NumberFormat(document.documentElement.lang).format(n)));
        expect(await position(page)).to.equal(`مقطع الفيديو ${digits[0]} من ${digits[1]}`);
      } finally {
        await page.context().close();
      }
    });
  });

  describe('its buttons', () => {
    for (const language of ['en-GB', 'de']) {
      it(`should each show a label or have a tooltip, in ${language === 'de' ? 'German' : 'English'}, the slideshow's too`, async () => {
        const page = await pageIn(language);
        try {
          await site.openViewer(page);
          await page.keyboard.press('s');
          await page.locator('.pswp__slideshow:not([hidden])').waitFor();
          await page.keyboard.press('x');
          const labels = await page
            .locator('.pswp button:visible, .pswp a.pswp__button:visible')
            .evaluateAll((buttons) => buttons.map((b) => b.getAttribute('title')?.trim() || (b as HTMLElement).innerText.trim()));
          expect(labels.length).to.be.at.least(8);
          expect(
            labels.filter((label) => label === ''),
            'a button with neither',
          ).to.deep.equal([]);
          if (language === 'de') expect(labels.filter((label) => englishOnly().has(label))).to.deep.equal([]);
        } finally {
          await page.context().close();
        }
      });
    }
  });

  describe('with reduced motion', () => {
    /**
     * Where the slides' strip is moved to while a swipe to the next photo is let go: the
     * release is sent in the page, so what it did at once is told from what it left to later
     * frames (a glide moves the strip only then).
     */
    async function stripMovesOnRelease(page: Page): Promise<string[]> {
      const box = (await page.locator('.pswp').boundingBox())!;
      const [from, to, y] = [box.x + box.width * 0.8, box.x + box.width * 0.2, box.y + box.height / 2];
      await page.evaluate(() => {
        window.addEventListener('pointerdown', (e) => Object.assign(window, { swipePointer: e.pointerId }), { once: true, capture: true });
      });
      await page.mouse.move(from, y);
      await page.mouse.down();
      await page.mouse.move(to, y, { steps: 8 });
      // The strip follows the pointer before it is let go.
      await page.waitForFunction(() => /translate3d\(-?[1-9]/.test((document.querySelector('.pswp__container') as HTMLElement).style.transform));
      const moves = await page.evaluate((x) => {
        const strip = document.querySelector('.pswp__container') as HTMLElement;
        const seen: string[] = [];
        const observer = new MutationObserver(() => seen.push(strip.style.transform));
        observer.observe(strip, { attributeFilter: ['style'] });
        const pointerId = (window as unknown as { swipePointer: number }).swipePointer;
        window.dispatchEvent(new PointerEvent('pointerup', { pointerId, pointerType: 'mouse', isPrimary: true, clientX: x, clientY: 0, bubbles: true }));
        seen.push(...observer.takeRecords().map(() => strip.style.transform));
        observer.disconnect();
        return seen;
      }, to);
      await page.mouse.up();
      await page.waitForFunction(showsFile, FILES[1]);
      return moves;
    }

    it('should land a swipe on the next photo at once, and scroll the page without smoothing', async () => {
      const page = await pageIn('en-GB', { reducedMotion: 'reduce' });
      try {
        await site.openViewer(page);
        expect(await stripMovesOnRelease(page)).to.have.lengthOf(1);
        expect(await page.evaluate(() => getComputedStyle(document.documentElement).scrollBehavior)).to.equal('auto');
      } finally {
        await page.context().close();
      }
    });

    it('should glide to it otherwise (the same measure sees the difference)', async () => {
      const page = await pageIn('en-GB', { reducedMotion: 'no-preference' });
      try {
        await site.openViewer(page);
        expect(await stripMovesOnRelease(page)).to.deep.equal([]);
      } finally {
        await page.context().close();
      }
    });
  });
});
