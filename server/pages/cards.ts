import type { AlbumIndex } from '../albums/album-index.js';
import { countMedia, coverOf, descendantsOf, isAlbum, titleOf, type TreeNode } from '../albums/album-tree.js';
import type { MediaStats } from './media-stats.js';
import { albumPageUrl, thumbnailSrcset, thumbnailUrl } from './urls.js';

export interface CardView {
  readonly title: string;
  readonly url: string;
  readonly locked: boolean;
  readonly subtitle: string;
  readonly cover: { readonly src: string; readonly srcset: string } | undefined;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/**
 * A card linking to an album or folder. A `locked` card shows a lock and nothing of the
 * album's content: no cover, no counts.
 */
export async function cardFor(node: TreeNode, locked: boolean, index: AlbumIndex, stats: MediaStats): Promise<CardView> {
  const base = { title: titleOf(node), url: albumPageUrl(node.path), locked };
  if (locked) return { ...base, subtitle: 'Protected', cover: undefined };
  const cover = coverOf(node, (p) => index.node(p));
  let coverView: CardView['cover'];
  if (cover) {
    const mediaPath = `${cover.node.path}/${cover.item.name}`;
    const v = await stats.of(cover.node, cover.item);
    coverView = { src: thumbnailUrl(mediaPath, 'small', v), srcset: thumbnailSrcset(mediaPath, v) };
  }
  let subtitle: string;
  if (isAlbum(node) && !node.meta.isCollection) {
    const { photos, videos } = countMedia(node);
    subtitle = [photos ? plural(photos, 'photo') : '', videos ? plural(videos, 'video') : ''].filter(Boolean).join(' · ') || 'Empty';
  } else {
    subtitle = plural(descendantsOf(node).filter((a) => !a.meta.hidden).length, 'album');
  }
  return { ...base, subtitle, cover: coverView };
}

/**
 * Children shown in listings: hidden albums are left out (they stay reachable by URL), and
 * so are folders that hold nothing but hidden albums.
 */
export const listedChildren = (node: TreeNode): TreeNode[] =>
  node.children.filter((c) => (isAlbum(c) ? !c.meta.hidden : listedChildren(c).length > 0));
