import type { Dirent } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import {
  dimensionsDir,
  fullSizeDir,
  THUMBNAIL_FORMAT_NAMES,
  THUMBNAIL_FORMATS,
  THUMBNAIL_SIZE_NAMES,
  type ThumbnailFormat,
  type ThumbnailSize,
  thumbnailDir,
  webVideoDir,
} from '../core/media-catalogue.js';
import { isMissing } from '../core/paths.js';

export interface Usage {
  readonly files: number;
  readonly bytes: number;
}

/** `files` and `bytes` count the thumbnails (every size and format); the web copies of videos are counted apart. */
export interface CacheStats extends Usage {
  readonly sizes: Readonly<Record<ThumbnailSize, Usage>>;
  /** The same thumbnails by format (JPEG, and the WebP made beside each). */
  readonly formats: Readonly<Record<ThumbnailFormat, Usage>>;
  /** The web copies of videos (CACHE_DIR/web-video: remuxes and H.264 renditions), their freshness records not counted as files. */
  readonly webVideo: Usage;
  /** Full-size JPEGs of photos browsers cannot display (CACHE_DIR/full-size: HEIC, TIFF). */
  readonly fullSize: Usage;
}

async function readDir(dir: string): Promise<Dirent[]> {
  try {
    return await fs.readdir(dir, { withFileTypes: true });
  } catch (err) {
    if (isMissing(err)) return [];
    throw err;
  }
}

/** Files and bytes under `dir`: only its own files, or the whole subtree. Symlinks are neither followed nor counted. */
async function usageOf(dir: string, recursive: boolean, counts: (name: string) => boolean = () => true): Promise<Usage> {
  let files = 0;
  let bytes = 0;
  const entries = await readDir(dir);
  await Promise.all(
    entries.map(async (e) => {
      const p = path.join(dir, e.name);
      if (e.isFile() && counts(e.name)) {
        try {
          // Read the size first: `bytes += await …` would add to a stale `bytes` when run in parallel.
          const { size } = await fs.lstat(p);
          bytes += size;
          files++;
        } catch (err) {
          if (!isMissing(err)) throw err; // removed meanwhile (the public server replaces files)
        }
      } else if (recursive && e.isDirectory()) {
        const sub = await usageOf(p, true, counts);
        files += sub.files;
        bytes += sub.bytes;
      }
    }),
  );
  return { files, bytes };
}

/** A web copy itself: not its dot-named freshness record, nor a temp file being written (server/media/web-video.ts). */
const isWebCopy = (name: string): boolean => !name.startsWith('.') && name.endsWith('.mp4');

/** A finished full-size JPEG, not a temp file being written. */
const isFullSize = (name: string): boolean => !name.startsWith('.') && name.endsWith('.jpg');

/** A finished thumbnail of one format, not a temp file being written. */
const isThumbnailIn =
  (format: ThumbnailFormat) =>
  (name: string): boolean =>
    !name.startsWith('.') && name.endsWith(THUMBNAIL_FORMATS[format].extension);

const sum = (usages: readonly Usage[]): Usage => ({ files: usages.reduce((n, u) => n + u.files, 0), bytes: usages.reduce((n, u) => n + u.bytes, 0) });

async function statsOver(dirOf: (size: ThumbnailSize) => string, webDir: string, fullDir: string, recursive: boolean): Promise<CacheStats> {
  const [webVideo, fullSize, bySize] = await Promise.all([
    usageOf(webDir, recursive, isWebCopy),
    usageOf(fullDir, recursive, isFullSize),
    // Per size, per format: [[small.jpeg, small.webp], [medium.jpeg, …], …].
    Promise.all(THUMBNAIL_SIZE_NAMES.map((s) => Promise.all(THUMBNAIL_FORMAT_NAMES.map((f) => usageOf(dirOf(s), recursive, isThumbnailIn(f)))))),
  ]);
  const sizes = Object.fromEntries(THUMBNAIL_SIZE_NAMES.map((s, i) => [s, sum(bySize[i]!)])) as Record<ThumbnailSize, Usage>;
  const formats = Object.fromEntries(THUMBNAIL_FORMAT_NAMES.map((f, j) => [f, sum(bySize.map((u) => u[j]!))])) as Record<ThumbnailFormat, Usage>;
  return { ...sum(Object.values(sizes)), sizes, formats, webVideo, fullSize };
}

/** The whole thumbnail cache. */
export function cacheStats(cacheDir: string): Promise<CacheStats> {
  return statsOver((s) => thumbnailDir(cacheDir, s), webVideoDir(cacheDir), fullSizeDir(cacheDir), true);
}

/** One album's own thumbnails (not those of its child albums, which sit in sub-directories). */
export function albumCacheStats(cacheDir: string, albumPath: string): Promise<CacheStats> {
  return statsOver((s) => thumbnailDir(cacheDir, s, albumPath), webVideoDir(cacheDir, albumPath), fullSizeDir(cacheDir, albumPath), false);
}

/** Removes every thumbnail, web copy of a video and full-size JPEG; returns what was there. The public server makes them again on demand. */
export async function clearCache(cacheDir: string): Promise<CacheStats> {
  const before = await cacheStats(cacheDir);
  await Promise.all([
    ...THUMBNAIL_SIZE_NAMES.map((s) => fs.rm(thumbnailDir(cacheDir, s), { recursive: true, force: true })),
    fs.rm(webVideoDir(cacheDir), { recursive: true, force: true }),
    fs.rm(fullSizeDir(cacheDir), { recursive: true, force: true }),
  ]);
  return before;
}

/**
 * Removes what the public server cached about an album and every album below it (the
 * thumbnails of every size, the web copies of its videos, the full-size JPEGs and the page sizes under
 * CACHE_DIR/dimensions), for an album that
 * is no longer at `albumPath`: nothing made from its photos may outlive it there.
 */
export async function removeAlbumTreeCache(cacheDir: string, albumPath: string): Promise<void> {
  // The root would take the whole cache with it; no album lives there.
  if (albumPath === '') throw new RangeError('albumPath must name an album, not the root');
  await Promise.all([
    ...THUMBNAIL_SIZE_NAMES.map((s) => fs.rm(thumbnailDir(cacheDir, s, albumPath), { recursive: true, force: true })),
    fs.rm(dimensionsDir(cacheDir, albumPath), { recursive: true, force: true }),
    fs.rm(webVideoDir(cacheDir, albumPath), { recursive: true, force: true }),
    fs.rm(fullSizeDir(cacheDir, albumPath), { recursive: true, force: true }),
  ]);
}

/** Removes one album's own thumbnails, web copies of videos (with their records) and full-size JPEGs; returns what was there. */
export async function clearAlbumCache(cacheDir: string, albumPath: string): Promise<CacheStats> {
  const before = await albumCacheStats(cacheDir, albumPath);
  for (const dir of [
    ...THUMBNAIL_SIZE_NAMES.map((size) => thumbnailDir(cacheDir, size, albumPath)),
    webVideoDir(cacheDir, albumPath),
    fullSizeDir(cacheDir, albumPath),
  ]) {
    const files = (await readDir(dir)).filter((e) => e.isFile());
    await Promise.all(files.map((e) => fs.rm(path.join(dir, e.name), { force: true })));
  }
  return before;
}
