import fs from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from '../fs-atomic.js';
import type { Logger } from '../logger.js';
import { isMissing } from '../paths.js';

/** How much a share link has been used (docs/api.md#share-links). */
export interface LinkUsage {
  /** Visits: page views through the link, those of one browser within half an hour counted once. */
  readonly visits: number;
  /** ISO 8601 time of the last page view through the link. */
  readonly lastUsed: string;
}

/**
 * Where the usage of share links is kept. Not in album.json: a write there on every visit
 * would rescan the tree and race the admin's edits. The public server records, the admin
 * reads. The file store below serves one public process; a store shared by several (Redis)
 * implements the same three calls.
 */
export interface LinkUsageStore {
  /**
   * A page view opened through link `id` at `at` (ms). `newVisit` is false for a view within
   * a visit already counted: only the time of last use moves. Never fails the request: a
   * store that cannot write logs it.
   */
  recordVisit(id: string, view: { readonly at: number; readonly newVisit: boolean }): void;
  /** Usage of every link used so far, by id. */
  read(): Promise<ReadonlyMap<string, LinkUsage>>;
  /** Writes what was recorded and not written yet (on shutdown). */
  flush(): Promise<void>;
}

/** Outside the thumbnail, full-size and video folders: the admin's cache clearing never removes it. */
export const linkUsageFile = (cacheDir: string): string => path.join(cacheDir, 'share-links', 'usage.json');

/** Recorded views are written at most this long after the first one not written yet. */
const FLUSH_DELAY_MS = 2000;

interface Delta {
  visits: number;
  lastUsed: number;
}

/**
 * The usage in one JSON file, `CACHE_DIR/share-links/usage.json`: `{"links": {id: {visits,
 * lastUsed}}}`. Views are added up in memory and written a couple of seconds later, the file
 * read afresh and replaced atomically (temp file, rename), so a crash loses at most those
 * seconds and a reader never sees half a file.
 */
export class FileLinkUsageStore implements LinkUsageStore {
  readonly #cacheDir: string;
  readonly #log: Logger;
  readonly #delayMs: number;
  /** Views not written yet, by link id. */
  #pending = new Map<string, Delta>();
  #timer: NodeJS.Timeout | undefined;
  /** The write under way: writes follow one another. */
  #writing: Promise<void> = Promise.resolve();

  constructor(opts: { readonly cacheDir: string; readonly log: Logger; readonly flushDelayMs?: number }) {
    this.#cacheDir = opts.cacheDir;
    this.#log = opts.log;
    this.#delayMs = opts.flushDelayMs ?? FLUSH_DELAY_MS;
  }

  recordVisit(id: string, { at, newVisit }: { readonly at: number; readonly newVisit: boolean }): void {
    const delta = this.#pending.get(id) ?? { visits: 0, lastUsed: 0 };
    if (newVisit) delta.visits++;
    delta.lastUsed = Math.max(delta.lastUsed, at);
    this.#pending.set(id, delta);
    if (!this.#timer) {
      this.#timer = setTimeout(() => void this.flush(), this.#delayMs);
      this.#timer.unref();
    }
  }

  async read(): Promise<ReadonlyMap<string, LinkUsage>> {
    return merged(await this.#readFile(), this.#pending);
  }

  flush(): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#writing = this.#writing.then(() => this.#write());
    return this.#writing;
  }

  async #write(): Promise<void> {
    if (this.#pending.size === 0) return;
    const pending = this.#pending;
    this.#pending = new Map();
    try {
      await writeLinkUsageFile(this.#cacheDir, merged(await this.#readFile(), pending));
    } catch (err) {
      // Kept for the next write: the views are not lost because a disk was full for a moment.
      for (const [id, delta] of pending) this.#pending.set(id, addDelta(this.#pending.get(id), delta));
      this.#log.warn({ err }, 'share-link usage could not be written');
    }
  }

  #readFile(): Promise<Map<string, LinkUsage>> {
    return readLinkUsageFile(this.#cacheDir, this.#log);
  }
}

/** Replaces the usage file with `usage`, atomically (temp file, rename). */
export async function writeLinkUsageFile(cacheDir: string, usage: ReadonlyMap<string, LinkUsage>): Promise<void> {
  const file = linkUsageFile(cacheDir);
  await fs.mkdir(path.dirname(file), { recursive: true });
  await writeFileAtomic(file, `${JSON.stringify({ links: Object.fromEntries(usage) }, null, 1)}\n`);
}

/** The usage file's links; none when it is missing, and none (logged) when it is damaged. */
export async function readLinkUsageFile(cacheDir: string, log: Logger): Promise<Map<string, LinkUsage>> {
  const file = linkUsageFile(cacheDir);
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (err) {
    if (isMissing(err)) return new Map();
    throw err;
  }
  const usage = new Map<string, LinkUsage>();
  try {
    const links = (JSON.parse(text) as { links?: unknown }).links;
    if (typeof links === 'object' && links !== null) {
      for (const [id, u] of Object.entries(links)) {
        const { visits, lastUsed } = (u ?? {}) as Record<string, unknown>;
        if (Number.isSafeInteger(visits) && typeof lastUsed === 'string' && Number.isFinite(Date.parse(lastUsed))) {
          usage.set(id, { visits: visits as number, lastUsed });
        }
      }
    }
  } catch (err) {
    // A damaged file is only statistics: start again rather than stop counting.
    log.warn({ err }, `${file} is not valid JSON; share-link usage starts again`);
  }
  return usage;
}

function addDelta(a: Delta | undefined, b: Delta): Delta {
  return a ? { visits: a.visits + b.visits, lastUsed: Math.max(a.lastUsed, b.lastUsed) } : { ...b };
}

function merged(stored: Map<string, LinkUsage>, pending: ReadonlyMap<string, Delta>): Map<string, LinkUsage> {
  const usage = new Map(stored);
  for (const [id, delta] of pending) {
    const old = usage.get(id);
    const lastUsed = Math.max(old ? Date.parse(old.lastUsed) : 0, delta.lastUsed);
    usage.set(id, { visits: (old?.visits ?? 0) + delta.visits, lastUsed: new Date(lastUsed).toISOString() });
  }
  return usage;
}
