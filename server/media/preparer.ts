/**
 * Every album prepared as its files arrive (README "Viewing albums"), so its first visitor
 * finds it as warm as its hundredth: when the album tree changes (an upload, a copy into
 * ALBUMS_DIR, an adopted folder, a change on disk) and at start, each album whose files are
 * not all prepared goes through one background pass:
 *
 * 1. the facts of every file are read (size, ThumbHash, date taken, playback plan:
 *    server/media/dimensions.ts), which also starts the web copy of a video that needs one;
 * 2. the thumbnails its layout shows first are made, in both formats (PREPARED_SIZES of
 *    server/core/media-catalogue.ts), and a video's poster with them;
 * 3. its cover's card sizes and crop are made;
 * and each file's CRC-32 as a ZIP sends it is computed (server/media/served-crc.ts), after its
 * thumbnails, which leave the file in the page cache.
 *
 * What was prepared is written beside each file's facts, per version of the file, so a
 * restart redoes nothing (a file only is looked at: one stat). All of it runs as background
 * work of the media pool, which starts it only when no visitor's work waits, one album at a
 * time and a few files at once. Several processes sharing CACHE_DIR prepare an album once: the
 * one that takes its lock (server/media/cache-lock.ts); the others go on to other albums.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { AlbumIndex } from '../core/albums/album-index.js';
import { type Album, coverOf, hidesLocation, isAlbum, type MediaItem, type TreeNode } from '../core/albums/album-tree.js';
import { filesOf } from '../core/albums/live-photos.js';
import { hidesLocationAt, type LocateMedia } from '../core/access/media-location.js';
import { inBatches } from '../core/in-batches.js';
import type { Logger } from '../core/logger.js';
import { CARD_PREPARED_SIZES, PREPARED_SIZES, type ThumbnailSize } from '../core/media-catalogue.js';
import type { CoverFocusLookup } from './cover-focus.js';
import type { DimensionsCache } from './dimensions.js';
import { tryLock } from './cache-lock.js';
import { PoolBusyError } from './pool-errors.js';
import type { ServedCrcs } from './served-crc.js';
import type { ThumbnailCache } from './thumbnails.js';
import { type PreparationProgress, removeProgress, writeProgress } from './preparation-progress.js';

export type { PreparationProgress };

export interface PreparerOptions {
  readonly index: Pick<AlbumIndex, 'root' | 'version' | 'node' | 'on' | 'off'>;
  readonly albumsDir: string;
  readonly dimensions: Pick<DimensionsCache, 'complete' | 'isPrepared' | 'markPrepared' | 'save' | 'fileOf'>;
  readonly thumbnails: Pick<ThumbnailCache, 'prepare'>;
  /** The symlink rule (server/core/access/media-location.ts): a file is prepared where it really is. */
  readonly locate: LocateMedia;
  readonly coverFocus?: CoverFocusLookup | undefined;
  /** Computes and keeps each file's CRC as served, for the ZIP; without it none is. */
  readonly crcs?: Pick<ServedCrcs, 'has' | 'compute'> | undefined;
  /** Where the progress is written for the admin (server/media/preparation-progress.ts); not written without it. */
  readonly cacheDir?: string | undefined;
  readonly log: Logger;
  /** Files of an album prepared at once (their tasks wait in the pool's background lane). */
  readonly concurrency?: number;
  /** After the pool refused work (its background queue full), the album is tried again this much later. */
  readonly retryMs?: number;
  /** Which albums it prepares (default: every one): `npm run thumbnails` given album paths. */
  readonly albums?: (albumPath: string) => boolean;
  /**
   * What its work waits behind in the pool: `background` (the server's) yields to every
   * visitor's request and leaves a worker free for them; `grid` is `npm run thumbnails`, where
   * nobody visits: every worker, at once.
   */
  readonly priority?: 'grid' | 'background';
}

