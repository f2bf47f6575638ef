/**
 * Albums and facts records in memory for the library's tests: the library is a function of
 * the tree and the records, so no scan and no files are needed to test what it answers.
 */
import { EventEmitter } from 'node:events';
import { parseAlbumRecord } from '../../server/core/albums/album-record.js';
import { type Album, isAlbum, type TreeNode } from '../../server/core/albums/album-tree.js';
import type { Stored } from '../../server/media/dimensions-file.js';
import { mediaKind } from '../../server/core/media-catalogue.js';

export function node(name: string, parent: TreeNode | undefined, meta?: Record<string, unknown>, files: readonly string[] = []): TreeNode {
  const path = parent?.path ? `${parent.path}/${name}` : name;
  const parsed = meta ? parseAlbumRecord(JSON.stringify({ token: `token-of-${name}`, ...meta })) : undefined;
  const media = files.map((file) => ({ name: file, kind: mediaKind(file) ?? 'image' }));
  const made = { path, name, meta: parsed, parent, children: [], media } as TreeNode;
  if (parent) (parent.children as TreeNode[]).push(made);
  return made;
}

/** A facts entry of a photo taken at `taken` (wall clock), with what else is given. */
export function fact(taken: string | undefined, extra: Partial<Stored> = {}): Stored {
  return { mtimeMs: Date.parse('2020-01-01T00:00:00Z'), size: 1000, width: 640, height: 480, thumbHash: 'AAAAAAAAAAAA', ...(taken ? { taken } : {}), ...extra };
}

/** An album index over a tree held in a variable: `replace` is a rescan. */
export class TreeIndex extends EventEmitter {
  constructor(public root: TreeNode) {
    super();
  }
  *albums(): IterableIterator<Album> {
    const stack = [this.root];
    while (stack.length > 0) {
      const n = stack.pop() as TreeNode;
      if (isAlbum(n)) yield n;
      stack.push(...n.children);
    }
  }
  album(path: string): Album | undefined {
    for (const a of this.albums()) if (a.path === path) return a;
    return undefined;
  }
  replace(root: TreeNode): void {
    this.root = root;
    this.emit('change');
  }
}
