import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';

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
}

const EMPTY: HomeContent = { intro: { title: 'Welcome', body: '' }, cards: [] };

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/**
 * A card link ends up in an `href`: only a path on this site (one leading '/') or an http(s)
 * URL, never `javascript:`, `data:`, `//other.site` or anything a browser reads otherwise.
 * The admin refuses the others; home.json edited by hand gets them dropped on reading.
 */
export function isSafeLink(value: string): boolean {
  if (value === '') return true;
  if (/[\u0000-\u001f\u007f\\]/.test(value)) return false;
  if (value.startsWith('/')) return !value.startsWith('//');
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}

/** Reads `home.json` leniently: a missing or broken file gives an empty home page, logged; an unsafe link is dropped. */
export function parseHomeContent(text: string): HomeContent {
  const raw = JSON.parse(text) as { intro?: Record<string, unknown>; cards?: unknown };
  const intro = raw.intro ?? {};
  const cards = Array.isArray(raw.cards) ? raw.cards : [];
  return {
    intro: { title: str(intro.title) || EMPTY.intro.title, body: str(intro.body) },
    cards: cards
      .filter((c): c is Record<string, unknown> => typeof c === 'object' && c !== null)
      .map((c, i) => ({ id: str(c.id) || String(i), title: str(c.title), description: str(c.description), image: str(c.image), link: isSafeLink(str(c.link)) ? str(c.link) : '' })),
  };
}

/**
 * `CONTENT_DIR/home.json` held in memory and reloaded when it changes on disk (the admin
 * server writes it). `version` increases on every reload; emits 'change'.
 */
export class HomeContentStore extends EventEmitter {
  #content: HomeContent = EMPTY;
  #version = 1;
  #watchers: fs.FSWatcher[] = [];
  #timer: NodeJS.Timeout | undefined;
  readonly #dir: string;
  readonly #log: (message: string) => void;

  constructor(contentDir: string, log: (message: string) => void = console.warn) {
    super();
    this.#dir = contentDir;
    this.#log = log;
  }

  get content(): HomeContent {
    return this.#content;
  }

  get version(): number {
    return this.#version;
  }

  async load(): Promise<void> {
    const file = path.join(this.#dir, 'home.json');
    try {
      this.#content = parseHomeContent(await fs.promises.readFile(file, 'utf8'));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') this.#log(`cannot read ${file}: ${(err as Error).message}`);
      this.#content = EMPTY;
    }
    this.#version++;
    this.emit('change', this.#version);
  }

  /**
   * Watches the content directory and its asset folders (home.json is replaced by rename,
   * so the folder is watched, not the file).
   */
  watch(debounceMs = 200): void {
    const dirs = [this.#dir, ...['hero', 'cards', 'landing'].map((d) => path.join(this.#dir, 'assets', d))];
    for (const dir of dirs) {
      // Asset folders are created up front so the first upload into one is noticed.
      try {
        fs.mkdirSync(dir, { recursive: true });
      } catch {
        if (!fs.existsSync(dir)) continue;
      }
      try {
        const w = fs.watch(dir, { persistent: false }, () => {
          clearTimeout(this.#timer);
          this.#timer = setTimeout(() => void this.load(), debounceMs);
          this.#timer.unref();
        });
        w.on('error', () => w.close());
        this.#watchers.push(w);
      } catch (err) {
        this.#log(`cannot watch ${dir}: ${(err as Error).message}`);
      }
    }
  }

  close(): void {
    clearTimeout(this.#timer);
    for (const w of this.#watchers) w.close();
    this.#watchers = [];
  }
}
