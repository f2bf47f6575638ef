import fs from 'node:fs/promises';
import type { Album, MediaItem, TreeNode } from '../../core/albums/album-tree.js';
import type { LocateMedia } from '../../core/access/media-location.js';
import type { Rotation } from '../../core/albums/rotations.js';
import { inBatches } from '../../core/in-batches.js';

/** Files stat'ed at once when a whole album is asked for (server/core/in-batches.ts). */
const STAT_BATCH = 64;

export interface MediaStat {
  readonly mtimeMs: number;
  /** When the file's inode last changed: its arrival in the album (copied, moved, uploaded), for feeds and "new" marks (docs/api.md#feeds). */
  readonly ctimeMs: number;
  readonly size: number;
  readonly ino: number;
  /** The album that really holds the file (a symlink's target album, else the item's own). */
  readonly realAlbum: Album;
  /** Where the file really is (the symlink rule's answer): what a media task may read. */
  readonly absPath: string;
  /** The owner's turn of a photo (docs/api.md#rotations): part of its version, so its thumbnails' URLs change with it. */
  readonly rotation: Rotation;
}

/**
 * Identities (mtime, size, inode, the owner's turn) of media files, the one stat the gallery
 * takes of an item: for thumbnail URL versions (`&v=`) and for what is known of the file
 * (server/media/dimensions.ts), read lazily when a page first needs them and kept per MediaItem object: a rescan makes new items, so a replaced photo
 * gets a fresh stat without any explicit invalidation. Files are stat'ed where the symlink
 * rule says they really are; an item it does not follow has no stat.
 */
export class MediaStats {
  readonly #stats = new WeakMap<MediaItem, MediaStat | null>();
  readonly #locate: LocateMedia;

  constructor(locate: LocateMedia) {
    this.#locate = locate;
  }

  async of(node: TreeNode, item: MediaItem): Promise<MediaStat | undefined> {
    const known = this.#stats.get(item);
    if (known !== undefined) return known ?? undefined;
    let stat: MediaStat | null = null;
    try {
      const where = await this.#locate(node, item);
      if (where) {
        const s = await fs.stat(where.absPath);
        // Only a regular file: a worker opening a FIFO would wait on it for good.
        if (!s.isFile()) throw new Error('not a regular file');
        stat = {
          mtimeMs: s.mtimeMs,
          ctimeMs: s.ctimeMs,
          size: s.size,
          ino: s.ino,
          realAlbum: where.realAlbum,
          absPath: where.absPath,
          rotation: where.rotation,
        };
      }
    } catch {
      stat = null;
    }
    this.#stats.set(item, stat);
    return stat ?? undefined;
  }

  /** Stats of several items of one album, read concurrently. */
  all(node: TreeNode, items: readonly MediaItem[]): Promise<(MediaStat | undefined)[]> {
    // Once all are known (every view of an album after its first), one answer rather than a
    // promise per file: an album of 20,000 photos is sized on each render of its page.
    const known = items.map((i) => this.#stats.get(i));
    if (known.every((k) => k !== undefined)) return Promise.resolve(known.map((k) => k ?? undefined));
    return inBatches(items, STAT_BATCH, (i) => this.of(node, i));
  }
}
