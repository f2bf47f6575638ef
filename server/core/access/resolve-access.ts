import { type Album, albumChain, type TreeNode } from '../albums/album-tree.js';
import { isLive, type ShareLink } from '../albums/share-links.js';
import { safeEqual } from './safe-equal.js';
import type { Visitor } from './visitor.js';

export type AccessResult =
  | {
      readonly granted: true;
      /** The album whose token (or share link) opened the chain (undefined when nothing on it is locked). */
      readonly openedBy: Album | undefined;
      /** Set when a share-link token did the opening: the caller adds it to the cookie. */
      readonly viaUrlToken: string | undefined;
      /**
       * Set when a share link per recipient did the opening (docs/api.md#share-links): routes
       * honour its `downloads`, pages count a visit. Never set when a held token opens the
       * chain too: a token (a password unlock) gives full access and wins over a link.
       */
      readonly link: ShareLink | undefined;
    }
  | { readonly granted: false; readonly blocking: Album };

/** The live link of `album` among the ids the visitor holds. */
function heldLink(album: Album, ids: readonly string[], now: number): ShareLink | undefined {
  if (ids.length === 0) return undefined;
  // Each comparison in constant time; every link of the album is looked at, the first live one kept.
  let found: ShareLink | undefined;
  for (const link of album.meta.shareLinks) {
    if (ids.some((id) => safeEqual(id, link.id)) && isLive(link, now)) found ??= link;
  }
  return found;
}

/**
 * The one place access is decided (docs/api.md#access). Walks from `node` up through the albums
 * on its path, nearest first: a held token grants, a password blocks, reaching the root
 * grants. A URL token counts only where it is the token of an `allowAnonymous` album on
 * the chain. A share link held for an album on the way opens it like its token would (so a
 * child with a password of its own stays locked), unless a held token above it, before any
 * password, opens the chain fully. An expired link counts as none: `now` is the time of the
 * request.
 */
export function resolveAccess(node: TreeNode, { held, urlToken, links = [] }: Visitor, now = Date.now()): AccessResult {
  let link: { readonly album: Album; readonly link: ShareLink } | undefined;
  for (const album of albumChain(node)) {
    const token = album.meta.token;
    if (held.some((t) => safeEqual(t, token))) return { granted: true, openedBy: album, viaUrlToken: undefined, link: undefined };
    if (urlToken !== undefined && album.meta.allowAnonymous && safeEqual(urlToken, token)) {
      return { granted: true, openedBy: album, viaUrlToken: token, link: undefined };
    }
    if (!link) {
      const found = heldLink(album, links, now);
      if (found) link = { album, link: found };
    }
    if (album.meta.password !== undefined) {
      return link ? { granted: true, openedBy: link.album, viaUrlToken: undefined, link: link.link } : { granted: false, blocking: album };
    }
  }
  // Nothing on the chain has a password: open to everyone, and a link adds no restriction.
  return { granted: true, openedBy: undefined, viaUrlToken: undefined, link: undefined };
}

/** The album whose password must be given to open `node`, or undefined when nothing blocks. */
export function blockingAlbum(node: TreeNode, visitor: Visitor): Album | undefined {
  const r = resolveAccess(node, visitor);
  return r.granted ? undefined : r.blocking;
}

/** Whether originals, full-size JPEGs and ZIPs may be downloaded with this access: not through a "no downloads" link. */
export function allowsDownloads(access: AccessResult): boolean {
  return access.granted && (access.link?.downloads ?? true);
}
