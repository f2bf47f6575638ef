import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { LOCKOUT_MS } from '../../server/public/access/password-limiter.js';
import { formatBytes } from '../../server/public/pages/download-offer.js';
import { launchBrowser } from '../support/browser.js';
import { GalleryFixture } from '../support/gallery-fixture.js';
import { writeVideo } from '../support/media-fixtures.js';

/**
 * What a relative meets around locked albums, in Chromium on a phone and a desktop: the cover
 * of an album they unlocked on /photos, the lockout counted down on a disabled form, `?error=`
 * gone from the address bar, the download button, and the page a lapsed ZIP link opens.
 */

const PHONE: BrowserContextOptions = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true };
const DESKTOP: BrowserContextOptions = { viewport: { width: 1440, height: 900 } };
const WEDDING = '2024/family/wedding';
const GARDEN = '2024/family/garden';
const PASSWORD = 'open sesame';

/** '14 min 58 s', '14 min', '42 s' in seconds. */
function secondsOf(wait: string): number {
  const m = /^(?:(\d+) min)? ?(?:(\d+) s)?$/.exec(wait.trim());
  if (!m || (m[1] === undefined && m[2] === undefined)) throw new Error(`not a time left: "${wait}"`);
  return Number(m[1] ?? 0) * 60 + Number(m[2] ?? 0);
}

