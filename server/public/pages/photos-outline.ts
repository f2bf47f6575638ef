import { type Album, isAlbum, type TreeNode } from '../../core/albums/album-tree.js';
import { isShownLocked, listedAlbumCount, listedChildren } from './cards.js';

/**
 * The most album cards a page of cards holds: /photos, and each page of a folder
 * (folder-pages.ts). A card is about 1.6 KB of HTML, so such a page stays under 300 KB
 * whatever the size of the library, and a family's library of up to 150 albums is shown whole.
 */
export const MAX_CARDS_PER_PAGE = 150;

/**
 * The fewest cards worth a section of their own on a /photos too big to show whole: a row of
 * cards. A folder whose sub-folders would get fewer each shows its newest albums in one list
 * instead of a heading per sub-folder.
 */
const MIN_CARDS_PER_PART = 4;

/** A heading of /photos: a folder (a year, a category), an album's child albums, or the top of the tree. */
export interface OutlineSection {
  readonly node: TreeNode;
  /** The albums shown as cards: in the tree's order when the section is whole, else its newest first. */
  readonly cards: readonly Album[];
  readonly sections: readonly OutlineSection[];
  /** The cards are the newest of every album below, sub-sections left out: they sit in rows, as a category's. */
  readonly flat: boolean;
  /**
   * How many albums the section holds (listedAlbumCount) when some of its own are not shown:
   * its page lists them all ("All 1,000 albums of 2019"). Undefined when all its own cards
   * are shown (a sub-section cut short has a link of its own).
   */
  readonly allAlbums: number | undefined;
}

/**
 * What /photos shows: the whole tree (every listed album below a padlock-free path, nested as
 * the folders are) while it holds at most `maxCards` albums. Past that, the cards are shared
 * out from the top: each part of a section (its own albums, and each sub-section) gets an
 * equal share, a part that needs less than its share giving the rest to the others, and a
 * part given less than it holds shows its newest albums (newestFirst) and a link to its page.
 * A section whose share would leave fewer than MIN_CARDS_PER_PART cards to each of its parts
 * lists its newest albums from all of them instead. So 10,000 albums make a page of at most
 * `maxCards` cards, as 500 do.
 */
export function photosOutline(root: TreeNode, maxCards = MAX_CARDS_PER_PAGE): OutlineSection {
  return outline(root, maxCards);
}

function outline(node: TreeNode, budget: number): OutlineSection {
  const total = listedAlbumCount(node);
  const own = listedChildren(node).filter(isAlbum);
  // A padlock is a card and nothing more: the names of the albums inside are its content too.
  const subs = listedChildren(node).filter((c) => !isShownLocked(c) && listedAlbumCount(c) > 0);
  if (total <= budget) return { node, cards: own, sections: subs.map((s) => outline(s, Number.POSITIVE_INFINITY)), flat: false, allAlbums: undefined };

  const demands = [own.length, ...subs.map(listedAlbumCount)];
  const parts = demands.filter((d) => d > 0).length;
  if (parts * MIN_CARDS_PER_PART > budget) return { node, cards: newestFirst(albumsBelow(node)).slice(0, budget), sections: [], flat: true, allAlbums: total };
  const [ownShare = 0, ...subShares] = fairShares(demands, budget);
  const cut = own.length > ownShare;
  return {
    node,
    cards: cut ? newestFirst(own).slice(0, ownShare) : own,
    sections: subs.map((s, i) => outline(s, subShares[i] ?? 0)),
    flat: false,
    allAlbums: cut ? total : undefined,
  };
}

/**
 * Splits `budget` among parts that want `demands`: the smallest first, each given what it
 * wants up to an equal share of what is left, so what a small part does not need goes to
 * the larger ones (max-min fairness). Never more than `budget` in all.
 */
export function fairShares(demands: readonly number[], budget: number): number[] {
  const shares = demands.map(() => 0);
  const smallestFirst = demands.map((_, i) => i).sort((a, b) => demands[a]! - demands[b]!);
  let left = budget;
  smallestFirst.forEach((part, done) => {
    const share = Math.min(demands[part]!, Math.floor(left / (smallestFirst.length - done)));
    shares[part] = share;
    left -= share;
  });
  return shares;
}

/** Every album a listing below `node` shows, in the tree's order, not looking inside a padlock. */
function albumsBelow(node: TreeNode): Album[] {
  const found: Album[] = [];
  const walk = (n: TreeNode) => {
    for (const child of listedChildren(n)) {
      if (isAlbum(child)) found.push(child);
      if (!isShownLocked(child)) walk(child);
    }
  };
  walk(node);
  return found;
}

/**
 * Albums newest first, by the date in their album.json (`2019-07-14`, `2019-07` or `2019`,
 * compared as written: a date given to the month counts as that month's first day, to the
 * year as its first); albums without a date follow, in the tree's order (`order`, then title).
 * Only what the index holds: no photo is read to date an album.
 */
export function newestFirst(albums: readonly Album[]): Album[] {
  const dated = albums.filter((a) => a.meta.date !== undefined);
  const undated = albums.filter((a) => a.meta.date === undefined);
  // Array.prototype.sort is stable: albums of the same date keep the tree's order.
  dated.sort((a, b) => (a.meta.date! < b.meta.date! ? 1 : a.meta.date! > b.meta.date! ? -1 : 0));
  return [...dated, ...undated];
}
