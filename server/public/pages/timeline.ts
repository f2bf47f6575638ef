/**
 * What /timeline and /api/timeline show (README "Finding photos"): every photo and video this
 * visitor may open (server/core/access/visible-albums.ts, the one rule), newest first, from the
 * library (server/media/library/), as the same tiles as an album page (search-results.ts
 * tilesOf). Nothing here reads a file, and nothing of an album the rule leaves out is looked at.
 *
 * A page is TIMELINE_PAGE_SIZE files after a cursor (the library's, opaque). Each tile carries
 * its place in the whole timeline (`index`, which the viewer moves by): a page says where it
 * starts (`at`), and a page that starts at a month (the year scrubber) knows it from the months'
 * counts, which are also the scrubber's.
 */
import type { Request } from 'express';
import type { AlbumIndex } from '../../core/albums/album-index.js';
import type { Album } from '../../core/albums/album-tree.js';
import { albumsVisibleTo } from '../../core/access/visible-albums.js';
import { badRequest } from '../../core/errors.js';
import type { Translator } from '../../http/i18n.js';
import type { Library, LibraryFile } from '../../media/library/library.js';
import { visitorOf } from '../access/visitor.js';
import { type SearchDeps, type SearchResultView, tilesOf } from './search-results.js';

/** Files a page of the timeline holds (and a page of the viewer's list). */
export const TIMELINE_PAGE_SIZE = 120;
/** The longest cursor taken: the library's are far shorter; longer is a 400, not a parse. */
const MAX_CURSOR_LENGTH = 600;

export interface TimelineDeps extends Omit<SearchDeps, 'library'> {
  readonly index: AlbumIndex;
  readonly library: Pick<Library, 'newest' | 'months' | 'search'>;
}

/** Where a page starts: after a cursor (at the place `at`), at a month, or at the newest file. */
export type TimelineStart = { readonly cursor: string; readonly at: number } | { readonly month: string } | undefined;

export interface TimelineMonth {
  readonly month: string;
  readonly count: number;
}

export interface TimelinePage {
  /** Files of the whole timeline. */
  readonly total: number;
  /** Newest month first, with their files' counts. */
  readonly months: readonly TimelineMonth[];
  /** The place of this page's first file in the timeline. */
  readonly at: number;
  readonly tiles: SearchResultView[];
  /** The cursor after this page's last file, when there are more. */
  readonly next?: string | undefined;
}

/** The query's cursor, `at` and month, checked before anything is looked up. */
export function parseTimelineStart(req: Request): TimelineStart {
  const { cursor, at = '0', month } = req.query;
  if (month !== undefined) {
    if (typeof month !== 'string' || !/^\d{4}-(0[1-9]|1[0-2])$/.test(month)) throw badRequest('Invalid parameter: month must be YYYY-MM');
    return { month };
  }
  if (cursor === undefined) return undefined;
  if (typeof cursor !== 'string' || !/^[\w-]+$/.test(cursor) || cursor.length > MAX_CURSOR_LENGTH) throw badRequest('Invalid parameter: cursor');
  if (typeof at !== 'string' || !/^\d{1,9}$/.test(at)) throw badRequest('Invalid parameter: at must be a whole number');
  return { cursor, at: Number(at) };
}

/**
 * A cursor that starts at the newest file of `month` (or the first older one). The library
 * keeps a cursor as the last file shown: [its time, its album's path, its name], base64url
 * JSON (server/media/library/library.ts encodeCursor); the last instant of the month with an
 * empty path comes before every file of that instant. Asked of the library as `newest(…, {
 * before })` (the report of this branch); until then made here, and held by a test.
 */
export function cursorAtEndOf(month: string): string {
  const [year, m] = month.split('-').map(Number) as [number, number];
  return Buffer.from(JSON.stringify([Date.UTC(year, m, 1) - 1, '', ''])).toString('base64url');
}

/** Files of the months newer than `month`: the place of its first file. */
function placeOfMonth(months: readonly TimelineMonth[], month: string): number {
  let before = 0;
  for (const m of months) {
    if (m.month <= month) break;
    before += m.count;
  }
  return before;
}

