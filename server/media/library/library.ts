/**
 * The one index across albums (docs/architecture.md): which files of a set of albums, in what
 * order, with what facts. Search, the timeline, "on this day", the map and feeds all ask it,
 * always for the albums the caller's access rule opened (server/core/access/visible-albums.ts):
 * the library never knows a visitor.
 *
 * Built at start from every album's facts record (server/media/dimensions-file.ts), read a
 * batch at a time in the background (until an album's record is read it has no files here),
 * and kept current: an album's facts as they are saved (`update`), albums gone or new after a
 * rescan, files gone (a slice follows its album's media list, renumbered on first use after a
 * rescan). It never reads a media file. Kept as columns per album (album-slice.ts): about 100
 * bytes a file (docs/benchmarks.md, figure `search`).
 *
 * Search adds, per album rather than per file, the albums' own words (album-directory.ts, one
 * per tree) and a summary of every album side by side (album-summary.ts, kept current album by
 * album): most albums are decided from these without a look at their files (search.ts), and
 * files are listed only for the albums a page needs (search-page.ts).
 */
import type { Album } from '../../core/albums/album-tree.js';
import { hidesLocation, type MediaItem } from '../../core/albums/album-tree.js';
import { inBatches } from '../../core/in-batches.js';
import type { Logger } from '../../core/logger.js';
import type { Stored } from '../dimensions-file.js';
import { AlbumDirectory } from './album-directory.js';
import { AlbumSlice, type Interners, newInterners } from './album-slice.js';
import { AlbumSummary } from './album-summary.js';
import { parseQuery } from './date-phrases.js';
import { mergeNewest, type Picked, type Run } from './newest-merge.js';
import { findCandidates } from './search.js';
import { prepareQuery } from './search-query.js';
import { pickPage } from './search-page.js';

export interface LibraryFile {
  /** The album node of the snapshot asked about (title, path; hideLocation through hidesLocation()). */
  readonly album: Album;
  readonly item: MediaItem;
  /** When it was taken, as a wall-clock time read as UTC ms (docs/api.md#dates); undefined when the file carries no date. */
  readonly taken: number | undefined;
  /** `taken`, else the wall clock of the file's mtime: the order of "newest first". */
  readonly sortTime: number;
  /** When the gallery first saw this version of the file: its mtime. */
  readonly added: number;
  readonly width: number;
  readonly height: number;
  readonly thumbHash?: string;
  readonly duration?: number;
  readonly camera?: string;
  readonly places?: readonly string[];
  /** Exact, to about a metre (kept as 32-bit floats): the CALLER rounds or drops it (hideLocation). */
  readonly position?: { lat: number; lon: number };
}

export type SearchHit = LibraryFile;

/** Results a page of search holds. */
export const SEARCH_PAGE_SIZE = 60;

export interface SearchAnswer {
  /** Files matching, in all pages. */
  readonly total: number;
  /** This page's files, newest first. */
  readonly results: SearchHit[];
  /** Albums matched by their own title, description or folder names, in the order given. */
  readonly albums: Album[];
}

export interface Library {
  /** Files of `albums`, newest first (sortTime, then album path and file name), `limit` after the cursor (an opaque string), and the next cursor. */
  newest(albums: readonly Album[], opts: { cursor?: string | undefined; limit: number }): { files: LibraryFile[]; next?: string };
  /** Files of `albums` per month, newest month first: [{ month: 'YYYY-MM', count }]. */
  months(albums: readonly Album[]): { month: string; count: number }[];
  /** Files carrying a date on month/day (1-based) of a year before `year`, newest first. */
  onThisDay(albums: readonly Album[], month: number, day: number, year: number, limit: number): LibraryFile[];
  /** Files with a position, of albums that do not hide locations (hidesLocation(album) false). */
  positioned(albums: readonly Album[]): Iterable<LibraryFile>;
  /** Search (README "Finding photos"): `page` counts from 1, SEARCH_PAGE_SIZE a page, newest first. */
  search(albums: readonly Album[], query: string, page: number): SearchAnswer;
  /** Resolves when the records known at start are read (tests and the bench wait for it). */
  ready(): Promise<void>;
}

export interface LibraryOptions {
  /** The album index (server/core/albums/album-index.ts), or anything that answers as it does. */
  readonly index: {
    albums(): Iterable<Album>;
    album(path: string): Album | undefined;
    on(event: 'change', listener: () => void): unknown;
    off(event: 'change', listener: () => void): unknown;
  };
  /** An album's facts record as kept on disk (server/media/dimensions-file.ts readAlbumFacts). */
  readonly readFacts: (albumPath: string) => Promise<ReadonlyMap<string, Stored>>;
  readonly log: Logger;
  /** Records read at once at start. */
  readonly batch?: number;
}

