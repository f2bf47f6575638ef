import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { expect } from 'chai';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { newShareLinkId } from '../../server/core/albums/share-links.js';
import { loadConfig, type Config } from '../../server/core/config.js';
import { createGallery, type Gallery } from '../../server/gallery.js';
import { launchBrowser } from '../support/browser.js';
import { quietLogger } from '../support/capture-logger.js';
import { writeJpeg } from '../support/gallery-fixture.js';
import { writeVideo } from '../support/media-fixtures.js';
import { makeTempDir, removeTempDir, writeAlbum } from '../support/temp-dir.js';

const PHONE: BrowserContextOptions = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true };
const DESKTOP: BrowserContextOptions = { viewport: { width: 1440, height: 900 } };
const TV: BrowserContextOptions = { viewport: { width: 1920, height: 1080 } };
const MB = 1024 * 1024;

/** Counts the frame's requests for a screen wake lock, and keeps each lock so a test can take it away as hiding the page does. */
const COUNT_WAKE_LOCKS = () => {
  const w = window as unknown as { wakeRequests: number; wakeLocks: { release(): Promise<void> }[] };
  w.wakeRequests = 0;
  w.wakeLocks = [];
  const wakeLock = (navigator as unknown as { wakeLock?: { request(type: string): Promise<{ release(): Promise<void> }> } }).wakeLock;
  if (!wakeLock) return;
  const request = wakeLock.request.bind(wakeLock);
  wakeLock.request = async (type: string) => {
    w.wakeRequests++;
    const lock = await request(type);
    w.wakeLocks.push(lock);
    return lock;
  };
};

const shownCount = (page: Page) => page.$eval('#frame', (el) => Number((el as HTMLElement).dataset.shown ?? 0));
const currentKey = (page: Page) => page.$eval('#frame', (el) => (el as HTMLElement).dataset.current ?? '');
const waitShown = (page: Page, count: number, timeout = 60_000) =>
  page.waitForFunction((n) => Number(document.getElementById('frame')?.dataset.shown ?? 0) >= n, count, { timeout, polling: 50 });

/**
 * The photo frame in Chromium, as it runs on a TV or a tablet for days (docs/api.md#photo-frame):
 * it loops, shows a photo copied into the album within two intervals without a reload, rides
 * through the server going away and coming back, keeps the screen awake, picks images at the
 * screen's size, and holds its memory over 2,000 transitions. The gallery watches its tree as
 * in production.
 */
