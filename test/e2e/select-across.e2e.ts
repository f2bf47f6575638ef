import fs from 'node:fs';
import { expect } from 'chai';
import type { BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { unzip, unzipTest } from '../zip/support.js';
import { accessibilityViolations } from './axe-audit.js';
import { ARCHIVE, DEVICES, LISBON, OPEN_FILES, PORTO } from './across-gallery.js';
import { browseTripGallery } from './trip-browsing.js';

/**
 * Choosing photos on the pages of files from many albums (issue 30, README "Choosing photos"),
 * in Chromium on a phone (touch) and a desktop (mouse): on /search and /timeline, three photos
 * from two albums downloaded as one ZIP whose entries are read back (a name both albums hold
 * prefixed with its album folder); "select this month" on the timeline; the choice surviving
 * Back; the frame of a search and of "on this day" showing their photos.
 */
describe('choosing photos across albums, in Chromium', function () {
  this.timeout(180_000);
  const trip = browseTripGallery();
  const open = (device: BrowserContextOptions, url: string) => trip.open(device, url);

  const tile = (page: Page, path: string) => page.locator(`.media__item:has(a.media__link[data-path="${path}"])`);
  const chosenPaths = (page: Page) => page.$$eval('.media__item.is-chosen a.media__link', (links) => links.map((a) => (a as HTMLElement).dataset.path));
  const barText = (page: Page) => page.locator('.select-bar__count').textContent();

  /** A tap in the middle of the tile on a phone, a click on a desktop. */
  async function press(page: Page, path: string, touch: boolean): Promise<void> {
    if (!touch) return tile(page, path).locator('a.media__link').click();
    await tile(page, path).evaluate((el) => el.scrollIntoView({ block: 'center', behavior: 'instant' }));
    const box = (await tile(page, path).boundingBox())!;
    await page.touchscreen.tap(box.x + box.width / 2, box.y + box.height / 2);
  }

  /** Starts choosing with the tile: a long press on a phone, its checkbox with a mouse. */
  async function startWith(page: Page, context: BrowserContext, path: string, touch: boolean): Promise<void> {
    if (!touch) {
      await tile(page, path).hover();
      await tile(page, path).locator('input.select-check').click();
      return;
    }
    await tile(page, path).evaluate((el) => el.scrollIntoView({ block: 'center', behavior: 'instant' }));
    const box = (await tile(page, path).boundingBox())!;
    const cdp = await context.newCDPSession(page);
    const point = { x: Math.round(box.x + box.width / 2), y: Math.round(box.y + box.height / 2) };
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [point] });
    // Held until the tile shows chosen, however long the machine takes.
    await page.locator('.media__item.is-chosen').waitFor();
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  }

  /** Clicks Download; the request's method and address, and the ZIP's entries (checked by unzip -t). */
  async function download(page: Page): Promise<{ method: string; url: URL; entries: string[] }> {
    const asked = page.waitForRequest((r) => r.url().includes('/api/download-'));
    const arrived = page.waitForEvent('download');
    await page.locator('.select-bar__download').click();
    const [request, file] = await Promise.all([asked, arrived]);
    const zip = fs.readFileSync((await file.path())!);
    await unzipTest(zip);
    return { method: request.method(), url: new URL(request.url()), entries: [...(await unzip(zip)).keys()] };
  }

  for (const [device, options] of Object.entries(DEVICES)) {
    const touch = options.hasTouch === true;
    describe(`on a ${device}`, () => {
      it('should choose 3 photos of two albums on /search and download them as one ZIP', async () => {
        const { page, context } = await open(options, '/search?q=trip');
        const chosen = [`${LISBON}/IMG_0001.jpg`, `${PORTO}/IMG_0001.jpg`, `${PORTO}/bridge.jpg`];
        await page.locator('.button--select:not(.is-waiting)').waitFor();
        await startWith(page, context, chosen[0]!, touch);
        for (const path of chosen.slice(1)) await press(page, path, touch);
        expect(await chosenPaths(page)).to.have.members(chosen);
        // Choosing opened no viewer.
        expect(await page.locator('.pswp').count()).to.equal(0);
        expect(await barText(page)).to.match(/^3 photos · \d/);
        const got = await download(page);
        expect(got.method).to.equal('GET');
        expect(got.url.pathname).to.equal('/api/download-selection');
        expect(got.url.searchParams.getAll('file')).to.have.members(chosen);
        expect(got.entries).to.have.members(['lisbon - IMG_0001.jpg', 'porto - IMG_0001.jpg', 'bridge.jpg']);
      });

      it('should choose a month with "Select this month" and a photo more on /timeline, and download them', async () => {
        const { page } = await open(options, '/timeline');
        await page.locator('.button--select:not(.is-waiting)').click();
        const june = page.locator('.timeline__month[data-month="2023-06"]');
        await june.locator('[data-select-day]').click();
        const junePaths = [`${LISBON}/IMG_0001.jpg`, `${LISBON}/IMG_0002.jpg`, `${PORTO}/IMG_0001.jpg`];
        expect(await chosenPaths(page)).to.have.members(junePaths);
        expect(await june.locator('[data-select-day]').getAttribute('aria-pressed')).to.equal('true');
        expect(await june.locator('[data-select-day]').textContent()).to.equal('Select this month');
        // The next month's tiles stay out of it.
        await press(page, `${PORTO}/river.jpg`, touch);
        expect(await barText(page)).to.match(/^4 photos · \d/);
        await press(page, `${LISBON}/IMG_0002.jpg`, touch);
        expect(await chosenPaths(page)).to.have.members([`${LISBON}/IMG_0001.jpg`, `${PORTO}/IMG_0001.jpg`, `${PORTO}/river.jpg`]);
        expect(await june.locator('[data-select-day]').getAttribute('aria-pressed')).to.equal('false');
        const got = await download(page);
        expect(got.entries).to.have.members(['lisbon - IMG_0001.jpg', 'porto - IMG_0001.jpg', 'river.jpg']);
      });

      it('should keep the choice through infinite scroll and a reload on /timeline, and download what is not on the page', async () => {
        const { page } = await open(options, '/timeline');
        await page.locator('.button--select:not(.is-waiting)').click();
        await press(page, `${PORTO}/bridge.jpg`, touch);
        // The oldest photo is on the second page, which comes as the end nears.
        const oldest = `${ARCHIVE}/old-001.jpg`;
        await page.mouse.wheel(0, 200_000);
        if (touch) await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
        await tile(page, oldest).waitFor({ timeout: 30_000 });
        await press(page, oldest, touch);
        expect(await chosenPaths(page)).to.have.members([`${PORTO}/bridge.jpg`, oldest]);
        await page.reload();
        await page.locator('.select-bar:not([hidden])').waitFor();
        // Page 1 again: the oldest photo is not on it, and still chosen.
        expect(await tile(page, oldest).count()).to.equal(0);
        expect(await barText(page)).to.match(/^2 photos · /);
        const got = await download(page);
        expect(got.entries).to.have.members(['bridge.jpg', 'old-001.jpg']);
      });

      it('should keep the choice through Back, until Cancel', async () => {
        const { page, context } = await open(options, '/search?q=trip');
        await page.locator('.button--select:not(.is-waiting)').waitFor();
        await startWith(page, context, `${PORTO}/river.jpg`, touch);
        await press(page, `${LISBON}/tram.jpg`, touch);
        await page.goto(`${trip.url}/photos`);
        await page.goBack();
        await page.locator('.select-bar:not([hidden])').waitFor();
        expect(await chosenPaths(page)).to.have.members([`${PORTO}/river.jpg`, `${LISBON}/tram.jpg`]);
        expect(await barText(page)).to.match(/^2 photos · /);
        await page.locator('.select-bar__cancel').click();
        await page.reload();
        await page.locator('.button--select:not(.is-waiting)').waitFor();
        expect(await chosenPaths(page)).to.deep.equal([]);
        expect(await page.locator('.select-bar').isHidden()).to.equal(true);
      });
    });
  }

  it('should be reachable by keyboard on /timeline: Select, Tab to a month, Space, Escape', async () => {
    const { page } = await open(DEVICES.desktop, '/timeline');
    const start = page.locator('.button--select:not(.is-waiting)');
    await start.focus();
    await page.keyboard.press('Enter');
    const june = page.locator('.timeline__month[data-month="2023-06"] [data-select-day]');
    await june.focus();
    await page.keyboard.press('Space');
    expect(await chosenPaths(page)).to.have.length(3);
    // Each tile is one Tab stop, its checkbox; Space there takes it back out.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.matches('input.select-check'))).to.equal(true);
    await page.keyboard.press('Space');
    expect(await chosenPaths(page)).to.have.length(2);
    await page.keyboard.press('Escape');
    expect(await page.locator('.select-bar').isHidden()).to.equal(true);
    expect(await chosenPaths(page)).to.deep.equal([]);
  });

  it("should share the search's own address, or the one chosen photo on it", async () => {
    // A share sheet standing in for the system's, which headless Chromium on Linux lacks.
    const { page } = await trip.open(DEVICES.phone, '/search?q=trip&page=1', (context) =>
      context.addInitScript(() => {
        const shared: ShareData[] = [];
        Object.assign(window, { shared });
        navigator.share = async (data?: ShareData) => void shared.push(data ?? {});
      }),
    );
    await page.locator('.button--select:not(.is-waiting)').tap();
    await press(page, `${PORTO}/bridge.jpg`, true);
    await page.locator('.select-bar__share').tap();
    await press(page, `${LISBON}/tram.jpg`, true);
    await page.locator('.select-bar__share').tap();
    const shared = await page.evaluate(() => (window as unknown as { shared: ShareData[] }).shared);
    expect(shared.map((x) => x.url)).to.deep.equal([
      `${trip.url}/search?q=trip#photo=${encodeURIComponent(`${PORTO}/bridge.jpg`)}`,
      `${trip.url}/search?q=trip`,
    ]);
    expect(shared[0]!.title).to.equal('Results for “trip”');
  });

  for (const [device, options] of Object.entries(DEVICES)) {
    it(`should pass axe on /search and /timeline while choosing, and on the welcome page, on a ${device}`, async () => {
      const { page } = await open(options, '/search?q=trip');
      await page.locator('.button--select:not(.is-waiting)').click();
      expect(await accessibilityViolations(page)).to.deep.equal([]);
      await page.goto(`${trip.url}/timeline`);
      await page.locator('.button--select:not(.is-waiting)').click();
      await page.locator('.timeline__month [data-select-day]:not([hidden])').first().waitFor();
      expect(await accessibilityViolations(page)).to.deep.equal([]);
      await page.goto(`${trip.url}/`);
      await page.locator('#on-this-day:not([hidden])').waitFor();
      expect(await accessibilityViolations(page)).to.deep.equal([]);
    });
  }

  /** Every photo a frame shows (its `data-current`), from the moment this is called. */
  async function watchFrame(page: Page): Promise<void> {
    await page.locator('#frame').waitFor({ state: 'attached' });
    await page.evaluate(() => {
      const frame = document.getElementById('frame') as HTMLElement;
      const seen: string[] = [frame.dataset.current ?? ''];
      (window as unknown as { seen: string[] }).seen = seen;
      new MutationObserver(() => seen.push(frame.dataset.current ?? '')).observe(frame, { attributeFilter: ['data-current'] });
    });
  }
  const seen = (page: Page) => page.evaluate(() => [...new Set((window as unknown as { seen: string[] }).seen.filter(Boolean))]);

  it('should show the photos of a search in the frame its "Photo frame" button opens, and nothing else', async () => {
    const { page } = await open(DEVICES.desktop, '/search?q=trip');
    const href = await page.locator('.button--frame').getAttribute('href');
    const url = new URL(href!, trip.url);
    expect(url.pathname).to.equal('/frame');
    expect(url.searchParams.get('source')).to.equal('/api/search?q=trip');
    expect(url.searchParams.get('back')).to.equal('/search?q=trip');
    // The button's frame, at a test's pace.
    url.searchParams.set('interval', '0.2');
    await page.goto(url.href);
    await watchFrame(page);
    await page.waitForFunction((count) => new Set((window as unknown as { seen: string[] }).seen.filter(Boolean)).size >= count, OPEN_FILES.length, {
      timeout: 60_000,
    });
    expect(await seen(page)).to.have.members(OPEN_FILES);
  });

  it('should offer the frame of "on this day" on the welcome page, showing its photos', async () => {
    const { page } = await open(DEVICES.phone, '/');
    await page.locator('#on-this-day:not([hidden])').waitFor();
    const href = await page.locator('#on-this-day .button--frame').getAttribute('href');
    const url = new URL(href!, trip.url);
    expect(url.searchParams.get('source')).to.equal('/api/on-this-day');
    url.searchParams.set('interval', '0.2');
    await page.goto(url.href);
    await watchFrame(page);
    await page.waitForFunction(() => (window as unknown as { seen: string[] }).seen.filter(Boolean).length >= 3, undefined, { timeout: 60_000 });
    // Only the open album's photo of this day; the locked one's never.
    expect(await seen(page)).to.deep.equal([`${LISBON}/today.jpg`]);
  });
});
