import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { loadConfig } from '../../server/core/config.js';
import { createGallery, type Gallery } from '../../server/gallery.js';
import { launchBrowser } from '../support/browser.js';
import { quietLogger } from '../support/capture-logger.js';
import { listenOnLoopback, type LoopbackServer } from '../support/loopback-server.js';
import { writeJpeg } from '../support/media-fixtures.js';
import { writeFaststartMp4 } from '../support/phone-videos.js';
import { makeTempDir, removeTempDir, writeAlbum } from '../support/temp-dir.js';

/**
 * The viewer as phones and desktops use it, in Debian's Chromium against the real gallery
 * (README "The viewer"): Back closes it and stays on the album, closing returns to the last
 * photo seen (across pages of the album), videos fit the screen and play on arrival, Tab
 * stays in the current slide, the key help is a modal, and the slideshow advances, pauses on
 * any interaction, keeps the screen awake and goes fullscreen.
 */

const PHONE: BrowserContextOptions = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true };
const DESKTOP: BrowserContextOptions = { viewport: { width: 1440, height: 900 } };
const DEVICES = { phone: PHONE, desktop: DESKTOP } as const;

/** Three pages of the album (the server puts 200 media on a page). */
const MANY = '2024/viewer/many';
const MANY_COUNT = 460;
const many = (n: number) => `IMG_${n}.jpg`;
/** A 640×360 clip with sound, between photos. */
const MIXED = '2024/viewer/mixed';
const MIXED_FILES = ['1-harbour.jpg', '2-clip.mp4', '3-steps.jpg', '4-cafe.jpg'];
const CLIP = MIXED_FILES[1]!;
const SECRET = '2024/viewer/secret';
const PASSWORD = 'grandma knows';
const SHARED = '2024/viewer/shared';
const SHARE_TOKEN = 'viewer-share-token';
const SMALL_FILES = ['a.jpg', 'b.jpg', 'c.jpg', 'd.jpg', 'e.jpg'];

/** The slideshow's remembered interval (views/assets/slideshow.js), short for the tests. */
const INTERVAL_KEY = 'gallery.slideshow.interval';
const TEST_INTERVAL_MS = 1000;

