import { expect } from 'chai';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { launchBrowser } from '../support/browser.js';
import { VisitorSite } from './visitor-site.js';

/**
 * Large text (README "Accessibility"): with Chromium's default font size doubled (its "Font
 * size" setting, as a phone's larger text does), or the page zoomed to 200% on a desktop, no
 * control is cut off or overlaps another, on every page a visitor meets and in the viewer.
 */

interface Setting {
  readonly device: BrowserContextOptions;
  /** Chromium's standard font size, in px (16 by default). */
  readonly fontSize: number;
}

const SETTINGS: Readonly<Record<string, Setting>> = {
  'a phone (390×844) with text at 200%': {
    device: { viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true },
    fontSize: 32,
  },
  'a desktop (1440×900) with text at 200%': { device: { viewport: { width: 1440, height: 900 } }, fontSize: 32 },
  // Zoom halves the page's viewport in CSS pixels and doubles its pixels per CSS pixel.
  'a desktop (1440×900) zoomed to 200%': { device: { viewport: { width: 720, height: 450 }, deviceScaleFactor: 2 }, fontSize: 16 },
};

/** Where each control is cut off or overlaps another: one line per fault, naming both. */
function layoutFaults(): string[] {
  const describe = (el: Element) => {
    const text = (el as HTMLElement).innerText?.trim().replace(/\s+/g, ' ').slice(0, 30) || el.getAttribute('aria-label') || el.getAttribute('title') || '';
    return `<${el.tagName.toLowerCase()} class="${el.getAttribute('class') ?? ''}"> "${text}"`;
  };
  const shown = (el: Element) => {
    const box = el.getBoundingClientRect();
    const style = getComputedStyle(el);
    const folded = el.closest('details:not([open])') && !el.matches('summary');
    // A control drawn fully transparent (a tile's choose box until hovered or focused) is not seen, so cannot be cut off.
    const transparent = Number.parseFloat(style.opacity) === 0;
    return (
      box.width > 2 &&
      box.height > 2 &&
      style.visibility !== 'hidden' &&
      !transparent &&
      !folded &&
      !el.closest('[hidden], [inert], .visually-hidden, [aria-hidden="true"]')
    );
  };
  // What is on top: an open dialog (the viewer's help), else the open viewer, else the page; what lies under it is out of reach.
  const dialogs = [...document.querySelectorAll('dialog[open]')];
  const scope = dialogs.at(-1) ?? document.querySelector('.pswp') ?? document;
  const controls = [...scope.querySelectorAll('a[href], button, summary, input:not([type="hidden"]), select, textarea')].filter(shown);
  /** The boxes of the text a control shows (not the words kept for screen readers). */
  const textRects = (el: Element) => {
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    const rects: DOMRect[] = [];
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (!node.textContent?.trim() || node.parentElement?.closest('.visually-hidden')) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      rects.push(...[...range.getClientRects()].filter((r) => r.width > 0 && r.height > 0));
    }
    return rects;
  };
  const faults: string[] = [];
  for (const el of controls) {
    const box = el.getBoundingClientRect();
    // Its text runs past its box, or is scrolled or clipped inside it.
    const rects = textRects(el);
    const outside = rects.some((r) => r.left < box.left - 1 || r.right > box.right + 1 || r.top < box.top - 1 || r.bottom > box.bottom + 1);
    const clipped = el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX !== 'visible';
    if (outside || clipped) faults.push(`cut off: ${describe(el)}`);
  }
  for (const [i, a] of controls.entries()) {
    for (const b of controls.slice(i + 1)) {
      if (a.contains(b) || b.contains(a)) continue;
      const [p, q] = [a.getBoundingClientRect(), b.getBoundingClientRect()];
      const overlap = Math.min(p.right, q.right) - Math.max(p.left, q.left) > 1 && Math.min(p.bottom, q.bottom) - Math.max(p.top, q.top) > 1;
      if (overlap) faults.push(`overlap: ${describe(a)} and ${describe(b)}`);
    }
  }
  return faults;
}

describe('controls at 200% text size and zoom (Chromium)', function () {
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

  async function pageIn(setting: Setting): Promise<Page> {
    const context = await browser.newContext({ ...setting.device, locale: 'en-GB' });
    // tsx names the check's inner functions through a helper of its own (esbuild's keepNames): the page gets one too.
    await context.addInitScript('window.__name = (fn) => fn;');
    const page = await context.newPage();
    // Chromium's "Font size" setting, for this page: what rem and em sizes grow from.
    const cdp = await context.newCDPSession(page);
    await cdp.send('Page.setFontSizes', { fontSizes: { standard: setting.fontSize, fixed: Math.round(setting.fontSize * 0.8125) } });
    return page;
  }

  for (const [name, setting] of Object.entries(SETTINGS)) {
    describe(name, () => {
      it('should have text of the size asked for (the check itself)', async () => {
        const page = await pageIn(setting);
        try {
          await page.goto(`${site.url}/photos`);
          const rootSize = await page.evaluate(() => getComputedStyle(document.documentElement).fontSize);
          expect(parseFloat(rootSize)).to.equal(setting.fontSize);
        } finally {
          await page.context().close();
        }
      });

      for (const state of Object.keys(site.states)) {
        it(`should cut off no control on the ${state}, nor lay one over another`, async () => {
          const page = await pageIn(setting);
          try {
            await site.states[state]!(page);
            expect(await page.evaluate(layoutFaults), state).to.deep.equal([]);
          } finally {
            await page.context().close();
          }
        });
      }
    });
  }
});
