import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import sharp from 'sharp';
import type { Config } from '../../server/core/config.js';
import { makeJpeg, makeMp4 } from '../admin/support/admin-fixture.js';
import { launchBrowser } from '../support/browser.js';
import { makeTempDir, removeTempDir, writeAlbum } from '../support/temp-dir.js';
import { eventuallyPasses } from '../support/eventually-passes.js';
import { type AdminAndSite, recordProblems, startAdminAndSite } from './admin-fixtures.js';
import { cornerPng, cornersOf } from '../support/turn-fixtures.js';

/** `jpeg` grown to exactly `bytes` with comment (COM) segments after its SOI: still a valid JPEG. */
function jpegOfSize(jpeg: Buffer, bytes: number): Buffer {
  const segments: Buffer[] = [];
  let missing = bytes - jpeg.length;
  while (missing > 0) {
    // A segment is its marker (2 bytes), its length (2, counting itself) and up to 65,533 bytes.
    const payload = Math.max(0, Math.min(65_533, missing - 4));
    const segment = Buffer.alloc(4 + payload, 0x20);
    segment.writeUInt16BE(0xfffe, 0);
    segment.writeUInt16BE(payload + 2, 2);
    segments.push(segment);
    missing -= segment.length;
  }
  if (missing !== 0) throw new Error(`cannot grow a JPEG of ${jpeg.length} bytes to ${bytes}`);
  return Buffer.concat([jpeg.subarray(0, 2), ...segments, jpeg.subarray(2)]);
}

const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true };
const DESKTOP = { viewport: { width: 1440, height: 900 } };