describe('the viewer in Chromium', function () {
  this.timeout(90_000);
  const root = makeTempDir('viewer-e2e-');
  const albumsDir = path.join(root, 'albums');
  let gallery: Gallery;
  let server: LoopbackServer | undefined;
  let browser: Browser;
  let url = '';
  const contexts: BrowserContext[] = [];

  before(async function () {
    this.timeout(180_000);
    const manyDir = writeAlbum(albumsDir, MANY, { title: 'Many photos', style: 'grid' });
    await writeJpeg(path.join(manyDir, many(1)), 48, 32);
    for (let n = 2; n <= MANY_COUNT; n++) fs.copyFileSync(path.join(manyDir, many(1)), path.join(manyDir, many(n)));

    const mixed = writeAlbum(albumsDir, MIXED, { title: 'Mixed', style: 'grid' });
    await writeJpeg(path.join(mixed, MIXED_FILES[0]!), 900, 600);
    await writeFaststartMp4(path.join(mixed, CLIP), '640x360');
    await writeJpeg(path.join(mixed, MIXED_FILES[2]!), 600, 900);
    await writeJpeg(path.join(mixed, MIXED_FILES[3]!), 800, 800);

    const secret = writeAlbum(albumsDir, SECRET, { title: 'Family', password: PASSWORD });
    const shared = writeAlbum(albumsDir, SHARED, { title: 'Shared', password: 'not given', token: SHARE_TOKEN, allowAnonymous: true });
    for (const dir of [secret, shared]) for (const name of SMALL_FILES) await writeJpeg(path.join(dir, name), 600, 400);

    const config = loadConfig({ ALBUMS_DIR: albumsDir, CACHE_DIR: path.join(root, 'cache'), CONTENT_DIR: path.join(root, 'content'), WORKERS: '2' });
    gallery = await createGallery(config, { watch: false, log: quietLogger });
    server = await listenOnLoopback(gallery.handler);
    url = server.url;
    // Chrome's rule for pages the visitor has not tapped yet, whatever this build's default:
    // sound needs a user activation, muted playback does not.
    browser = await launchBrowser(['--autoplay-policy=document-user-activation-required']);
  });

  after(async () => {
    await browser?.close();
    await server?.close();
    await gallery?.close();
    removeTempDir(root);
  });

  afterEach(async () => {
    await Promise.all(contexts.splice(0).map((c) => c.close()));
  });

  /** A fresh page (own cookies and storage) that records script errors. */
  async function newPage(device: BrowserContextOptions, init?: (page: Page) => Promise<unknown>): Promise<{ page: Page; errors: string[] }> {
    const context = await browser.newContext(device);
    contexts.push(context);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));
    await init?.(page);
    return { page, errors };
  }

  const albumUrl = (albumPath: string) => `${url}/photos/${albumPath}`;
  const viewer = (page: Page) => page.locator('.pswp');
  const tile = (page: Page, index: number) => page.locator(`a.media__link[data-index="${index}"]`);
  const historyLength = (page: Page) => page.evaluate(() => window.history.length);

  /** Waits until the viewer shows `name` (its deep link says so) and takes keys. */
  async function waitForPhoto(page: Page, name: string): Promise<void> {
    await page.waitForFunction(
      (hash) => document.querySelector('.pswp.pswp--opened') !== null && window.location.hash === hash,
      `#photo=${encodeURIComponent(name)}`,
      { timeout: 15_000 },
    );
  }

  /** Opens the photo of a tile as the device would: a tap on a phone, a click on a desktop. */
  async function openTile(page: Page, device: BrowserContextOptions, index: number): Promise<void> {
    const link = tile(page, index);
    await link.scrollIntoViewIfNeeded();
    if (device.hasTouch) await link.tap();
    else await link.click();
    await viewer(page).waitFor();
  }

  /** A finger swiping across the viewer from right to left (next photo), through the DevTools protocol. */
  async function swipeLeft(page: Page): Promise<void> {
    const cdp = await page.context().newCDPSession(page);
    const { width, height } = page.viewportSize()!;
    const y = Math.round(height / 2);
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x: Math.round(width * 0.8), y }] });
    for (let step = 1; step <= 8; step++) {
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x: Math.round(width * (0.8 - step * 0.075)), y }] });
    }
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    await cdp.detach();
  }

  /** Where the focus is: inside the current slide, a neighbour slide, the toolbar, or elsewhere. */
  function focusPlace(page: Page): Promise<string> {
    return page.evaluate(() => {
      const active = document.activeElement;
      if (!active) return 'none';
      const holder = active.closest('.pswp__item');
      if (holder) return holder.getAttribute('aria-hidden') === 'false' ? 'current slide' : 'neighbour slide';
      if (active.closest('.pswp')) return 'viewer';
      if (active.closest('#help-overlay')) return 'help';
      return active.tagName.toLowerCase();
    });
  }

  for (const [device, options] of Object.entries(DEVICES)) {
    describe(`on a ${device}`, () => {
      describe('history', () => {
        it('should close the viewer on Back and stay on the album, with one entry however far it moved', async () => {
          const { page, errors } = await newPage(options);
          await page.goto(`${url}/photos`);
          await page.goto(albumUrl(MIXED));
          const before = await historyLength(page);

          await openTile(page, options, 0);
          await waitForPhoto(page, MIXED_FILES[0]!);
          expect(await historyLength(page)).to.equal(before + 1);
          for (const name of MIXED_FILES.slice(1, 3)) {
            await page.keyboard.press('ArrowRight');
            await waitForPhoto(page, name);
          }
          expect(await historyLength(page)).to.equal(before + 1);

          await page.goBack();
          await viewer(page).waitFor({ state: 'detached' });
          expect(page.url()).to.equal(albumUrl(MIXED));
          expect(await page.locator('#media').count()).to.equal(1);

          // The next Back leaves the album as usual.
          await page.goBack();
          await page.waitForURL(`${url}/photos`);
          expect(errors).to.deep.equal([]);
        });

        it('should take its entry away when closed with Escape, so Back then leaves the album', async () => {
          const { page, errors } = await newPage(options);
          await page.goto(`${url}/photos`);
          await page.goto(albumUrl(MIXED));
          await openTile(page, options, 2);
          await waitForPhoto(page, MIXED_FILES[2]!);
          await closeAndExpectAlbumEntry(page, MIXED);

          await page.goBack();
          await page.waitForURL(`${url}/photos`);
          // Forward comes back to the album, and no viewer opens by itself.
          await page.goForward();
          await page.waitForURL(albumUrl(MIXED));
          await page.locator('#media').waitFor();
          expect(await viewer(page).count()).to.equal(0);
          expect(errors).to.deep.equal([]);
        });

        it('should put the album under a deep link opened directly: Back closes the photo and stays', async () => {
          const { page } = await newPage(options);
          await page.goto(`${albumUrl(MIXED)}#photo=${MIXED_FILES[3]}`);
          await waitForPhoto(page, MIXED_FILES[3]!);
          await page.goBack();
          await viewer(page).waitFor({ state: 'detached' });
          expect(page.url()).to.equal(albumUrl(MIXED));
          expect(await page.locator('#media').count()).to.equal(1);
        });

        it('should leave one album entry when a deep link opened directly is closed: Back then leaves', async () => {
          const { page } = await newPage(options);
          await page.goto(`${url}/photos`);
          await page.goto(`${albumUrl(MIXED)}#photo=${MIXED_FILES[3]}`);
          await waitForPhoto(page, MIXED_FILES[3]!);
          await page.keyboard.press('ArrowLeft');
          await waitForPhoto(page, MIXED_FILES[2]!);
          await closeAndExpectAlbumEntry(page, MIXED);
          await page.goBack();
          await page.waitForURL(`${url}/photos`);
        });
      });

      describe('closing', () => {
        it('should return to the last photo seen when it is on a page not loaded yet', async () => {
          const { page, errors } = await newPage(options);
          await page.goto(albumUrl(MANY));
          expect(await page.locator('#media > li').count()).to.equal(200);
          // Photo 196, then ten photos on: photo 206, on the album's second page.
          await openTile(page, options, 195);
          await waitForPhoto(page, many(196));
          for (let n = 197; n <= 206; n++) {
            await page.keyboard.press('ArrowRight');
            await waitForPhoto(page, many(n));
          }
          await page.keyboard.press('Escape');
          await viewer(page).waitFor({ state: 'detached' });
          await expectAtTile(page, 205);
          expect(errors).to.deep.equal([]);
        });

        it('should return to the photo of a deep link on a later page, not to the top of page 1', async () => {
          const { page, errors } = await newPage(options);
          await page.goto(`${albumUrl(MANY)}#photo=${many(450)}`);
          await waitForPhoto(page, many(450));
          expect(await page.locator('.pswp__counter').textContent()).to.equal(`450 / ${MANY_COUNT}`);
          await page.keyboard.press('Escape');
          await viewer(page).waitFor({ state: 'detached' });
          await expectAtTile(page, 449);
          expect(page.url()).to.equal(albumUrl(MANY));
          expect(errors).to.deep.equal([]);
        });

        it('should load an earlier page in front for a visitor who landed on a later one', async () => {
          const { page } = await newPage(options);
          await page.goto(`${albumUrl(MANY)}?page=3`);
          expect(await page.locator('a.media__link').first().getAttribute('data-index')).to.equal('400');
          await openTile(page, options, 400);
          await waitForPhoto(page, many(401));
          // Back across the page boundary to photo 399, on page 2.
          await page.keyboard.press('ArrowLeft');
          await waitForPhoto(page, many(400));
          await page.keyboard.press('ArrowLeft');
          await waitForPhoto(page, many(399));
          await page.keyboard.press('Escape');
          await viewer(page).waitFor({ state: 'detached' });
          await expectAtTile(page, 398);
          expect(await page.locator('a.media__link').first().getAttribute('data-index')).to.equal('200');
        });
      });

      describe('videos', () => {
        it('should fit a 640×360 video to the screen and play it on arrival, muted without a tap', async () => {
          // Nothing may be evaluated in the page before the video starts: Playwright runs its
          // scripts as user gestures, which would let the video play with sound. The page says
          // how it started through the console instead.
          const { page, errors } = await newPage(options, (p) => p.addInitScript(reportFirstPlay));
          const started = page.waitForEvent('console', { predicate: (m) => m.text().startsWith('first play:'), timeout: 20_000 });
          await page.goto(`${albumUrl(MIXED)}#photo=${CLIP}`);
          // No tap on this page: the browser refused sound, so it plays muted.
          expect((await started).text()).to.equal('first play: muted');
          await waitForPhoto(page, CLIP);
          const video = page.locator('.pswp__item[aria-hidden="false"] video.pswp__video');
          await page.waitForFunction(
            () => ((document.querySelector('.pswp__item[aria-hidden="false"] video') as HTMLVideoElement | null)?.currentTime ?? 0) > 0.2,
            null,
            {
              timeout: 15_000,
            },
          );
          const box = (await video.boundingBox())!;
          const { width, height } = page.viewportSize()!;
          const scale = Math.min(width / 640, height / 360);
          expect(box.width).to.be.closeTo(640 * scale, 2);
          expect(box.height).to.be.closeTo(360 * scale, 2);
          // Leaving the slide pauses it.
          await page.keyboard.press('ArrowRight');
          await waitForPhoto(page, MIXED_FILES[2]!);
          expect(await page.locator('video.pswp__video').evaluate((v) => (v as HTMLVideoElement).paused)).to.equal(true);
          expect(errors).to.deep.equal([]);
        });

        it('should play with sound once the visitor has tapped the page', async () => {
          const { page } = await newPage(options);
          await page.goto(albumUrl(MIXED));
          await openTile(page, options, 1);
          await waitForPhoto(page, CLIP);
          await page.waitForFunction(
            () => ((document.querySelector('.pswp__item[aria-hidden="false"] video') as HTMLVideoElement | null)?.currentTime ?? 0) > 0.2,
            null,
            {
              timeout: 15_000,
            },
          );
          expect(await page.locator('.pswp__item[aria-hidden="false"] video').evaluate((v) => (v as HTMLVideoElement).muted)).to.equal(false);
        });
      });

      describe('slideshow', () => {
        it('should advance through a protected album and pause on the first interaction', async () => {
          const { page, errors } = await newPage(options, (p) => watchWakeLocks(p, TEST_INTERVAL_MS));
          await page.goto(albumUrl(SECRET));
          await page.locator('#password').fill(PASSWORD);
          await page.getByRole('button', { name: 'Unlock album' }).click();
          await page.locator('#media').waitFor();
          await openTile(page, options, 0);
          await waitForPhoto(page, SMALL_FILES[0]!);

          await startSlideshow(page, options);
          await waitForPhoto(page, SMALL_FILES[1]!);
          await waitForPhoto(page, SMALL_FILES[2]!);
          expect(await heldWakeLocks(page)).to.equal(1);
          expect(await page.evaluate(() => document.fullscreenElement === document.documentElement)).to.equal(true);
          expect(await page.locator('.pswp__slideshow-status').textContent()).to.equal('Slideshow');

          // An interaction: a swipe on the phone, a key on the desktop.
          if (options.hasTouch) {
            await swipeLeft(page);
            await waitForPhoto(page, SMALL_FILES[3]!);
          } else {
            await page.keyboard.press('ArrowRight');
            await waitForPhoto(page, SMALL_FILES[3]!);
          }
          await page.locator('.pswp__slideshow-status', { hasText: 'Paused' }).waitFor();
          const pausedAt = page.url();
          await page.waitForTimeout(TEST_INTERVAL_MS * 2.5);
          expect(page.url()).to.equal(pausedAt);
          expect(await heldWakeLocks(page)).to.equal(0);
          // Paused, still fullscreen; stopped, not.
          expect(await page.evaluate(() => document.fullscreenElement !== null)).to.equal(true);
          await page.getByRole('button', { name: 'Stop the slideshow' }).click();
          await page.waitForFunction(() => document.fullscreenElement === null);
          expect(await page.locator('.pswp__slideshow').isHidden()).to.equal(true);
          expect(errors).to.deep.equal([]);
        });

        it('should work for a share-link visitor, whose token has left the address', async () => {
          const { page, errors } = await newPage(options, (p) => watchWakeLocks(p, TEST_INTERVAL_MS));
          await page.goto(`${albumUrl(SHARED)}?token=${SHARE_TOKEN}`);
          await page.locator('#media').waitFor();
          expect(page.url()).to.equal(albumUrl(SHARED));
          await openTile(page, options, 2);
          await waitForPhoto(page, SMALL_FILES[2]!);
          await startSlideshow(page, options);
          await waitForPhoto(page, SMALL_FILES[3]!);
          // Ends at the album's last photo, and lets the screen sleep.
          await waitForPhoto(page, SMALL_FILES[4]!);
          await page.locator('.pswp__slideshow-status', { hasText: 'End of the album' }).waitFor({ timeout: 5000 });
          expect(await heldWakeLocks(page)).to.equal(0);
          expect(new URL(page.url()).hash).to.equal(`#photo=${SMALL_FILES[4]}`);
          // Closing stops it and leaves fullscreen.
          await page.keyboard.press('Escape');
          await viewer(page).waitFor({ state: 'detached' });
          await page.waitForFunction(() => document.fullscreenElement === null);
          expect(errors).to.deep.equal([]);
        });

        it('should move on to pages of the album not loaded yet', async () => {
          const { page } = await newPage(options, (p) => watchWakeLocks(p, TEST_INTERVAL_MS));
          await page.goto(albumUrl(MANY));
          await openTile(page, options, 198);
          await waitForPhoto(page, many(199));
          await startSlideshow(page, options);
          for (const n of [200, 201, 202]) await waitForPhoto(page, many(n));
          expect(await page.locator('.pswp__counter').textContent()).to.equal(`202 / ${MANY_COUNT}`);
          // A tap (which then shows the buttons, to resume) or the wheel pauses it too.
          const { width, height } = page.viewportSize()!;
          if (options.hasTouch) await page.touchscreen.tap(width / 2, height / 2);
          else {
            await page.mouse.move(width / 2, height / 2);
            await page.mouse.wheel(0, 120);
          }
          await page.locator('.pswp__slideshow-status', { hasText: 'Paused' }).waitFor();
          await page.waitForTimeout(800);
          expect(await page.locator('.pswp').evaluate((el) => el.classList.contains('pswp--ui-visible'))).to.equal(true);
          await page.getByRole('button', { name: 'Resume the slideshow' }).click();
          await waitForPhoto(page, many(Number(new URL(page.url()).hash.match(/IMG_(\d+)/)![1]) + 1));
        });
      });
    });
  }

  describe('interval setting', () => {
    it('should offer 3, 5 and 10 seconds and remember the choice', async () => {
      const { page } = await newPage(DESKTOP);
      await page.goto(`${albumUrl(MIXED)}#photo=${MIXED_FILES[0]}`);
      await waitForPhoto(page, MIXED_FILES[0]!);
      await page.keyboard.press('s');
      const choices = page.locator('.pswp__slideshow-interval');
      expect(await choices.allTextContents()).to.deep.equal(['3 s', '5 s', '10 s']);
      // The default, until one is chosen.
      expect(await page.locator('.pswp__slideshow-interval[aria-pressed="true"]').textContent()).to.equal('5 s');
      await choices.filter({ hasText: '10 s' }).click();
      expect(await page.evaluate((key) => window.localStorage.getItem(key), INTERVAL_KEY)).to.equal('10000');
      // Choosing is not an interaction that pauses it, by pointer or by keyboard.
      expect(await page.locator('.pswp__slideshow-status').textContent()).to.equal('Slideshow');
      await choices.filter({ hasText: '3 s' }).focus();
      await page.keyboard.press('Enter');
      expect(await page.evaluate((key) => window.localStorage.getItem(key), INTERVAL_KEY)).to.equal('3000');
      expect(await page.locator('.pswp__slideshow-status').textContent()).to.equal('Slideshow');
      await choices.filter({ hasText: '10 s' }).click();
      await page.reload();
      await waitForPhoto(page, MIXED_FILES[0]!);
      await page.keyboard.press('s');
      expect(await page.locator('.pswp__slideshow-interval[aria-pressed="true"]').textContent()).to.equal('10 s');
      await page.keyboard.press('s');
      await page.locator('.pswp__slideshow-status', { hasText: 'Paused' }).waitFor();
    });
  });

  describe('focus', () => {
    it('should keep Tab in the current slide and the toolbar, never in a neighbour video', async () => {
      const { page } = await newPage(DESKTOP);
      await page.goto(albumUrl(MIXED));
      await tile(page, 0).focus();
      await page.keyboard.press('Enter');
      await waitForPhoto(page, MIXED_FILES[0]!);
      // The next slide's video is in the page, but inert.
      await page.locator('.pswp__item video').waitFor({ state: 'attached' });
      expect(await page.locator('.pswp__item:has(video)').evaluate((el) => (el as HTMLElement).inert)).to.equal(true);
      const places = new Set<string>();
      for (let i = 0; i < 14; i++) {
        await page.keyboard.press('Tab');
        places.add(await focusPlace(page));
      }
      expect([...places].filter((p) => p !== 'viewer' && p !== 'current slide')).to.deep.equal([]);

      // On the video's slide, its controls are reachable; the photos around it are inert.
      await page.keyboard.press('Escape');
      await viewer(page).waitFor({ state: 'detached' });
      await page.goto(`${albumUrl(MIXED)}#photo=${CLIP}`);
      await waitForPhoto(page, CLIP);
      const inert = await page.locator('.pswp__item').evaluateAll((items) => items.map((el) => [el.getAttribute('aria-hidden'), (el as HTMLElement).inert]));
      expect(inert.filter(([hidden]) => hidden === 'false')).to.deep.equal([['false', false]]);
      expect(inert.filter(([hidden]) => hidden === 'true').every(([, isInert]) => isInert)).to.equal(true);
    });

    it('should make the key help a modal that takes the focus and gives it back', async () => {
      const { page } = await newPage(DESKTOP);
      await page.goto(`${albumUrl(MIXED)}#photo=${MIXED_FILES[0]}`);
      await waitForPhoto(page, MIXED_FILES[0]!);
      const helpButton = page.locator('.pswp__button--help-button');
      await helpButton.focus();
      await page.keyboard.press('Enter');
      const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
      await help.waitFor();
      expect(await help.getAttribute('aria-modal')).to.equal('true');
      expect(await focusPlace(page)).to.equal('help');
      for (let i = 0; i < 4; i++) {
        await page.keyboard.press('Tab');
        expect(await focusPlace(page)).to.equal('help');
        await page.keyboard.press('Shift+Tab');
        expect(await focusPlace(page)).to.equal('help');
      }
      // The keys do nothing behind it.
      await page.keyboard.press('ArrowRight');
      expect(new URL(page.url()).hash).to.equal(`#photo=${MIXED_FILES[0]}`);
      expect(await help.textContent()).to.include('Start or pause the slideshow');
      await page.keyboard.press('Escape');
      await help.waitFor({ state: 'hidden' });
      expect(await helpButton.evaluate((b) => b === document.activeElement)).to.equal(true);
      expect(await viewer(page).isVisible()).to.equal(true);
    });

    it('should be a modal dialog named after the album, as screen readers announce it', async () => {
      const { page } = await newPage(DESKTOP);
      await page.goto(albumUrl(MIXED));
      await tile(page, 0).focus();
      await page.keyboard.press('Enter');
      await waitForPhoto(page, MIXED_FILES[0]!);
      const dialog = page.getByRole('dialog', { name: 'Photo viewer: Mixed', exact: true });
      await dialog.waitFor();
      expect(await dialog.getAttribute('aria-modal')).to.equal('true');
      // The accessibility tree as Chromium builds it: the dialog, by its name.
      expect((await viewer(page).ariaSnapshot()).split('\n')[0]).to.include('dialog "Photo viewer: Mixed"');
    });

    it('should have no key-help button on a touch-only phone', async () => {
      const { page } = await newPage(PHONE);
      await page.goto(`${albumUrl(MIXED)}#photo=${MIXED_FILES[0]}`);
      await waitForPhoto(page, MIXED_FILES[0]!);
      expect(await page.locator('.pswp__button--help-button').isHidden()).to.equal(true);
      expect(await page.locator('.pswp__button--slideshow-button').isVisible()).to.equal(true);
    });
  });

  /** Closes the viewer with Escape: its history entry is gone, the address is the album's again. */
  async function closeAndExpectAlbumEntry(page: Page, albumPath: string): Promise<void> {
    await page.keyboard.press('Escape');
    await viewer(page).waitFor({ state: 'detached' });
    await page.waitForFunction(() => window.location.hash === '' && !window.history.state?.photoViewer);
    expect(page.url()).to.equal(albumUrl(albumPath));
  }

  /** The tile of `index` is on the album page, in view, and has the focus. */
  async function expectAtTile(page: Page, index: number): Promise<void> {
    const link = tile(page, index);
    await page.waitForFunction((i) => document.activeElement?.getAttribute('data-index') === String(i), index, { timeout: 15_000 });
    const box = (await link.boundingBox())!;
    const { height } = page.viewportSize()!;
    expect(box.y, 'tile top').to.be.at.least(0);
    expect(box.y + box.height, 'tile bottom').to.be.at.most(height);
  }

  /** Starts the slideshow as the device would: its toolbar button on a phone, `s` on a desktop. */
  async function startSlideshow(page: Page, device: BrowserContextOptions): Promise<void> {
    if (device.hasTouch) await page.locator('.pswp__button--slideshow-button').tap();
    else await page.keyboard.press('s');
    await page.locator('.pswp__slideshow-status', { hasText: 'Slideshow' }).waitFor();
  }
});

