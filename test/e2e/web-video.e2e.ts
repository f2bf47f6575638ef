import { galleryWithFactsRead } from './gallery-fixtures.js';
import path from 'node:path';
import { expect } from 'chai';
import type { Browser } from 'playwright-core';
import type { Gallery } from '../../server/gallery.js';
import { launchBrowser } from '../support/browser.js';
import { listenOnLoopback, type LoopbackServer } from '../support/loopback-server.js';
import { writeHevcClip } from '../support/phone-videos.js';
import { makeTempDir, removeTempDir, writeAlbum } from '../support/temp-dir.js';

/**
 * An iPhone's HEVC clip in Debian's Chromium, which has no HEVC decoder
 * (canPlayType('video/mp4; codecs="hvc1"') is '' there, avc1 'probably'): the lightbox must
 * skip the original and play the H.264 rendition the pool makes on first request.
 */
describe('phone videos in Chromium', function () {
  this.timeout(90_000);
  const root = makeTempDir('web-video-e2e-');
  const albumsDir = path.join(root, 'albums');
  let gallery: Gallery;
  let server: LoopbackServer | undefined;
  let browser: Browser;
  let url = '';

  before(async function () {
    const phone = writeAlbum(albumsDir, '2025/phone', { title: 'Phone' });
    await writeHevcClip(path.join(phone, 'IMG_0001.MOV'));
    gallery = await galleryWithFactsRead(root);
    server = await listenOnLoopback(gallery.handler);
    url = server.url;
    browser = await launchBrowser();
  });

  after(async () => {
    await browser?.close();
    await server?.close();
    await gallery?.close();
    removeTempDir(root);
  });

  it('should play the H.264 rendition of an HEVC clip in the lightbox', async function () {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));
    try {
      await page.goto(`${url}/photos/2025/phone#photo=IMG_0001.MOV`);
      const canPlay = await page.evaluate(() => {
        const v = document.createElement('video');
        return { hevc: v.canPlayType('video/mp4; codecs="hvc1"'), h264: v.canPlayType('video/mp4; codecs="avc1.42E01E"') };
      });
      expect(canPlay.h264).to.not.equal('');
      const video = page.locator('.pswp video.pswp__video');
      await video.waitFor({ state: 'attached' });
      // The original first, with its codec so a browser without HEVC skips it; then the rendition.
      const sources = await video.evaluate((v) => Array.from(v.querySelectorAll('source'), (s) => [s.getAttribute('src'), s.getAttribute('type')]));
      expect(sources[0]).to.deep.equal(['/albums/2025/phone/IMG_0001.MOV', 'video/mp4; codecs="hvc1"']);
      expect(sources[1]![0]).to.match(/^\/api\/web-video\?path=2025%2Fphone%2FIMG_0001\.MOV/);
      // Made on first request (503 meanwhile, the viewer then says so and asks again by itself).
      await page.waitForFunction(
        () => {
          const v = document.querySelector('.pswp video') as HTMLVideoElement | null;
          return Boolean(v?.currentSrc.includes('/api/web-video')) && (v?.readyState ?? 0) >= 2;
        },
        null,
        { timeout: 30_000 },
      );
      if (canPlay.hevc === '') expect(await video.evaluate((v) => (v as HTMLVideoElement).currentSrc)).to.include('/api/web-video');
      await video.evaluate((v) => {
        const el = v as HTMLVideoElement;
        el.muted = true;
        return el.play();
      });
      await page.waitForFunction(() => ((document.querySelector('.pswp video') as HTMLVideoElement | null)?.currentTime ?? 0) > 0.3, null, { timeout: 10_000 });
      expect(await page.locator('.pswp__video-notice').isHidden()).to.equal(true);
      expect(errors).to.deep.equal([]);
    } finally {
      await page.close();
    }
  });
});
