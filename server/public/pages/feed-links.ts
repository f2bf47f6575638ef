import type { Request } from 'express';
import { liveLink } from '../../core/access/secret-directory.js';
import { albumChain, isProtected, type TreeNode } from '../../core/albums/album-tree.js';
import { addressLinkId } from '../access/tokens.js';
import { feedPath, linkFeedPath } from './feed-paths.js';

/**
 * The feed a page names (views/partials/head.ejs `<link rel="alternate">`) and whether it
 * offers it with a "Subscribe" link (views/partials/subscribe.ejs).
 */
export interface PageFeed {
  readonly href: string;
  /** False where a feed reader could not read it: a protected album's feed opens with the visitor's cookie only. */
  readonly offered: boolean;
}

/**
 * The feed of an album or folder page (docs/api.md#feeds). `req` is given only for a page made
 * for this request alone: at a share link's address `/s/<id>` it names the link's own feed,
 * which no one else may be sent. Below a hidden album there is no feed but a link's (a hidden
 * album is reached by its link, never found).
 */
export function pageFeed(req: Request | undefined, node: TreeNode, root: TreeNode): PageFeed | undefined {
  const id = req && addressLinkId(req);
  if (id !== undefined && liveLink(root, id)?.album === node) return { href: linkFeedPath(id), offered: true };
  if (albumChain(node).some((album) => album.meta.hidden)) return undefined;
  return { href: feedPath(node.path), offered: !isProtected(node) };
}
