import type { Stats } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Album } from '../core/albums/album-tree.js';
import { type ContentIds, filesOf, isLivePhotoMotion, isLivePhotoStill, pairLivePhotos } from '../core/albums/live-photos.js';
import { HttpError } from '../core/errors.js';
import { readJsonCache, writeJsonCache } from '../core/json-cache.js';
import type { Logger } from '../core/logger.js';
import { livePhotoIdsFile, type MediaKind } from '../core/media-catalogue.js';
import { isMissing } from '../core/paths.js';
import { MediaTaskError, PoolBusyError } from './pool-errors.js';

/**
 * The content identifiers of Live Photos (docs/api.md#live-photos), read after each scan, in
 * the background, and handed to the index, which pairs with them.
 *
 * The scan reads directories only; reading a file of every photo would cost minutes for a
 * large tree. So identifiers are read only where they can change a pair: in folders holding
 * at least one `.mov` and at least one still (`.heic .heif .jpg .jpeg`). There, every movie
 * is read, and every still paired with one by name (a pair whose two identifiers differ is
 * not one); the other stills only when a movie with an identifier is left without a still
 * (its still may be named otherwise: `IMG_1.JPG` + `IMG_1_export.MOV`). A folder needing more
 * than `maxReadsPerFolder` reads keeps its pairs by name, and says so in the log.
 *
 * Reads go through the pool (the `contentId` task, headers only), a few at a time, and are
 * kept per album in `CACHE_DIR/live-photos/{album}/.ids.json` and in memory, by file name,
 * size and mtime: a restart or a rescan reads nothing that has not changed, only stats the
 * files concerned. Symbolic links are never read (their identifier counts as absent: they
 * pair by name).
 */

/** What the service needs of the album index (server/core/albums/album-index.ts). */
export interface ContentIdIndex {
  albums(): Iterable<Album>;
  contentIds(albumPath: string): ContentIds | undefined;
  setContentIds(albumPath: string, ids: ContentIds): boolean;
  on(event: 'change', listener: () => void): unknown;
  off(event: 'change', listener: () => void): unknown;
}

/** The pool's task (server/media/pool.ts). */
export interface ContentIdReader {
  contentId(task: { src: string; kind: MediaKind }): Promise<{ contentId: string | null }>;
}

export interface LivePhotoIdsOptions {
  readonly index: ContentIdIndex;
  readonly albumsDir: string;
  readonly cacheDir: string;
  readonly pool: ContentIdReader;
  readonly log: Logger;
  /** Reads in flight at once: the pool's main lane also serves thumbnails. */
  readonly concurrency?: number;
  /** Files read in one folder at most (see above). */
  readonly maxReadsPerFolder?: number;
  /** After a full queue refused reads, the pass is tried again this much later. */
  readonly retryMs?: number;
}

export interface LivePhotoIds {
  /** Resolves when no pass is running or due (tests, shutdown). */
  idle(): Promise<void>;
  close(): Promise<void>;
}

/** What is kept per file: its identity and its identifier (null: it has none, or is unreadable). */
interface Known {
  readonly size: number;
  readonly mtimeMs: number;
  readonly id: string | null;
}

interface AlbumCache {
  readonly files: Map<string, Known>;
  dirty: boolean;
}

const CACHE_VERSION = 1;
const DEFAULT_CONCURRENCY = 2;
const DEFAULT_MAX_READS = 5000;
const DEFAULT_RETRY_MS = 30_000;

