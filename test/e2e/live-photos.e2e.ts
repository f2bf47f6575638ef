import fs from 'node:fs';
import { expect } from 'chai';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import sharp from 'sharp';
import { launchBrowser, showsFile } from '../support/browser.js';
import { listenOnLoopback, type LoopbackServer } from '../support/loopback-server.js';
import { GalleryFixture } from '../support/gallery-fixture.js';
import { writeVideo } from '../support/media-fixtures.js';
import { writeLiveMovie, writeLiveStill } from '../support/live-photo-files.js';
import { webVideoFile, webVideoRecordOf } from '../../server/core/media-catalogue.js';

/**
 * A Live Photo in Debian's Chromium: its motion plays over the still on hover (mouse) and on
 * press-and-hold (touch), muted and inline, and the still is back afterwards. IMG_1's movie is
 * H.264 in a QuickTime file, as an iPhone set to "Most Compatible" writes it; IMG_3 is a pair
 * as an iPhone's default ("High Efficiency") writes it, one content identifier in both files
 * and an HEVC movie, which this Chromium cannot decode: it plays from the H.264 web copy.
 */
describe('Live Photos in Chromium', function () {
  this.timeout(90_000);
  const ALBUM = '2024/phone';
  const STILL = 'IMG_1.JPG';
  const HEVC_STILL = 'IMG_3.JPG';
  const fx = new GalleryFixture();
  let server: LoopbackServer | undefined;
  let base = '';
  let browser: Browser;
  const contexts: BrowserContext[] = [];

  before(async function () {
    this.timeout(120_000);
    await fx.build({ [ALBUM]: { meta: { title: 'Phone', style: 'grid' }, files: ['IMG_2.jpg'] } });
    await sharp({ create: { width: 800, height: 600, channels: 3, background: '#4a7bd0' } })
      .jpeg()
      .toFile(fx.path(ALBUM, STILL));
    await writeVideo(fx.path(ALBUM, 'IMG_1.MOV'), { width: 800, height: 600, seconds: 3 });
    const contentId = 'A1B2C3D4-0000-4000-8000-00000000C0DE';
    await writeLiveStill(fx.path(ALBUM, HEVC_STILL), contentId, 140);
    await writeLiveMovie(fx.path(ALBUM, 'IMG_3.MOV'), contentId, { hevc: true, seconds: 3, size: '320x240' });
    await fx.start({ env: { WORKERS: '2' } });
    // The files' facts read first, as a prepared album has them: a page made before the
    // movie's codec is known types its source with none (and is made again once it is known),
    // and which of the two pages a test met depended on timing.
    await fx.knownFacts(ALBUM);
    server = await listenOnLoopback(fx.gallery.handler);
    base = server.url;
    browser = await launchBrowser();
  });

  after(async () => {
    await browser?.close();
    await server?.close();
    await fx.close();
  });

  afterEach(async () => {
    await Promise.all(contexts.splice(0).map((c) => c.close()));
  });

  async function openAlbum(opts: { hasTouch?: boolean } = {}): Promise<{ page: Page; problems: string[] }> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, hasTouch: opts.hasTouch ?? false });
    contexts.push(context);
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
    page.on('console', (msg) => {
      if (/Content Security Policy|Refused to/i.test(msg.text())) problems.push(`console: ${msg.text()}`);
    });
    await page.goto(`${base}/photos/${ALBUM}`);
    return { page, problems };
  }

  async function openSlide(page: Page, name: string): Promise<void> {
    await page.locator(`a.media__link[data-name="${name}"]`).click();
    await page.waitForFunction(showsFile, name, { timeout: 10_000 });
  }

  const motion = (page: Page) => page.locator('.pswp video.pswp__live-motion');
  const still = (page: Page) => page.locator('.pswp__item[aria-hidden="false"] img.pswp__img:not(.pswp__img--placeholder)');

  /** The motion has started: frames advance, muted and inline, over the still. */
  async function expectPlaying(page: Page): Promise<void> {
    await motion(page).waitFor({ timeout: 10_000 });
    await page.waitForFunction(() => ((document.querySelector('.pswp video.pswp__live-motion') as HTMLVideoElement | null)?.currentTime ?? 0) > 0.2, null, {
      timeout: 10_000,
    });
    const state = await motion(page).evaluate((v) => {
      const video = v as HTMLVideoElement;
      return { muted: video.muted, inline: video.playsInline, paused: video.paused, controls: video.controls };
    });
    expect(state).to.deep.equal({ muted: true, inline: true, paused: false, controls: false });
    expect(await still(page).isVisible()).to.equal(true);
  }

  it('should mark the tile with a LIVE badge and show one tile for the pair', async () => {
    const { page, problems } = await openAlbum();
    expect(await page.locator('#media > li').count()).to.equal(3);
    await page.locator(`a.media__link[data-name="${STILL}"] .badge--live`).waitFor();
    await page.locator(`a.media__link[data-name="${HEVC_STILL}"] .badge--live`).waitFor();
    expect(await page.locator('.badge--live').count()).to.equal(2);
    expect(problems).to.deep.equal([]);
  });

  it('should play the motion while the mouse rests on the LIVE button, then show the still again', async () => {
    const { page, problems } = await openAlbum();
    await openSlide(page, STILL);
    const button = page.locator('.pswp__button--live-button');
    await button.waitFor();
    await button.hover();
    await expectPlaying(page);
    // Away from the button (onto the empty top-left of the stage): the still is back.
    await page.mouse.move(20, 400);
    await motion(page).waitFor({ state: 'detached', timeout: 5000 });
    expect(await still(page).isVisible()).to.equal(true);
    // Keys still belong to PhotoSwipe: on to the next photo, which is no Live Photo.
    await page.keyboard.press('ArrowRight');
    await page.waitForFunction(showsFile, 'IMG_2.jpg');
    await button.waitFor({ state: 'hidden' });
    await page.keyboard.press('Escape');
    await page.locator('.pswp').waitFor({ state: 'detached' });
    expect(problems).to.deep.equal([]);
  });

  it('should play the H.264 copy of an HEVC motion, which this Chromium skips', async () => {
    const { page, problems } = await openAlbum();
    const hevc = await page.evaluate(() => document.createElement('video').canPlayType('video/mp4; codecs="hvc1"'));
    expect(hevc, 'a Chromium without HEVC').to.equal('');
    await openSlide(page, HEVC_STILL);
    const button = page.locator('.pswp__button--live-button');
    await button.waitFor();
    // The original first, typed with its codec, then the copy made for browsers without HEVC.
    await button.hover();
    await motion(page).waitFor({ state: 'attached', timeout: 10_000 });
    const sources = await motion(page).evaluate((v) => Array.from(v.querySelectorAll('source'), (s) => [s.getAttribute('src'), s.getAttribute('type')]));
    expect(sources[0]).to.deep.equal([`/albums/${ALBUM}/IMG_3.MOV`, 'video/mp4; codecs="hvc1"']);
    expect(sources[1]![0]).to.match(/^\/api\/web-video\?path=/);
    // The copy may still be made when the mouse arrives: the motion waits for it, then plays.
    await page.waitForFunction(() => ((document.querySelector('.pswp video.pswp__live-motion') as HTMLVideoElement | null)?.currentTime ?? 0) > 0.2, null, {
      timeout: 30_000,
    });
    expect(await motion(page).evaluate((v) => (v as HTMLVideoElement).currentSrc)).to.include('/api/web-video');
    expect(await motion(page).evaluate((v) => (v as HTMLVideoElement).paused)).to.equal(false);
    expect(problems).to.deep.equal([]);
  });

  it('should wait for a copy still being made (503), then play it', async () => {
    // As after the owner cleared the cache: the copy is made again on its next request.
    const copy = webVideoFile(fx.cacheDir, `${ALBUM}/IMG_3.MOV`);
    expect(fs.existsSync(copy), 'made by the test before').to.equal(true);
    for (const file of [copy, webVideoRecordOf(copy)]) fs.rmSync(file);
    const { page, problems } = await openAlbum();
    const answers: string[] = [];
    page.on('response', (res) => {
      if (res.url().includes('/api/web-video')) answers.push(`${res.request().method()} ${res.status()}`);
    });
    await openSlide(page, HEVC_STILL);
    await page.locator('.pswp__button--live-button').hover();
    await page.waitForFunction(() => ((document.querySelector('.pswp video.pswp__live-motion') as HTMLVideoElement | null)?.currentTime ?? 0) > 0.2, null, {
      timeout: 30_000,
    });
    expect(await motion(page).evaluate((v) => (v as HTMLVideoElement).currentSrc)).to.include('/api/web-video');
    // The video's own request found it being made; the motion asked until it was, then played it.
    expect(answers[0]).to.equal('GET 503');
    expect(answers).to.include('HEAD 200');
    expect(problems).to.deep.equal([]);
  });

  it('should play once when the mouse comes onto the photo, and return to the still at its end', async () => {
    const { page } = await openAlbum();
    await openSlide(page, STILL);
    await page.mouse.move(20, 400);
    const box = (await still(page).boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2, { steps: 4 });
    await expectPlaying(page);
    // Three seconds of movie, then the still, though the mouse stays where it is.
    await motion(page).waitFor({ state: 'detached', timeout: 10_000 });
    expect(await still(page).isVisible()).to.equal(true);
  });

  it('should play while a finger holds the photo, and stop on release without toggling the controls', async () => {
    const { page } = await openAlbum({ hasTouch: true });
    await openSlide(page, STILL);
    const box = (await still(page).boundingBox())!;
    const point = { x: Math.round(box.x + box.width / 2), y: Math.round(box.y + box.height / 2) };
    const uiVisible = () => page.locator('.pswp').evaluate((el) => el.classList.contains('pswp--ui-visible'));
    const uiBefore = await uiVisible();
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [point] });
    await expectPlaying(page);
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    await motion(page).waitFor({ state: 'detached', timeout: 5000 });
    // PhotoSwipe reports the release as a tap a moment later: it must not hide the controls.
    await page.waitForTimeout(800);
    expect(await uiVisible()).to.equal(uiBefore);
    // A quick tap is still PhotoSwipe's: no motion.
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [point] });
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    await page.waitForTimeout(500);
    expect(await motion(page).count()).to.equal(0);
  });
});
