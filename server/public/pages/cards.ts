import type { AlbumIndex } from '../../core/albums/album-index.js';
import { type Album, countMedia, coverOf, isAlbum, isProtected, titleOf, type TreeNode } from '../../core/albums/album-tree.js';
import { TILE_THUMBNAIL } from '../../core/media-catalogue.js';
import type { MediaStats } from './media-stats.js';
import { CARD_SIZES } from './tile-sizes.js';
import { albumPageUrl, thumbnailSrcset, thumbnailUrl } from '../../core/urls.js';

export interface CardView {
  readonly title: string;
  readonly url: string;
  readonly locked: boolean;
  readonly subtitle: string;
  readonly cover: { readonly src: string; readonly srcset: string; readonly webpSrcset: string; readonly sizes: string } | undefined;
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
  const stat = cover && (await stats.of(cover.node, cover.item));
  // A cover the symlink rule refuses, or one that leads into another protected album, would be
  // a broken image (and a file name) to most visitors: the card goes without.
  if (cover && stat && (stat.realAlbum === cover.node || !isProtected(stat.realAlbum))) {
    const mediaPath = `${cover.node.path}/${cover.item.name}`;
    coverView = {
      src: thumbnailUrl(mediaPath, TILE_THUMBNAIL, stat),
      srcset: thumbnailSrcset(mediaPath, stat),
      webpSrcset: thumbnailSrcset(mediaPath, stat, 'webp'),
      sizes: CARD_SIZES,
    };
  }
  let subtitle: string;
  if (isAlbum(node) && !node.meta.isCollection) {
    const { photos, videos } = countMedia(node);
    subtitle = [photos ? plural(photos, 'photo') : '', videos ? plural(videos, 'video') : ''].filter(Boolean).join(' · ') || 'Empty';
  } else {
    subtitle = plural(listedAlbumCount(node), 'album');
  }
  return { ...base, subtitle, cover: coverView };
}

/**
 * /photos shows a protected album as a padlock, and nothing below it: the names of the albums
 * inside are its content too (server/public/pages/static-pages.ts).
 */
export const isShownLocked = (node: TreeNode): node is Album => isAlbum(node) && isProtected(node);

/** The albums /photos shows as padlocks, in tree order. */
export function lockedCardsOf(root: TreeNode): Album[] {
  const found: Album[] = [];
  const walk = (node: TreeNode) => {
    for (const child of listedChildren(node)) {
      if (isShownLocked(child)) found.push(child);
      else walk(child);
    }
  };
  walk(root);
  return found;
}

/**
 * Children shown in listings: hidden albums are left out (they stay reachable by URL), and
 * so are folders that hold nothing but hidden albums.
 */
export const listedChildren = (node: TreeNode): TreeNode[] => node.children.filter((c) => (isAlbum(c) ? !c.meta.hidden : listedChildren(c).length > 0));

/**
 * How many albums a listing below `node` would show: hidden albums and what lies below them
 * are left out, and so are the albums inside one with a password (their number is its content).
 */
function listedAlbumCount(node: TreeNode): number {
  let count = 0;
  for (const child of listedChildren(node)) {
    if (isAlbum(child)) count++;
    if (child.meta?.password === undefined) count += listedAlbumCount(child);
  }
  return count;
}
