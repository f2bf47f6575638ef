import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import type { Browser, BrowserContext, Request } from 'playwright-core';
import { launchBrowser } from '../support/browser.js';
import { GalleryFixture } from '../support/gallery-fixture.js';

/**
 * Share links and the SameSite=strict cookie, in a real browser. `127.0.0.1` and
 * `localhost` are different sites, so a link from a page on `localhost` to the gallery on
 * `127.0.0.1` is a real cross-site navigation.
 */
describe('sharing and cross-site arrivals in Chromium', () => {
  const fx = new GalleryFixture();
  let browser: Browser;
  let context: BrowserContext;
  let server: http.Server;
  let linkServer: http.Server;
  let base: string;
  let linkBase: string;

  before(async function () {
    this.timeout(60_000);
    await fx.build({
      '2024/x/garden': { meta: { title: 'Garden party', password: 'garden', allowAnonymous: true, token: 'share-garden-token' }, files: ['rose.jpg'] },
      '2024/x/wedding': { meta: { title: 'Wedding', password: 'open-sesame', token: 't-wedding' }, files: ['kiss.jpg'] },
    });
    await fx.start();
    server = http.createServer(fx.gallery.handler).listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    // "Another site": a page on localhost linking to the album on 127.0.0.1.
    linkServer = http.createServer((_req, res) => {
      res.setHeader('Content-Type', 'text/html');
      res.end(`<!doctype html><a id="to-album" href="${base}/photos/2024/x/wedding">our wedding photos</a>`);
    });
    linkServer.listen(0, '127.0.0.1');
    await new Promise((r) => linkServer.once('listening', r));
    linkBase = `http://localhost:${(linkServer.address() as AddressInfo).port}`;
    browser = await launchBrowser();
  });
  beforeEach(async () => {
    context = await browser.newContext();
  });
  afterEach(() => context.close());
  after(async () => {
    await browser?.close();
    server?.close();
    linkServer?.close();
    await fx.close();
  });

  it('should open a share link, keep the token in the cookie only, and stay open after a reload', async () => {
    const page = await context.newPage();
    const response = await page.goto(`${base}/photos/2024/x/garden?token=share-garden-token`);
    expect(response!.status()).to.equal(200);
    expect(response!.request().redirectedFrom()).to.equal(null);
    await page.waitForSelector('[data-name="rose.jpg"]');
    await page.waitForFunction(() => !location.search.includes('token'));
    expect(page.url()).to.equal(`${base}/photos/2024/x/garden`);
    const cookie = (await context.cookies(base)).find((c) => c.name === 'album-access')!;
    expect(JSON.parse(decodeURIComponent(cookie.value))).to.deep.equal(['share-garden-token']);
    expect(cookie).to.include({ httpOnly: true, sameSite: 'Strict' });
    await page.reload();
    await page.waitForSelector('[data-name="rose.jpg"]');
  });

  it('should show an unlocked album, not the form, to a visitor arriving from another site', async function () {
    this.timeout(30_000);
    const page = await context.newPage();
    await page.goto(`${base}/photos/2024/x/wedding`);
    await page.fill('#password', 'open-sesame');
    await Promise.all([page.waitForURL(`${base}/photos/2024/x/wedding`), page.click('.unlock__form button[type=submit]')]);
    await page.waitForSelector('[data-name="kiss.jpg"]');

    await page.goto(`${linkBase}/`);
    const albumRequests: Request[] = [];
    page.on('request', (r) => {
      if (r.url() === `${base}/photos/2024/x/wedding`) albumRequests.push(r);
    });
    await page.click('#to-album');
    await page.waitForSelector('[data-name="kiss.jpg"]', { timeout: 10_000 });
    expect(await page.locator('#password').count()).to.equal(0);
    const [first, second] = await Promise.all(albumRequests.slice(0, 2).map((r) => r.allHeaders()));
    // SameSite=strict: the cross-site request goes without the cookie...
    expect(first).to.include({ 'sec-fetch-site': 'cross-site' });
    expect(first!.cookie).to.equal(undefined);
    // ...and the page reloads itself same-site, with it.
    expect(second!['sec-fetch-site']).to.be.oneOf(['same-origin', 'same-site']);
    expect(second!.cookie).to.include('album-access=');
  });

  it('should still show the form to a visitor from another site who never unlocked', async () => {
    const page = await context.newPage();
    await page.goto(`${linkBase}/`);
    await page.click('#to-album');
    await page.waitForSelector('#password', { timeout: 10_000 });
    expect(await page.content()).to.not.include('kiss.jpg');
  });
});
