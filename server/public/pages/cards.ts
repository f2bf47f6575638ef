import type { AlbumIndex } from '../../core/albums/album-index.js';
import { type Album, countMedia, coverOf, isAlbum, isProtected, titleOf, type TreeNode } from '../../core/albums/album-tree.js';
import { THUMBNAIL_SIZE_NAMES, THUMBNAIL_SIZES, TILE_THUMBNAIL, type ThumbnailSize } from '../../core/media-catalogue.js';
import type { CoverFocusLookup, CoverFocusResult } from '../../media/cover-focus.js';
import type { MediaStat, MediaStats } from './media-stats.js';
import { CARD_SIZES, type CardLayout } from './tile-sizes.js';
import { newestArrival } from './feed-arrivals.js';
import { albumPageUrl, type MediaVersion, type ThumbnailFormat, thumbnailUrl } from '../../core/urls.js';
import type { Translate } from '../../http/i18n.js';

export interface CardView {
  readonly title: string;
  readonly url: string;
  readonly locked: boolean;
  readonly subtitle: string;
  /** When its photos were taken ("Jun – Aug 2023", card-dates.ts); never on a locked card. */
  readonly dates?: string | undefined;
  readonly cover:
    | {
        readonly src: string;
        readonly srcset: string;
        readonly webpSrcset: string;
        readonly sizes: string;
        /** Classes placing the crop (views/assets/site.css, `focus-x-*`), '' for the centre. */
        readonly focus: string;
      }
    | undefined;
  /** The cover's crop or the album's dates were not known in time: a page made with this card is worth making again. */
  readonly pending: boolean;
  /** The newest arrival among the album's own files (feed-arrivals.ts), for "new" marks; never on a locked card. */
  readonly added?: number | undefined;
}

/** A card's dates in the page's language (server/public/pages/card-dates.ts), and whether they are still to come. */
export type CardDatesOf = (node: TreeNode) => { readonly text: string | undefined; readonly pending: boolean };

/**
 * The widest a card's cover is laid out, in device pixels: 362 CSS px at most (tile-sizes.ts,
 * a 790 px window), on a 3× screen.
 */
const WIDEST_COVER_PX = 362 * 3;

/**
 * The thumbnail sizes a cover's srcset offers: up to the first that covers WIDEST_COVER_PX.
 * A wider one is never picked, and each size is two URLs per card: /photos holds up to 150
 * cards (photos-outline.ts), a size fewer is about 15 % of the page.
 */
const COVER_SIZES: readonly ThumbnailSize[] = THUMBNAIL_SIZE_NAMES.filter((_, i) => i === 0 || THUMBNAIL_SIZES[THUMBNAIL_SIZE_NAMES[i - 1]!] < WIDEST_COVER_PX);

const coverSrcset = (mediaPath: string, version: MediaVersion, format: ThumbnailFormat): string =>
  COVER_SIZES.map((size) => `${thumbnailUrl(mediaPath, size, version, format)} ${THUMBNAIL_SIZES[size]}w`).join(', ');

/** `object-position` in steps of 10 %, as classes: the pages' CSP allows no inline style. */
function focusClasses(focus: CoverFocusResult | undefined): string {
  if (!focus || !Number.isFinite(focus.x) || !Number.isFinite(focus.y)) return '';
  const step = (n: number) => Math.min(10, Math.max(0, Math.round(n / 10)));
  return `focus-x-${step(focus.x)} focus-y-${step(focus.y)}`;
}

/**
 * The photo shown for an album or folder, when one may be shown: a cover the symlink rule
 * refuses, or one that leads into another protected album, would be a broken image (and a
 * file name) to most visitors.
 */
export async function coverPhoto(node: TreeNode, index: AlbumIndex, stats: MediaStats): Promise<{ mediaPath: string; stat: MediaStat } | undefined> {
  const cover = coverOf(node, (p) => index.node(p));
  const stat = cover && (await stats.of(cover.node, cover.item));
  if (!cover || !stat || (stat.realAlbum !== cover.node && isProtected(stat.realAlbum))) return undefined;
  return { mediaPath: `${cover.node.path}/${cover.item.name}`, stat };
}

/** What a card says under its title, in the visitor's language: "12 photos · 1 video", "3 albums". */
export function cardSubtitle(node: TreeNode, t: Translate): string {
  if (isAlbum(node) && !node.meta.isCollection) {
    const { photos, videos } = countMedia(node);
    const counts = [photos ? t('counts.photos', { count: photos }) : '', videos ? t('counts.videos', { count: videos }) : ''];
    return counts.filter(Boolean).join(' · ') || t('cards.noPhotosYet');
  }
  return t('counts.albums', { count: listedAlbumCount(node) });
}

/**
 * A card linking to an album or folder. A `locked` card shows a lock and nothing of the
 * album's content: no cover, no counts. `layout` is where it sits (its cover's `sizes`).
 */
export async function cardFor(
  node: TreeNode,
  locked: boolean,
  index: AlbumIndex,
  stats: MediaStats,
  t: Translate,
  focus?: CoverFocusLookup,
  layout: CardLayout = 'grid',
  datesOf?: CardDatesOf,
): Promise<CardView> {
  const base = { title: titleOf(node), url: albumPageUrl(node.path), locked };
  if (locked) return { ...base, subtitle: t('cards.protected'), cover: undefined, pending: false };
  const photo = await coverPhoto(node, index, stats);
  let coverView: CardView['cover'];
  let pending = false;
  if (photo) {
    const { mediaPath, stat } = photo;
    const crop = focus ? await focus({ mediaPath, absPath: stat.absPath, version: stat }) : undefined;
    pending = crop?.pending ?? false;
    coverView = {
      src: thumbnailUrl(mediaPath, TILE_THUMBNAIL, stat),
      srcset: coverSrcset(mediaPath, stat, 'jpeg'),
      webpSrcset: coverSrcset(mediaPath, stat, 'webp'),
      sizes: CARD_SIZES[layout],
      focus: focusClasses(crop?.focus),
    };
  }
  const dates = datesOf?.(node);
  return {
    ...base,
    subtitle: cardSubtitle(node, t),
    dates: dates?.text,
    cover: coverView,
    pending: pending || (dates?.pending ?? false),
    added: await newestArrival(node, stats),
  };
}

/**
 * /photos shows a protected album as a padlock, and nothing below it: the names of the albums
 * inside are its content too (server/public/pages/static-pages.ts).
 */
export const isShownLocked = (node: TreeNode): node is Album => isAlbum(node) && isProtected(node);

/**
 * Where /photos shows the card of `node` (views/photos.ejs) when it shows the whole tree: the
 * albums at the top of the tree and directly in a top-level folder sit in card grids, those of
 * a section below that (a category's, an album's children) in rows. (Past 150 albums, a
 * section's newest sit in rows wherever they are from: static-pages.ts decides per section.)
 */
export const photosCardLayout = (node: TreeNode): CardLayout => (node.path.split('/').length >= 3 ? 'row' : 'grid');

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

const albumCounts = new WeakMap<TreeNode, number>();

/**
 * How many albums a listing below `node` would show: hidden albums and what lies below them
 * are left out, and so are the albums inside one with a password (their number is its content).
 * Kept per node, which a rescan replaces: /photos asks it of every folder of the tree.
 */
export function listedAlbumCount(node: TreeNode): number {
  let count = albumCounts.get(node);
  if (count === undefined) {
    count = 0;
    for (const child of listedChildren(node)) {
      if (isAlbum(child)) count++;
      if (child.meta?.password === undefined) count += listedAlbumCount(child);
    }
    albumCounts.set(node, count);
  }
  return count;
}
