import fs from 'node:fs';
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { createAdminApp } from '../../server/admin/app.js';
import { AlbumIndex } from '../../server/core/albums/album-index.js';
import { launchBrowser } from '../support/browser.js';
import { quietLogger } from '../support/capture-logger.js';
import { gradient } from '../support/corpus-images.js';
import { GalleryFixture } from '../support/gallery-fixture.js';
import { CAMERA_GPS } from '../support/located-media.js';
import { listenOnLoopback, type LoopbackServer } from '../support/loopback-server.js';
import { recordProblems } from './admin-fixtures.js';
import { accessibilityViolations } from './axe-audit.js';

/** Lisbon: 38°43'21.6" N, 9°8'31.2" W. */
const LISBON_GPS = {
  IFD0: { Make: 'Apple', Model: 'iPhone 15' },
  IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '38/1 43/1 216/10', GPSLongitudeRef: 'W', GPSLongitude: '9/1 8/1 312/10' },
};

/**
 * The admin's Places tab in Chromium (README "The map"): the owner's photos on a Leaflet map
 * served by the admin itself, exact, a locked album's included, while visitors' map is rounded.
 */
describe('the admin’s Places tab, in Chromium', function () {
  this.timeout(120_000);
  let fx: GalleryFixture;
  let adminIndex: AlbumIndex;
  let admin: LoopbackServer;
  let browser: Browser;

  before(async function () {
    this.timeout(120_000);
    fx = await new GalleryFixture().build({
      'trips/paris': { meta: { title: 'Paris' } },
      'family/home': { meta: { title: 'Home', password: 'pw' } },
    });
    fs.writeFileSync(fx.path('trips/paris/eiffel.jpg'), await gradient('jpeg', CAMERA_GPS));
    fs.writeFileSync(fx.path('family/home/kitchen.jpg'), await gradient('jpeg', LISBON_GPS));
    await fx.start();
    for (const album of ['trips/paris', 'family/home']) {
      await fx.knownFacts(album);
      await fx.gallery.facts.save(fx.gallery.index.album(album)!);
    }
    adminIndex = await AlbumIndex.open({ albumsDir: fx.albumsDir, watch: false, log: quietLogger });
    admin = await listenOnLoopback(createAdminApp(fx.config, { index: adminIndex, log: quietLogger }));
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await admin?.close();
    adminIndex?.close();
    await fx?.close();
  });

  async function placesTab(viewport: { width: number; height: number }, problems: string[]): Promise<Page> {
    const page = await browser.newPage({ viewport, locale: 'en-GB' });
    recordProblems(page, problems);
    await page.goto(`${admin.url}/#places`);
    await page.locator('#places-map[data-ready="true"]').waitFor();
    return page;
  }

  it('should draw every photo, the locked album’s too, at its exact position, with nothing asked of another server', async () => {
    const problems: string[] = [];
    const requests: string[] = [];
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 }, locale: 'en-GB' });
    page.on('request', (req) => requests.push(req.url()));
    recordProblems(page, problems);
    await page.goto(`${admin.url}/#places`);
    await page.locator('#places-map[data-ready="true"]').waitFor();
    expect(await page.locator('#places-map').getAttribute('data-total')).to.equal('2');
    await page.locator('.places-mark[title="1 photo at 48.85833, 2.29444"]').waitFor();
    await page.locator('.places-mark[title="1 photo at 38.72267, -9.14200"]').waitFor();
    // A spot tells its exact position when clicked.
    await page.locator('.places-mark[title="1 photo at 38.72267, -9.14200"]').click();
    const popup = page.locator('.leaflet-popup-content', { hasText: '38.72267, -9.14200' });
    await popup.waitFor();
    // ...and which photo is there: the locked album's, with its preview.
    await popup.locator('li', { hasText: 'Home / kitchen.jpg' }).waitFor();
    await page.waitForFunction(() => {
      const image = document.querySelector<HTMLImageElement>('.leaflet-popup-content li img');
      return image?.complete === true && image.naturalWidth > 0;
    });
    expect(
      requests.filter((url) => !url.startsWith(admin.url)),
      'no request leaves the admin',
    ).to.deep.equal([]);
    expect(problems).to.deep.equal([]);
    await page.close();
  });

  it('should speak German to a German browser', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 }, locale: 'de-DE' });
    await page.goto(`${admin.url}/#places`);
    await page.locator('#places-map[data-ready="true"]').waitFor();
    expect(await page.locator('[data-tab="places"]').innerText()).to.equal('Orte');
    expect(await page.locator('#tab-places .hint').innerText()).to.match(/^Wo Ihre Fotos aufgenommen wurden, genau, in jedem Album/);
    await page.locator('.places-mark[title="1 Foto bei 38.72267, -9.14200"]').waitFor();
    await page.close();
  });

  it('should be accessible and fit a phone', async () => {
    const problems: string[] = [];
    const page = await placesTab({ width: 390, height: 844 }, problems);
    expect(await accessibilityViolations(page)).to.deep.equal([]);
    await page.locator('.places-mark[title="1 photo at 48.85833, 2.29444"]').click();
    await page.locator('.leaflet-popup-content li', { hasText: 'Paris / eiffel.jpg' }).waitFor();
    // Leaflet fades a popup in: its colours are checked once it is all there.
    await page.waitForFunction(() => getComputedStyle(document.querySelector('.leaflet-popup')!).opacity === '1');
    expect(await accessibilityViolations(page), 'a spot’s popup open').to.deep.equal([]);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow, 'no sideways scrolling on a phone').to.be.at.most(0);
    expect(problems).to.deep.equal([]);
    await page.close();
  });
});