/**
 * Init script: logs how the page's first video started playing (muted or with sound). The
 * viewer may start a video before its slide is in the document, where events do not reach
 * a document listener: each video asked to play is watched itself.
 */
function reportFirstPlay(): void {
  let reported = false;
  const play = HTMLMediaElement.prototype.play;
  HTMLMediaElement.prototype.play = function (this: HTMLMediaElement) {
    this.addEventListener(
      'playing',
      () => {
        if (reported) return;
        reported = true;
        console.log(`first play: ${this.muted ? 'muted' : 'with sound'}`);
      },
      { once: true },
    );
    return play.call(this);
  };
}

/**
 * Records the page's screen wake locks as it takes them (the real API, watched), and sets the
 * slideshow's remembered interval before the page loads.
 */
async function watchWakeLocks(page: Page, intervalMs: number): Promise<void> {
  await page.addInitScript(
    ([key, ms]) => {
      window.localStorage.setItem(key as string, String(ms));
      const locks: WakeLockSentinel[] = [];
      (window as unknown as { wakeLocks: WakeLockSentinel[] }).wakeLocks = locks;
      const request = navigator.wakeLock.request.bind(navigator.wakeLock);
      navigator.wakeLock.request = async (type) => {
        const lock = await request(type);
        locks.push(lock);
        return lock;
      };
    },
    [INTERVAL_KEY, intervalMs],
  );
}

function heldWakeLocks(page: Page): Promise<number> {
  return page.evaluate(() => (window as unknown as { wakeLocks: WakeLockSentinel[] }).wakeLocks.filter((l) => !l.released).length);
}
