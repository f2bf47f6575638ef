import { expect } from 'chai';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import sharp from 'sharp';
import { launchBrowser, showsFile } from '../support/browser.js';
import { listenOnLoopback, type LoopbackServer } from '../support/loopback-server.js';
import { GalleryFixture } from '../support/gallery-fixture.js';
import { writeVideo } from '../support/media-fixtures.js';

/**
 * A Live Photo in Debian's Chromium: its motion plays over the still on hover (mouse) and on
 * press-and-hold (touch), muted and inline, and the still is back afterwards. The movie is
 * H.264 in a QuickTime file, as an iPhone set to "Most Compatible" writes it, since Chromium
 * plays H.264 and not the HEVC of most iPhone movies.
 */
describe('Live Photos in Chromium', function () {
  this.timeout(90_000);
  const ALBUM = '2024/phone';
  const STILL = 'IMG_1.JPG';
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
    await fx.start({ env: { WORKERS: '2' } });
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
    expect(await page.locator('#media > li').count()).to.equal(2);
    await page.locator(`a.media__link[data-name="${STILL}"] .badge--live`).waitFor();
    expect(await page.locator('.badge--live').count()).to.equal(1);
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
