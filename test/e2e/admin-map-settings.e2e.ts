import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from '../support/browser.js';
import { eventuallyPasses } from '../support/eventually-passes.js';
import { makeTempDir, removeTempDir, writeAlbum } from '../support/temp-dir.js';
import { type AdminAndSite, recordProblems, startAdminAndSite } from './admin-fixtures.js';

/**
 * The Site tab's map settings in Chromium (README "The map"): the owner chooses how visitors
 * see places and a tile server, each choice saying what it means; a refused value is shown
 * next to its field and nothing is written; the public map follows what was saved.
 */
describe('the admin’s map settings, in Chromium', function () {
  this.timeout(120_000);
  let root: string;
  let servers: AdminAndSite;
  let browser: Browser;
  const siteFile = () => path.join(root, 'content', 'site.json');
  const readSite = () => (fs.existsSync(siteFile()) ? (JSON.parse(fs.readFileSync(siteFile(), 'utf8')) as Record<string, unknown>) : {});

  before(async function () {
    this.timeout(120_000);
    root = makeTempDir('gallery-admin-map-');
    for (const dir of ['albums', 'content', 'cache']) fs.mkdirSync(path.join(root, dir));
    writeAlbum(path.join(root, 'albums'), 'trips', { title: 'Trips' });
    servers = await startAdminAndSite(root);
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await servers?.close();
    removeTempDir(root);
  });

  async function siteTab(viewport: { width: number; height: number }, problems: string[]): Promise<Page> {
    const page = await browser.newPage({ viewport, locale: 'en-GB' });
    recordProblems(page, problems);
    await page.goto(`${servers.adminUrl}/#site`);
    await page.locator('#site-editor fieldset.map-settings').waitFor();
    return page;
  }

  it('should show the four precisions, the one in effect chosen, each with what it means', async () => {
    const problems: string[] = [];
    const page = await siteTab({ width: 1280, height: 900 }, problems);
    const map = page.locator('#site-editor fieldset.map-settings');
    expect(await map.getByRole('radio', { name: /About 1 km/ }).isChecked(), 'the default, city').to.equal(true);
    for (const name of [/^Exact/, /About 1 km/, /About 100 km/, /No map/]) expect(await map.getByRole('radio', { name }).count()).to.equal(1);
    const text = await map.innerText();
    expect(text).to.match(/Exact positions can show a home/);
    expect(text).to.match(/learns every visitor's address and the areas of the world they look at/);
    expect(await map.getByRole('textbox', { name: /Tile server \(optional\)/ }).count()).to.equal(1);
    expect(await map.getByRole('textbox', { name: /Tile server credit/ }).count()).to.equal(1);
    expect(problems).to.deep.equal([]);
    await page.close();
  });

  it('should show a refused tile server next to its field and write nothing, then save the corrected settings', async () => {
    const problems: string[] = [];
    const page = await siteTab({ width: 1280, height: 900 }, problems);
    const before = readSite();
    const map = page.locator('#site-editor fieldset.map-settings');
    await map.getByRole('radio', { name: /About 100 km/ }).check();
    const tiles = map.getByRole('textbox', { name: /Tile server \(optional\)/ });
    await tiles.fill('http://tile.example.org/{z}/{x}/{y}.png');
    await page.locator('#site-editor button[type="submit"]').click();
    const error = page.locator('#site-error-mapTiles');
    await error.waitFor();
    expect(await error.innerText()).to.match(/^Enter an https address holding \{z\}, \{x\} and \{y\}/);
    expect(await tiles.getAttribute('aria-invalid')).to.equal('true');
    expect(await tiles.evaluate((input) => input === document.activeElement), 'the field with the problem has the focus').to.equal(true);
    expect(await page.locator('#site-error-mapAttribution').isVisible()).to.equal(false);
    expect(readSite(), 'nothing written').to.deep.equal(before);

    await tiles.fill('https://{s}.tile.example.org/{z}/{x}/{y}.png');
    await map.getByRole('textbox', { name: /Tile server credit/ }).fill('© Example maps');
    await page.locator('#site-editor button[type="submit"]').click();
    await page.locator('#notice', { hasText: 'Site settings saved' }).waitFor();
    expect(readSite()).to.include({ mapPrecision: 'country', mapTiles: 'https://{s}.tile.example.org/{z}/{x}/{y}.png', mapAttribution: '© Example maps' });
    // The redrawn tab shows what is now in effect, with no problem left.
    expect(
      await page
        .locator('#site-editor')
        .getByRole('radio', { name: /About 100 km/ })
        .isChecked(),
    ).to.equal(true);
    expect(await page.locator('#site-editor .field-error:visible').count()).to.equal(0);
    // The refused save is the one expected failure.
    expect(problems.filter((p) => !/^400 .*\/api\/site$/.test(p) && !p.includes('400 (Bad Request)'))).to.deep.equal([]);
    await page.close();

    // The public map follows within a second or so (the gallery watches site.json).
    await eventuallyPasses(async () => {
      const visitors = (await (await fetch(`${servers.siteUrl}/api/map`)).json()) as { precision?: string };
      expect(visitors.precision).to.equal('country');
    }, 30_000);
  });

  it('should take the map away with "No map", and fit a phone', async () => {
    const problems: string[] = [];
    const page = await siteTab({ width: 390, height: 844 }, problems);
    const map = page.locator('#site-editor fieldset.map-settings');
    await map.getByRole('radio', { name: /No map/ }).check();
    await page.locator('#site-editor button[type="submit"]').click();
    await page.locator('#notice', { hasText: 'Site settings saved' }).waitFor();
    expect(readSite()).to.include({ mapPrecision: 'hidden' });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow, 'no sideways scrolling on a phone').to.be.at.most(0);
    expect(problems).to.deep.equal([]);
    await page.close();
  });
});
