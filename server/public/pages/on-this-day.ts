/**
 * "On this day" (README "Finding photos"): photos and videos taken on today's date in earlier
 * years, from the albums this visitor may open (albumsVisibleTo), grouped by year ("3 years
 * ago"). Today is the server's local date: the gallery's family lives in one place, and a page
 * must not change its answer by the visitor's clock.
 *
 * The welcome page is one for everyone and kept (static-pages.ts): it carries an empty,
 * hidden section which a small script (views/assets/on-this-day.js) fills from
 * GET /api/on-this-day, private to the visitor. Nothing is shown when there is nothing.
 */
import type { Request } from 'express';
import { albumsVisibleTo } from '../../core/access/visible-albums.js';
import { albumPageUrl } from '../../core/urls.js';
import type { Translator } from '../../http/i18n.js';
import type { Library } from '../../media/library/library.js';
import { visitorOf } from '../access/visitor.js';
import { type SearchDeps, tilesOf } from './search-results.js';

/** The most files shown, all years together: one row or two on a phone, a strip on a screen. */
export const ON_THIS_DAY_LIMIT = 24;

export interface OnThisDayDeps extends Omit<SearchDeps, 'library'> {
  readonly library: Pick<Library, 'onThisDay' | 'search'>;
}

export interface OnThisDayFile {
  readonly path: string;
  readonly name: string;
  readonly kind: string;
  readonly taken: string | undefined;
  readonly alt: string;
  readonly src: string;
  readonly srcset: string;
  readonly webpSrcset: string;
  readonly width: number | undefined;
  readonly height: number | undefined;
  readonly thumbHash: string | undefined;
  /** The photo in its album's viewer (the album page's deep link). */
  readonly url: string;
}

export interface OnThisDayAnswer {
  /** Today, the server's local date: 'YYYY-MM-DD'. */
  readonly date: string;
  readonly years: { readonly year: number; readonly yearsAgo: number; readonly label: string; readonly files: OnThisDayFile[] }[];
}

export async function onThisDay(req: Request, deps: OnThisDayDeps, translator: Translator, now = new Date()): Promise<OnThisDayAnswer> {
  const year = now.getFullYear();
  const month = now.getMonth() + 1;
  const day = now.getDate();
  const date = `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
  const visible = albumsVisibleTo(deps.index.root, visitorOf(req));
  const hits = deps.library.onThisDay(visible, month, day, year, ON_THIS_DAY_LIMIT);
  const tiles = await tilesOf(req, { ...deps, library: deps.library }, hits, 0, hits.length, translator);
  const years: OnThisDayAnswer['years'] = [];
  for (const tile of tiles) {
    const taken = Number((tile.taken ?? '').slice(0, 4));
    let group = years[years.length - 1];
    if (group?.year !== taken) {
      group = { year: taken, yearsAgo: year - taken, label: translator.t('onThisDay.yearsAgo', { count: year - taken }), files: [] };
      years.push(group);
    }
    group.files.push({
      path: tile.path,
      name: tile.name,
      kind: tile.kind,
      taken: tile.taken ?? undefined,
      alt: tile.alt,
      src: tile.src,
      srcset: tile.srcset,
      webpSrcset: tile.webpSrcset,
      width: tile.width ?? undefined,
      height: tile.height ?? undefined,
      thumbHash: tile.thumbHash ?? undefined,
      url: `${albumPageUrl(tile.album)}#photo=${encodeURIComponent(tile.name)}`,
    });
  }
  return { date, years };
}
