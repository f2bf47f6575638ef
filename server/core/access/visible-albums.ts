import { type Album, isAlbum, type TreeNode } from '../albums/album-tree.js';
import { isLive } from '../albums/share-links.js';
import { keyringOf } from './keyring.js';
import { resolveAccess } from './resolve-access.js';
import { rootOf } from './secret-directory.js';
import type { Visitor } from './visitor.js';

/**
 * The albums whose photos a view across albums (search, timeline, on this day, map, feeds, a
 * frame of a search) may show this visitor, in tree order: the one rule for all of them
 * (docs/api.md#across-albums).
 *
 * - An album is in it when the access rule opens it for this visitor now: public albums, and
 *   those its cookie's tokens, the URL token or a live share link opens.
 * - A hidden album (album.json `hidden`, left out of listings) and everything below it only
 *   when the visitor holds a key of that very album (its token, or a live link of its own): a
 *   hidden album is reached by its link, never found. A key of an album above it is not one.
 *
 * Nothing about an album left out is looked at beyond its access: neither its title, nor its
 * files, nor its count. Found once per visitor and snapshot of the tree (the keyring's cache
 * holds the visitor's secrets; this holds the answer), so a page that asks several times
 * walks the tree once. The caller passes the snapshot's root (index.root).
 */
export function albumsVisibleTo(root: TreeNode, visitor: Visitor, now = Date.now()): readonly Album[] {
  const keyless = holdsNothing(visitor);
  const known = keyless ? keylessAnswer : answers.get(visitor);
  if (known?.root === root) return known.albums;
  const albums = walk(root, visitor, now);
  if (keyless) keylessAnswer = { root, albums };
  else answers.set(visitor, { root, albums });
  return albums;
}

type Answer = { readonly root: TreeNode; readonly albums: readonly Album[] };
// A Visitor is made per request (server/public/access/visitor.ts): its answer lives as long.
const answers = new WeakMap<Visitor, Answer>();
/**
 * Every visitor who presents nothing (no token, no link: most of a family's visits to search
 * and the timeline) gets the anonymous answer, which depends on the tree alone (a link's
 * expiry is the only time the rule reads): kept for the snapshot, not walked per request
 * (5,000 albums: a quarter of a millisecond and an array each time).
 */
let keylessAnswer: Answer | undefined;

function holdsNothing(visitor: Visitor): boolean {
  return visitor.held.length === 0 && visitor.urlToken === undefined && (visitor.links?.length ?? 0) === 0;
}

/** Whether `visitor` holds a key of `album` itself: a token of it, or a live share link it lists. */
export function holdsKeyOf(album: Album, visitor: Visitor, now = Date.now()): boolean {
  const keys = keyringOf(visitor, rootOf(album));
  if (keys.tokens.has(album) || keys.urlToken.has(album)) return true;
  const links = keys.links.get(album);
  return links !== undefined && [...links].some((link) => isLive(link, now));
}

function walk(root: TreeNode, visitor: Visitor, now: number): Album[] {
  const albums: Album[] = [];
  const stack: TreeNode[] = [root];
  while (stack.length > 0) {
    const node = stack.pop() as TreeNode;
    if (isAlbum(node) && node.meta.hidden && !holdsKeyOf(node, visitor, now)) continue;
    if (isAlbum(node) && resolveAccess(node, visitor, now).granted) albums.push(node);
    // Below a locked album a child may still open (a link of its own): each is asked.
    for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i] as TreeNode);
  }
  return albums;
}
