import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { newShareLinkId } from '../../server/core/albums/share-links.js';
import { makeJpeg } from '../admin/support/admin-fixture.js';
import { launchBrowser } from '../support/browser.js';
import { makeTempDir, removeTempDir, writeAlbum } from '../support/temp-dir.js';
import { type AdminAndSite, recordProblems, startAdminAndSite } from './admin-fixtures.js';

/**
 * The admin in German for a German browser (README "Languages"): each tab, an album's panel,
 * the Share… dialog and the photo dialog show none of the strings the English admin shows
 * there, but the owner's own data (titles, names, paths, addresses) and words German shares
 * with English.
 */

const GRANDMA = { id: newShareLinkId(), name: 'Grandma', created: new Date(Date.now() - 3_600_000).toISOString(), downloads: false, language: 'de' };
/** Written alike in both: the owner's data, and words German uses as they are. */
const SAME = new Set([
  'Family summer',
  'Trips',
  'family',
  'trips',
  'Grandma',
  'Gallery',
  'Album',
  'Link',
  'Name',
  'Text',
  'Video',
  'Downloads',
  'Uploads',
  'LIVE',
  'Deutsch',
  'Bytes',
  'secret-pw',
  '.jpg',
]);
const ownersOwn = (text: string) =>
  SAME.has(text) ||
  !/\p{L}{2,}/u.test(text) ||
  /^[\d.,\s]+[kMGT]?B$/.test(text) ||
  /^(https?:|\/|a\.jpg|Token: )/.test(text) ||
  text.includes('/tmp/') ||
  text.includes('gallery-admin-lang-');

const VISIBLE_STRINGS = `(() => {
  const found = new Set([document.title]);
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = (node.textContent || '').replace(/\\\\s+/g, ' ').trim();
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

describe('the admin in German, in Chromium', function () {
  this.timeout(120_000);
  let root: string;
  let servers: AdminAndSite;
  let browser: Browser;

  before(async function () {
    this.timeout(120_000);
    root = makeTempDir('gallery-admin-lang-');
    for (const dir of ['albums', 'content', 'cache']) fs.mkdirSync(path.join(root, dir));
    const albums = path.join(root, 'albums');
    for (const [album, meta] of [
      ['family', { title: 'Family summer', password: 'secret-pw', token: 'family-token-0123456789', shareLinks: [GRANDMA] }],
      ['trips', { title: 'Trips', token: 'trips-token-0123456789' }],
    ] as const) {
      fs.writeFileSync(path.join(writeAlbum(albums, album, meta), 'a.jpg'), await makeJpeg(320, 240));
    }
    servers = await startAdminAndSite(root);
    browser = await launchBrowser();
  });

  after(async () => {
    await browser?.close();
    await servers?.close();
    removeTempDir(root);
  });

  /** The views an owner meets, each reached the same way in both languages (by the elements' places, not their words). */
  const VIEWS: Record<string, (page: Page) => Promise<void>> = {
    'an album': async (page) => {
      await page.locator('#album-tree button.album-link[data-path="family"]').click();
      await page.locator('.share-links table, .share-links .empty').waitFor();
    },
    'the share dialog': async (page) => {
      await page.locator('#album-tree button.album-link[data-path="family"]').click();
      await page.locator('.share-links table').waitFor();
      await page.locator('section[aria-labelledby="sharing-title"] button.primary').click();
      await page.locator('dialog.share-dialog select[name="language"]').waitFor();
    },
    'a photo': async (page) => {
      await page.locator('#album-tree button.album-link[data-path="trips"]').click();
      await page.locator('#media-grid button.tile').first().click();
      await page.locator('#photo-dialog[open]').waitFor();
    },
    'the top of the tree': async (page) => {
      await page.locator('#album-tree button.tree-root').click();
      await page.locator('#album-panel .panel-head').waitFor();
    },
    'who can see what': async (page) => {
      await page.goto(`${servers.adminUrl}/#access`);
      await page.locator('#access-list table').first().waitFor();
    },
    'the home page': async (page) => {
      await page.goto(`${servers.adminUrl}/#home`);
      await page.locator('#home-editor form').first().waitFor();
    },
    'the site images': async (page) => {
      await page.goto(`${servers.adminUrl}/#assets`);
      await page.locator('#asset-manager .asset-block').first().waitFor();
    },
    'the site': async (page) => {
      await page.goto(`${servers.adminUrl}/#site`);
      await page.locator('#site-editor form').waitFor();
    },
    'the cache': async (page) => {
      await page.goto(`${servers.adminUrl}/#cache`);
      await page.locator('#cache-stats table').waitFor();
    },
  };

  async function stringsOf(language: string, view: string): Promise<string[]> {
    const context = await browser.newContext({ locale: language, extraHTTPHeaders: { 'Accept-Language': language }, viewport: { width: 1280, height: 900 } });
    try {
      const page = await context.newPage();
      const problems: string[] = [];
      recordProblems(page, problems);
      await page.goto(`${servers.adminUrl}/`);
      await page.locator('#album-tree button').first().waitFor();
      await VIEWS[view]!(page);
      const strings = (await page.evaluate(VISIBLE_STRINGS)) as string[];
      expect(problems, `${view} in ${language}`).to.deep.equal([]);
      return strings;
    } finally {
      await context.close();
    }
  }

  for (const view of Object.keys(VIEWS)) {
    it(`should show ${view} in German, none of its English strings`, async () => {
      const english = await stringsOf('en-GB', view);
      const german = await stringsOf('de', view);
      expect(german.filter((s) => english.includes(s) && !ownersOwn(s))).to.deep.equal([]);
      expect(german.length).to.be.above(8);
    });
  }

  it('should write the message that hands a link over in the language chosen for its person', async () => {
    const context = await browser.newContext({ locale: 'en-GB', extraHTTPHeaders: { 'Accept-Language': 'en-GB' } });
    try {
      const page = await context.newPage();
      await page.goto(`${servers.adminUrl}/`);
      await page.locator('#album-tree button.album-link[data-path="family"]').click();
      await page.getByRole('button', { name: 'Share…' }).click();
      const form = page.getByRole('form', { name: 'Share with someone' });
      await form.getByLabel('Who is it for?').fill('Mamie');
      await form.getByLabel('Language of their pages').selectOption('fr');
      await form.getByRole('button', { name: 'Make the link' }).click();
      const message = await page.getByRole('textbox', { name: 'Message to send' }).inputValue();
      expect(message).to.match(
        /^Bonjour Mamie, voici les photos de « Family summer » : http:\/\/\S+\/s\/[\w-]+ Le lien fonctionne jusqu’au \d+ \p{L}+ \d{4}\.$/u,
      );
      // The owner's own words stay English around it.
      expect(await page.getByRole('heading', { name: 'Send Mamie their link' }).count()).to.equal(1);
    } finally {
      await context.close();
    }
  });

  it("should list a link's language, and offer the languages in their own names", async () => {
    const german = await stringsOf('de', 'the share dialog');
    // The dialog's field, and Grandma's link listed (behind it) with the language chosen for her.
    expect(german).to.include('Sprache der Seiten').and.include('Deutsch');
  });
});
