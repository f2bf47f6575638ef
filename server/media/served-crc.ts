/**
 * The CRC-32 of each file as an album's ZIP sends it, computed once per version of the file
 * while its album is prepared (server/media/preparer.ts) and kept with the file's facts
 * (dimensions-file.ts `Stored.crc32`): a ZIP whose every CRC is known writes them in its local
 * headers and streams the files without computing any (server/public/zip/), which is what
 * makes it as fast as archiver alone. The bytes are those a visitor is sent: for an album
 * that hides locations, the file with its location patched out (docs/api.md#location-privacy).
 *
 * The reading is the media workers' (workers/checksum.ts), at background priority and a
 * stretch of the file per task, so a video of gigabytes never holds a worker a visitor's
 * thumbnail waits for. A CRC is only ever used for the version it was computed from (size,
 * mtime and inode): a file replaced or written to since gets the ZIP's slower way, never a
 * wrong CRC.
 */
import fs from 'node:fs/promises';
import zlib from 'node:zlib';
import type { MediaItem, TreeNode } from '../core/albums/album-tree.js';
import { LOCATION_PATCH_VERSION } from '../core/media/location/location-patches.js';
import type { AlbumFactsStore } from './dimensions-file.js';
import type { MediaPool } from './pool.js';

/** The version of a file a CRC is for, as `fs.stat` gives it. */
export interface FileVersion {
  readonly size: number;
  readonly mtimeMs: number;
  readonly ino: number;
}

/** Bytes of a file one task reads: tens of milliseconds from the page cache, well under a second from a disk. */
export const CRC_STRETCH_BYTES = 64 * 1024 * 1024;

/** zlib.crc32 came with Node 20.15: on an older Node no CRC is computed, and every ZIP computes its own. */
export const SERVED_CRCS_SUPPORTED = typeof zlib.crc32 === 'function';

/**
 * Which bytes a CRC is of: the file's own, or the file without its location as the patches
 * of this version of the gallery make it (a change to them is a new LOCATION_PATCH_VERSION,
 * and the CRCs of the old patching are no longer used).
 */
export const servedForm = (withoutLocation: boolean): string => (withoutLocation ? `noloc${LOCATION_PATCH_VERSION}` : 'file');

export interface ServedCrcs {
  /**
   * For the ZIP: the CRC of the file `name` of the album as served, when it was computed for
   * exactly `version` of the file (as the ZIP stat'ed it); undefined otherwise.
   */
  known(albumPath: string, name: string, version: FileVersion, withoutLocation: boolean): Promise<number | undefined>;
  /** For the preparation: whether the kept entry of `item` (its facts just made current) has its CRC in this form. */
  has(album: TreeNode, item: MediaItem, withoutLocation: boolean): Promise<boolean>;
  /**
   * For the preparation: computes the CRC of `item`, at `absPath` (its real place), and keeps it
   * with its facts when they are of the version read. A file that changes meanwhile keeps
   * none; the next preparation tries again. Fails as the pool's tasks do (PoolBusyError...).
   */
  compute(album: TreeNode, item: MediaItem, absPath: string, withoutLocation: boolean): Promise<void>;
}

export interface ServedCrcsOptions {
  /** Where each file's facts are kept (server/media/dimensions.ts `records`). */
  readonly records: Pick<AlbumFactsStore, 'entry' | 'amend'>;
  readonly pool: Pick<MediaPool, 'checksum'>;
}

export function createServedCrcs({ records, pool }: ServedCrcsOptions): ServedCrcs {
  return {
    async known(albumPath, name, version, withoutLocation) {
      const stored = await records.entry(albumPath, name);
      const crc = stored?.crc32;
      if (!crc || crc.form !== servedForm(withoutLocation)) return undefined;
      return stored.size === version.size && stored.mtimeMs === version.mtimeMs && crc.ino === version.ino ? crc.value : undefined;
    },

    async has(album, item, withoutLocation) {
      return (await records.entry(album.path, item.name))?.crc32?.form === servedForm(withoutLocation);
    },

    async compute(album, item, absPath, withoutLocation) {
      const stats = await fs.stat(absPath);
      if (!stats.isFile()) return;
      const version: FileVersion = { size: stats.size, mtimeMs: stats.mtimeMs, ino: stats.ino };
      let crc = 0;
      for (let start = 0; start < version.size; start += CRC_STRETCH_BYTES) {
        const end = Math.min(version.size, start + CRC_STRETCH_BYTES);
        const { crc32 } = await pool.checksum({ src: absPath, version, start, end, crc, withoutLocation });
        if (crc32 === null) return;
        crc = crc32;
      }
      const kept = { value: crc, ino: version.ino, form: servedForm(withoutLocation) };
      await records.amend(album, item.name, (stored) =>
        stored.size === version.size && stored.mtimeMs === version.mtimeMs ? { ...stored, crc32: kept } : undefined,
      );
    },
  };
}
