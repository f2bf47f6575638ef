import { expect } from 'chai';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { launchBrowser } from '../support/browser.js';
import { AdminSite } from './admin-site.js';
import { accessibilityViolations } from './axe-audit.js';
import { FILES, VisitorSite } from './visitor-site.js';

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

/** The admin speaks English and German only: its settings are those two, in each theme. */
const ADMIN_SETTINGS: Readonly<Record<string, Setting>> = {
  'English, light theme, desktop': { language: 'en-GB', theme: 'light', device: DESKTOP },
  'German, dark theme, phone': { language: 'de', theme: 'dark', device: PHONE },
};

describe('accessibility of the visitor pages and the admin (axe-core in Chromium)', function () {
  this.timeout(90_000);
  const site = new VisitorSite();
  const admin = new AdminSite();
  let browser: Browser;

  before(async function () {
    this.timeout(180_000);
    await site.start();
    await admin.start(site.config!);
    browser = await launchBrowser();
  });

  after(async () => {
    await browser?.close();
    await admin.close();
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

  // The three gaps issue 29 found, each named here as well as by axe's rules.
  describe('the names axe once found missing', () => {
    const english = ADMIN_SETTINGS['English, light theme, desktop']!;

    it("should name the viewer's dialog after the album", async () => {
      const page = await pageIn(english, []);
      try {
        await site.openViewer(page);
        await page.getByRole('dialog', { name: 'Photo viewer: Lisbon in spring', exact: true }).waitFor();
      } finally {
        await page.context().close();
      }
    });

    it("should label the admin's upload field", async () => {
      const page = await pageIn(english, []);
      try {
        await admin.states['albums tab, an album open']!(page);
        const field = page.getByLabel('Drop photos and videos here, or choose them:', { exact: true });
        expect(await field.getAttribute('type')).to.equal('file');
      } finally {
        await page.context().close();
      }
    });

    it("should name the admin's tiles with what they show: the caption under them and their badges", async () => {
      const page = await pageIn(english, []);
      try {
        await admin.states['albums tab, an album open']!(page);
        const names = await page.locator('#album-panel .media-grid .tile').evaluateAll((tiles) => tiles.map((tile) => tile.getAttribute('aria-label')));
        expect(names).to.include.members([
          `${FILES[1]}, ▶ video: caption, rename, move, rotate, delete`,
          `${FILES[2]}, The steps up to the castle, cover: caption, rename, move, rotate, delete`,
          `${FILES[3]}, LIVE: caption, rename, move, rotate, delete`,
        ]);
      } finally {
        await page.context().close();
      }
    });
  });

  for (const [name, setting] of Object.entries(ADMIN_SETTINGS)) {
    describe(`the admin, ${name}`, () => {
      for (const state of Object.keys(admin.states)) {
        it(`should find no violation on the ${state}`, async () => {
          const problems: string[] = [];
          const page = await pageIn(setting, problems);
          try {
            await admin.states[state]!(page);
            // The admin has one theme, dark, whatever the system's: checked under both.
            const dark = await page.evaluate(() => matchMedia('(prefers-color-scheme: dark)').matches);
            expect(dark).to.equal(setting.theme === 'dark');
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
