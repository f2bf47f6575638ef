import { type Album, albumChain, type TreeNode } from '../albums/album-tree.js';
import { safeEqual } from './safe-equal.js';
import type { Visitor } from './visitor.js';

export type AccessResult =
  | {
      readonly granted: true;
      /** The album whose token opened the chain (undefined when nothing on it is locked). */
      readonly openedBy: Album | undefined;
      /** Set when a share-link token did the opening: the caller adds it to the cookie. */
      readonly viaUrlToken: string | undefined;
    }
  | { readonly granted: false; readonly blocking: Album };

/**
 * The one place access is decided (docs/api.md#access). Walks from `node` up through the albums
 * on its path, nearest first: a held token grants, a password blocks, reaching the root
 * grants. A URL token counts only where it is the token of an `allowAnonymous` album on
 * the chain.
 */
export function resolveAccess(node: TreeNode, { held, urlToken }: Visitor): AccessResult {
  for (const album of albumChain(node)) {
    const token = album.meta.token;
    if (held.some((t) => safeEqual(t, token))) return { granted: true, openedBy: album, viaUrlToken: undefined };
    if (urlToken !== undefined && album.meta.allowAnonymous && safeEqual(urlToken, token)) {
      return { granted: true, openedBy: album, viaUrlToken: token };
    }
    if (album.meta.password !== undefined) return { granted: false, blocking: album };
  }
  return { granted: true, openedBy: undefined, viaUrlToken: undefined };
}

/** The album whose password must be given to open `node`, or undefined when nothing blocks. */
export function blockingAlbum(node: TreeNode, visitor: Visitor): Album | undefined {
  const r = resolveAccess(node, visitor);
  return r.granted ? undefined : r.blocking;
}
