/**
 * What /search and /api/search show of a query (README "Finding photos"): the library's
 * matches among the albums this visitor may open (server/core/access/visible-albums.ts, the
 * one rule), made into the same tiles as an album page (media-items.ts) and album cards.
 * Facts come from the library, never from a file: a result is shown as its album's record
 * knows it.
 */
import type { Request } from 'express';
import type { AlbumIndex } from '../../core/albums/album-index.js';
import type { Album } from '../../core/albums/album-tree.js';
import { albumsVisibleTo } from '../../core/access/visible-albums.js';
import { badRequest } from '../../core/errors.js';
import type { Translator } from '../../http/i18n.js';
import type { MediaDimensions } from '../../media/dimensions.js';
import { type Library, type LibraryFile, SEARCH_PAGE_SIZE } from '../../media/library/library.js';
import type { ReadableMedia } from '../access/gallery-access.js';
import { visitorOf } from '../access/visitor.js';
import { type CardView, cardFor } from './cards.js';
import type { CoverFocusLookup } from '../../media/cover-focus.js';
import { type MediaView, mediaViews } from './media-items.js';
import type { MediaStats } from './media-stats.js';
import { altText } from './taken-text.js';

/** The longest query taken (characters): longer is a 400, not a slow answer. */
export const MAX_QUERY_LENGTH = 200;
/** The last page asked for: 1,000 pages of 60 are more than anyone pages through. */
const MAX_PAGE = 1000;

export interface SearchDeps {
  readonly index: AlbumIndex;
  readonly library: Pick<Library, 'search'>;
  readonly stats: MediaStats;
  readonly readableMedia: ReadableMedia;
  readonly coverFocus?: CoverFocusLookup | undefined;
}

/** A result tile: an album page's tile, with the album it is in. */
export interface SearchResultView extends MediaView {
  readonly album: string;
  readonly albumTitle: string;
}

export interface SearchView {
  readonly query: string;
  readonly total: number;
  readonly page: number;
  readonly pages: number;
  readonly perPage: number;
  readonly results: SearchResultView[];
  /** Albums found by their own words, page 1 only, the first SEARCH_ALBUM_CARDS of them. */
  readonly albums: Album[];
  /** How many albums their own words found (page 1 only; 0 on the others). */
  readonly albumsTotal: number;
}

/**
 * Album cards above the results, at most: a word found in half the library's titles ("sea")
 * would otherwise put thousands of cards (each a cover to look up) before the first photo.
 * The heading then says how many there are; another word narrows them.
 */
export const SEARCH_ALBUM_CARDS = 12;

/** The query's `q` and `page`, checked before anything is looked up. */
export function parseSearchQuery(req: Request): { q: string; page: number } {
  const { q = '', page = '1' } = req.query;
  if (typeof q !== 'string') throw badRequest('Invalid parameter: q must be a string');
  if (q.length > MAX_QUERY_LENGTH) throw badRequest(`Invalid parameter: q must be at most ${MAX_QUERY_LENGTH} characters`);
  if (typeof page !== 'string' || !/^[1-9]\d{0,6}$/.test(page) || Number(page) > MAX_PAGE) {
    throw badRequest(`Invalid parameter: page must be an integer from 1 to ${MAX_PAGE}`);
  }
  return { q: q.trim(), page: Number(page) };
}

export async function searchView(req: Request, deps: SearchDeps, query: { q: string; page: number }, translator: Translator): Promise<SearchView> {
  const visible = albumsVisibleTo(deps.index.root, visitorOf(req));
  const answer = query.q === '' ? { total: 0, results: [], albums: [] } : deps.library.search(visible, query.q, query.page);
  const offset = (query.page - 1) * SEARCH_PAGE_SIZE;
  const results = await tilesOf(req, deps, answer.results, offset, answer.total, translator);
  return {
    query: query.q,
    total: answer.total,
    page: query.page,
    pages: Math.max(1, Math.ceil(answer.total / SEARCH_PAGE_SIZE)),
    perPage: SEARCH_PAGE_SIZE,
    results,
    albums: query.page === 1 ? answer.albums.slice(0, SEARCH_ALBUM_CARDS) : [],
    albumsTotal: query.page === 1 ? answer.albums.length : 0,
  };
}

/** Cards of the albums found (their covers, their counts), as folder pages show them. */
export function albumCards(deps: SearchDeps, albums: readonly Album[], translator: Translator): Promise<CardView[]> {
  return Promise.all(albums.map((album) => cardFor(album, false, deps.index, deps.stats, translator.t, deps.coverFocus)));
}

/**
 * The tiles of a page of results (search, the timeline, on this day), album by album through the page's own tile maker, then in
 * the results' order. A file the visitor may not read after all (a symlink into an album it
 * cannot open) is left out.
 */
export async function tilesOf(
  req: Request,
  deps: SearchDeps,
  hits: readonly LibraryFile[],
  offset: number,
  total: number,
  translator: Translator,
): Promise<SearchResultView[]> {
  const byAlbum = new Map<Album, LibraryFile[]>();
  for (const hit of hits) byAlbum.set(hit.album, [...(byAlbum.get(hit.album) ?? []), hit]);
  const views = new Map<LibraryFile, MediaView>();
  for (const [album, albumHits] of byAlbum) {
    const readable = new Map((await deps.readableMedia(req, album)).map((file) => [file.item, file]));
    const listed = albumHits.filter((hit) => readable.has(hit.item));
    const facts = new Map(listed.map((hit) => [hit.item, dimensionsOf(hit)]));
    const made = await mediaViews(
      album,
      listed.map((hit) => readable.get(hit.item)!),
      1,
      deps.stats,
      async (_node, items) => items.map((item) => facts.get(item)),
      translator,
    );
    for (const [i, hit] of listed.entries()) views.set(hit, made[i]!);
  }
  const tiles: SearchResultView[] = [];
  for (const hit of hits) {
    const view = views.get(hit);
    if (!view) continue;
    const index = offset + tiles.length;
    const alt =
      view.caption ??
      altText({ kind: view.kind, live: view.motion !== null, taken: view.taken, durationText: view.durationText, position: index + 1, total }, translator);
    tiles.push({ ...view, index, alt, album: hit.album.path, albumTitle: hit.album.meta.title });
  }
  return tiles;
}

/** A file's facts as the tile maker takes them, from the library. */
function dimensionsOf(hit: LibraryFile): MediaDimensions {
  // sortTime is the wall clock read as UTC (the date the page shows, a file's own or its mtime's).
  const taken = new Date(hit.sortTime).toISOString().slice(0, 19);
  return {
    width: hit.width,
    height: hit.height,
    ...(hit.duration !== undefined ? { duration: hit.duration } : {}),
    ...(hit.thumbHash ? { thumbHash: hit.thumbHash } : {}),
    ...(taken ? { taken, takenFromFile: hit.taken === undefined } : {}),
  };
}