export function createLivePhotoIds(opts: LivePhotoIdsOptions): LivePhotoIds {
  const { index, log } = opts;
  const concurrency = opts.concurrency ?? DEFAULT_CONCURRENCY;
  const maxReads = opts.maxReadsPerFolder ?? DEFAULT_MAX_READS;
  const caches = new Map<string, AlbumCache>();
  /** Folders already reported as too large, so a rescan does not repeat the line. */
  const tooLarge = new Set<string>();
  let running: Promise<void> | undefined;
  let again = false;
  let closed = false;
  /** True while this service hands identifiers to the index: the 'change' that follows is its own. */
  let applying = false;
  let retryTimer: NodeJS.Timeout | undefined;

  const onChange = () => {
    if (!applying) schedule();
  };
  index.on('change', onChange);
  schedule();

  function schedule(): void {
    if (closed) return;
    if (running) {
      again = true;
      return;
    }
    running = (async () => {
      try {
        do {
          again = false;
          await pass();
        } while (again && !closed);
      } catch (err) {
        log.error({ err }, 'reading the content identifiers of Live Photos failed');
      } finally {
        running = undefined;
      }
    })();
  }

  /** One look at every album of the current snapshot; a change meanwhile starts the next look. */
  async function pass(): Promise<void> {
    let refused = false;
    for (const album of [...index.albums()]) {
      if (closed || again) return;
      const files = [...filesOf(album.media)];
      const ids = hasStillAndMotion(files) ? await idsOf(album, files) : new Map<string, string>();
      if (ids === undefined) {
        refused = true;
        continue;
      }
      if (closed) return;
      apply(album.path, ids);
    }
    if (refused && !closed) {
      clearTimeout(retryTimer);
      retryTimer = setTimeout(schedule, opts.retryMs ?? DEFAULT_RETRY_MS);
      retryTimer.unref();
    }
  }

  function apply(albumPath: string, ids: ContentIds): void {
    applying = true;
    try {
      index.setContentIds(albumPath, ids);
    } finally {
      applying = false;
    }
  }

  /**
   * The identifiers of the files of one folder that matter to its pairs, by name; undefined
   * when the pool refused reads (busy): the folder keeps what it has, and is looked at again.
   */
  async function idsOf(album: Album, files: readonly { name: string; kind: MediaKind }[]): Promise<Map<string, string> | undefined> {
    const dir = path.join(opts.albumsDir, ...album.path.split('/'));
    const cache = await cacheOf(album.path);
    const known = new Map<string, string | null>();
    const items = files.map(({ name, kind }) => ({ name, kind }));
    const byName = pairLivePhotos(items);
    // Every movie, and every still paired with one by name.
    const first = [...filesOf(byName.filter((m) => m.motion)), ...byName.filter(isLivePhotoMotion)].map((m) => m.name);
    if (first.length > maxReads) {
      if (!tooLarge.has(album.path)) {
        tooLarge.add(album.path);
        log.warn(`Live Photos of ${album.path} paired by name only: ${first.length} files to read, more than ${maxReads}`);
      }
      return new Map();
    }
    let complete = await readInto(dir, items, first, cache, known);

    // A movie with an identifier and no still: its still may have another name.
    const withIds = pairLivePhotos(items, idsFrom(known));
    const lonelyMovie = withIds.some((m) => isLivePhotoMotion(m) && typeof known.get(m.name) === 'string');
    if (lonelyMovie) {
      const second = withIds.filter((m) => isLivePhotoStill(m) && !m.motion && !known.has(m.name)).map((m) => m.name);
      if (first.length + second.length > maxReads) {
        if (!tooLarge.has(album.path)) {
          tooLarge.add(album.path);
          log.warn(`Live Photos of ${album.path} with other names than their movies' not looked for: ${second.length} more stills to read`);
        }
      } else complete = (await readInto(dir, items, second, cache, known)) && complete;
    }

    // Only what is still in the folder is kept.
    const present = new Set(files.map((f) => f.name));
    for (const name of cache.files.keys()) {
      if (!present.has(name)) {
        cache.files.delete(name);
        cache.dirty = true;
      }
    }
    await saveCache(album.path, cache);
    return complete ? idsFrom(known) : undefined;
  }

  /** Fills `known` for `names`: from the cache when size and mtime match, else read by the pool. False when some read was refused. */
  async function readInto(
    dir: string,
    items: readonly { name: string; kind: MediaKind }[],
    names: readonly string[],
    cache: AlbumCache,
    known: Map<string, string | null>,
  ): Promise<boolean> {
    const kinds = new Map(items.map((m) => [m.name, m.kind]));
    let refused = false;
    let next = 0;
    const worker = async () => {
      while (next < names.length && !closed) {
        const name = names[next++]!;
        const src = path.join(dir, name);
        let stat: Stats;
        try {
          stat = await fs.lstat(src);
        } catch {
          continue; // Gone since the scan: the next scan will see.
        }
        if (!stat.isFile()) {
          known.set(name, null);
          continue;
        }
        const cached = cache.files.get(name);
        if (cached && cached.size === stat.size && cached.mtimeMs === stat.mtimeMs) {
          known.set(name, cached.id);
          continue;
        }
        try {
          const { contentId } = await opts.pool.contentId({ src, kind: kinds.get(name)! });
          remember(name, stat, contentId);
        } catch (err) {
          if (err instanceof PoolBusyError) refused = true;
          // Undecodable: it has no identifier we can use, until it changes.
          else if (err instanceof MediaTaskError) remember(name, stat, null);
          else if (!(isMissing(err) || err instanceof HttpError)) log.warn({ err }, `could not read the content identifier of ${src}`);
        }
      }
    };
    const remember = (name: string, stat: { size: number; mtimeMs: number }, id: string | null) => {
      known.set(name, id);
      cache.files.set(name, { size: stat.size, mtimeMs: stat.mtimeMs, id });
      cache.dirty = true;
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, names.length) }, worker));
    return !refused;
  }

  async function cacheOf(albumPath: string): Promise<AlbumCache> {
    let cache = caches.get(albumPath);
    if (!cache) {
      cache = { files: await loadCache(albumPath), dirty: false };
      caches.set(albumPath, cache);
    }
    return cache;
  }

  async function loadCache(albumPath: string): Promise<Map<string, Known>> {
    const files = new Map<string, Known>();
    // None yet, damaged or of another version: read again.
    const stored = await readJsonCache(livePhotoIdsFile(opts.cacheDir, albumPath), CACHE_VERSION);
    if (typeof stored?.files !== 'object' || stored.files === null) return files;
    for (const [name, value] of Object.entries(stored.files as Record<string, unknown>)) {
      const v = value as Partial<Known>;
      if (typeof v?.size === 'number' && typeof v.mtimeMs === 'number' && (v.id === null || typeof v.id === 'string')) {
        files.set(name, { size: v.size, mtimeMs: v.mtimeMs, id: v.id });
      }
    }
    return files;
  }

  async function saveCache(albumPath: string, cache: AlbumCache): Promise<void> {
    if (!cache.dirty) return;
    const file = livePhotoIdsFile(opts.cacheDir, albumPath);
    try {
      await writeJsonCache(file, CACHE_VERSION, { files: Object.fromEntries(cache.files) });
      cache.dirty = false;
    } catch (err) {
      // Kept in memory; written with the next change.
      log.warn({ err }, `could not write ${file}`);
    }
  }

  return {
    async idle() {
      while (running) await running;
    },
    async close() {
      closed = true;
      clearTimeout(retryTimer);
      index.off('change', onChange);
      while (running) await running;
    },
  };
}

function hasStillAndMotion(files: readonly { name: string; kind: MediaKind }[]): boolean {
  return files.some(isLivePhotoStill) && files.some(isLivePhotoMotion);
}

function idsFrom(known: ReadonlyMap<string, string | null>): Map<string, string> {
  const ids = new Map<string, string>();
  for (const [name, id] of known) if (id !== null) ids.set(name, id);
  return ids;
}
