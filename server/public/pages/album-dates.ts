import type { Album, MediaItem } from '../../core/albums/album-tree.js';
import { type TakenDate, wallClockOf } from '../../core/media/taken-date.js';
import type { ReadableFile } from '../resolvers.js';
import type { DimensionsProvider, MediaDimensions } from '../../media/dimensions.js';
import type { MediaStats } from './media-stats.js';

/**
 * The visitor's readable media of an album (see ReadableMedia), put in the album's order.
 * Every listing goes through it: the album page and its pages, the album-media API (and the
 * viewer's deep links through it), the ZIP.
 */
export type MediaOrder = (albumPath: string, files: readonly ReadableFile[]) => Promise<readonly ReadableFile[]>;

/** What the album header says of its dates. */
export interface AlbumSpan {
  /** The first and last date, which the page writes in its language ("3–9 June 2024", taken-text.ts); undefined while not all dates are known, or when none is. */
  readonly range: readonly [TakenDate, TakenDate] | undefined;
  /** Every date of the album is known: its order and span are final (a page made now may be kept). */
  readonly settled: boolean;
}

export interface AlbumDatesOptions {
  /** The dimensions pass (server/public/pages/dimensions.ts), which reads each file's date with its size. */
  readonly dimensions: DimensionsProvider;
  /** The files' mtimes, for files whose dates are not read yet. */
  readonly stats: Pick<MediaStats, 'all'>;
  readonly findAlbum: (albumPath: string) => Album | undefined;
}

/** While an album's dates are being read, how often a page view looks at them again. */
const PEEK_EVERY_MS = 2000;

/**
 * The dates taken of an album's media, as the album uses them: its order when `album.json`
 * says `"sort": "date"`, and the span its header shows (docs/api.md#dates).
 *
 * Dates come from the dimensions pass, which reads them from file headers in the background
 * and caches them on disk; no file is read here. The order by date is: date taken (EXIF,
 * container time, else the file's mtime), then the file's mtime, then the natural file-name
 * order. Until the pass has read every file of the album (a cold cache: its first view waits
 * for the reads as long as for a page's sizes), a file not read yet is placed by its mtime,
 * which is what its date falls back to anyway and, for files copied off a camera or phone,
 * usually close to it; the order is then only a step away from the final one, and the page
 * cache keeps pages made meanwhile under a key of their own (server/public/pages/album-page.ts). Once every date is known the
 * order is worked out once per version of the album.
 */
export class AlbumDates {
  readonly #opts: AlbumDatesOptions;
  /** An album's final order by date: each item's place. A rescan makes new album nodes. */
  readonly #final = new WeakMap<Album, ReadonlyMap<MediaItem, number>>();
  /**
   * Listings put in their final order, by the listing they were made from: the resolvers hand
   * out one listing per album for every visitor of an album of plain files, so a page served
   * from the page cache costs no sort.
   */
  readonly #sorted = new WeakMap<readonly ReadableFile[], readonly ReadableFile[]>();
  /** Final spans, by listing (one per album version for every visitor, as #sorted). */
  readonly #spans = new WeakMap<readonly ReadableFile[], { readonly album: Album; readonly span: AlbumSpan }>();
  /** When an album whose dates are still being read was last peeked at. */
  readonly #peeked = new WeakMap<Album, number>();

  constructor(opts: AlbumDatesOptions) {
    this.#opts = opts;
  }

