import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { makeJpeg } from '../admin/support/admin-fixture.js';
import { launchBrowser } from '../support/browser.js';
import { eventuallyPasses } from '../support/eventually-passes.js';
import { makeTempDir, removeTempDir, writeAlbum } from '../support/temp-dir.js';
import { type AdminAndSite, recordProblems, startAdminAndSite } from './admin-fixtures.js';

/**
 * One way to share (issue 26): the admin's Share… makes a person's link and hands it over at
 * once; the link for everyone is only ever offered as a link that opens the album; the "Who can
 * see what" tab lists who can open what and revokes from there. On a tablet, as an owner
 * sharing from the sofa, and on a desktop.
 */
const DEVICES: [string, BrowserContextOptions][] = [
  ['a tablet', { viewport: { width: 820, height: 1180 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true }],
  ['a desktop', { viewport: { width: 1440, height: 900 } }],
];

describe('sharing from the admin, in Chromium', function () {
  this.timeout(120_000);
  let browser: Browser;
  before(async () => {
    browser = await launchBrowser();
  });
  after(async () => {
    await browser.close();
  });

  for (const [device, options] of DEVICES) {
    describe(`on ${device}`, () => {
      let root: string;
      let servers: AdminAndSite;
      let context: BrowserContext;
      let admin: Page;
      let problems: string[];

      /** A fresh visitor (no cookie) opening `address`: what the page shows. */
      async function visit(address: string): Promise<{ status: number; password: boolean; photo: boolean }> {
        const visitor = await browser.newContext();
        try {
          const page = await visitor.newPage();
          const res = await page.goto(address);
          return {
            status: res!.status(),
            password: (await page.locator('#password').count()) > 0,
            photo: (await page.locator('a.media__link[data-name="a.jpg"]').count()) > 0,
          };
        } finally {
          await visitor.close();
        }
      }

      const openAlbum = async (title: RegExp) => {
        await admin.locator('#album-tree').getByRole('button', { name: title }).click();
        await admin.locator('#album-panel h2').filter({ hasText: title }).waitFor();
      };

      beforeEach(async () => {
        root = makeTempDir('gallery-share-e2e-');
        for (const dir of ['albums', 'content', 'cache']) fs.mkdirSync(path.join(root, dir));
        const albums = path.join(root, 'albums');
        for (const [album, meta] of [
          ['family', { title: 'Family summer', password: 'secret-pw', token: 'family-token-0123456789' }],
          ['trips', { title: 'Trips', token: 'trips-token-0123456789' }],
        ] as const) {
          fs.writeFileSync(path.join(writeAlbum(albums, album, meta), 'a.jpg'), await makeJpeg(320, 240));
        }
        servers = await startAdminAndSite(root);
        context = await browser.newContext(options);
        await context.grantPermissions(['clipboard-read', 'clipboard-write']);
        admin = await context.newPage();
        problems = [];
        recordProblems(admin, problems);
        await admin.goto(`${servers.adminUrl}/`);
        // Links are built from the public address the owner set.
        await admin.evaluate(
          async (publicUrl) =>
            (await fetch('/api/site', { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ publicUrl }) })).status,
          servers.siteUrl,
        );
        await admin.reload();
      });
      afterEach(async () => {
        await context.close();
        await servers.close();
        removeTempDir(root);
      });

      it('should make Grandma’s link and hand it over at once: copied, whole, a message, a QR code', async () => {
        await openAlbum(/Family summer/);
        await admin.getByRole('button', { name: 'Share…' }).click();
        const form = admin.getByRole('form', { name: 'Share with someone' });
        // Works for 90 days unless the owner says otherwise.
        const until = await form.getByLabel('Works until').inputValue();
        const in90 = new Date();
        in90.setDate(in90.getDate() + 90);
        expect(until).to.equal(`${in90.getFullYear()}-${String(in90.getMonth() + 1).padStart(2, '0')}-${String(in90.getDate()).padStart(2, '0')}`);
        await form.getByLabel('Who is it for?').fill('Grandma');
        await form.getByRole('button', { name: 'Make the link' }).click();

        const link = admin.getByRole('link', { name: 'Link for Grandma' });
        const address = (await link.textContent())!;
        expect(address).to.match(new RegExp(`^${servers.siteUrl}/s/[A-Za-z0-9_-]{24}$`));
        await admin.getByText('Link copied: paste it into a message or an email.').waitFor();
        expect(await admin.evaluate(() => navigator.clipboard.readText())).to.equal(address);
        const message = await admin.getByRole('textbox', { name: 'Message to send' }).inputValue();
        expect(message).to.match(new RegExp(`^Hello Grandma, here are the photos of “Family summer”: ${address} The link works until .*2\\d{3}\\.$`));
        await admin.getByRole('button', { name: 'Copy message' }).click();
        await admin.waitForFunction(async (text) => (await navigator.clipboard.readText()) === text, message);
        const qr = admin.getByRole('img', { name: 'QR code of the link for Grandma' });
        await admin.waitForFunction((img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth > 0, await qr.elementHandle());
        await admin.getByRole('button', { name: 'Done' }).click();

        // What Grandma sees: the album, never a password form.
        expect(await visit(address)).to.deep.equal({ status: 200, password: false, photo: true });
        // The album's list has her, with a way to send the link again.
        const row = admin.locator('tr', { hasText: 'Grandma' });
        await row.getByRole('button', { name: 'Send Grandma their link again' }).click();
        expect(await admin.getByRole('link', { name: 'Link for Grandma' }).textContent()).to.equal(address);
        await admin.getByRole('button', { name: 'Done' }).click();
        expect(problems).to.deep.equal([]);
      });

      it('should offer the link for everyone only as a link that opens the album', async () => {
        await openAlbum(/Family summer/);
        await admin.getByText('More ways to share').click();
        // Off: there is no link to copy that would show a password form.
        expect(await admin.locator('input[aria-label="Link for everyone"]').count()).to.equal(0);
        expect(await visit(`${servers.siteUrl}/photos/family?token=family-token-0123456789`)).to.include({ password: true, photo: false });
        await admin.getByRole('button', { name: 'Turn on a link for everyone' }).click();
        await admin.getByText('The link for everyone now opens the album').waitFor();
        // The panel is drawn again with the album as it is now: its "More ways to share" folded.
        await admin.locator('input[aria-label="Link for everyone"]').waitFor({ state: 'attached' });
        await admin.getByText('More ways to share').click();
        const everyone = await admin.getByRole('textbox', { name: 'Link for everyone' }).inputValue();
        expect(everyone).to.equal(`${servers.siteUrl}/photos/family?token=family-token-0123456789`);
        await eventuallyPasses(async () => {
          expect(await visit(everyone)).to.deep.equal({ status: 200, password: false, photo: true });
        });
        expect(problems).to.deep.equal([]);
      });

      it('should hand over a public album’s address as it is', async () => {
        await openAlbum(/Trips/);
        await admin.getByRole('button', { name: 'Share…' }).click();
        const link = admin.getByRole('link', { name: 'Link', exact: true });
        expect(await link.textContent()).to.equal(`${servers.siteUrl}/photos/trips`);
        expect(await admin.getByRole('textbox', { name: 'Message to send' }).inputValue()).to.equal(
          `Here are the photos of “Trips”: ${servers.siteUrl}/photos/trips`,
        );
        await admin.getByRole('button', { name: 'Done' }).click();
        expect(problems).to.deep.equal([]);
      });

      it('should list who can open what, and revoke a person’s link from there', async () => {
        await openAlbum(/Family summer/);
        await admin.getByRole('button', { name: 'Share…' }).click();
        await admin.getByLabel('Who is it for?').fill('Uncle Tom');
        await admin.getByLabel('Never expires').check();
        await admin.getByRole('button', { name: 'Make the link' }).click();
        const address = (await admin.getByRole('link', { name: 'Link for Uncle Tom' }).textContent())!;
        await admin.getByRole('button', { name: 'Done' }).click();
        await eventuallyPasses(async () => {
          expect((await visit(address)).photo).to.equal(true);
        });

        await admin.getByRole('link', { name: 'Who can see what' }).click();
        const overview = admin.locator('#access-list');
        await overview.getByText('1 album is protected, 1 person has a link of their own, 1 album is public.').waitFor();
        const family = overview.locator('tr', { hasText: 'Family summer' });
        expect(await family.textContent())
          .to.include('Whoever knows the password secret-pw')
          .and.include('Uncle Tom · never expires · last visit');
        expect(await overview.locator('tr', { hasText: 'Trips' }).textContent()).to.include('Anyone: it is listed on the site');
        admin.once('dialog', (dialog) => void dialog.accept());
        await family.getByRole('button', { name: 'Revoke the link of Uncle Tom' }).click();
        await overview.getByText('1 album is protected, 0 people have a link of their own, 1 album is public.').waitFor();
        await eventuallyPasses(async () => {
          expect((await visit(address)).status).to.equal(404);
        });
        expect(problems).to.deep.equal([]);
      });
    });
  }
});
