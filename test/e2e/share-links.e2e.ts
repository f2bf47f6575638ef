import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { expect } from 'chai';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import sharp from 'sharp';
import { createAdminApp } from '../../server/admin/app.js';
import { AlbumIndex } from '../../server/core/albums/album-index.js';
import { loadConfig } from '../../server/core/config.js';
import { createGallery, type Gallery } from '../../server/gallery.js';
import { launchBrowser } from '../support/browser.js';
import { quietLogger } from '../support/capture-logger.js';
import { eventually } from '../support/gallery-fixture.js';
import { makeTempDir, removeTempDir, writeAlbum } from '../support/temp-dir.js';

const PHONE: BrowserContextOptions = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true };
const DESKTOP: BrowserContextOptions = { viewport: { width: 1440, height: 900 } };
const GONE = 'This link has expired or was revoked: ask the person who sent it.';

async function writePhoto(file: string, width: number, height: number, hue: number): Promise<void> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="hsl(${hue},55%,45%)"/><circle cx="${width / 2}" cy="${height / 2}" r="${height / 4}" fill="hsl(${hue + 90},70%,70%)"/></svg>`;
  await sharp(Buffer.from(svg)).jpeg({ quality: 85 }).toFile(file);
}

const listen = (handler: http.RequestListener) =>
  new Promise<http.Server>((resolve) => {
    const server = http.createServer(handler).listen(0, '127.0.0.1', () => resolve(server));
  });
const urlOf = (server: http.Server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

/**
 * Share links per recipient as the owner and the relatives use them: made and revoked in the
 * admin UI, opened on a phone, bookmarked and launched later without any cookie, deep-linked
 * to a photo; a "no downloads" link on a desktop. The admin and the gallery run on one tree,
 * the gallery watching it as in production.
 */
describe('share links per recipient in Chromium', function () {
  this.timeout(120_000);
  let root: string;
  let gallery: Gallery;
  let adminIndex: AlbumIndex;
  let galleryServer: http.Server;
  let adminServer: http.Server;
  let base: string;
  let browser: Browser;
  let admin: Page;
  /** Script errors on the admin page: it must run under its strict policy without any. */
  const adminProblems: string[] = [];

  before(async () => {
    root = makeTempDir('gallery-links-e2e-');
    for (const dir of ['albums', 'content', 'cache']) fs.mkdirSync(path.join(root, dir));
    const config = loadConfig({ ALBUMS_DIR: 'albums', CONTENT_DIR: 'content', CACHE_DIR: 'cache', WORKERS: '2' }, root);
    const family = writeAlbum(config.albumsDir, 'family', { title: 'Family summer', password: 'never-given' });
    await writePhoto(path.join(family, 'a.jpg'), 1200, 800, 20);
    await writePhoto(path.join(family, 'b.jpg'), 800, 1200, 200);
    const kids = writeAlbum(config.albumsDir, 'family/kids', { title: 'The kids' });
    await writePhoto(path.join(kids, 'k.jpg'), 900, 600, 120);
    gallery = await createGallery(config, { watch: true, log: quietLogger });
    galleryServer = await listen(gallery.handler);
    base = urlOf(galleryServer);
    adminIndex = await AlbumIndex.open({ albumsDir: config.albumsDir, watch: false, log: quietLogger });
    adminServer = await listen(createAdminApp(config, { index: adminIndex, log: quietLogger }));
    browser = await launchBrowser();
    admin = await browser.newPage();
    admin.on('pageerror', (err) => adminProblems.push(`page error: ${err.message}`));
    admin.on('console', (msg) => {
      // Refused requests are checked where they are expected; anything else is a problem.
      if (msg.type() === 'error' && !msg.text().startsWith('Failed to load resource')) adminProblems.push(`console: ${msg.text()}`);
    });
    await admin.goto(`${urlOf(adminServer)}/`);
    // The owner tells the admin where the gallery is published (a setting of the server: site.json).
    const saved = await admin.evaluate(
      async (publicUrl) =>
        (await fetch('/api/site', { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ publicUrl }) })).status,
      base,
    );
    expect(saved).to.equal(200);
    await admin.reload();
    await admin
      .locator('#album-tree')
      .getByRole('button', { name: /Family summer/ })
      .click();
    await admin.locator('#album-panel h2', { hasText: 'Family summer' }).waitFor();
  });

  after(async () => {
    await browser?.close();
    for (const server of [galleryServer, adminServer]) {
      if (!server) continue;
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
    adminIndex?.close();
    await gallery?.close();
    removeTempDir(root);
  });

  /** What the gallery answers to a thumbnail of the album for a visitor holding only link `id` (a cookie: no guess counted). */
  const statusWithLink = async (id: string) =>
    (await fetch(`${base}/api/thumbnail?path=family%2Fa.jpg&size=small`, { headers: { cookie: `album-links=${encodeURIComponent(JSON.stringify([id]))}` } }))
      .status;
  const idOf = (address: string) => address.slice(address.lastIndexOf('/') + 1);

  /**
   * Shares the album with `name` through the Share… dialog, as an owner does; resolves with the
   * address the dialog hands over (shown whole, and copied).
   */
  async function makeLink(name: string, opts: { downloads: boolean }): Promise<string> {
    await admin.getByRole('button', { name: 'Share…' }).click();
    const form = admin.getByRole('form', { name: 'Share with someone' });
    await form.getByLabel('Who is it for?').fill(name);
    await form.getByLabel('May download the photos').setChecked(opts.downloads);
    if (await form.getByLabel('Hide where photos were taken').count()) {
      expect(await form.getByLabel('Hide where photos were taken').isChecked()).to.equal(true);
    }
    await form.getByRole('button', { name: 'Make the link' }).click();
    const link = admin.getByRole('link', { name: `Link for ${name}` });
    const address = (await link.textContent())!;
    expect(address).to.match(new RegExp(`^${base}/s/[A-Za-z0-9_-]{24}$`));
    expect(await link.getAttribute('href')).to.equal(address);
    await admin.getByRole('button', { name: 'Done' }).click();
    // The gallery sees album.json change through its watcher.
    await eventually(async () => (await statusWithLink(idOf(address))) === 200, 8000, 'the gallery to see the link');
    return address;
  }

  it('should open a link on a phone, again when launched later without its cookie, and show the message once revoked', async () => {
    // The location switch is suggested with the link, checked: making the link turns the
    // album's location privacy on (docs/api.md#location-privacy), and it is not offered again.
    const albumJson = () => JSON.parse(fs.readFileSync(path.join(root, 'albums', 'family', 'album.json'), 'utf8')) as { hideLocation?: boolean };
    expect(albumJson().hideLocation).to.equal(undefined);
    const address = await makeLink('Grandma', { downloads: true });
    await eventually(() => albumJson().hideLocation === true, 8000, 'album.json to hide locations');
    // The panel is drawn again with the album's new setting: the next share dialog says so.
    await admin.locator('#album-panel h2', { hasText: 'Family summer' }).waitFor();
    const setting = admin.locator('#album-panel form[aria-label="Album settings"]').getByRole('checkbox', { name: 'Hide where photos were taken' });
    await eventually(async () => (await setting.isChecked().catch(() => false)) === true, 8000, 'the panel to show the setting');
    await admin.getByRole('button', { name: 'Share…' }).click();
    const form = admin.getByRole('form', { name: 'Share with someone' });
    await form.getByText('Where photos were taken is hidden in this album.').waitFor();
    expect(await form.getByLabel('Hide where photos were taken').count()).to.equal(0);
    await form.getByRole('button', { name: 'Cancel' }).click();
    const phone = await browser.newContext(PHONE);
    const page = await phone.newPage();
    const first = await page.goto(address);
    expect(first!.status()).to.equal(200);
    await page.locator('a.media__link[data-name="a.jpg"] img').waitFor();
    expect(page.url()).to.equal(address);
    expect(await page.locator('#password').count()).to.equal(0);
    const cookie = (await phone.cookies(base)).find((c) => c.name === 'album-links')!;
    expect(cookie).to.include({ httpOnly: true, sameSite: 'Strict' });
    // Its child album opens too, with the cookie.
    await page.getByRole('link', { name: /The kids/ }).click();
    await page.locator('a.media__link[data-name="k.jpg"]').waitFor();

    // Weeks later, from the bookmark or the home screen: no cookie left, no query in the address.
    await phone.clearCookies();
    await page.goto(address);
    await page.locator('a.media__link[data-name="b.jpg"]').waitFor();
    expect(page.url()).to.equal(address);
    await phone.close();

    // A fresh browser launching a deep link to a photo.
    const fresh = await browser.newContext(PHONE);
    const deep = await fresh.newPage();
    await deep.goto(`${address}#photo=b.jpg`);
    await deep.locator('.pswp.pswp--open').waitFor({ timeout: 15_000 });
    await deep.waitForFunction(() => document.querySelector('.pswp__item[aria-hidden="false"] img.pswp__img')?.getAttribute('src')?.includes('b.jpg'));
    expect(new URL(deep.url()).pathname).to.equal(new URL(address).pathname);

    // The owner looks at the use, then revokes the link.
    await gallery.linkUsage.flush();
    await admin
      .locator('#album-tree')
      .getByRole('button', { name: /Family summer/ })
      .click();
    const row = admin.locator('tr', { hasText: 'Grandma' });
    await row.locator('td.num', { hasText: '1' }).waitFor();
    admin.once('dialog', (dialog) => void dialog.accept());
    await row.getByRole('button', { name: 'Revoke' }).click();
    await row.waitFor({ state: 'detached' });
    await eventually(async () => (await statusWithLink(idOf(address))) === 401, 8000, 'the gallery to see the revocation');

    // The visitor who still holds the link in a cookie: the page says why, the album stays shut.
    const revoked = await deep.goto(address);
    expect(revoked!.status()).to.equal(404);
    await deep.getByText(GONE).waitFor();
    expect(await deep.content()).to.not.include('a.jpg');
    await deep.goto(`${base}/photos/family`);
    await deep.locator('#password').waitFor();
    await fresh.close();
    expect(adminProblems).to.deep.equal([]);
  });

  it('should say before and after that rotating the token closes the links per person, and list them as revoked', async () => {
    const aunt = idOf(await makeLink('Aunt', { downloads: true }));
    const uncle = idOf(await makeLink('Uncle', { downloads: false }));
    let question = '';
    admin.once('dialog', (dialog) => {
      question = dialog.message();
      void dialog.accept();
    });
    await admin.getByText('More ways to share').click();
    await admin.getByRole('button', { name: 'Rotate token' }).click();
    await admin.locator('#notice', { hasText: 'Token rotated' }).waitFor();
    expect(question).to.include('and its 2 links per person lose access at once');
    expect(await admin.locator('#notice').textContent()).to.equal(
      'Token rotated: old unlocks and the link for everyone no longer work, nor do the 2 links per person',
    );
    // Still listed, marked revoked, with no address left to send.
    const row = admin.locator('tr', { hasText: 'Aunt' });
    await row.getByText(/^revoked .* \(token rotated\)$/).waitFor();
    expect(await row.getByRole('button', { name: /Send Aunt/ }).count()).to.equal(0);
    for (const id of [aunt, uncle]) await eventually(async () => (await statusWithLink(id)) === 401, 8000, 'the gallery to see the rotation');
    const visitor = await browser.newContext(PHONE);
    const page = await visitor.newPage();
    expect((await page.goto(`${base}/s/${aunt}`))!.status()).to.equal(404);
    await page.getByText(GONE).waitFor();
    await visitor.close();
    // Removed from the list on purpose.
    admin.once('dialog', (dialog) => void dialog.accept());
    await row.getByRole('button', { name: 'Remove' }).click();
    await row.waitFor({ state: 'detached' });
    expect(adminProblems).to.deep.equal([]);
  });

  it('should give a "no downloads" link no way to an original on a desktop', async () => {
    const address = await makeLink('Neighbour', { downloads: false });
    const desktop = await browser.newContext(DESKTOP);
    const page = await desktop.newPage();
    await page.goto(address);
    const tile = page.locator('a.media__link[data-name="a.jpg"]');
    await tile.waitFor();
    expect(await page.locator('.button--download').count()).to.equal(0);
    expect(await tile.getAttribute('href')).to.match(/^\/api\/thumbnail\?path=family%2Fa\.jpg&size=large/);
    await tile.click();
    await page.locator('.pswp.pswp--open').waitFor({ timeout: 15_000 });
    await page.locator('.pswp__button--download-button').waitFor({ state: 'hidden' });
    await page.locator('.pswp__button--original-button').waitFor({ state: 'hidden' });
    const refused = await page.evaluate(async () => (await fetch('/albums/family/a.jpg')).status);
    expect(refused).to.equal(403);
    await desktop.close();
  });
});
