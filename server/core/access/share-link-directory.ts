import type { AlbumIndex } from '../albums/album-index.js';
import { type Album, isAlbum, type TreeNode } from '../albums/album-tree.js';
import { isLive, type ShareLink } from '../albums/share-links.js';

export interface FoundShareLink {
  readonly album: Album;
  readonly link: ShareLink;
}

/**
 * Which album a share link id opens (docs/api.md#share-links), for the `/s/<id>` address
 * and for keeping the `album-links` cookie to the links that still work. Built once per
 * snapshot of the tree: a link added, revoked or changed in an album.json is seen as soon as
 * the index has rescanned it. An id is 128 random bits or more, so the map's lookup reveals
 * nothing worth timing.
 */
export class ShareLinkDirectory {
  readonly #index: Pick<AlbumIndex, 'root'>;
  readonly #byRoot = new WeakMap<TreeNode, ReadonlyMap<string, FoundShareLink>>();

  constructor(index: Pick<AlbumIndex, 'root'>) {
    this.#index = index;
  }

  /**
   * The album listing this id and its link, when the link works at `now`. An id listed by
   * several albums (an album folder copied with its album.json) opens each of them through
   * the access rule; its address shows the first in tree order.
   */
  find(id: string, now = Date.now()): FoundShareLink | undefined {
    const found = this.#links().get(id);
    return found && isLive(found.link, now) ? found : undefined;
  }

  #links(): ReadonlyMap<string, FoundShareLink> {
    const root = this.#index.root;
    let links = this.#byRoot.get(root);
    if (!links) {
      const byId = new Map<string, FoundShareLink>();
      const walk = (node: TreeNode) => {
        if (isAlbum(node)) for (const link of node.meta.shareLinks) if (!byId.has(link.id)) byId.set(link.id, { album: node, link });
        node.children.forEach(walk);
      };
      walk(root);
      links = byId;
      this.#byRoot.set(root, links);
    }
    return links;
  }
}
