import { isProtected, type TreeNode } from '../../core/albums/album-tree.js';
import type { MediaStat, MediaStats } from './media-stats.js';

/**
 * When a file arrived in its album, as the feeds and the "new" marks count it
 * (docs/api.md#feeds): the time its inode last changed (ctime). Copying, moving or uploading a
 * file into an album sets it, and no tool can set it back, whereas a file's mtime often keeps
 * the day it was taken (`cp -p`, rsync, a camera's card). It is kept by the file system, so a
 * restart does not change it; a file replaced (edited, turned) arrives again. Whole
 * milliseconds: it is written into pages and compared in the browser.
 */
export const arrivedAt = (stat: Pick<MediaStat, 'ctimeMs'>): number => Math.floor(stat.ctimeMs);

/**
 * The newest arrival among an album's own media (what its card's "new" mark compares), or
 * undefined when it has none the symlink rule serves. A link into another protected album is
 * left out: a card is shown to visitors who may not open that album, and its time is its content.
 */
export async function newestArrival(node: TreeNode, stats: MediaStats): Promise<number | undefined> {
  if (node.media.length === 0) return undefined;
  let newest: number | undefined;
  for (const stat of await stats.all(node, node.media)) {
    if (stat && (stat.realAlbum === node || !isProtected(stat.realAlbum)) && (newest === undefined || arrivedAt(stat) > newest)) newest = arrivedAt(stat);
  }
  return newest;
}
