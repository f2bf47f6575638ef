import fs from 'node:fs';
import { notFound } from '../core/errors.js';
import { type MediaKind, THUMBNAIL_SIZE_NAMES, THUMBNAIL_SIZES, type ThumbnailSize, thumbnailDir, thumbnailFile } from '../core/media-catalogue.js';
import { isInside, isMissing } from '../core/paths.js';
import type { MediaPool } from './pool.js';
import { SOURCE_TAG_HEAD_BYTES, sourceTagIn, sourceTagOf } from '../core/media/source-tag.js';

/** What the cache needs to know about an original (the public app's ResolvedMedia fits). */
export interface ThumbnailSource {
  /** Album-relative path, '/'-separated: the cache file's place. */
  readonly relPath: string;
  /** Real absolute path of the original, already vetted by the access layer. */
  readonly absPath: string;
  readonly kind: MediaKind;
}

/**
 * Thumbnails up to this size are read whole into one buffer (and go out in one write);
 * larger ones are streamed from their descriptor, so memory per response stays bounded.
 */
export const WHOLE_READ_MAX = 512 * 1024;

/**
 * A fresh cache file: its bytes when it is small (the descriptor is closed then), else its
 * open descriptor, which the caller streams from offset 0 (`fs.createReadStream` with this
 * `fd` closes it at the end) or closes itself.
 */
export type OpenThumbnail = {
  readonly path: string;
  readonly size: number;
  /** Identity of the original it was made from (source-tag.ts): it changes with the original. */
  readonly tag: string;
} & ({ readonly body: Buffer; readonly fd?: undefined } | { readonly body?: undefined; readonly fd: number });

export interface ThumbnailCache {
  /** `CACHE_DIR/thumbnails/{size}/{relPath}.jpg`. */
  pathOf(relPath: string, size: ThumbnailSize): string;
  /** The cache file of one size, generated first when it is missing or was made from another version of the original. */
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
 * when the identity of the original written into it (size, mtime and inode, see
 * source-tag.ts) is the original's identity now: a photo replaced by an older file, or an
 * album deleted and made again at the same path, never shows the thumbnail of what was there.
 * The identity is the one seen before generation, so an original replaced while its
 * thumbnails were being made still reads as stale.
 */
export function createThumbnailCache({ cacheDir, pool }: ThumbnailCacheOptions): ThumbnailCache {
  // One generation per version of an original at a time: concurrent requests for any of its sizes share it.
  const inFlight = new Map<string, Promise<void>>();

  function pathOf(relPath: string, size: ThumbnailSize): string {
    const file = thumbnailFile(cacheDir, size, relPath);
    // relPath comes validated from the resolver; this only guards against misuse.
    if (!isInside(thumbnailDir(cacheDir, size), file)) throw new TypeError(`relPath escapes the cache: ${relPath}`);
    return file;
  }

  function generate(source: ThumbnailSource, tag: string): Promise<void> {
    const key = `${source.relPath}\0${tag}`;
    let job = inFlight.get(key);
    if (!job) {
      job = pool
        .thumbnail({
          src: source.absPath,
          kind: source.kind,
          outputs: THUMBNAIL_SIZE_NAMES.map((size) => ({ size, width: THUMBNAIL_SIZES[size], dest: pathOf(source.relPath, size) })),
          tag,
        })
        .then(() => undefined)
        .finally(() => inFlight.delete(key));
      inFlight.set(key, job);
    }
    return job;
  }

  /** The original's current tag, and the cache file when it was made from that version (else released). */
  async function openFresh(source: ThumbnailSource, size: ThumbnailSize): Promise<{ tag: string; cached: OpenThumbnail | undefined }> {
    // Both lookups at once: a cache hit waits for the stat, and for the open and read of the
    // cache file it would need anyway, not for one after the other.
    const [original, cached] = await Promise.allSettled([statOriginal(source.absPath), openIfPresent(pathOf(source.relPath, size), WHOLE_READ_MAX)]);
    if (original.status === 'rejected') {
      if (cached.status === 'fulfilled') release(cached.value);
      throw original.reason;
    }
    if (cached.status === 'rejected') throw cached.reason;
    const tag = sourceTagOf(original.value);
    if (cached.value?.tag === tag) return { tag, cached: cached.value };
    release(cached.value);
    return { tag, cached: undefined };
  }

  return {
    pathOf,

    async open(source, size) {
      const { tag, cached } = await openFresh(source, size);
      if (cached) return cached;
      await generate(source, tag);
      const file = pathOf(source.relPath, size);
      // Whatever version the file holds now (a later generation may have replaced it): its
      // tag, and so its ETag, always describes its own bytes.
      const made = await openIfPresent(file, WHOLE_READ_MAX);
      if (!made || made.tag === UNTAGGED) {
        release(made);
        throw new Error(`thumbnail ${file} is missing or untagged right after its generation`);
      }
      return made;
    },

    async openIfFresh(source, size) {
      return (await openFresh(source, size)).cached;
    },

    async refresh(source) {
      const tag = sourceTagOf(await statOriginal(source.absPath));
      const files = await Promise.all(THUMBNAIL_SIZE_NAMES.map((size) => openIfPresent(pathOf(source.relPath, size), 0)));
      files.forEach(release);
      if (files.every((f) => f?.tag === tag)) return 'fresh';
      await generate(source, tag);
      return 'generated';
    },
  };
}

/** The tag of a cache file without one (made before tags, or not by us): never fresh. */
const UNTAGGED = '';

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
 * Opens a cache file and reads it: whole when it has at most `wholeReadMax` bytes (the
 * descriptor is then closed), else only its head, for the tag. Reading from the descriptor
 * keeps size, tag and bytes consistent even if the file is replaced meanwhile. The callback
 * API and a synchronous fstat and close keep the hot path of every album page short: fstat
 * of an open descriptor reads the in-memory inode, and closing a descriptor that was only
 * read does no I/O, so neither is worth a round trip through the thread pool. An empty file
 * (never written by us, writes are atomic) counts as missing.
 */
function openIfPresent(file: string, wholeReadMax: number): Promise<OpenThumbnail | undefined> {
  return new Promise((resolve, reject) => {
    fs.open(file, 'r', (err, fd) => {
      if (err) return isMissing(err) ? resolve(undefined) : reject(err);
      let size: number;
      try {
        size = fs.fstatSync(fd).size;
      } catch (statErr) {
        closeQuietly(fd);
        return reject(statErr);
      }
      if (size === 0) {
        closeQuietly(fd);
        return resolve(undefined);
      }
      const whole = size <= wholeReadMax;
      // Unsafe is fine: a short read is an error (whole) or cut off (head).
      const buffer = Buffer.allocUnsafe(whole ? size : Math.min(size, SOURCE_TAG_HEAD_BYTES));
      fs.read(fd, buffer, 0, buffer.length, 0, (readErr, bytesRead) => {
        if (readErr || (whole && bytesRead !== size)) {
          closeQuietly(fd);
          return reject(readErr ?? new Error(`${file} shrank while being read`));
        }
        const tag = sourceTagIn(buffer.subarray(0, bytesRead)) ?? UNTAGGED;
        if (!whole) return resolve({ path: file, size, tag, fd });
        closeQuietly(fd);
        resolve({ path: file, size, tag, body: buffer });
      });
    });
  });
}

/** Lets go of a cache file that will not be sent. */
function release(file: OpenThumbnail | undefined): void {
  if (file?.fd !== undefined) closeQuietly(file.fd);
}

export function closeQuietly(fd: number): void {
  try {
    fs.closeSync(fd);
  } catch {
    // Already closed: nothing is leaked.
  }
}