export interface LibraryIndex extends Library {
  /** An album's facts as just saved (all its entries): its files here become these. */
  update(albumPath: string, entries: Iterable<readonly [string, Stored]>): void;
  /** Files the library holds, all albums together (the bench, the admin). */
  readonly size: number;
  close(): void;
}

/** A cursor is the last file of a page: its time, album path and name. */
function encodeCursor(last: Picked): string {
  return Buffer.from(JSON.stringify([last.slice.sortTime[last.i], last.album.path, last.slice.item(last.i).name])).toString('base64url');
}

function decodeCursor(cursor: string): { time: number; path: string; name: string } | undefined {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString());
    if (!Array.isArray(parsed) || parsed.length !== 3) return undefined;
    const [time, path, name] = parsed as unknown[];
    return typeof time === 'number' && typeof path === 'string' && typeof name === 'string' ? { time, path, name } : undefined;
  } catch {
    return undefined;
  }
}

export function createLibrary(opts: LibraryOptions): LibraryIndex {
  const { index, readFacts, log } = opts;
  const interners: Interners = newInterners();
  const slices = new Map<string, AlbumSlice>();
  /** Albums whose record is being read, or was: read once; after that, `update` keeps them. */
  const known = new Set<string>();
  /** Albums updated while their record was still being read: the update is newer. */
  const updatedDuring = new Set<string>();
  let closed = false;
  /** The albums of the tree as search last saw it (album-directory.ts): made again when a query names an album it lacks. */
  let directory: AlbumDirectory | undefined;

  /** Counts the changes to `slices` other than renumbering; `changed`: the albums they were to, since the summary was brought up to date. */
  let generation = 0;
  const changed = new Set<string>();

  function put(album: Album, entries: Iterable<readonly [string, Stored]>): void {
    slices.set(album.path, AlbumSlice.fromRecord(album.path, album.media, entries, interners));
    generation++;
    changed.add(album.path);
  }

  async function load(paths: readonly string[]): Promise<void> {
    for (const path of paths) known.add(path);
    await inBatches(paths, opts.batch ?? 16, async (path) => {
      if (closed) return;
      const entries = await readFacts(path).catch((err: unknown) => {
        log.warn({ err }, `could not read the facts of ${path}`);
        return new Map<string, Stored>();
      });
      const album = index.album(path);
      if (album && !updatedDuring.has(path)) put(album, entries);
    });
  }

  /** After a rescan: albums gone are dropped, new ones read. */
  function onChange(): void {
    const now = new Set<string>();
    for (const album of index.albums()) now.add(album.path);
    for (const path of [...known]) {
      if (now.has(path)) continue;
      known.delete(path);
      slices.delete(path);
      generation++;
      changed.add(path);
      updatedDuring.delete(path);
    }
    directory = undefined;
    prepareDirectory();
    const fresh = [...now].filter((path) => !known.has(path));
    if (fresh.length > 0) void load(fresh);
  }

  /** The albums' words for search, made for a new tree outside any request (at 5,000 albums a search would wait 20–150 ms for them). */
  function prepareDirectory(): void {
    setImmediate(() => {
      if (!closed && directory === undefined) directory = new AlbumDirectory(index.albums());
    });
  }

  index.on('change', onChange);
  const started = load([...index.albums()].map((album) => album.path));
  void started.then(prepareDirectory);

  /** The album's slice for its media list as it is now (renumbered once after a rescan changed it). */
  function sliceOf(album: Album): AlbumSlice | undefined {
    const slice = slices.get(album.path);
    if (!slice || slice.media === album.media) return slice;
    const remapped = slice.remapped(album.media, interners);
    slices.set(album.path, remapped);
    return remapped;
  }

  /** The summary of the albums search last used (album-summary.ts), made again when the library changed since. */
  let summary: AlbumSummary | undefined;

  function summaryOf(within: AlbumDirectory): AlbumSummary {
    // Renumbering (sliceOf) changes no generation: the summary holds the slices it made.
    if (summary?.directory === within && summary.generation === generation) return summary;
    const current = summary?.directory === within && changed.size <= within.albums.length / 8 ? summary : undefined;
    const fits =
      current !== undefined &&
      [...changed].every((path) => {
        const n = within.numberAt(path);
        return n === undefined || current.update(n, sliceOf(within.albums[n] as Album));
      });
    summary = fits ? current : new AlbumSummary(within, generation, (n) => sliceOf(within.albums[n] as Album));
    summary.generation = generation;
    changed.clear();
    return summary;
  }

  function withSlices(albums: readonly Album[]): { album: Album; slice: AlbumSlice }[] {
    const out: { album: Album; slice: AlbumSlice }[] = [];
    for (const album of albums) {
      const slice = sliceOf(album);
      if (slice && slice.count > 0) out.push({ album, slice });
    }
    return out;
  }

  function fileOf({ album, slice, i }: Picked): LibraryFile {
    const camera = slice.camera[i] as number;
    const places = slice.places[i] as number;
    const lat = slice.lat[i] as number;
    const duration = slice.duration[i] as number;
    const thumbHash = slice.thumbHash(i);
    return {
      album,
      item: slice.item(i),
      taken: slice.taken[i] === 1 ? (slice.sortTime[i] as number) : undefined,
      sortTime: slice.sortTime[i] as number,
      added: slice.added[i] as number,
      width: slice.width[i] as number,
      height: slice.height[i] as number,
      ...(thumbHash ? { thumbHash } : {}),
      ...(duration > 0 ? { duration } : {}),
      ...(camera >= 0 ? { camera: interners.cameras.values[camera] as string } : {}),
      ...(places >= 0 ? { places: interners.places.values[places] as readonly string[] } : {}),
      ...(Number.isNaN(lat) ? {} : { position: { lat, lon: slice.lon[i] as number } }),
    };
  }

  return {
    ready: async () => {
      await started;
    },
    get size() {
      let files = 0;
      for (const slice of slices.values()) files += slice.count;
      return files;
    },

    update(albumPath, entries) {
      const album = index.album(albumPath);
      if (!album || closed) return;
      if (!known.has(albumPath)) known.add(albumPath);
      updatedDuring.add(albumPath);
      put(album, entries);
    },

    newest(albums, { cursor, limit }) {
      const after = cursor === undefined ? undefined : decodeCursor(cursor);
      const runs: Run[] = withSlices(albums).map(({ album, slice }) => {
        let at = 0;
        if (after) {
          at = slice.firstAtOrBefore(after.time);
          // Files of the cursor's very time come after it by album path, then name.
          while (
            at < slice.count &&
            slice.sortTime[at] === after.time &&
            (album.path < after.path || (album.path === after.path && slice.item(at).name <= after.name))
          )
            at++;
        }
        return { album, slice, at, end: slice.count };
      });
      const picked = mergeNewest(runs, 0, limit);
      const last = picked[picked.length - 1];
      const more = last !== undefined && picked.length === limit && runs.some((run) => run.at < run.end);
      return { files: picked.map(fileOf), ...(more ? { next: encodeCursor(last) } : {}) };
    },

    months(albums) {
      const counts = new Map<string, number>();
      for (const { slice } of withSlices(albums)) for (const [month, count] of slice.months) counts.set(month, (counts.get(month) ?? 0) + count);
      return [...counts].sort((a, b) => (a[0] < b[0] ? 1 : -1)).map(([month, count]) => ({ month, count }));
    },

    onThisDay(albums, month, day, year, limit) {
      const wanted = month * 32 + day;
      const before = Date.UTC(year, 0, 1);
      const runs: Run[] = [];
      for (const { album, slice } of withSlices(albums)) {
        const from = slice.firstAtOrBefore(before - 1);
        const found: number[] = [];
        for (let i = from; i < slice.count; i++) if (slice.monthDay[i] === wanted) found.push(i);
        if (found.length > 0) runs.push({ album, slice, list: Int32Array.from(found), at: 0, end: found.length });
      }
      return mergeNewest(runs, 0, limit).map(fileOf);
    },

    *positioned(albums) {
      for (const { album, slice } of withSlices(albums)) {
        if (hidesLocation(album)) continue;
        for (let i = 0; i < slice.count; i++) if (!Number.isNaN(slice.lat[i])) yield fileOf({ album, slice, i });
      }
    },

    search(albums, query, page) {
      const terms = parseQuery(query);
      if (terms.length === 0) return { total: 0, results: [], albums: [] };
      const find = (within: AlbumDirectory) => {
        const of = summaryOf(within);
        return findCandidates(albums, prepareQuery(terms, interners, of), of);
      };
      let found = directory && find(directory);
      if (!found) {
        // A rescan since (new album nodes): the tree as it is now; an album of an older
        // snapshot than that (a query begun before the rescan): the albums asked about alone.
        directory = new AlbumDirectory(index.albums());
        found = find(directory) ?? (find(new AlbumDirectory(albums)) as NonNullable<typeof found>);
      }
      const results = pickPage(found.candidates, (page - 1) * SEARCH_PAGE_SIZE, SEARCH_PAGE_SIZE).map(fileOf);
      return { total: found.candidates.total, results, albums: found.albums };
    },

    close() {
      closed = true;
      index.off('change', onChange);
    },
  };
}
