/**
 * What the servers say at start about the library they serve (README "Your own photos"), so
 * an owner who sees "No albums to show yet" finds the reason in the log: the samples are
 * being served, or folders of photos are waiting to be adopted.
 */
import path from 'node:path';
import { ROOT_DIR } from '../root-dir.js';
import type { AlbumIndex } from './album-index.js';
import { isAlbum, type TreeNode } from './album-tree.js';

/** The sample tree shipped with the repository: what ALBUMS_DIR is when nothing sets it. */
export const SAMPLE_ALBUMS_DIR = path.join(ROOT_DIR, 'albums');

/** How many of the examples to name in the line. */
const NAMED = 3;

function countAlbums(node: TreeNode): number {
  return node.children.reduce((sum, child) => sum + countAlbums(child), isAlbum(node) ? 1 : 0);
}

/** Lines for the log (none when all is as the owner meant it). */
export function libraryHints(albumsDir: string, index: Pick<AlbumIndex, 'root' | 'adoptable'>): string[] {
  const hints: string[] = [];
  if (path.resolve(albumsDir) === SAMPLE_ALBUMS_DIR) {
    hints.push(
      'Serving the sample albums. To show your own photos: cp .env.example .env, set ALBUMS_DIR in it to your photo folder, then run npm run adopt (README "Your own photos").',
    );
  }
  const waiting = index.adoptable;
  if (waiting.length > 0) {
    const names = waiting.slice(0, NAMED).map((f) => f.path);
    const more = waiting.length > NAMED ? `, and ${waiting.length - NAMED} more` : '';
    const folders = waiting.length === 1 ? '1 folder holds photos but is not an album yet' : `${waiting.length} folders hold photos but are not albums yet`;
    hints.push(`${folders} (${names.join(', ')}${more}): run npm run adopt (or use the admin's Albums tab) to publish them.`);
  } else if (countAlbums(index.root) === 0) {
    hints.push(`No photos found in ${albumsDir}: put folders of photos there, or set ALBUMS_DIR to your photo folder.`);
  }
  return hints;
}
