import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { newShareLinkId } from '../../server/core/albums/share-links.js';
import { filesOf } from '../../server/core/albums/live-photos.js';
import { type Config, loadConfig } from '../../server/core/config.js';
import { createGallery, type Gallery } from '../../server/gallery.js';
import { quietLogger } from '../support/capture-logger.js';
import { writeLiveMovie, writeLiveStill } from '../support/live-photo-files.js';
import { listenOnLoopback, type LoopbackServer } from '../support/loopback-server.js';
import { writeCameraJpeg, writeJpeg, writeVideo } from '../support/media-fixtures.js';
import { makeTempDir, removeTempDir, writeAlbum } from '../support/temp-dir.js';

/**
 * Every kind of page a visitor meets, over one small real tree, for the browser tests that
 * walk them all (accessibility, text size): the landing and home pages with their images,
 * /photos, a year's folder, an album in each layout (a camera photo, a portrait, a video and a
 * Live Photo), a collection with a padlocked and an empty album, a share link, and the states
 * reached from there: the locked form and its lockout, the refused and error pages, the viewer
 * with its details, help and slideshow.
 */

export const LAYOUTS = { grid: '2024/lisbon/grid', masonry: '2024/lisbon/masonry', single: '2024/lisbon/single' } as const;
export const COLLECTION = '2024/family';
export const SECRET = '2024/family/secret';
export const EMPTY = '2024/family/empty';
export const PASSWORD = 'open sesame';
/** The album's files, in its order: the viewer opens on the first (a photo with camera details). */
export const FILES = ['1-harbour.jpg', '2-tram.mp4', '3-steps.jpg', '4-live.jpg'] as const;
const LIVE_MOVIE = '4-live.mov';
const LIVE_ID = 'A11Y0000-0000-4000-8000-00000000C0DE';
const GRANDMA = { id: newShareLinkId(), name: 'Grandma', created: new Date(Date.now() - 3_600_000).toISOString(), downloads: true };

/** Past the 15 minutes after which a failed guess is forgotten (docs/api.md#password-endpoints). */
const FORGET_GUESSES_MS = 16 * 60_000;

export class VisitorSite {
  readonly root = makeTempDir('gallery-visitor-pages-');
  /** Moves the gallery's lockout clock, so a test forgets failed guesses without waiting. */
  #clockOffset = 0;
  #gallery?: Gallery;
  /** The gallery's settings, for an admin app over the same tree (admin-site.ts). */
  config?: Config;
  #server?: LoopbackServer;
  url = '';

