import { titleOf, type TreeNode } from '../../core/albums/album-tree.js';
import { notFound } from '../../core/errors.js';
import { albumPageUrl } from '../../core/urls.js';
import { listedChildren } from './cards.js';
import { MAX_CARDS_PER_PAGE } from './photos-outline.js';
import type { Translate } from '../../http/i18n.js';

/**
 * The page that lists every album of a folder: its own page (`/photos/2019`), and for the
 * top of the tree, which /photos itself shows only in part past MAX_CARDS_PER_PAGE albums,
 * `/photos?all` (docs/api.md#pages).
 */
export const allAlbumsUrl = (node: TreeNode): string => (node.parent === undefined ? '/photos?all' : albumPageUrl(node.path));

/** "All 1,000 albums of 2019", the link under a section of /photos that shows only some. */
export function allAlbumsText(node: TreeNode, albums: number, t: Translate): string {
  return node.parent === undefined ? t('photos.allCount', { count: albums }) : t('photos.allCountOf', { count: albums, title: titleOf(node) });
}

/** The title of a node's page: its own, and "All albums" for the top of the tree (which has none). */
export const pageTitleOf = (node: TreeNode, t: Translate): string => (node.parent === undefined ? t('photos.allAlbums') : titleOf(node));

/** One page of a folder's cards, and where its neighbours are. */
export interface FolderListing {
  /** The children on this page, in the folder's order (folders, then albums by `order` and title). */
  readonly children: readonly TreeNode[];
  /** How many the folder lists in all. */
  readonly total: number;
  readonly page: number;
  readonly pages: number;
  readonly prev: string | undefined;
  readonly next: string | undefined;
}

/**
 * The page `rawPage` (the `?page=` of the request: absent is 1) of a folder's page: at most
 * MAX_CARDS_PER_PAGE cards, so a folder of 3,000 albums is twenty pages of 150, not one of
 * 5 MB. As an album's pages: anything but a positive integer within range is a 404.
 */
export function folderListing(node: TreeNode, rawPage: unknown): FolderListing {
  const all = listedChildren(node);
  const pages = Math.max(1, Math.ceil(all.length / MAX_CARDS_PER_PAGE));
  let page = 1;
  if (rawPage !== undefined) {
    if (typeof rawPage !== 'string' || !/^[1-9]\d{0,6}$/.test(rawPage) || Number(rawPage) > pages) throw notFound('No such page');
    page = Number(rawPage);
  }
  const base = allAlbumsUrl(node);
  const pageUrl = (n: number) => (n === 1 ? base : `${base}${base.includes('?') ? '&' : '?'}page=${n}`);
  return {
    children: all.slice((page - 1) * MAX_CARDS_PER_PAGE, page * MAX_CARDS_PER_PAGE),
    total: all.length,
    page,
    pages,
    prev: page > 1 ? pageUrl(page - 1) : undefined,
    next: page < pages ? pageUrl(page + 1) : undefined,
  };
}