export interface Preparer {
  /** Whether every file of the album, as it is now, was prepared (its pages are final). */
  isPrepared(albumPath: string): boolean;
  progress(): PreparationProgress;
  /** Resolves when no album waits (tests, the CLI). */
  idle(): Promise<void>;
  /**
   * Stops taking work: no file is started any more, and what waits is left for the next start.
   * Does not wait for the tasks under way (the pool, closed after it, drops or ends them), only
   * for its progress file to be removed.
   */
  close(): Promise<void>;
  /** Runs `listener` each time an album is prepared (its pages may be made again, final). */
  onPrepared(listener: (albumPath: string) => void): void;
}

const DEFAULT_CONCURRENCY = 2;
const DEFAULT_RETRY_MS = 30_000;
/** How often the progress is written while albums are prepared. */
const PROGRESS_EVERY_MS = 2000;
/** The span the rate is measured over. */
const RATE_WINDOW_MS = 60_000;
/** Album folders stat'ed at once when the tree is looked at. */
const SIGNATURE_BATCH = 64;

/**
 * What prepared means for an album, written beside each file's facts: the sizes made. An album
 * given another layout (or a new version of this module) prepares its files again.
 */
export const stampOf = (sizes: readonly ThumbnailSize[]): string => `1:${sizes.join(',')}`;

/** A Live Photo's movie has no tile: its web copy was started with its facts. */
const hasTile = (album: Album, item: MediaItem) => !album.media.some((m) => m.motion === item);

/** What prepared means for one file of an album: the sizes of its tiles, none for a Live Photo's movie. */
const stampFor = (album: Album, item: MediaItem, sizes: readonly ThumbnailSize[]) => stampOf(hasTile(album, item) ? sizes : []);

/**
 * A signature of what an album shows: its layout, its files, whether it hides locations (the
 * bytes its ZIP sends), and when its folder last changed
 * (a file replaced under the same name, by a copy and a rename as editors, the admin and rsync
 * do). A rescan that changes it makes the album wait for a pass. A file overwritten in place
 * leaves its folder as it was: its first request makes its thumbnails again (their identity tag).
 */
async function signatureOf(album: Album, albumsDir: string): Promise<string> {
  const dir = await fs.stat(path.join(albumsDir, ...album.path.split('/'))).catch(() => undefined);
  return `${album.meta.style}\0${album.meta.thumbnail ?? ''}\0${hidesLocation(album)}\0${dir?.mtimeMs ?? 0}\0${album.media.map((m) => m.name).join('\0')}`;
}