  async start(): Promise<this> {
    const albums = path.join(this.root, 'albums');
    const content = path.join(this.root, 'content');
    const grid = writeAlbum(albums, LAYOUTS.grid, {
      title: 'Lisbon in spring',
      style: 'grid',
      description: 'Trams, tiles and the river.',
      captions: { [FILES[2]]: 'The steps up to the castle' },
      thumbnail: FILES[2],
    });
    await writeCameraJpeg(path.join(grid, FILES[0]), 1200, 800);
    await writeVideo(path.join(grid, FILES[1]), { seconds: 1 });
    await writeJpeg(path.join(grid, FILES[2]), 600, 900);
    await writeLiveStill(path.join(grid, FILES[3]), LIVE_ID, 140);
    await writeLiveMovie(path.join(grid, LIVE_MOVIE), LIVE_ID);
    for (const [style, albumPath] of Object.entries(LAYOUTS)) {
      if (albumPath === LAYOUTS.grid) continue;
      const dir = writeAlbum(albums, albumPath, { title: `Lisbon (${style})`, style });
      for (const name of [...FILES, LIVE_MOVIE]) fs.copyFileSync(path.join(grid, name), path.join(dir, name));
    }
    writeAlbum(albums, COLLECTION, { title: 'Family', isCollection: true });
    const secret = writeAlbum(albums, SECRET, { title: 'Birthday', password: PASSWORD, shareLinks: [GRANDMA] });
    await writeJpeg(path.join(secret, 'cake.jpg'), 600, 400);
    writeAlbum(albums, EMPTY, { title: 'Still to come' });

    for (const kind of ['landing', 'hero', 'cards']) await writeJpeg(path.join(content, 'assets', kind, `${kind}.jpg`), 1200, 700);
    fs.writeFileSync(
      path.join(content, 'home.json'),
      JSON.stringify({
        intro: { title: 'Welcome to the family album', body: 'Photos from our trips.\n\nSome albums are private.' },
        cards: [{ id: 'lisbon', title: 'Lisbon in spring', description: 'Trams and tiles.', image: 'cards.jpg', link: `/photos/${LAYOUTS.grid}` }],
      }),
    );

    const config = loadConfig({ ALBUMS_DIR: albums, CACHE_DIR: path.join(this.root, 'cache'), CONTENT_DIR: content, WORKERS: '2', PREPARE: 'off' });
    this.config = config;
    const gallery = await createGallery(config, { watch: false, log: quietLogger, now: () => Date.now() + this.#clockOffset });
    // The facts a page shows (sizes, dates, Live Photo pairs) read now, as preparation would before visitors come.
    for (const album of gallery.index.albums()) await gallery.facts.complete(album, Array.from(filesOf(album.media)));
    this.#gallery = gallery;
    this.#server = await listenOnLoopback(gallery.handler);
    this.url = this.#server.url;
    return this;
  }

  async close(): Promise<void> {
    await this.#server?.close();
    await this.#gallery?.close();
    removeTempDir(this.root);
  }

  /** The failed guesses of this address are forgotten (a link that opens nothing is one). */
  forgetGuesses(): void {
    this.#clockOffset += FORGET_GUESSES_MS;
  }

  /** Ten wrong passwords from this address: it is locked out until `forgetGuesses`. */
  async lockOut(): Promise<void> {
    this.forgetGuesses();
    for (let i = 0; i < 10; i++) {
      await fetch(`${this.url}/api/unlock`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ albumPath: SECRET, password: `wrong ${i}` }),
        redirect: 'manual',
      });
    }
  }

  /** Opens the viewer on the grid album's first photo and waits until it takes keys. */
  async openViewer(page: Page): Promise<void> {
    await page.goto(`${this.url}/photos/${LAYOUTS.grid}`);
    await page.locator('a.media__link[data-index="0"]').click();
    await page.waitForFunction(() => document.querySelector('.pswp.pswp--opened') !== null, null, { timeout: 15_000 });
  }

  /**
   * The states of the pages a visitor meets, by name, each reached from a fresh page: the
   * same in every language and theme.
   */
  readonly states: Readonly<Record<string, (page: Page) => Promise<void>>> = {
    landing: (page) => this.#open(page, '/'),
    home: (page) => this.#open(page, '/home'),
    photos: (page) => this.#open(page, '/photos'),
    folder: (page) => this.#open(page, '/photos/2024'),
    'grid album': (page) => this.#open(page, `/photos/${LAYOUTS.grid}`),
    'masonry album': (page) => this.#open(page, `/photos/${LAYOUTS.masonry}`),
    'single album': (page) => this.#open(page, `/photos/${LAYOUTS.single}`),
    collection: (page) => this.#open(page, `/photos/${COLLECTION}`),
    'empty album': (page) => this.#open(page, `/photos/${EMPTY}`),
    'locked form': (page) => this.#open(page, `/photos/${SECRET}?error=wrong-password`),
    lockout: async (page) => {
      await this.lockOut();
      try {
        await this.#open(page, `/photos/${SECRET}`);
        await page.locator('.lockout__time').waitFor();
      } finally {
        this.forgetGuesses();
      }
    },
    'share link': async (page) => {
      this.forgetGuesses();
      await this.#open(page, `/s/${newShareLinkId()}`);
    },
    'share link, locked out': async (page) => {
      await this.lockOut();
      try {
        await this.#open(page, `/s/${newShareLinkId()}`);
        await page.locator('.lockout__time').waitFor();
      } finally {
        this.forgetGuesses();
      }
    },
    "a share link's album": (page) => this.#open(page, `/s/${GRANDMA.id}`),
    refused: (page) => this.#open(page, `/albums/${SECRET}/cake.jpg`),
    error: (page) => this.#open(page, '/no/such/page'),
    viewer: (page) => this.openViewer(page),
    'viewer with details': async (page) => {
      await this.openViewer(page);
      await page.keyboard.press('i');
      await page.locator('#exif-panel dt').first().waitFor();
    },
    'viewer help': async (page) => {
      await this.openViewer(page);
      await page.keyboard.press('?');
      await page.locator('#help-overlay[open]').waitFor();
    },
    'viewer on a video': async (page) => {
      await this.openViewer(page);
      await page.keyboard.press(await this.#nextKey(page));
      await page.locator('.pswp__item[aria-hidden="false"] video').waitFor();
    },
    'viewer on a Live Photo': async (page) => {
      await page.goto(`${this.url}/photos/${LAYOUTS.grid}#photo=${encodeURIComponent(FILES[3])}`);
      await page.waitForFunction(() => document.querySelector('.pswp.pswp--opened') !== null, null, { timeout: 15_000 });
      await page.locator('.pswp__button--live-button').waitFor();
    },
    slideshow: async (page) => {
      await this.openViewer(page);
      await page.keyboard.press('s');
      await page.locator('.pswp__slideshow:not([hidden])').waitFor();
      // Any key pauses it: the audit sees a bar that stays put.
      await page.keyboard.press('x');
      await page.waitForFunction(() => document.querySelector('.pswp--slideshow .pswp__slideshow-toggle[aria-label]') !== null);
    },
  };

  async #open(page: Page, where: string): Promise<void> {
    await page.goto(`${this.url}${where}`);
  }

  /** The key to the album's next photo: → left to right, ← right to left. */
  async #nextKey(page: Page): Promise<string> {
    return (await page.evaluate('document.documentElement.dir')) === 'rtl' ? 'ArrowLeft' : 'ArrowRight';
  }
}
