import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { makeJpeg } from '../admin/support/admin-fixture.js';
import { launchBrowser } from '../support/browser.js';
import { eventuallyPasses } from '../support/eventually-passes.js';
import { makeTempDir, removeTempDir } from '../support/temp-dir.js';
import { type AdminAndSite, recordProblems, startAdminAndSite } from './admin-fixtures.js';

/**
 * An owner's existing library in the admin (issue 26): the folders of photos that are not
 * albums yet are listed under the album tree, and become albums the public site shows.
 */
const SIZES: [string, BrowserContextOptions][] = [
  ['a desktop', { viewport: { width: 1440, height: 900 } }],
  ['a phone', { viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true }],
];

describe('adopting folders in the admin, in Chromium', function () {
  this.timeout(120_000);
  let browser: Browser;

  before(async () => {
    browser = await launchBrowser();
  });
  after(async () => {
    await browser.close();
  });

  for (const [name, options] of SIZES) {
    describe(`on ${name}`, () => {
      let root: string;
      let servers: AdminAndSite;
      let page: Page;
      let problems: string[];

      beforeEach(async () => {
        root = makeTempDir('gallery-adopt-e2e-');
        for (const dir of ['albums', 'content', 'cache']) fs.mkdirSync(path.join(root, dir));
        for (const folder of ['2019/2019-07 Lisbon', '2019/08 Beach', 'Été à Nice']) {
          const dir = path.join(root, 'albums', ...folder.split('/'));
          fs.mkdirSync(dir, { recursive: true });
          fs.writeFileSync(path.join(dir, 'IMG_1.jpg'), await makeJpeg(320, 240));
        }
        servers = await startAdminAndSite(root);
        const context = await browser.newContext(options);
        page = await context.newPage();
        problems = [];
        recordProblems(page, problems);
      });
      afterEach(async () => {
        await page.context().close();
        await servers.close();
        removeTempDir(root);
      });

      it('should list the folders and make albums of the ticked ones, with a password', async () => {
        await page.goto(`${servers.adminUrl}/#albums`);
        const list = page.locator('#adoptable details');
        expect(await list.locator('summary').textContent()).to.equal('Folders with photos, not albums yet (3)');
        expect(await list.locator('li').allTextContents()).to.deep.equal([
          '2019/08 Beach1“Beach”, August 2019',
          '2019/2019-07 Lisbon1“Lisbon”, July 2019',
          'Été à Nice1“Été à Nice”',
        ]);

        await page.getByLabel('Select 2019/2019-07 Lisbon').check();
        await page.getByLabel('Select Été à Nice').check();
        await page.getByRole('button', { name: 'Make albums…' }).click();
        const dialog = page.getByRole('dialog', { name: 'Make albums of folders' });
        expect(await dialog.getByRole('heading').textContent()).to.equal('Make 2 albums');
        await dialog.getByLabel(/With a password/).check();
        await dialog.getByLabel('Password for the new albums').fill('grandma');
        await dialog.getByRole('button', { name: 'Make albums' }).click();

        await eventuallyPasses(async () => {
          expect(await page.locator('#adoptable li').count()).to.equal(1);
        });
        expect(await page.locator('#album-tree').textContent()).to.include('Lisbon');
        const record = JSON.parse(fs.readFileSync(path.join(root, 'albums', '2019', '2019-07 Lisbon', 'album.json'), 'utf8')) as Record<string, unknown>;
        expect(record).to.include({ title: 'Lisbon', date: '2019-07', password: 'grandma' });
        await eventuallyPasses(async () => {
          const photos = await (await fetch(`${servers.siteUrl}/photos`)).text();
          expect(photos).to.include('Lisbon').and.include('Été à Nice').and.not.include('Beach');
        });
        expect(problems).to.deep.equal([]);
      });

      it('should ask for the password before making protected albums, and make public ones of all', async () => {
        await page.goto(`${servers.adminUrl}/#albums`);
        await page.getByLabel('All', { exact: true }).check();
        await page.getByRole('button', { name: 'Make albums…' }).click();
        const dialog = page.getByRole('dialog', { name: 'Make albums of folders' });
        await dialog.getByLabel(/With a password/).check();
        await dialog.getByRole('button', { name: 'Make albums' }).click();
        expect(await dialog.locator('.form-error').textContent()).to.equal('Type the password the albums will ask for.');
        await dialog.getByLabel(/Public/).check();
        await dialog.getByRole('button', { name: 'Make albums' }).click();
        await eventuallyPasses(async () => {
          expect(await page.locator('#adoptable details').count()).to.equal(0);
        });
        await eventuallyPasses(async () => {
          const photos = await (await fetch(`${servers.siteUrl}/photos`)).text();
          expect(photos).to.include('Beach').and.include('Lisbon').and.include('Été à Nice');
        });
        expect(problems).to.deep.equal([]);
      });
    });
  }
});
