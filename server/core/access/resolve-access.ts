import { type Album, albumChain, hasPassword, type TreeNode } from '../albums/album-tree.js';
import { isLive, type ShareLink } from '../albums/share-links.js';
import { type Keyring, keyringOf } from './keyring.js';
import { rootOf } from './secret-directory.js';
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

const OPEN: AccessResult = Object.freeze({ granted: true, openedBy: undefined, viaUrlToken: undefined, link: undefined });

/** The first link of `album` (in its album.json's order) the visitor holds and that works at `now`. */
function heldLink(album: Album, keys: Keyring, now: number): ShareLink | undefined {
  const held = keys.links.get(album);
  return held && album.meta.shareLinks.find((link) => held.has(link) && isLive(link, now));
}

/**
 * The one place access is decided (docs/api.md#access). Walks from `node` up through the albums
 * on its path, nearest first: a held token grants, a password blocks, reaching the root
 * grants. A URL token counts only where it is the token of an `allowAnonymous` album on
 * the chain. A share link held for an album on the way opens it like its token would (so a
 * child with a password of its own stays locked), unless a held token above it, before any
 * password, opens the chain fully. An expired or revoked link counts as none: `now` is the
 * time of the request. What the visitor holds is looked up once (keyring.ts), not compared
 * with each album.
 */
export function resolveAccess(node: TreeNode, visitor: Visitor, now = Date.now()): AccessResult {
  const chain = albumChain(node);
  // Nothing on the chain has a password: open to everyone, and a link adds no restriction.
  // The visitor's secrets are not even looked at (nor counted as guesses).
  if (!chain.some((album) => hasPassword(album.meta))) return OPEN;
  const keys = keyringOf(visitor, rootOf(node));
  let link: { readonly album: Album; readonly link: ShareLink } | undefined;
  for (const album of chain) {
    if (keys.tokens.has(album)) return { granted: true, openedBy: album, viaUrlToken: undefined, link: undefined };
    if (keys.urlToken.has(album)) return { granted: true, openedBy: album, viaUrlToken: album.meta.token, link: undefined };
    if (!link) {
      const found = heldLink(album, keys, now);
      if (found) link = { album, link: found };
    }
    if (hasPassword(album.meta)) {
      return link ? { granted: true, openedBy: link.album, viaUrlToken: undefined, link: link.link } : { granted: false, blocking: album };
    }
  }
  return OPEN;
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