describe('locked states in Chromium', function () {
  this.timeout(90_000);
  const fx = new GalleryFixture();
  /** Moves the gallery's lockout clock: the tests do not wait 15 minutes. */
  let clockOffset = 0;
  let browser: Browser;
  let server: http.Server;
  let base: string;
  const contexts: BrowserContext[] = [];

  before(async function () {
    this.timeout(120_000);
    await fx.build({
      '2024/family': { meta: { title: 'Family', isCollection: true } },
      [WEDDING]: { meta: { title: 'Wedding', password: PASSWORD, token: 't-wedding' }, files: ['kiss.jpg', 'cake.jpg'] },
      [GARDEN]: { meta: { title: 'Garden', password: 'other', token: 't-garden' }, files: ['rose.jpg'] },
    });
    await writeVideo(fx.path(WEDDING, 'dance.mp4'), { seconds: 1 });
    await fx.start({ now: () => Date.now() + clockOffset, env: { WORKERS: '2' } });
    // Through an indirection: a test restarts the gallery (a fresh lockout record) behind it.
    server = http.createServer((req, res) => fx.gallery.handler(req, res)).listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    server?.closeAllConnections();
    server?.close();
    await fx.close();
  });
  afterEach(async () => {
    await Promise.all(contexts.splice(0).map((c) => c.close()));
  });

  /** A fresh page (own cookies) that records script errors and CSP refusals. */
  async function newPage(options: BrowserContextOptions): Promise<{ page: Page; context: BrowserContext; problems: string[] }> {
    const context = await browser.newContext(options);
    contexts.push(context);
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
    page.on('console', (msg) => {
      if (/Content Security Policy|Refused to/i.test(msg.text())) problems.push(`console: ${msg.text()}`);
    });
    return { page, context, problems };
  }

  /** Sends the password form and waits for the page it leads to. */
  async function submitPassword(page: Page, password: string): Promise<void> {
    await page.locator('#password').fill(password);
    await Promise.all([page.waitForEvent('load'), page.getByRole('button', { name: 'Unlock album' }).click()]);
  }

  const timeLeft = async (page: Page) => secondsOf((await page.locator('.lockout__time').textContent()) ?? '');

  for (const [device, options] of Object.entries({ phone: PHONE, desktop: DESKTOP })) {
    describe(`on a ${device}`, () => {
      beforeEach(async () => {
        // A fresh lockout record for each test: every test here comes from the same address.
        clockOffset = 0;
        await fx.gallery.close();
        await fx.start({ now: () => Date.now() + clockOffset, env: { WORKERS: '2' } });
      });

      it("should show an unlocked album's cover on /photos, marked, where a padlock was", async () => {
        const { page, problems } = await newPage(options);
        await page.goto(`${base}/photos`);
        const wedding = page.locator(`.card:has(> a[href="/photos/${WEDDING}"])`);
        const garden = page.locator(`.card:has(> a[href="/photos/${GARDEN}"])`);
        expect(await wedding.getAttribute('class')).to.equal('card card--locked');
        expect(await wedding.locator('img').count()).to.equal(0);

        await page.goto(`${base}/photos/${WEDDING}`);
        await submitPassword(page, PASSWORD);
        await page.locator('#media').waitFor();

        await page.goto(`${base}/photos`);
        await wedding.locator('img').waitFor();
        await page.waitForFunction(
          (href) => {
            const img = document.querySelector(`.card--unlocked > a[href="${href}"] img`);
            return img instanceof HTMLImageElement && img.complete && img.naturalWidth > 0;
          },
          `/photos/${WEDDING}`,
          { timeout: 15_000 },
        );
        expect(await wedding.getAttribute('class')).to.equal('card card--unlocked');
        expect(await wedding.locator('.card__mark').textContent()).to.equal('Unlocked');
        expect(await wedding.locator('.card__meta').textContent()).to.equal('2 photos · 1 video');
        expect(await wedding.locator('.lock').count()).to.equal(0);
        // The cover fills the card's frame, the mark sits on it.
        const [cover, frame, mark] = await Promise.all([
          wedding.locator('img').boundingBox(),
          wedding.locator('.card__cover').boundingBox(),
          wedding.locator('.card__mark').boundingBox(),
        ]);
        expect(cover!.width).to.be.closeTo(frame!.width, 1);
        expect(mark!.x).to.be.within(frame!.x, frame!.x + frame!.width / 2);
        // The album not unlocked keeps its padlock, and no image of it is asked for.
        expect(await garden.getAttribute('class')).to.equal('card card--locked');
        expect(await garden.locator('img').count()).to.equal(0);
        expect(problems).to.deep.equal([]);
      });

      it('should warn of the last attempts, then count the lockout down on a disabled form, ending at a time of the visitor’s own clock, and drop ?error= from the address', async () => {
        // A visitor far from the server's zone: the time the lockout ends is shown in theirs.
        const { page, problems } = await newPage({ ...options, timezoneId: 'Asia/Tokyo' });
        await page.goto(`${base}/photos/${WEDDING}`);
        for (let i = 1; i <= 9; i++) {
          await submitPassword(page, `wrong ${i}`);
          const said = await page.getByRole('alert').textContent();
          expect(said).to.include('Wrong password');
          const left = 10 - i;
          if (left > 3) expect(said).to.not.include('left');
          else expect(said).to.include(left === 1 ? 'Last attempt from this network' : `${left} attempts left from this network`);
          await page.waitForFunction(() => !location.search.includes('error='));
          expect(page.url()).to.equal(`${base}/photos/${WEDDING}`);
        }
        await submitPassword(page, 'wrong 10');
        await page.waitForFunction(() => !location.search.includes('error='));
        const alert = page.getByRole('alert');
        expect(await alert.textContent())
          .to.include('Too many wrong passwords were tried from this network')
          .and.include('to unlock “Wedding”.');
        const end = page.locator('time.lockout__end');
        const shown = await end.evaluate((t: HTMLTimeElement) => ({
          text: t.textContent,
          // The visitor's clock (its zone), written as the page's language writes times (English: en-GB).
          inTokyo: new Date(t.dateTime).toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit', timeZone: 'Asia/Tokyo' }),
          ends: Date.parse(t.dateTime),
        }));
        expect(shown.text).to.equal(shown.inTokyo);
        expect(shown.ends - Date.now()).to.be.within(LOCKOUT_MS - 10_000, LOCKOUT_MS + 1000);
        expect(await page.locator('#password').isDisabled()).to.equal(true);
        expect(await page.getByRole('button', { name: 'Unlock album' }).isDisabled()).to.equal(true);

        const first = await timeLeft(page);
        expect(first).to.be.within(LOCKOUT_MS / 1000 - 5, LOCKOUT_MS / 1000);
        await page.waitForTimeout(2_300);
        const later = await timeLeft(page);
        expect(first - later).to.be.within(2, 4);
        expect(await page.locator('.lockout__time').textContent()).to.match(/^1[45] min( \d{1,2} s)?$/);

        // A reload (the address no longer carries the error) still shows the wait and the disabled form.
        await page.reload();
        expect(await page.locator('#password').isDisabled()).to.equal(true);
        expect(await timeLeft(page)).to.be.at.most(later);
        expect(problems).to.deep.equal([]);
      });

      it('should enable the form again when the countdown reaches zero, and open with the right password', async () => {
        const { page, problems } = await newPage(options);
        await page.goto(`${base}/photos/${WEDDING}`);
        for (let i = 1; i <= 10; i++) await submitPassword(page, `wrong ${i}`);
        // Fourteen minutes and a bit later: four seconds are left.
        clockOffset = LOCKOUT_MS - 4_000;
        await page.reload();
        expect(await page.locator('#password').isDisabled()).to.equal(true);
        expect(await timeLeft(page)).to.be.within(1, 4);
        expect(await page.locator('.lockout__time').textContent()).to.match(/^[1-4] s$/);
        await page.waitForFunction(() => document.getElementById('password')?.matches(':enabled'), undefined, { timeout: 10_000 });
        expect(await page.getByRole('alert').textContent()).to.include('You can try again now.');
        expect(await page.evaluate(() => document.activeElement?.id)).to.equal('password');
        await submitPassword(page, PASSWORD);
        await page.locator('#media').waitFor();
        expect(problems).to.deep.equal([]);
      });

      it('should say what the download holds, at least 44 px tall, and send a browser whose access lapsed to a page to unlock', async () => {
        const { page, context, problems } = await newPage(options);
        await page.goto(`${base}/photos/${WEDDING}`);
        await submitPassword(page, PASSWORD);
        const main = page.locator('.button--download');
        const more = page.locator('.button--download-more');
        const size = (name: string) => fs.statSync(fx.path(WEDDING, name)).size;
        const photos = size('kiss.jpg') + size('cake.jpg');
        expect(await main.innerText()).to.equal(`Download 2 photos · ${formatBytes(photos)}`);
        // Seen: 'With 1 video · …'; heard: the whole choice.
        const withVideos = `With 1 video · ${formatBytes(photos + size('dance.mp4'))}`;
        expect(await more.evaluate((a) => a.lastChild?.textContent)).to.equal(withVideos);
        expect(await page.getByRole('link', { name: `Download 2 photos ${withVideos}`, exact: true }).count()).to.equal(1);
        for (const button of [main, more]) {
          const box = (await button.boundingBox())!;
          expect(box.height).to.be.at.least(device === 'phone' ? 44 : 36);
          expect(box.x + box.width).to.be.at.most(options.viewport!.width);
        }
        const [download] = await Promise.all([page.waitForEvent('download'), main.click()]);
        expect(download.suggestedFilename()).to.equal('wedding.zip');

        // Access lapses (the cookie is gone): the same link opens a page that says what to do.
        await context.clearCookies();
        await main.click();
        await page.getByRole('heading', { name: 'This is in a private album' }).waitFor();
        expect(page.url()).to.equal(`${base}/api/download-album?path=${encodeURIComponent(WEDDING)}`);
        await page.getByRole('link', { name: 'Unlock “Wedding”' }).click();
        await page.locator('#password').waitFor();
        expect(page.url()).to.equal(`${base}/photos/${WEDDING}`);
        expect(problems).to.deep.equal([]);
      });
    });
  }
});
