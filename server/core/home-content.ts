import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import { hasControlCharacter } from './control-characters.js';
import type { Logger } from './logger.js';
import { isWebImage } from './media-catalogue.js';
import { DEFAULT_SITE_SETTINGS, loadSiteSettings, type SiteSettings } from './site-settings.js';
import type { WatchSetting } from './config.js';
import { signaturesOf, TreeWatcher } from './watch/tree-watcher.js';

export interface HomeIntro {
  readonly title: string;
  readonly body: string;
}

export interface HomeCard {
  readonly id: string;
  readonly title: string;
  readonly description: string;
  /** A file name in CONTENT_DIR/assets/cards (served as /content/cards/<name>); '' for none. */
  readonly image: string;
  /** A site path ('/…') or an http(s) URL; '' for none. */
  readonly link: string;
}

/** `CONTENT_DIR/home.json` (docs/api.md#pages). */
export interface HomeContent {
  readonly intro: HomeIntro;
  readonly cards: readonly HomeCard[];
  /** The image of CONTENT_DIR/assets/hero the home page shows (the owner's choice); absent, the first (heroImage). */
  readonly hero?: string;
}

/** home.json as a file: its content plus keys this version does not know, which the admin writes back as they are. */
export interface HomeFile extends HomeContent {
  readonly [other: string]: unknown;
}

export const HOME_FILE = 'home.json';

/** What a missing home.json holds. */
export const emptyHomeFile = (): HomeFile => ({ intro: { title: '', body: '' }, cards: [] });

/** The home page's title when home.json gives none. */
const DEFAULT_TITLE = 'Welcome';

/** home.json is there but is not a JSON object: nothing can be read from it, nor safely written over it. */
export class HomeFileError extends Error {
  constructor() {
    super(`${HOME_FILE} in CONTENT_DIR is not a JSON object; fix it by hand first`);
    this.name = 'HomeFileError';
  }
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A card link ends up in an `href`: only a path on this site (one leading '/') or an http(s)
 * URL, never `javascript:`, `data:`, `//other.site` or anything a browser reads otherwise.
 * The admin refuses the others; home.json edited by hand gets them dropped on reading.
 */
export function isSafeLink(value: string): boolean {
  if (value === '') return true;
  if (value.includes('\\') || hasControlCharacter(value)) return false;
  if (value.startsWith('/')) return !value.startsWith('//');
  // Absolute only: "http:example.com" parses, as a URL relative to nothing a visitor expects.
  if (!/^https?:\/\/[^/]/i.test(value)) return false;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}

/**
 * The one reading of home.json, for both servers: lenient (a missing or mistyped part gets
 * its default: empty texts, no cards) but a file that is not a JSON object throws
 * HomeFileError. Values are kept as written (the public page filters them, see
 * homePageContent) and so are unknown keys. A card written by hand without an id gets a
 * stable one, its place, so the admin can edit and delete it; the admin's first write stores it.
 */
export function parseHomeFile(text: string): HomeFile {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new HomeFileError();
  }
  if (!isRecord(raw)) throw new HomeFileError();
  const intro = isRecord(raw.intro) ? raw.intro : {};
  const cards = (Array.isArray(raw.cards) ? raw.cards : [])
    .filter((c): c is Record<string, unknown> => typeof c === 'object' && c !== null)
    .map((c, i) => ({
      id: str(c.id) || `card-${i + 1}`,
      title: str(c.title),
      description: str(c.description),
      image: str(c.image),
      link: str(c.link),
    }));
  return { ...raw, intro: { ...intro, title: str(intro.title), body: str(intro.body) }, cards };
}

/** What the public home page shows of home.json: a title always, unsafe links dropped (the admin refuses them, a hand edit may not). */
export function homePageContent(file: HomeContent): HomeContent {
  return {
    intro: { title: file.intro.title || DEFAULT_TITLE, body: file.intro.body },
    cards: file.cards.map(({ id, title, description, image, link }) => ({ id, title, description, image, link: isSafeLink(link) ? link : '' })),
    ...(typeof file.hero === 'string' && file.hero !== '' ? { hero: file.hero } : {}),
  };
}

