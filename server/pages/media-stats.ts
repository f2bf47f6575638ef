import fs from 'node:fs/promises';
import path from 'node:path';
import type { MediaItem, TreeNode } from '../albums/album-tree.js';

export interface MediaStat {
  readonly mtimeMs: number;
  readonly size: number;
  readonly ino: number;
}

/**
 * Identities (mtime, size, inode) of media files for thumbnail URL versions (`&v=`), read lazily when a page first
 * needs them and kept per MediaItem object: a rescan makes new items, so a replaced photo
 * gets a fresh stat without any explicit invalidation.
 */
export class MediaStats {
  readonly #stats = new WeakMap<MediaItem, MediaStat | null>();
  readonly #albumsDir: string;

  constructor(albumsDir: string) {
    this.#albumsDir = albumsDir;
  }

  async of(node: TreeNode, item: MediaItem): Promise<MediaStat | undefined> {
    const known = this.#stats.get(item);
    if (known !== undefined) return known ?? undefined;
    let stat: MediaStat | null = null;
    try {
      const s = await fs.stat(path.join(this.#albumsDir, ...node.path.split('/'), item.name));
      stat = { mtimeMs: s.mtimeMs, size: s.size, ino: s.ino };
    } catch {
      stat = null;
    }
    this.#stats.set(item, stat);
    return stat ?? undefined;
  }

  /** Stats of several items of one album, read concurrently. */
  all(node: TreeNode, items: readonly MediaItem[]): Promise<(MediaStat | undefined)[]> {
    return Promise.all(items.map((i) => this.of(node, i)));
  }
}
