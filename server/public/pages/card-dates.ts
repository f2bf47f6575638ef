/**
 * The dates an album card shows under its title (README "Albums"): "Dec 2023", "Jun – Aug
 * 2023", "Dec 2022 – Jan 2023", "2022 – 2024", in the page's language (Intl.DateTimeFormat).
 *
 * They come from the library (server/media/library/), which holds every album's facts record in
 * memory: the months its files were taken in (a file without a date of its own counts by its
 * mtime, as the timeline places it). No file is read, and a card of 150 on /photos costs a
 * few map lookups.
 *
 * A card counts the files its visitor would open from it: an album's own files; for a folder
 * or a collection, those of the albums below it that no password of their own closes and that
 * are not hidden (a hidden album is reached by its link, never listed; a locked one shows no
 * date anywhere). A locked card never asks (cards.ts).
 */
import { type Album, isAlbum, type TreeNode } from '../../core/albums/album-tree.js';
import type { Library } from '../../media/library/library.js';
import type { CardDatesOf } from './cards.js';

/** Month spans up to this long are written with their months ("Nov 2023 – Feb 2024"); longer, with years only. */
const LONGEST_MONTH_SPAN = 12;

/** The dates of cards in one language: made per page from `createCardDates`. */
export type CardDates = (locale: string) => CardDatesOf;

/**
 * Until the library has read every album's facts at start, or while an album with files has no
 * facts yet (it is being prepared), a card says so as `pending`: the page is kept a moment only
 * and made again (as for a cover's crop), so dates appear once they are known.
 */
export function createCardDates(library: Pick<Library, 'months' | 'ready'>): CardDates {
  let ready = false;
  void library.ready().then(() => {
    ready = true;
  });
  return (locale) => {
    const monthFormat = new Intl.DateTimeFormat(locale, { month: 'short', year: 'numeric', timeZone: 'UTC' });
    const yearFormat = new Intl.DateTimeFormat(locale, { year: 'numeric', timeZone: 'UTC' });
    return (node) => {
      let first: string | undefined;
      let last: string | undefined;
      let pending = !ready;
      for (const album of albumsOfCard(node)) {
        const months = library.months([album]);
        if (months.length === 0) {
          if (album.media.length > 0) pending = true;
          continue;
        }
        // Newest month first.
        const newest = months[0]!.month;
        const oldest = months[months.length - 1]!.month;
        if (last === undefined || newest > last) last = newest;
        if (first === undefined || oldest < first) first = oldest;
      }
      if (first === undefined || last === undefined) return { text: undefined, pending };
      return { text: spanText(first, last, monthFormat, yearFormat), pending };
    };
  };
}

/** "YYYY-MM" to the first instant of that month (UTC: the months are wall-clock months). */
function monthStart(month: string): number {
  const [year, m] = month.split('-').map(Number) as [number, number];
  return Date.UTC(year, m - 1, 1);
}

/** The span of two months as a card writes it. */
export function spanText(first: string, last: string, monthFormat: Intl.DateTimeFormat, yearFormat: Intl.DateTimeFormat): string {
  const start = monthStart(first);
  const end = monthStart(last);
  if (first === last) return monthFormat.format(start);
  const [y1, m1] = first.split('-').map(Number) as [number, number];
  const [y2, m2] = last.split('-').map(Number) as [number, number];
  const months = (y2 - y1) * 12 + (m2 - m1);
  if (months < LONGEST_MONTH_SPAN) return monthFormat.formatRange(start, end);
  return y1 === y2 ? yearFormat.format(start) : yearFormat.formatRange(start, end);
}

/**
 * The albums whose files a card counts: the album itself when it has files of its own (or is
 * not a collection); else the albums below it that are listed and not closed by a password
 * of their own below the card.
 */
function albumsOfCard(node: TreeNode): Album[] {
  if (isAlbum(node) && (!node.meta.isCollection || node.media.length > 0)) return [node];
  const found: Album[] = [];
  const walk = (n: TreeNode) => {
    for (const child of n.children) {
      if (isAlbum(child)) {
        if (child.meta.hidden || child.meta.password !== undefined) continue;
        found.push(child);
      }
      walk(child);
    }
  };
  walk(node);
  return found;
}
