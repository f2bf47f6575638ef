import { expect } from 'chai';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { launchBrowser } from '../support/browser.js';
import type { GalleryFixture } from '../support/gallery-fixture.js';
import { listenOnLoopback, type LoopbackServer } from '../support/loopback-server.js';
import { tripGallery } from './across-gallery.js';

/** A gallery served on loopback to one Chromium, for a suite of browser tests. */
export interface GalleryBrowsing {
  /** The gallery's address (once the suite's `before` has run). */
  readonly url: string;
  /**
   * A page of `path` in a new context of `device`, closed after the test; `init` runs on the
   * context before its page is made (an init script). A page error fails the test.
   */
  open(device: BrowserContextOptions, path: string, init?: (context: BrowserContext) => Promise<unknown>): Promise<{ page: Page; context: BrowserContext }>;
}

/**
 * Registers the suite's hooks (call it inside `describe`): the gallery `make` makes, its server
 * and the browser made once, each test's contexts closed after it, and no page error left behind.
 */
export function browseGallery(make: () => Promise<GalleryFixture>): GalleryBrowsing {
  let fx: GalleryFixture | undefined;
  let server: LoopbackServer | undefined;
  let browser: Browser | undefined;
  const contexts: BrowserContext[] = [];
  const problems: string[] = [];

  before(async function () {
    this.timeout(240_000);
    fx = await make();
    server = await listenOnLoopback(fx.gallery.handler);
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
    await fx?.close();
  });
  afterEach(async () => {
    await Promise.all(contexts.splice(0).map((c) => c.close()));
    expect(problems.splice(0)).to.deep.equal([]);
  });

  return {
    get url() {
      return (server as LoopbackServer).url;
    },
    async open(device, path, init) {
      const context = await (browser as Browser).newContext(device);
      contexts.push(context);
      await init?.(context);
      const page = await context.newPage();
      page.on('pageerror', (err) => problems.push(`${path}: ${err.message}`));
      await page.goto(`${(server as LoopbackServer).url}${path}`);
      return { page, context };
    },
  };
}

/** The trip gallery (across-gallery.ts), browsed. */
export const browseTripGallery = (): GalleryBrowsing => browseGallery(tripGallery);
