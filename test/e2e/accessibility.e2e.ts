import { expect } from 'chai';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { launchBrowser } from '../support/browser.js';
import { accessibilityViolations } from './axe-audit.js';
import { VisitorSite } from './visitor-site.js';

/**
 * Accessibility as a test (README "Accessibility"): axe-core finds nothing wrong, of any
 * impact, on every page type a visitor meets and in each state of the viewer, in the light and
 * the dark theme, in English and in Arabic (right to left), on a desktop and a phone.
 */

interface Setting {
  readonly language: string;
  readonly theme: 'light' | 'dark';
  readonly device: BrowserContextOptions;
}

const DESKTOP: BrowserContextOptions = { viewport: { width: 1280, height: 860 } };
const PHONE: BrowserContextOptions = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };

const SETTINGS: Readonly<Record<string, Setting>> = {
  'English, light theme, desktop': { language: 'en-GB', theme: 'light', device: DESKTOP },
  'English, dark theme, phone': { language: 'en-GB', theme: 'dark', device: PHONE },
  'Arabic, light theme, phone': { language: 'ar', theme: 'light', device: PHONE },
  'Arabic, dark theme, desktop': { language: 'ar', theme: 'dark', device: DESKTOP },
};

describe('accessibility of the visitor pages (axe-core in Chromium)', function () {
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

  /** A fresh page in `setting`, recording script errors and refusals of the page's CSP. */
  async function pageIn(setting: Setting, problems: string[]): Promise<Page> {
    const context = await browser.newContext({
      ...setting.device,
      colorScheme: setting.theme,
      locale: setting.language,
      extraHTTPHeaders: { 'Accept-Language': setting.language },
    });
    const page = await context.newPage();
    page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
    page.on('console', (msg) => {
      if (/Content Security Policy|Refused to/i.test(msg.text())) problems.push(`console: ${msg.text()}`);
    });
    return page;
  }

  for (const [name, setting] of Object.entries(SETTINGS)) {
    describe(name, () => {
      for (const state of Object.keys(site.states)) {
        it(`should find no violation on the ${state}`, async () => {
          const problems: string[] = [];
          const page = await pageIn(setting, problems);
          try {
            await site.states[state]!(page);
            expect(await page.evaluate('document.documentElement.dataset.theme')).to.equal(setting.theme);
            expect(await accessibilityViolations(page), `${state}, ${name}`).to.deep.equal([]);
            expect(problems).to.deep.equal([]);
          } finally {
            await page.context().close();
          }
        });
      }
    });
  }
});
