import fs from 'node:fs';
import type { Server } from 'node:http';
import path from 'node:path';
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { createAdminApp } from '../../server/admin/app.js';
import { AlbumIndex } from '../../server/core/albums/album-index.js';
import { loadConfig } from '../../server/core/config.js';
import { makeJpeg } from '../admin/support/admin-fixture.js';
import { launchBrowser } from '../support/browser.js';
import { makeTempDir, removeTempDir } from '../support/temp-dir.js';
import { quietLogger } from '../support/capture-logger.js';

describe('admin UI in Chromium', function () {
  this.timeout(60_000);
  let root: string;
  let albumsDir: string;
  let index: AlbumIndex;
  let server: Server;
  let baseUrl: string;
  let browser: Browser;
  let page: Page;
  /** Script errors and CSP violations: the page must run under its strict policy without any. */
  const problems: string[] = [];

  before(async () => {
    root = makeTempDir('gallery-admin-e2e-');
    for (const dir of ['albums', 'content', 'cache']) fs.mkdirSync(path.join(root, dir));
    const config = loadConfig({ ALBUMS_DIR: 'albums', CONTENT_DIR: 'content', CACHE_DIR: 'cache', ADMIN_PORT: '0' }, root);
    albumsDir = config.albumsDir;
    index = await AlbumIndex.open({ albumsDir, watch: false, log: quietLogger });
    const app = createAdminApp(config, { index, log: quietLogger });
    server = await new Promise<Server>((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    baseUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    browser = await launchBrowser();
    page = await browser.newPage();
    page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
    page.on('console', (msg) => {
      if (msg.type() === 'error') problems.push(`console: ${msg.text()}`);
    });
    page.on('response', (res) => {
      if (res.status() >= 400) problems.push(`${res.status()} ${res.url()}`);
    });
  });

  after(async () => {
    await browser?.close();
    await new Promise((resolve) => server?.close(resolve));
    index?.close();
    removeTempDir(root);
  });

  it('should create an album, upload a photo through the file input and list it', async () => {
    await page.goto(`${baseUrl}/`);
    await page.getByText('No albums yet.').waitFor();

    await page.getByRole('button', { name: 'New album' }).click();
    const dialog = page.locator('#new-album-dialog');
    await dialog.getByLabel('Path').fill('2024/travel/lisbon');
    await dialog.getByLabel('Title').fill('Lisbon in spring');
    await dialog.getByRole('button', { name: 'Create' }).click();

    await page
      .locator('#album-tree')
      .getByRole('button', { name: /Lisbon in spring/ })
      .waitFor();
    await page.locator('#album-panel h2', { hasText: 'Lisbon in spring' }).waitFor();
    expect(JSON.parse(fs.readFileSync(path.join(albumsDir, '2024/travel/lisbon/album.json'), 'utf8'))).to.include({ title: 'Lisbon in spring' });

    // The field has a name (its label) and says what it takes (the hint), for screen readers and voice control.
    const field = page.getByLabel('Drop photos and videos here, or choose them:', { exact: true });
    expect(await field.getAttribute('type')).to.equal('file');
    expect(await field.getAttribute('aria-describedby')).to.equal('upload-hint');
    expect(await page.locator('#upload-hint').textContent()).to.include('up to 2 GB each');
    expect(await page.locator('.dropzone').ariaSnapshot()).to.include('button "Drop photos and videos here, or choose them:"');
    await field.setInputFiles({ name: 'Tram 28.JPG', mimeType: 'image/jpeg', buffer: await makeJpeg(320, 240) });
    await page.locator('.uploads .ok').waitFor();
    // Kept as given: the name was safe.
    expect(await page.locator('.uploads .ok').textContent()).to.equal('Stored');

    const figure = page.locator('#media-grid figure[data-name="Tram 28.JPG"]');
    await figure.waitFor();
    const img = figure.locator('img');
    expect(await img.getAttribute('loading')).to.equal('lazy');
    await page.waitForFunction((el) => el instanceof HTMLImageElement && el.complete && el.naturalWidth === 320, await img.elementHandle());
    await page.locator('#album-panel h3', { hasText: 'Media · 1 photo' }).waitFor();
    expect(await page.locator('#album-panel h3', { hasText: 'Media ·' }).textContent()).to.equal('Media · 1 photo');
    expect(fs.existsSync(path.join(albumsDir, '2024/travel/lisbon/Tram 28.JPG'))).to.equal(true);

    expect(problems).to.deep.equal([]);
  });
});
