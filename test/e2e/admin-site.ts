import type { Page } from 'playwright-core';
import { createAdminApp } from '../../server/admin/app.js';
import { AlbumIndex } from '../../server/core/albums/album-index.js';
import type { Config } from '../../server/core/config.js';
import { quietLogger } from '../support/capture-logger.js';
import { listenOnLoopback, type LoopbackServer } from '../support/loopback-server.js';

/** The grid album's title in the admin's tree (visitor-site.ts). */
const GRID_TITLE = 'Lisbon in spring';

/**
 * The admin app over a `VisitorSite`'s tree, for the browser tests that walk its pages
 * (accessibility, text size): each tab, an album open with its tiles (one with a caption, a
 * video, a Live Photo, the cover), and the dialogs an owner meets (a photo's, a new album's,
 * sharing a locked album).
 */
export class AdminSite {
  #server?: LoopbackServer;
  #index?: AlbumIndex;
  url = '';

  async start(config: Config): Promise<this> {
    this.#index = await AlbumIndex.open({ albumsDir: config.albumsDir, watch: false, log: quietLogger });
    this.#server = await listenOnLoopback(createAdminApp(config, { index: this.#index, log: quietLogger }));
    this.url = this.#server.url;
    return this;
  }

  async close(): Promise<void> {
    await this.#server?.close();
    this.#index?.close();
  }

  /** The states of the admin's page, by name, each reached from a fresh page. */
  readonly states: Readonly<Record<string, (page: Page) => Promise<void>>> = {
    'albums tab, an album open': (page) => this.#openAlbum(page, GRID_TITLE),
    "a photo's dialog": async (page) => {
      await this.#openAlbum(page, GRID_TITLE);
      await page.locator('#album-panel .media-grid .tile').first().click();
      await page.locator('#photo-dialog[open] input[name="caption"]').waitFor();
    },
    'new album dialog': async (page) => {
      await this.#tab(page, 'albums', '#album-tree button');
      await page.locator('#new-album-button').click();
      await page.locator('#new-album-dialog[open]').waitFor();
    },
    'share dialog of a locked album': async (page) => {
      await this.#openAlbum(page, 'Birthday');
      await page.locator('#album-panel section[aria-labelledby="sharing-title"] button.primary').click();
      await page.locator('dialog.share-dialog[open] input[name="name"]').waitFor();
    },
    'access tab': (page) => this.#tab(page, 'access', '#access-list li'),
    'home tab': (page) => this.#tab(page, 'home', '#home-editor form'),
    'assets tab': (page) => this.#tab(page, 'assets', '#asset-manager input[type="file"]'),
    'site tab': (page) => this.#tab(page, 'site', '#site-editor form'),
    'cache tab': (page) => this.#tab(page, 'cache', '#cache-stats > *'),
  };

  /** The tab `name`, once `ready` (a selector of what its script draws) is on it. */
  async #tab(page: Page, name: string, ready: string): Promise<void> {
    await page.goto(`${this.url}/#${name}`);
    await page.locator(`[data-panel="${name}"] ${ready}`).first().waitFor();
  }

  /** The albums tab with the album titled `title` chosen in the tree and its tiles drawn. */
  async #openAlbum(page: Page, title: string): Promise<void> {
    await this.#tab(page, 'albums', '#album-tree button');
    await page
      .locator('#album-tree')
      .getByRole('button', { name: new RegExp(title) })
      .first()
      .click();
    await page.locator('#album-panel h2', { hasText: title }).waitFor();
    if (title === GRID_TITLE) await page.locator('#album-panel .media-grid .tile img').first().waitFor();
  }
}
