import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { launchBrowser } from '../support/browser.js';
import { GalleryFixture } from '../support/gallery-fixture.js';
import { publicAppWithPlaces, type Positions } from '../map/map-app.js';

const PHONE: BrowserContextOptions = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true };
const DESKTOP: BrowserContextOptions = { viewport: { width: 1440, height: 900 } };

/** 30 photos spread over Lisbon, 5 in Porto, one at the Sydney Opera House, and a locked album's 4 in Paris. */
const LISBON = Array.from({ length: 30 }, (_, i) => `l${i}.jpg`);
const PORTO = Array.from({ length: 5 }, (_, i) => `p${i}.jpg`);
const POSITIONS: Positions = {
  ...Object.fromEntries(LISBON.map((name, i) => [`trips/lisbon/${name}`, { lat: 38.7 + (i % 6) * 0.013, lon: -9.2 + Math.floor(i / 6) * 0.021 }])),
  ...Object.fromEntries(PORTO.map((name, i) => [`trips/porto/${name}`, { lat: 41.14 + i * 0.004, lon: -8.61 }])),
  'trips/sydney/opera.jpg': { lat: -33.8568, lon: 151.2153 },
  ...Object.fromEntries(['a', 'b', 'c', 'd'].map((n) => [`trips/paris/${n}.jpg`, { lat: 48.8584, lon: 2.2945 }])),
};

/** The numbers the marks show: every photo the visitor may open, once. */
const markCounts = (page: Page) => page.$$eval('.map-mark', (marks) => marks.map((m) => Number(m.textContent)));

/** The map of the photos in Chromium: it opens with the gallery's own world, clusters, zooms, and opens a photo (issue 28). */
describe('the map in Chromium', function () {
  this.timeout(120_000);
  const fx = new GalleryFixture();
  let server: http.Server;
  let origin: string;
  let browser: Browser;

  before(async () => {
    await fx.build({
      'trips/lisbon': { meta: { title: 'Lisbon' }, files: LISBON },
      'trips/porto': { meta: { title: 'Porto' }, files: PORTO },
      'trips/sydney': { meta: { title: 'Sydney' }, files: ['opera.jpg'] },
      'trips/paris': { meta: { title: 'Paris', password: 'pw' }, files: ['a.jpg', 'b.jpg', 'c.jpg', 'd.jpg'] },
    });
    await fx.start();
    server = http.createServer(publicAppWithPlaces(fx, POSITIONS));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await new Promise((resolve) => server?.close(resolve));
    await fx.close();
  });

  for (const [device, options] of [
    ['a phone', PHONE],
    ['a desktop', DESKTOP],
  ] as const) {
    describe(`on ${device}`, () => {
      it('should draw the world and cluster the photos, asking no host but the gallery', async () => {
        const context = await browser.newContext(options);
        const page = await context.newPage();
        const elsewhere: string[] = [];
        page.on('request', (req) => {
          if (!req.url().startsWith(`${origin}/`) && !req.url().startsWith('data:')) elsewhere.push(req.url());
        });
        const errors: string[] = [];
        page.on('pageerror', (err) => errors.push(err.message));
        await page.goto(`${origin}/map`);
        await page.waitForSelector('#map[data-ready="true"]');
        // The countries, drawn from the bundled Natural Earth file.
        expect(await page.locator('path.map-country').count()).to.be.above(100);
        // The first view fits every place: each photo the visitor may open is counted once, Paris's never.
        expect(await page.getAttribute('#map', 'data-total')).to.equal('36');
        const counts = await markCounts(page);
        expect(
          counts.reduce((a, b) => a + b, 0),
          'every photo the visitor may open, once',
        ).to.equal(36);
        expect(Math.max(...counts), 'at least one cluster').to.be.above(1);
        expect(await page.locator('.map-mark:not(.map-mark--spot)').count()).to.be.above(0);
        expect(elsewhere).to.deep.equal([]);
        expect(errors).to.deep.equal([]);
        await context.close();
      });

      it('should zoom into a cluster it is tapped on, and open the album at a single photo', async () => {
        const context = await browser.newContext(options);
        const page = await context.newPage();
        await page.goto(`${origin}/map`);
        await page.waitForSelector('#map[data-ready="true"]');
        const zoom = Number(await page.getAttribute('#map', 'data-zoom'));
        const cluster = page.locator('.map-mark:not(.map-mark--spot)').first();
        const inCluster = Number(await cluster.textContent());
        await cluster.click();
        await page.waitForFunction((z) => Number(document.getElementById('map')?.dataset.zoom) > z, zoom);
        // The cluster's photos are still all there, in its parts.
        expect((await markCounts(page)).reduce((a, b) => a + b, 0)).to.be.at.least(inCluster);
        // Back on the whole view, Sydney's one photo is a spot of its own: it opens its album at that photo (the viewer's deep link).
        await page.goto(`${origin}/map`);
        await page.waitForSelector('#map[data-ready="true"]');
        await page.locator('.map-mark--spot', { hasText: /^1$/ }).first().click();
        await page.waitForURL(/\/photos\/trips\/sydney#photo=opera\.jpg$/);
        await context.close();
      });
    });
  }

  it('should open on all the photos when they make one cluster of the whole world (Lisbon and Porto)', async () => {
    // Only Lisbon and Porto have positions here: at zoom 0 they are one cluster whose centre
    // lies between them; a first view zoomed in on that centre showed neither.
    const together = http.createServer(publicAppWithPlaces(fx, Object.fromEntries(Object.entries(POSITIONS).filter(([p]) => /lisbon|porto/.test(p)))));
    await new Promise<void>((resolve) => together.listen(0, '127.0.0.1', resolve));
    try {
      const context = await browser.newContext(PHONE);
      const page = await context.newPage();
      await page.goto(`http://127.0.0.1:${(together.address() as AddressInfo).port}/map`);
      await page.waitForSelector('#map[data-ready="true"]');
      expect(await page.getAttribute('#map', 'data-total')).to.equal('35');
      expect(
        (await markCounts(page)).reduce((a, b) => a + b, 0),
        'every photo in the first view',
      ).to.equal(35);
      await context.close();
    } finally {
      await new Promise((resolve) => together.close(resolve));
    }
  });
});
