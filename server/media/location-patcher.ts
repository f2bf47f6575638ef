import type { Stats } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { fileSource } from '../core/media/byte-source.js';
import type { BytePatch } from '../core/media/location/byte-patches.js';
import { LOCATION_PATCH_VERSION, locationPatches } from '../core/media/location/location-patches.js';
import { sourceTagOf } from '../core/media/source-tag.js';
import { LruCache } from './metadata.js';

export type { BytePatch };

export interface LocationPatcher {
  /**
   * The patches that take the location out of one version of a file, opened as `handle` and
   * stat'ed through it as `stats` (so they describe the bytes this handle reads).
   */
  patchesFor(absPath: string, handle: FileHandle, stats: Stats): Promise<readonly BytePatch[]>;
}

export interface LocationPatcherOptions {
  /** Files whose patches are remembered (tens of small entries each; at most MAX_PATCHES, long runs kept as a fill byte). */
  readonly maxEntries?: number;
}

/** Where JPEG segments and most metadata boxes are: read once per file version; the rest through the source's 64 KB windows. */
const HEAD_BYTES = 256 * 1024;

/**
 * The patches of docs/api.md#location-privacy, found once per version of a file (a walk of
 * its structure to its end: a few ms for a photo, the index of a movie): the key
 * holds the path and the file's identity (size, mtime and inode), so the Range requests of
 * a video being watched, or a second download, find them without reading the file again;
 * concurrent requests share one search; a failure is not remembered.
 */
export function createLocationPatcher({ maxEntries = 5000 }: LocationPatcherOptions = {}): LocationPatcher {
  const cache = new LruCache<Promise<readonly BytePatch[]>>(maxEntries);
  return {
    patchesFor(absPath, handle, stats) {
      const key = `${absPath}\0${sourceTagOf(stats)}`;
      let entry = cache.get(key);
      if (!entry) {
        entry = locationPatches(fileSource(handle, stats.size, Math.min(HEAD_BYTES, stats.size)));
        cache.set(key, entry);
        entry.catch(() => cache.delete(key));
      }
      return entry;
    },
  };
}

/**
 * The ETag of a file served without its location: the form send gives the file itself (size
 * and mtime), plus a suffix naming the patching and its version, so it stays stable for one
 * version of the file and never equals the ETag of the unpatched bytes.
 */
export function locationFreeEtag(stats: Pick<Stats, 'size' | 'mtime'>): string {
  return `W/"${stats.size.toString(16)}-${stats.mtime.getTime().toString(16)}-noloc${LOCATION_PATCH_VERSION}"`;
}