describe("the owner's tools in Chromium, seen on the public site", function () {
  this.timeout(120_000);
  let root: string;
  let config: Config;
  let servers: AdminAndSite;
  let adminUrl: string;
  /** The public server. */
  let site: { url: string };
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  /** Script errors, CSP violations and failed requests of the admin page: it must run clean. */
  let problems: string[];
  /** Every URL the admin page asked for. */
  let requested: string[];

  const albumFile = (...rel: string[]) => path.join(config.albumsDir, ...rel);
  const readAlbumJson = (albumPath: string) => JSON.parse(fs.readFileSync(albumFile(albumPath, 'album.json'), 'utf8')) as Record<string, unknown>;

  before(async () => {
    root = makeTempDir('gallery-admin-tools-e2e-');
    for (const dir of ['albums', 'content', 'cache']) fs.mkdirSync(path.join(root, dir));
    const albums = path.join(root, 'albums');
    const trip = writeAlbum(albums, '2024/trip', { title: 'Trip', token: 'trip-token-0123456789' });
    fs.writeFileSync(path.join(trip, 'IMG_1.jpg'), await makeJpeg(320, 240));
    fs.writeFileSync(path.join(trip, 'IMG_2.jpg'), await makeJpeg(200, 150));
    fs.writeFileSync(path.join(trip, 'IMG_3.jpg'), await makeJpeg(240, 180));
    fs.writeFileSync(path.join(trip, 'IMG_4.jpg'), await makeJpeg(240, 180));
    fs.writeFileSync(path.join(trip, 'clip.mp4'), await makeMp4());
    writeAlbum(albums, '2024/other', { title: 'Other', token: 'other-token-0123456789' });
    const zoo = writeAlbum(albums, '2024/zoo', { title: 'Zoo', token: 'zoo-token-0123456789' });
    fs.writeFileSync(path.join(zoo, 'logo.png'), await cornerPng());
    // 150,000 bytes: "150 kB" in decimal units, 146.5 KiB in binary ones.
    const sizes = writeAlbum(albums, '2023/sizes', { title: 'Sizes', token: 'sizes-token-0123456789' });
    fs.writeFileSync(path.join(sizes, 'harbour.jpg'), jpegOfSize(await makeJpeg(320, 240), 150_000));
    const hero = path.join(root, 'content', 'assets', 'hero');
    fs.mkdirSync(hero, { recursive: true });
    fs.writeFileSync(path.join(hero, 'a-alps.jpg'), await makeJpeg(1200, 500));
    fs.writeFileSync(path.join(hero, 'b-lisbon.jpg'), await makeJpeg(1200, 500));

    servers = await startAdminAndSite(root);
    ({ config, adminUrl } = servers);
    site = { url: servers.siteUrl };
    browser = await launchBrowser();
  });

  after(async () => {
    await browser?.close();
    await servers?.close();
    removeTempDir(root);
  });

  afterEach(async () => {
    await Promise.all(contexts.splice(0).map((c) => c.close()));
    expect(problems).to.deep.equal([]);
  });

  /** The admin page in a fresh context, its public site address set to the test's public server. */
  async function openAdmin(device: typeof DESKTOP | typeof PHONE = DESKTOP, hash = ''): Promise<Page> {
    const context = await browser.newContext(device);
    contexts.push(context);
    const page = await context.newPage();
    problems = [];
    requested = [];
    recordProblems(page, problems);
    page.on('request', (req) => requested.push(req.url()));
    // The public address is a setting of the server (site.json): "view on site" links use it.
    await page.goto(`${adminUrl}/`);
    const saved = await page.evaluate(
      async (publicUrl) =>
        (await fetch('/api/site', { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ publicUrl }) })).status,
      site.url,
    );
    expect(saved).to.equal(200);
    await page.goto(`${adminUrl}/${hash}`);
    return page;
  }

  async function openAlbum(page: Page, title: string): Promise<void> {
    await page
      .locator('#album-tree')
      .getByRole('button', { name: new RegExp(`^${title}`) })
      .click();
    await page.locator('#album-panel h2', { hasText: title }).waitFor();
  }

  /** Opens the actions dialog of one photo or video of the open album. */
  async function openPhoto(page: Page, name: string): Promise<ReturnType<Page['locator']>> {
    await page.locator(`#media-grid figure[data-name="${name}"] button.tile`).click();
    const dialog = page.locator('#photo-dialog');
    await dialog.locator('h2', { hasText: name }).waitFor();
    return dialog;
  }

  /** "Rotate right" in a photo's dialog, then closed: its preview is made again, turned (a 320 × 240 photo: 240 × 320). */
  async function rotateRight(page: Page, dialog: ReturnType<Page['locator']>): Promise<void> {
    await dialog.getByRole('button', { name: '↻ Rotate right' }).click();
    await page.locator('#notice', { hasText: 'Turned right' }).waitFor();
    await page.waitForFunction(() => {
      const img = document.querySelector('#photo-dialog .photo-preview img');
      return img instanceof HTMLImageElement && img.complete && img.naturalWidth === 240 && img.naturalHeight === 320;
    });
    await dialog.getByRole('button', { name: 'Close' }).click();
  }

  const publicPage = async (albumPath: string) => (await fetch(`${site.url}/photos/${albumPath}`)).text();
  const publicMedia = async (albumPath: string) =>
    ((await (await fetch(`${site.url}/api/album-media?path=${encodeURIComponent(albumPath)}`)).json()) as { items: Array<Record<string, unknown>> }).items;

  it('should preview photos with thumbnails and videos with their poster, never loading an original', async () => {
    const page = await openAdmin();
    await openAlbum(page, 'Trip');
    const img = page.locator('#media-grid figure[data-name="IMG_1.jpg"] img');
    await page.waitForFunction((el) => el instanceof HTMLImageElement && el.complete && el.naturalWidth === 320, await img.elementHandle());
    const poster = page.locator('#media-grid figure[data-name="clip.mp4"] img');
    await page.waitForFunction((el) => el instanceof HTMLImageElement && el.complete && el.naturalWidth === 160, await poster.elementHandle());
    expect(await page.locator('#media-grid video').count()).to.equal(0);
    expect(await page.locator('#album-panel h3', { hasText: 'Media ·' }).textContent()).to.equal('Media · 4 photos, 1 video');
    expect(requested.filter((u) => u.includes('/previews/'))).to.have.length(5);
    expect(requested.filter((u) => u.includes('/media/'))).to.deep.equal([]);
    // A video's dialog shows its poster, and loads the video only when played.
    const dialog = await openPhoto(page, 'clip.mp4');
    const video = dialog.locator('video');
    expect(await video.getAttribute('poster')).to.match(/^\/previews\/albums\/2024\/trip\/clip\.mp4\?size=medium&v=/);
    expect(await video.getAttribute('preload')).to.equal('none');
    expect(requested.filter((u) => u.includes('/media/'))).to.deep.equal([]);
  });

  it('should caption a photo: the public page has it on the tile and as alt text', async () => {
    const page = await openAdmin();
    await openAlbum(page, 'Trip');
    const dialog = await openPhoto(page, 'IMG_2.jpg');
    await dialog.getByLabel('Caption').fill("Grandma's 90th");
    await dialog.getByRole('button', { name: 'Save caption' }).click();
    await page.locator('#notice', { hasText: 'Caption saved' }).waitFor();
    await page.locator('#media-grid figure[data-name="IMG_2.jpg"] .tile-caption', { hasText: "Grandma's 90th" }).waitFor();
    expect(readAlbumJson('2024/trip').captions).to.deep.equal({ 'IMG_2.jpg': "Grandma's 90th" });
    await eventuallyPasses(async () => {
      const html = await publicPage('2024/trip');
      expect(html).to.include('data-caption="Grandma&#39;s 90th"');
      expect(html).to.include('alt="Grandma&#39;s 90th"');
    });
    const item = (await publicMedia('2024/trip')).find((i) => i.name === 'IMG_2.jpg');
    expect(item).to.include({ caption: "Grandma's 90th" });
  });

  it('should rename a photo: the public site has it under its new name only', async () => {
    const page = await openAdmin();
    await openAlbum(page, 'Trip');
    const dialog = await openPhoto(page, 'IMG_3.jpg');
    await dialog.getByLabel('Name').fill('Summer photo (1)');
    await dialog.getByRole('button', { name: 'Rename' }).click();
    await page.locator('#media-grid figure[data-name="Summer photo (1).jpg"]').waitFor();
    expect(fs.existsSync(albumFile('2024', 'trip', 'Summer photo (1).jpg'))).to.equal(true);
    await eventuallyPasses(async () => {
      const names = (await publicMedia('2024/trip')).map((i) => i.name);
      expect(names).to.include('Summer photo (1).jpg').and.not.include('IMG_3.jpg');
    });
    expect((await fetch(`${site.url}/albums/2024/trip/IMG_3.jpg`)).status).to.equal(404);
    expect((await fetch(`${site.url}/albums/2024/trip/Summer%20photo%20(1).jpg`)).status).to.equal(200);
  });

  it('should rotate a photo losslessly: the public thumbnail has its sides swapped', async () => {
    const page = await openAdmin();
    await openAlbum(page, 'Trip');
    await rotateRight(page, await openPhoto(page, 'IMG_1.jpg'));
    await eventuallyPasses(async () => {
      const item = (await publicMedia('2024/trip')).find((i) => i.name === 'IMG_1.jpg')!;
      expect([item.width, item.height]).to.deep.equal([240, 320]);
      const thumb = Buffer.from(await (await fetch(`${site.url}${item.src as string}`)).arrayBuffer());
      expect(await sharp(thumb).metadata()).to.include({ width: 240, height: 320 });
    });
    // The original's pixels are the same; only its orientation tag changed.
    expect(await sharp(albumFile('2024', 'trip', 'IMG_1.jpg')).metadata()).to.include({ width: 320, height: 240, orientation: 6 });
  });

  it('should rotate a PNG in album.json: the admin and the public page show it turned, its original untouched', async () => {
    const original = fs.readFileSync(albumFile('2024', 'zoo', 'logo.png'));
    const page = await openAdmin();
    await openAlbum(page, 'Zoo');
    const dialog = await openPhoto(page, 'logo.png');
    await dialog.getByText('The original stays as it is').waitFor();
    await rotateRight(page, dialog);
    // The grid's tile is made again, turned, too.
    await page.waitForFunction(() => {
      const img = document.querySelector('#media-grid figure[data-name="logo.png"] img');
      return img instanceof HTMLImageElement && img.complete && img.naturalWidth === 240 && img.naturalHeight === 320;
    });
    expect(readAlbumJson('2024/zoo').rotations).to.deep.equal({ 'logo.png': 90 });
    expect(fs.readFileSync(albumFile('2024', 'zoo', 'logo.png')).equals(original)).to.equal(true);

    // The public page, in the same browser: the tile is the turned thumbnail, red corner at the top right.
    await eventuallyPasses(async () => {
      expect(await publicPage('2024/zoo')).to.match(/data-name="logo\.png"[^>]* data-width="240" data-height="320"/);
    });
    const visitor = await page.context().newPage();
    await visitor.goto(`${site.url}/photos/2024/zoo`);
    const tile = visitor.locator('a.media__link[data-name="logo.png"] img');
    await visitor.waitForFunction((el) => el instanceof HTMLImageElement && el.complete && el.naturalWidth > 0, await tile.elementHandle());
    const shown = await tile.evaluate((el) => ({
      src: (el as HTMLImageElement).currentSrc,
      width: (el as HTMLImageElement).naturalWidth,
      height: (el as HTMLImageElement).naturalHeight,
    }));
    // Natural sizes of a srcset image are scaled by the density it was chosen at: the shape tells.
    expect(shown.height / shown.width).to.be.closeTo(320 / 240, 0.02);
    expect(shown.src).to.match(/&v=[^&]*-r90$/);
    const bytes = Buffer.from(await (await fetch(shown.src)).arrayBuffer());
    expect(await cornersOf(bytes)).to.include({ width: 240, height: 320, topLeft: 'blue', topRight: 'red' });
  });

  it('should move a photo to another album: the public site shows it there', async () => {
    const page = await openAdmin();
    await openAlbum(page, 'Trip');
    const dialog = await openPhoto(page, 'IMG_4.jpg');
    await dialog.getByLabel('Move to album').selectOption('2024/other');
    await dialog.getByRole('button', { name: 'Move', exact: true }).click();
    await page.locator('#notice', { hasText: 'Moved to 2024/other' }).waitFor();
    await page.locator('#media-grid figure[data-name="IMG_4.jpg"]').waitFor({ state: 'detached' });
    await eventuallyPasses(async () => {
      expect((await publicMedia('2024/other')).map((i) => i.name)).to.deep.equal(['IMG_4.jpg']);
      expect((await publicMedia('2024/trip')).map((i) => i.name)).to.not.include('IMG_4.jpg');
    });
  });

  it('should delete a photo to the trash: gone from the public page, its URLs 404', async () => {
    const page = await openAdmin();
    await openAlbum(page, 'Trip');
    const dialog = await openPhoto(page, 'IMG_2.jpg');
    page.once('dialog', (confirm) => void confirm.accept());
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await page.locator('#notice', { hasText: 'IMG_2.jpg moved to the trash' }).waitFor();
    await page.locator('#media-grid figure[data-name="IMG_2.jpg"]').waitFor({ state: 'detached' });
    const trashed = fs.readdirSync(path.join(config.albumsDir, '.trash'), { recursive: true }).map(String);
    expect(trashed.some((p) => p.endsWith(path.join('2024', 'trip', 'IMG_2.jpg')))).to.equal(true);
    await eventuallyPasses(async () => {
      expect(await publicPage('2024/trip')).to.not.include('IMG_2.jpg');
    });
    expect((await fetch(`${site.url}/albums/2024/trip/IMG_2.jpg`)).status).to.equal(404);
    expect((await fetch(`${site.url}/api/thumbnail?path=2024/trip/IMG_2.jpg&size=small`)).status).to.equal(404);
  });

  it('should order the albums of a folder by drag and drop, and with the keyboard', async () => {
    const page = await openAdmin();
    await page.locator('#album-tree button.folder', { hasText: '2024' }).click();
    const list = page.locator('#album-panel .order-list');
    const titles = () => list.locator('.order-title').allTextContents();
    expect(await titles()).to.deep.equal(['Other', 'Trip', 'Zoo']);
    await list.locator('li', { hasText: 'Zoo' }).dragTo(list.locator('li', { hasText: 'Other' }), { targetPosition: { x: 20, y: 2 } });
    await page.locator('#notice', { hasText: 'Order saved' }).waitFor();
    expect(await titles()).to.deep.equal(['Zoo', 'Other', 'Trip']);
    expect([readAlbumJson('2024/zoo').order, readAlbumJson('2024/other').order, readAlbumJson('2024/trip').order]).to.deep.equal([1, 2, 3]);

    // The keyboard: focus "Move Trip up", press Enter; the focus stays on it.
    await page.getByRole('button', { name: 'Move Trip up' }).focus();
    await page.keyboard.press('Enter');
    await eventuallyPasses(async () => {
      expect(readAlbumJson('2024/trip').order).to.equal(2);
    });
    expect(await titles()).to.deep.equal(['Zoo', 'Trip', 'Other']);
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).to.equal('Move Trip up');
    await eventuallyPasses(async () => {
      const html = await (await fetch(`${site.url}/photos`)).text();
      const at = (t: string) => html.indexOf(`>${t}<`);
      expect(at('Zoo')).to.be.greaterThan(-1);
      expect(at('Zoo')).to.be.lessThan(at('Trip'));
      expect(at('Trip')).to.be.lessThan(at('Other'));
    });
  });

  it('should choose the hero image of the home page', async () => {
    const page = await openAdmin(DESKTOP, '#assets');
    const block = page.locator('.asset-block', { hasText: 'Hero images' });
    await block.locator('figure', { hasText: 'a-alps.jpg' }).getByText('Shown (first by name)').waitFor();
    await block.locator('figure', { hasText: 'b-lisbon.jpg' }).getByRole('radio').check();
    await page.locator('#notice', { hasText: 'b-lisbon.jpg is now' }).waitFor();
    await block.locator('figure', { hasText: 'b-lisbon.jpg' }).getByText('Shown on the home page').waitFor();
    // Site images are previewed from thumbnails too.
    expect(requested.filter((u) => u.includes('/content-assets/'))).to.deep.equal([]);
    await eventuallyPasses(async () => {
      const html = await (await fetch(`${site.url}/home`)).text();
      expect(html).to.include('/content/hero/b-lisbon.jpg').and.not.include('a-alps.jpg');
    });
  });

  it("should write a file's size as the public site writes it", async () => {
    const page = await openAdmin();
    await openAlbum(page, 'Sizes');
    const dialog = await openPhoto(page, 'harbour.jpg');
    const inAdmin = await dialog.locator('p.hint', { hasText: /^Photo · / }).textContent();
    // The site's download button, in the same browser.
    await page.goto(`${site.url}/photos/2023/sizes`);
    const onSite = await page.locator('.button--download').innerText();
    expect(inAdmin).to.equal('Photo · 150 kB');
    expect(onSite).to.equal('Download 1 photo · 150 kB');
  });

  it('should suggest a new album’s folder from its title and link it on the site', async () => {
    const page = await openAdmin();
    await page.locator('#album-tree button.folder', { hasText: '2024' }).click();
    await page.getByRole('button', { name: 'New album here' }).click();
    const dialog = page.locator('#new-album-dialog');
    await dialog.getByLabel('Title').fill('Beach Day');
    expect(await dialog.getByLabel('Path').inputValue()).to.equal('2024/beach-day');
    expect(await dialog.locator('.address-preview').textContent()).to.equal(`Address: ${site.url}/photos/2024/beach-day`);
    await dialog.getByRole('button', { name: 'Create' }).click();
    await page.locator('#album-panel h2', { hasText: 'Beach Day' }).waitFor();
    expect(await page.getByRole('link', { name: 'View on site' }).getAttribute('href')).to.equal(`${site.url}/photos/2024/beach-day`);
    expect(readAlbumJson('2024/beach-day')).to.include({ title: 'Beach Day' });
  });

  it('should keep every button label on one line on a phone ("Delete", not "Delet / e")', async () => {
    const cards = path.join(root, 'content', 'assets', 'cards');
    fs.mkdirSync(cards, { recursive: true });
    fs.writeFileSync(path.join(cards, 'a-very-long-card-image-file-name-without-spaces.jpg'), await makeJpeg());
    const page = await openAdmin(PHONE, '#assets');
    const button = page.locator('.asset-block', { hasText: 'Card images' }).getByRole('button', { name: 'Delete' });
    await button.waitFor();
    const box = await button.evaluate((el) => {
      const lineHeight = Number.parseFloat(getComputedStyle(el).lineHeight) || 16;
      return { height: el.getBoundingClientRect().height, lineHeight, fits: el.scrollWidth <= el.clientWidth };
    });
    expect(box.fits).to.equal(true);
    expect(box.height).to.be.below(box.lineHeight * 2);
  });
});