export function createPreparer(opts: PreparerOptions): Preparer {
  const { index, dimensions, thumbnails, locate, log } = opts;
  const concurrency = opts.concurrency ?? DEFAULT_CONCURRENCY;
  const retryMs = opts.retryMs ?? DEFAULT_RETRY_MS;
  const priority = opts.priority ?? 'background';
  /** Albums waiting, in the order they came (a Set keeps it, and takes each once). */
  const waiting = new Set<string>();
  /** Each album's signature as the last look at the tree found it. */
  const signatures = new Map<string, string>();
  /** The signature each album had when it was last prepared in full. */
  const prepared = new Map<string, string>();
  const listeners = new Set<(albumPath: string) => void>();
  let current: { path: string; done: number; total: number } | undefined;
  let filesPrepared = 0;
  /** When each file of the last minute was prepared: the rate the admin's estimate is made from. */
  const recent: number[] = [];
  let progressTimer: NodeJS.Timeout | undefined;
  /** Writes of the progress, one after another: an older one never lands last. */
  let writing: Promise<void> = Promise.resolve();
  let running: Promise<void> | undefined;
  /** Looks at the tree, one after another (a look stats every album's folder). */
  let looking: Promise<void> = Promise.resolve();
  let closed = false;
  const retries = new Set<NodeJS.Timeout>();

  /** Every album whose signature changed since its last pass waits for one (all of them at start). */
  async function look(): Promise<void> {
    const albums: Album[] = [];
    const walk = (node: TreeNode) => {
      if (isAlbum(node) && (opts.albums?.(node.path) ?? true)) albums.push(node);
      for (const child of node.children) walk(child);
    };
    walk(index.root);
    const seen = new Set(albums.map((a) => a.path));
    for (const path of signatures.keys()) if (!seen.has(path)) signatures.delete(path);
    for (const path of prepared.keys()) if (!seen.has(path)) prepared.delete(path);
    await inBatches(albums, SIGNATURE_BATCH, async (album) => {
      const signature = await signatureOf(album, opts.albumsDir);
      signatures.set(album.path, signature);
      if (prepared.get(album.path) !== signature) waiting.add(album.path);
    });
    kick();
  }

  const onChange = () => {
    looking = looking.then(look).catch((err: unknown) => log.warn({ err }, 'could not look for albums to prepare'));
  };

  function progress(): PreparationProgress {
    const now = Date.now();
    while (recent.length > 0 && recent[0]! < now - RATE_WINDOW_MS) recent.shift();
    const rate = recent.length < 2 ? 0 : recent.length / (Math.max(1, now - recent[0]!) / 1000);
    return { albumsWaiting: waiting.size + (current ? 1 : 0), current: current && { ...current }, filesPrepared, rate: Math.round(rate * 100) / 100 };
  }

  /** Writes the progress now, and every PROGRESS_EVERY_MS while work goes on. */
  function report(): void {
    const { cacheDir } = opts;
    if (!cacheDir) return;
    const now = progress();
    writing = writing.then(() => writeProgress(cacheDir, now)).catch((err: unknown) => log.warn({ err }, 'could not write the progress of the preparation'));
    clearTimeout(progressTimer);
    if (running && !closed) {
      progressTimer = setTimeout(report, PROGRESS_EVERY_MS);
      progressTimer.unref();
    }
  }

  function kick(): void {
    if (running || closed || waiting.size === 0) return;
    running = drain().finally(() => {
      running = undefined;
      report();
      kick();
    });
    report();
  }

  async function drain(): Promise<void> {
    while (!closed && waiting.size > 0) {
      const path = waiting.values().next().value as string;
      waiting.delete(path);
      const album = index.node(path);
      // The signature the album had before this pass: a change landing during it makes another.
      const signature = signatures.get(path);
      if (!isAlbum(album) || signature === undefined) continue;
      try {
        const done = await prepareAlbum(album);
        if (done === 'prepared') {
          prepared.set(path, signature);
          for (const listener of listeners) listener(path);
        } else if (done === 'later') retryLater(path);
      } catch (err) {
        log.warn({ err }, `preparing ${path} failed`);
        retryLater(path);
      } finally {
        current = undefined;
      }
    }
  }

  function retryLater(path: string): void {
    const timer = setTimeout(() => {
      retries.delete(timer);
      waiting.add(path);
      kick();
    }, retryMs);
    timer.unref();
    retries.add(timer);
  }

  /** One pass over an album: 'prepared', or 'later' when another process holds it or the pool refused work. */
  async function prepareAlbum(album: Album): Promise<'prepared' | 'later'> {
    const files = Array.from(filesOf(album.media));
    const sizes = PREPARED_SIZES[album.meta.style];
    // A restart on a prepared library finds every album prepared from its record (a stat per
    // file): no lock taken, nothing written, nothing read but what the record holds.
    await dimensions.complete(album, files, priority);
    const left = await Promise.all(files.map(async (item) => !(await isPreparedFromRecord(album, item, sizes))));
    if (!left.includes(true)) {
      // Its cover may have changed (album.json's thumbnail, a child's photo): made if stale, a look otherwise.
      await prepareCover(album);
      return 'prepared';
    }
    const lock = await tryLock(dimensions.fileOf(album.path));
    if (!lock) return 'later';
    try {
      current = { path: album.path, done: 0, total: files.length };
      let refused = false;
      await inBatches(files, concurrency, async (item) => {
        if (closed || refused) return;
        try {
          if (await prepareFile(album, item, sizes)) {
            filesPrepared++;
            recent.push(Date.now());
          }
        } catch (err) {
          if (err instanceof PoolBusyError) refused = true;
          // A file that cannot be made (corrupt) is not tried again until it changes: its facts say so.
        } finally {
          if (current) current.done++;
        }
      });
      await dimensions.save(album);
      if (refused || closed) return 'later';
      await prepareCover(album);
      return 'prepared';
    } finally {
      await lock.release();
    }
  }

  /**
   * Whether the record says `item` is prepared, its CRC included, without a look at the disk.
   * A file whose real place is a symlinked album that hides locations (its CRC of the patched
   * bytes) reads as not prepared here, and prepareFile, which locates it, finds it was.
   */
  async function isPreparedFromRecord(album: Album, item: MediaItem, sizes: readonly ThumbnailSize[]): Promise<boolean> {
    if (!(await dimensions.isPrepared(album, item, stampFor(album, item, sizes)))) return false;
    return !opts.crcs || (await opts.crcs.has(album, item, hidesLocation(album)));
  }

  /** Prepares one file unless it was already; true when work was done. */
  async function prepareFile(album: Album, item: MediaItem, sizes: readonly ThumbnailSize[]): Promise<boolean> {
    const tiles = hasTile(album, item);
    const stamp = stampFor(album, item, sizes);
    const where = await locate(album, item);
    if (!where) return false;
    const { crcs } = opts;
    const withoutLocation = hidesLocationAt(album, where);
    const made = await dimensions.isPrepared(album, item, stamp);
    const crcKnown = !crcs || (await crcs.has(album, item, withoutLocation));
    if (made && crcKnown) return false;
    if (!made) {
      if (tiles)
        await thumbnails.prepare({ relPath: `${album.path}/${item.name}`, absPath: where.absPath, kind: item.kind, rotation: where.rotation }, sizes, priority);
      await dimensions.markPrepared(album, item, stamp);
    }
    if (!crcKnown) await crcs.compute(album, item, where.absPath, withoutLocation);
    return true;
  }

  /** The album's card on its parent's page and on /photos: the cover's card sizes and its crop. */
  async function prepareCover(album: Album): Promise<void> {
    const cover = coverOf(album, (p) => index.node(p));
    if (!cover) return;
    const where = await locate(cover.node, cover.item);
    if (!where) return;
    const mediaPath = `${cover.node.path}/${cover.item.name}`;
    await thumbnails.prepare({ relPath: mediaPath, absPath: where.absPath, kind: cover.item.kind, rotation: where.rotation }, CARD_PREPARED_SIZES, priority);
    if (opts.coverFocus && cover.item.kind === 'image') {
      const stat = await fs.stat(where.absPath);
      await opts.coverFocus({
        mediaPath,
        absPath: where.absPath,
        version: { mtimeMs: stat.mtimeMs, size: stat.size, ino: stat.ino, rotation: where.rotation },
      });
    }
  }

  index.on('change', onChange);
  onChange();

  return {
    isPrepared: (albumPath) => prepared.has(albumPath) && prepared.get(albumPath) === signatures.get(albumPath),
    progress,
    async idle() {
      await looking;
      while (!closed && (running || waiting.size > 0)) {
        if (!running) kick();
        await running;
        await looking;
      }
      await writing;
    },
    async close() {
      closed = true;
      index.off('change', onChange);
      for (const timer of retries) clearTimeout(timer);
      clearTimeout(progressTimer);
      const { cacheDir } = opts;
      if (cacheDir) writing = writing.then(() => removeProgress(cacheDir)).catch(() => undefined);
      return writing;
    },
    onPrepared(listener) {
      listeners.add(listener);
    },
  };
}