/** Which files a page of the timeline holds, for albums already chosen by the rule: the library's part of a page (the bench measures it alone). */
export function timelineFiles(
  library: Pick<Library, 'newest' | 'months'>,
  visible: readonly Album[],
  start: TimelineStart,
): { total: number; months: TimelineMonth[]; at: number; files: LibraryFile[]; next?: string | undefined } {
  const months = library.months(visible);
  const total = months.reduce((sum, m) => sum + m.count, 0);
  let cursor: string | undefined;
  let at = 0;
  if (start && 'month' in start) {
    cursor = cursorAtEndOf(start.month);
    at = placeOfMonth(months, start.month);
  } else if (start) {
    cursor = start.cursor;
    at = Math.min(start.at, total);
  }
  const { files, next } = library.newest(visible, { cursor, limit: TIMELINE_PAGE_SIZE });
  return { total, months, at, files, next };
}

/** The visitor's timeline from `start`: a page of tiles and the months' counts. */
export async function timelinePage(req: Request, deps: TimelineDeps, start: TimelineStart, translator: Translator): Promise<TimelinePage> {
  const visible = albumsVisibleTo(deps.index.root, visitorOf(req));
  const { total, months, at, files, next } = timelineFiles(deps.library, visible, start);
  const tiles = await tilesOf(req, { ...deps, library: deps.library }, files, at, total, translator);
  return { total, months, at, tiles, next };
}

/**
 * Which files page `page` of the viewer's list holds (views/assets/album-items.js asks by page
 * number): from the month the page starts in, so a far page costs at most one month's files
 * skipped, never the whole timeline's.
 */
export function viewerFiles(
  library: Pick<Library, 'newest' | 'months'>,
  visible: readonly Album[],
  page: number,
): { offset: number; total: number; files: LibraryFile[] } {
  const months = library.months(visible);
  const total = months.reduce((sum, m) => sum + m.count, 0);
  const offset = (page - 1) * TIMELINE_PAGE_SIZE;
  if (offset >= total) return { offset, total, files: [] };
  let before = 0;
  let month = months[0]!;
  for (const m of months) {
    month = m;
    if (before + m.count > offset) break;
    before += m.count;
  }
  const skip = offset - before;
  const { files } = library.newest(visible, { cursor: cursorAtEndOf(month.month), limit: skip + TIMELINE_PAGE_SIZE });
  return { offset, total, files: files.slice(skip) };
}

/** A page of the viewer's list, as tiles. */
export async function viewerPage(req: Request, deps: TimelineDeps, page: number, translator: Translator): Promise<{ page: number; items: SearchResultView[] }> {
  const visible = albumsVisibleTo(deps.index.root, visitorOf(req));
  const { offset, total, files } = viewerFiles(deps.library, visible, page);
  const items = await tilesOf(req, { ...deps, library: deps.library }, files, offset, total, translator);
  return { page, items };
}

/**
 * The page of the viewer's list holding the file at `path` (a deep link, `#photo=<path>`), or
 * undefined when this visitor's timeline has no such file. Costs its album's files and its
 * month's.
 */
export function pageOfFile(req: Request, deps: TimelineDeps, path: string): number | undefined {
  const visible = albumsVisibleTo(deps.index.root, visitorOf(req));
  const slash = path.lastIndexOf('/');
  const album: Album | undefined = visible.find((a) => a.path === path.slice(0, slash));
  const name = path.slice(slash + 1);
  if (!album || slash < 0) return undefined;
  const own = deps.library.newest([album], { limit: album.media.length }).files.find((f) => f.item.name === name);
  if (!own) return undefined;
  const month = new Date(own.sortTime).toISOString().slice(0, 7);
  const months = deps.library.months(visible);
  const monthCount = months.find((m) => m.month === month)?.count ?? 0;
  const inMonth = deps.library
    .newest(visible, { cursor: cursorAtEndOf(month), limit: monthCount })
    .files.findIndex((f) => f.album === album && f.item.name === name);
  if (inMonth < 0) return undefined;
  return Math.floor((placeOfMonth(months, month) + inMonth) / TIMELINE_PAGE_SIZE) + 1;
}

/** Years of the scrubber, newest first: each with its files' count and its newest month (where its link starts). */
export function yearsOf(months: readonly TimelineMonth[]): { year: string; count: number; month: string }[] {
  const years: { year: string; count: number; month: string }[] = [];
  for (const { month, count } of months) {
    const year = month.slice(0, 4);
    const last = years[years.length - 1];
    if (last?.year === year) last.count += count;
    else years.push({ year, count, month });
  }
  return years;
}