  readonly order: MediaOrder = async (albumPath, files) => {
    const album = this.#opts.findAlbum(albumPath);
    if (album?.meta.sort !== 'date' || files.length < 2) return files;
    const known = this.#sorted.get(files);
    if (known) return known;
    const place = await this.#placesByDate(album);
    const last = place.size;
    const sorted = [...files].sort((a, b) => (place.get(a.item) ?? last) - (place.get(b.item) ?? last));
    if (this.#final.get(album) === place) this.#sorted.set(files, sorted);
    return sorted;
  };

  /** The span of the dates of `files` (what the visitor sees of `album`), once all are known. */
  async span(album: Album, files: readonly ReadableFile[]): Promise<AlbumSpan> {
    const { dimensions } = this.#opts;
    const known = this.#spans.get(files);
    if (known?.album === album) return known.span;
    // The whole album is looked at, whatever the page shows; reads still missing go on in the
    // background. The first look waits for the disk cache (a warm album's span is there at
    // once); while reads go on, a look every PEEK_EVERY_MS starts again any the pool refused,
    // and the requests in between cost nothing (a cold album of 20,000 is asked for often).
    let all: readonly (MediaDimensions | undefined)[] | undefined;
    const settledNow = () => dimensions.settled?.(album.media) ?? true;
    if (!settledNow()) {
      const peeked = this.#peeked.get(album);
      const now = performance.now();
      if (peeked !== undefined && now - peeked < PEEK_EVERY_MS) return { range: undefined, settled: false };
      this.#peeked.set(album, now);
      all = await (dimensions.peek ?? dimensions)(album, album.media);
      if (!settledNow()) return { range: undefined, settled: false };
    }
    all ??= await (dimensions.peek ?? dimensions)(album, album.media);
    const span = { range: spanRange(album, files, all), settled: true };
    this.#spans.set(files, { album, span });
    return span;
  }

  /** Each item's place in the album's order by date. */
  async #placesByDate(album: Album): Promise<ReadonlyMap<MediaItem, number>> {
    const known = this.#final.get(album);
    if (known) return known;
    const { dimensions, stats } = this.#opts;
    const items = album.media;
    // Waits as a page waits for its sizes (a cold album: a few seconds at most), then goes on
    // with what it knows.
    const [dims, stated] = await Promise.all([dimensions(album, items), stats.all(album, items)]);
    const keys = items.map((item, at) => {
      const mtimeMs = stated[at]?.mtimeMs;
      const taken: TakenDate | undefined = dims[at]?.taken ?? (mtimeMs === undefined ? undefined : wallClockOf(mtimeMs));
      return { item, at, taken, mtimeMs: mtimeMs ?? Number.POSITIVE_INFINITY };
    });
    // Files without any date (unreadable, gone) go last; ties keep the album's natural order.
    keys.sort((a, b) => compareTaken(a.taken, b.taken) || a.mtimeMs - b.mtimeMs || a.at - b.at);
    const places = new Map(keys.map((k, place) => [k.item, place]));
    if (dimensions.settled?.(items) ?? true) this.#final.set(album, places);
    return places;
  }
}

/** The first and last date of `files`, given the dimensions of each of `album.media`. */
function spanRange(album: Album, files: readonly ReadableFile[], all: readonly (MediaDimensions | undefined)[]): readonly [TakenDate, TakenDate] | undefined {
  if (files.length === 0) return undefined;
  const byItem = new Map(album.media.map((item, at) => [item, all[at]]));
  const dims = files.map((f) => byItem.get(f.item));
  // A photo without a date of its own (a screenshot, a copy whose mtime is the day of the
  // copy) must not stretch an album of 2019 into 2025: the files' dates count only when no
  // file carries one.
  const carried = dims.flatMap((d) => (d?.taken && !d.takenFromFile ? [d.taken] : []));
  const dates = carried.length > 0 ? carried : dims.flatMap((d) => (d?.taken ? [d.taken] : []));
  if (dates.length === 0) return undefined;
  const first = dates.reduce((a, b) => (b < a ? b : a));
  const last = dates.reduce((a, b) => (b > a ? b : a));
  return [first, last];
}

function compareTaken(a: TakenDate | undefined, b: TakenDate | undefined): number {
  if (a === b) return 0;
  if (a === undefined) return 1;
  if (b === undefined) return -1;
  // `YYYY-MM-DDTHH:MM:SS` sorts as text.
  return a < b ? -1 : 1;
}