describe('photo frame in Chromium', function () {
  this.timeout(240_000);
  let root: string;
  let config: Config;
  let gallery: Gallery;
  let server: http.Server;
  let port = 0;
  let base: string;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  const problems: string[] = [];
  const grandma = { id: newShareLinkId(), name: 'Grandma', created: new Date(Date.now() - 3_600_000).toISOString(), downloads: true };
  const lockedMeta = { title: 'Family', password: 'family-pw', shareLinks: [grandma] };

  const listen = (handler: http.RequestListener) =>
    new Promise<http.Server>((resolve) => {
      const s = http.createServer(handler).listen(port, '127.0.0.1', () => resolve(s));
    });
  async function startServer(): Promise<void> {
    gallery = await createGallery(config, { watch: true, log: quietLogger });
    server = await listen(gallery.handler);
    port = (server.address() as AddressInfo).port;
  }
  async function stopServer(): Promise<void> {
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
    await gallery.close();
  }

  async function open(url: string, device = DESKTOP): Promise<Page> {
    const context = await browser.newContext(device);
    contexts.push(context);
    await context.addInitScript(COUNT_WAKE_LOCKS);
    const page = await context.newPage();
    page.on('pageerror', (err) => problems.push(`${url}: ${err.message}`));
    await page.goto(`${base}${url}`);
    return page;
  }

  before(async () => {
    root = makeTempDir('gallery-frame-e2e-');
    for (const dir of ['albums', 'content', 'cache']) fs.mkdirSync(path.join(root, dir));
    config = loadConfig({ ALBUMS_DIR: 'albums', CONTENT_DIR: 'content', CACHE_DIR: 'cache', WORKERS: '2' }, root);
    const summer = writeAlbum(config.albumsDir, 'summer', { title: 'Summer', captions: { 'a.jpg': 'Sandcastle' } });
    for (const [i, name] of ['a.jpg', 'b.jpg', 'c.jpg'].entries()) await writeJpeg(path.join(summer, name), 64, 48, 40 + i * 90);
    const family = writeAlbum(config.albumsDir, 'family', lockedMeta);
    await writeJpeg(path.join(family, 'f.jpg'), 64, 48, 300);
    const clips = writeAlbum(config.albumsDir, 'clips', { title: 'Clips' });
    await writeVideo(path.join(clips, 'clip.mp4'), { seconds: 1 });
    await writeJpeg(path.join(clips, 'x.jpg'), 64, 48, 100);
    await startServer();
    base = `http://127.0.0.1:${port}`;
    browser = await launchBrowser(['--js-flags=--expose-gc']);
  });
  after(async () => {
    await browser?.close();
    await stopServer();
    removeTempDir(root);
  });
  afterEach(async () => {
    for (const context of contexts.splice(0)) await context.close();
    expect(problems.splice(0)).to.deep.equal([]);
  });

  it('should loop through the album forever, keeping the screen awake', async () => {
    const page = await open('/frame/summer?interval=0.3');
    // Every photo the frame shows, as it shows it.
    await page.evaluate(() => {
      const frame = document.getElementById('frame') as HTMLElement;
      const seen: string[] = [];
      (window as unknown as { seen: string[] }).seen = seen;
      new MutationObserver(() => seen.push(frame.dataset.current ?? '')).observe(frame, { attributeFilter: ['data-current'] });
    });
    await page.waitForFunction(() => (window as unknown as { seen: string[] }).seen.length >= 7, null, { timeout: 30_000 });
    const seen = await page.evaluate(() => (window as unknown as { seen: string[] }).seen);
    // In order, and round again after the last (the first may have been shown before the observer started).
    const from = seen.indexOf('summer/a.jpg');
    expect(seen.slice(from, from + 4)).to.deep.equal(['summer/a.jpg', 'summer/b.jpg', 'summer/c.jpg', 'summer/a.jpg']);
    expect(await page.locator('.frame__status').isHidden()).to.equal(true);
    // A wake lock was asked for, and is asked again when the page is shown after the browser let it go.
    await page.waitForFunction(() => (window as unknown as { wakeRequests: number }).wakeRequests >= 1);
    await page.evaluate(async () => {
      for (const lock of (window as unknown as { wakeLocks: { release(): Promise<void> }[] }).wakeLocks) await lock.release();
      document.dispatchEvent(new Event('visibilitychange'));
    });
    await page.waitForFunction(() => (window as unknown as { wakeRequests: number }).wakeRequests >= 2);
  });

  it('should show the caption and date as chosen, and write the settings into the address', async () => {
    const page = await open('/frame/summer?interval=60');
    await waitShown(page, 1);
    await expect(await page.locator('.frame__caption-text').textContent()).to.equal('Sandcastle');
    await page.mouse.move(200, 200);
    await page.click('[data-frame-settings]');
    await page.uncheck('input[name="caption"]');
    await page.check('input[name="shuffle"]');
    await page.selectOption('select[name="interval"]', '30');
    expect(await page.locator('.frame__caption-text').isHidden()).to.equal(true);
    const query = new URL(page.url()).searchParams;
    expect(Object.fromEntries(query)).to.deep.equal({ interval: '30', shuffle: '1', caption: '0' });
    // The options in the address are the frame's after a reload, as a bookmark would open it.
    await page.reload();
    expect(await page.locator('input[name="caption"]').isChecked()).to.equal(false);
    expect(await page.locator('input[name="shuffle"]').isChecked()).to.equal(true);
  });

  for (const [device, options, size] of [
    // 390 px at 3×: 1,170 device pixels wide.
    ['phone', PHONE, 'medium'],
    // A 4:3 photo on a 1440×900 screen is 1,200 px wide; on a 1920×1080 TV, 1,440.
    ['laptop', DESKTOP, 'medium'],
    ['TV', TV, 'large'],
  ] as const) {
    it(`should load the thumbnail of the screen's size on a ${device}`, async () => {
      const page = await open('/frame/summer?interval=60', options);
      await waitShown(page, 1);
      const src = await page.$eval('.frame__slide--front', (img) => (img as HTMLImageElement).currentSrc);
      expect(new URL(src).searchParams.get('size')).to.equal(size);
    });
  }

  it('should show a photo copied into the album within two intervals, without a reload', async () => {
    const interval = 4;
    const page = await open(`/frame/summer?interval=${interval}`);
    await waitShown(page, 2, 30_000);
    const navigations: string[] = [];
    page.on('framenavigated', (f) => navigations.push(f.url()));
    const copiedAt = Date.now();
    await writeJpeg(path.join(config.albumsDir, 'summer', 'new.jpg'), 64, 48, 200);
    await page.waitForFunction(() => document.getElementById('frame')?.dataset.current === 'summer/new.jpg', null, {
      timeout: 4 * interval * 1000,
      polling: 50,
    });
    const took = Date.now() - copiedAt;
    console.log(`      new photo shown ${took} ms after it was copied (interval ${interval * 1000} ms)`);
    expect(took).to.be.at.most(2 * interval * 1000);
    expect(navigations).to.deep.equal([]);
    fs.rmSync(path.join(config.albumsDir, 'summer', 'new.jpg'));
  });

  it('should keep the last photo through a server restart, say so, and go on once it is back', async () => {
    const page = await open('/frame/summer?interval=0.3');
    await waitShown(page, 3);
    const navigations: string[] = [];
    page.on('framenavigated', (f) => navigations.push(f.url()));
    await stopServer();
    await page.waitForSelector('.frame__status:not([hidden])', { timeout: 20_000 });
    const shownWhileAway = await page.$eval('.frame__slide--front', (img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth > 0);
    expect(shownWhileAway).to.equal(true);
    await new Promise((r) => setTimeout(r, 3000));
    await startServer();
    // The next reading of the list clears the note, and the frame goes on.
    await page.waitForSelector('.frame__status', { state: 'hidden', timeout: 60_000 });
    const after = await shownCount(page);
    await waitShown(page, after + 3);
    expect(navigations).to.deep.equal([]);
  });

  it('should play a video muted to its end, then go on', async () => {
    const page = await open('/frame/clips?interval=0.5');
    const frameShows = (key: string) =>
      page.waitForFunction((k) => document.getElementById('frame')?.dataset.current === k, key, { timeout: 30_000, polling: 50 });
    await frameShows('clips/clip.mp4');
    await page.waitForFunction(
      () => {
        const video = document.querySelector('.frame__video') as HTMLVideoElement;
        return video.classList.contains('frame__video--playing') && video.muted && !video.paused && video.currentTime > 0;
      },
      null,
      { timeout: 30_000 },
    );
    await frameShows('clips/x.jpg');
    // The video let go of its file once the next photo came.
    expect(await page.$eval('.frame__video', (video) => (video as HTMLVideoElement).hidden && !video.hasAttribute('src'))).to.equal(true);
  });

  it('should ask for the password of a locked album, then come back to its frame', async () => {
    const page = await open('/frame/family?interval=0.5');
    await page.fill('#password', 'family-pw');
    await page.click('.unlock__form button[type="submit"]');
    await page.waitForURL(`${base}/frame/family?interval=0.5`);
    await waitShown(page, 1);
    expect(await currentKey(page)).to.equal('family/f.jpg');
  });

  it("should run through Grandma's link, and say so once the link is revoked", async () => {
    const page = await open(`/s/${grandma.id}/frame?interval=0.5`);
    await waitShown(page, 2);
    fs.writeFileSync(path.join(config.albumsDir, 'family', 'album.json'), JSON.stringify({ ...lockedMeta, shareLinks: [] }));
    await page.waitForSelector('text=This link no longer works', { timeout: 30_000 });
  });

  it('should hold its memory over 2,000 transitions (heap after 2,000 against after 100: at most +10 MB)', async () => {
    const page = await open('/frame/summer?interval=0.02');
    const cdp = await page.context().newCDPSession(page);
    const heap = async () => {
      await cdp.send('HeapProfiler.collectGarbage');
      return (await cdp.send('Runtime.getHeapUsage')).usedSize;
    };
    const started = Date.now();
    await waitShown(page, 100);
    const at100 = await heap();
    await waitShown(page, 2000, 180_000);
    const at2000 = await heap();
    console.log(
      `      heap ${(at100 / MB).toFixed(2)} MB after 100, ${(at2000 / MB).toFixed(2)} MB after 2,000 transitions (${((Date.now() - started) / 1000).toFixed(0)} s)`,
    );
    expect(at2000 - at100).to.be.at.most(10 * MB);
    // The page holds the same elements as it started with: two images and one video.
    expect(await page.$$eval('#frame img', (imgs) => imgs.length)).to.equal(2);
    expect(await page.$$eval('#frame video', (videos) => videos.length)).to.equal(1);
  });
});
