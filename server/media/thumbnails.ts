import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { notFound } from '../http-error.js';
import { isInside, isMissing } from '../paths.js';
import type { ResolvedMedia } from '../resolvers.js';
import type { MediaPool } from './pool.js';

/** Presets of the SPEC: maximum width in pixels. */
export const THUMBNAIL_SIZES = Object.freeze({ small: 400, medium: 1200, large: 1920 });
export type ThumbnailSize = keyof typeof THUMBNAIL_SIZES;
export const THUMBNAIL_SIZE_NAMES = Object.freeze(Object.keys(THUMBNAIL_SIZES) as ThumbnailSize[]);

export function isThumbnailSize(value: unknown): value is ThumbnailSize {
  return typeof value === 'string' && Object.hasOwn(THUMBNAIL_SIZES, value);
}

/** What the cache needs to know about an original (a ResolvedMedia fits). */
export type ThumbnailSource = Pick<ResolvedMedia, 'relPath' | 'absPath' | 'kind'>;

/**
 * A fresh cache file, opened: the caller streams it (`fs.createReadStream` with this `fd`
 * closes it at the end) or closes `fd` itself.
 */
export interface OpenThumbnail {
  readonly path: string;
  readonly fd: number;
  readonly size: number;
  readonly mtimeMs: number;
}

export interface ThumbnailCache {
  /** `CACHE_DIR/thumbnails/{size}/{relPath}.jpg`. */
  pathOf(relPath: string, size: ThumbnailSize): string;
  /** The cache file of one size, generated first when it is missing or older than the original. */
  open(source: ThumbnailSource, size: ThumbnailSize): Promise<OpenThumbnail>;
  /** The cache file of one size when it is there and fresh; undefined when it would need generating. */
  openIfFresh(source: ThumbnailSource, size: ThumbnailSize): Promise<OpenThumbnail | undefined>;
  /** Makes every size fresh (one task for all of them when any is stale), for the CLI. */
  refresh(source: ThumbnailSource): Promise<'fresh' | 'generated'>;
}

export interface ThumbnailCacheOptions {
  readonly cacheDir: string;
  readonly pool: Pick<MediaPool, 'thumbnail'>;
}

/**
 * Thumbnails live in files keyed by the original's path and the size. A cache file is fresh
 * when its mtime is not older than the original's; files are stamped just past the
 * original's mtime as seen before generation, so an original replaced while its thumbnails
 * were being made still reads as stale, and one with an mtime in the future is not
 * regenerated on every request.
 */
export function createThumbnailCache({ cacheDir, pool }: ThumbnailCacheOptions): ThumbnailCache {
  const root = path.join(cacheDir, 'thumbnails');
  // One generation per original at a time: concurrent requests for any of its sizes share it.
  const inFlight = new Map<string, Promise<void>>();

  function pathOf(relPath: string, size: ThumbnailSize): string {
    const file = `${path.join(root, size, ...relPath.split('/'))}.jpg`;
    // relPath comes validated from the resolver; this only guards against misuse.
    if (!isInside(path.join(root, size), file)) throw new TypeError(`relPath escapes the cache: ${relPath}`);
    return file;
  }

  function generate(source: ThumbnailSource, originalMtimeMs: number): Promise<void> {
    let job = inFlight.get(source.relPath);
    if (!job) {
      job = pool
        .thumbnail({
          src: source.absPath,
          kind: source.kind,
          outputs: THUMBNAIL_SIZE_NAMES.map((size) => ({ size, width: THUMBNAIL_SIZES[size], dest: pathOf(source.relPath, size) })),
          // utimes takes seconds as a double and may land a hair below a given millisecond.
          mtimeMs: Math.ceil(originalMtimeMs) + 1,
        })
        .then(() => undefined)
        .finally(() => inFlight.delete(source.relPath));
      inFlight.set(source.relPath, job);
    }
    return job;
  }

  /** The original's stat, and the cache file opened when it is at least as new (else closed). */
  async function openFresh(source: ThumbnailSource, size: ThumbnailSize): Promise<{ original: fs.Stats; cached: OpenThumbnail | undefined }> {
    // Both lookups at once: a cache hit waits for one round trip to the thread pool, not two.
    const [original, cached] = await Promise.allSettled([statOriginal(source.absPath), openIfPresent(pathOf(source.relPath, size))]);
    if (original.status === 'rejected') {
      if (cached.status === 'fulfilled' && cached.value) fs.close(cached.value.fd, ignore);
      throw original.reason;
    }
    if (cached.status === 'rejected') throw cached.reason;
    if (cached.value && cached.value.mtimeMs >= original.value.mtimeMs) return { original: original.value, cached: cached.value };
    if (cached.value) fs.close(cached.value.fd, ignore);
    return { original: original.value, cached: undefined };
  }

  return {
    pathOf,

    async open(source, size) {
      const { original, cached } = await openFresh(source, size);
      if (cached) return cached;
      await generate(source, original.mtimeMs);
      const file = pathOf(source.relPath, size);
      const made = await openIfPresent(file);
      if (!made) throw new Error(`thumbnail ${file} is missing right after its generation`);
      return made;
    },

    async openIfFresh(source, size) {
      return (await openFresh(source, size)).cached;
    },

    async refresh(source) {
      const original = await statOriginal(source.absPath);
      const mtimes = await Promise.all(THUMBNAIL_SIZE_NAMES.map((size) => mtimeIfPresent(pathOf(source.relPath, size))));
      if (mtimes.every((m) => m !== undefined && m >= original.mtimeMs)) return 'fresh';
      await generate(source, original.mtimeMs);
      return 'generated';
    },
  };
}

/** The callback API: on every cache hit, it costs the main thread less than fs/promises. */
function statOriginal(file: string): Promise<fs.Stats> {
  return new Promise((resolve, reject) => {
    fs.stat(file, (err, stats) => {
      // Resolved a moment ago, gone now: the same answer as if it had never been there.
      if (err) reject(isMissing(err) ? notFound('File not found') : err);
      else resolve(stats);
    });
  });
}

/**
 * Opening first and then reading the size from the descriptor keeps size and bytes
 * consistent even if the file is replaced meanwhile. The callback API and a synchronous
 * fstat keep the hot path of every album page short: fstat of an open descriptor reads
 * the in-memory inode, it never waits for a disk. An empty file (never written by us,
 * writes are atomic) counts as missing.
 */
function openIfPresent(file: string): Promise<OpenThumbnail | undefined> {
  return new Promise((resolve, reject) => {
    fs.open(file, 'r', (err, fd) => {
      if (err) return isMissing(err) ? resolve(undefined) : reject(err);
      try {
        const stats = fs.fstatSync(fd);
        if (stats.size > 0) return resolve({ path: file, fd, size: stats.size, mtimeMs: stats.mtimeMs });
        fs.close(fd, ignore);
        resolve(undefined);
      } catch (statErr) {
        fs.close(fd, ignore);
        reject(statErr);
      }
    });
  });
}

function ignore(): void {}

async function mtimeIfPresent(file: string): Promise<number | undefined> {
  try {
    return (await fsp.stat(file)).mtimeMs;
  } catch (err) {
    if (isMissing(err)) return undefined;
    throw err;
  }
}
