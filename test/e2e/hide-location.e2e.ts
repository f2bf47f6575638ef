import fs from 'node:fs';
import type { Server } from 'node:http';
import path from 'node:path';
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { createAdminApp } from '../../server/admin/app.js';
import { AlbumIndex } from '../../server/core/albums/album-index.js';
import { loadConfig } from '../../server/core/config.js';
import { launchBrowser } from '../support/browser.js';
import { quietLogger } from '../support/capture-logger.js';
import { makeTempDir, removeTempDir, writeAlbum } from '../support/temp-dir.js';

describe('admin: the "Hide where photos were taken" switch in Chromium', function () {
  this.timeout(60_000);
  let root: string;
  let albumsDir: string;
  let index: AlbumIndex;
  let server: Server;
  let browser: Browser;
  let page: Page;
  const problems: string[] = [];
  const record = (albumPath: string) => JSON.parse(fs.readFileSync(path.join(albumsDir, albumPath, 'album.json'), 'utf8')) as Record<string, unknown>;

  before(async () => {
    root = makeTempDir('gallery-location-e2e-');
    for (const dir of ['albums', 'content', 'cache']) fs.mkdirSync(path.join(root, dir));
    const config = loadConfig({ ALBUMS_DIR: 'albums', CONTENT_DIR: 'content', CACHE_DIR: 'cache', ADMIN_PORT: '0' }, root);
    albumsDir = config.albumsDir;
    writeAlbum(albumsDir, 'trips/paris', { title: 'Paris', token: 'paris-token-0123456789', hideLocation: true });
    writeAlbum(albumsDir, 'trips/paris/day-1', { title: 'Day one', token: 'day-one-token-0123456789' });
    index = await AlbumIndex.open({ albumsDir, watch: false, log: quietLogger });
    const app = createAdminApp(config, { index, log: quietLogger });
    server = await new Promise<Server>((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
    page.on('console', (msg) => {
      if (msg.type() === 'error') problems.push(`console: ${msg.text()}`);
    });
    await page.goto(`http://127.0.0.1:${(server.address() as { port: number }).port}/`);
  });

  after(async () => {
    await browser?.close();
    await new Promise((resolve) => server?.close(resolve));
    index?.close();
    removeTempDir(root);
  });

  const openAlbum = async (title: string) => {
    await page
      .locator('#album-tree')
      .getByRole('button', { name: new RegExp(`^${title}\\b`) })
      .click();
    await page.locator('#album-panel h2', { hasText: title }).waitFor();
  };
  const toggle = () => page.getByRole('form', { name: 'Album settings' }).getByLabel('Hide where photos were taken');
  const saved = () => page.locator('#notice', { hasText: 'Settings saved' }).waitFor();

  it('should show a child album the value it inherits, and keep it inherited when other settings are saved', async () => {
    await openAlbum('Day one');
    expect(await toggle().isChecked()).to.equal(true);
    await page.getByText('Not set here: follows the albums above (on).').waitFor();
    await page.locator('#album-panel').getByLabel('Title').fill('Day one in Paris');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await saved();
    await page.locator('#album-panel h2', { hasText: 'Day one in Paris' }).waitFor();
    expect(record('trips/paris/day-1')).to.include({ title: 'Day one in Paris' }).and.not.have.property('hideLocation');
  });

  it('should store the child’s own value once switched, and follow the parent again on request', async () => {
    await toggle().uncheck();
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Set here (off), for this album and the albums below it that have no setting of their own.').waitFor();
    expect(record('trips/paris/day-1')).to.include({ hideLocation: false });
    expect(await toggle().isChecked()).to.equal(false);

    await page.getByRole('button', { name: 'Follow the albums above' }).click();
    await page.getByText('Not set here: follows the albums above (on).').waitFor();
    expect(record('trips/paris/day-1')).to.not.have.property('hideLocation');
    expect(await toggle().isChecked()).to.equal(true);
  });

  it('should offer a top-level album the default, off, as what it goes back to', async () => {
    await openAlbum('Paris');
    expect(await toggle().isChecked()).to.equal(true);
    await page.getByRole('button', { name: 'Back to the default' }).click();
    await page.getByText('Not set here: off by default.').waitFor();
    expect(await toggle().isChecked()).to.equal(false);
    expect(record('trips/paris')).to.not.have.property('hideLocation');
    expect(problems).to.deep.equal([]);
  });
});