/**
 * The hero image the home page shows, of the file names in CONTENT_DIR/assets/hero: the one
 * chosen in home.json when it is there, else the first in name order (a choice whose file was
 * deleted falls back too). Both servers ask this, so the admin shows what the site shows.
 */
export function heroImage(names: readonly string[], chosen: string | undefined): string | undefined {
  const images = names.filter((n) => !n.startsWith('.') && isWebImage(n)).sort();
  return chosen !== undefined && images.includes(chosen) ? chosen : images[0];
}

/** home.json as the public page reads it (parseHomeFile, then homePageContent). */
export const parseHomeContent = (text: string): HomeContent => homePageContent(parseHomeFile(text));

const EMPTY = homePageContent(emptyHomeFile());

/**
 * `CONTENT_DIR/home.json` and `site.json` (server/core/site-settings.ts) held in memory and
 * reloaded when they change on disk (the admin server writes them). `version` increases on
 * every reload; emits 'change'.
 */
export class HomeContentStore extends EventEmitter {
  #content: HomeContent = EMPTY;
  #site: SiteSettings = DEFAULT_SITE_SETTINGS;
  #version = 1;
  #watcher: TreeWatcher | undefined;
  #timer: NodeJS.Timeout | undefined;
  readonly #dir: string;
  readonly #log: Logger;

  constructor(contentDir: string, log: Logger) {
    super();
    this.#dir = contentDir;
    this.#log = log;
  }

  get content(): HomeContent {
    return this.#content;
  }

  /** The site's name, subtitle, accent colour and public address. */
  get site(): SiteSettings {
    return this.#site;
  }

  get version(): number {
    return this.#version;
  }

  async load(): Promise<void> {
    this.#site = await loadSiteSettings(this.#dir, this.#log);
    const file = path.join(this.#dir, HOME_FILE);
    try {
      this.#content = parseHomeContent(await fs.promises.readFile(file, 'utf8'));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') this.#log.warn(`cannot read ${file}: ${(err as Error).message}`);
      this.#content = EMPTY;
    }
    this.#version++;
    this.emit('change', this.#version);
  }

  /**
   * Watches the content directory and its asset folders (home.json is replaced by rename,
   * so the folder is watched, not the file), by events or by polling as `setting` says
   * (server/core/watch/tree-watcher.ts).
   */
  watch(debounceMs = 200, { setting = 'auto', intervalMs = 5000 }: { setting?: WatchSetting; intervalMs?: number } = {}): void {
    const dirs = [this.#dir, ...['hero', 'cards', 'landing'].map((d) => path.join(this.#dir, 'assets', d))];
    for (const dir of dirs) {
      // Asset folders are created up front so the first upload into one is noticed.
      try {
        fs.mkdirSync(dir, { recursive: true });
      } catch {
        // Read-only content: watched as it is.
      }
    }
    const watched = dirs.filter((dir) => fs.existsSync(dir));
    const polled = [...watched, path.join(this.#dir, HOME_FILE)];
    const reload = async () => {
      // Taken before the read, so a save landing during it is seen by the next poll.
      const signatures = watcher.mode === 'poll' ? await signaturesOf(polled) : undefined;
      await this.load();
      watcher.update(watched, signatures);
    };
    const watcher = new TreeWatcher({
      setting,
      intervalMs,
      root: this.#dir,
      label: 'content',
      log: this.#log,
      onChange: () => {
        clearTimeout(this.#timer);
        this.#timer = setTimeout(() => void reload(), debounceMs);
        this.#timer.unref();
      },
    });
    this.#watcher = watcher;
    if (watcher.mode === 'poll') void reload();
    else watcher.update(watched, undefined);
  }

  close(): void {
    clearTimeout(this.#timer);
    this.#watcher?.close();
    this.#watcher = undefined;
  }
}
