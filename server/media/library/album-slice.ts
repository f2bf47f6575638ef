/**
 * What the library keeps of one album's files: columns (typed arrays) in the order "newest
 * first" (sortTime, then name), built from the album's facts record, and the words of its file
 * names. Files are numbered by their place in the album's media list, never by name, so a
 * file's name is kept once, in the album tree.
 */
import type { MediaItem } from '../../core/albums/album-tree.js';
import { isTakenDate, wallClockOf } from '../../core/media/taken-date.js';
import type { Stored } from '../dimensions-file.js';
import { TokenIndex } from './token-index.js';
import { wordsOf } from './words.js';

/** Strings kept once however many files carry them (camera names, a file's list of places). */
export class Interner<T> {
  readonly values: T[] = [];
  readonly #ids = new Map<string, number>();
  constructor(private readonly keyOf: (value: T) => string) {}
  id(value: T): number {
    const key = this.keyOf(value);
    let id = this.#ids.get(key);
    if (id === undefined) {
      id = this.values.length;
      this.values.push(value);
      this.#ids.set(key, id);
    }
    return id;
  }
}

export interface Interners {
  readonly cameras: Interner<string>;
  readonly places: Interner<readonly string[]>;
  /** Lists of the words all file names of an album have (AlbumSlice.namesEverywhere): few in a library. */
  readonly everywhere: Interner<readonly string[]>;
}

/** The library's interners, empty. */
export function newInterners(): Interners {
  const list = (words: readonly string[]) => words.join('\u0000');
  return { cameras: new Interner<string>((camera) => camera), places: new Interner(list), everywhere: new Interner(list) };
}

/** One file's facts as the library keeps them. */
interface Row {
  itemAt: number;
  sortTime: number;
  taken: boolean;
  added: number;
  width: number;
  height: number;
  duration: number;
  thumbHash: Buffer | undefined;
  camera: number;
  lat: number;
  lon: number;
  places: number;
}

const NONE = -1;

/** A wall-clock time as UTC ms: "2023-12-24T18:00:00" → Date.UTC(2023, 11, 24, 18). */
export const wallClockMs = (taken: string): number => Date.parse(`${taken}Z`);

export class AlbumSlice {
  readonly count: number;
  readonly itemAt: Int32Array;
  readonly sortTime: Float64Array;
  /** 1 where `sortTime` is the date the file carries, 0 where it is its mtime. */
  readonly taken: Uint8Array;
  readonly added: Float64Array;
  readonly width: Uint32Array;
  readonly height: Uint32Array;
  readonly duration: Float32Array;
  /** An id of the library's cameras (Interner); -1: none. */
  readonly camera: Int16Array;
  readonly lat: Float32Array;
  readonly lon: Float32Array;
  readonly places: Int32Array;
  /** month × 32 + day of the date a file carries (0: none), for "on this day". */
  readonly monthDay: Uint16Array;
  readonly #hashes: Buffer;
  readonly #hashStarts: Uint32Array;
  /** Words of file names. */
  readonly names: TokenIndex;
  /** The words every file's name has ("img", "jpg"), an id of Interners.everywhere: a search finds all the album's files by them without a look. */
  readonly namesEverywhere: number;
  /**
   * Cameras and place lists the album's files have, with how many files have each (a query
   * counts by them, file by file only when it must), in one array (an array costs more than
   * its numbers here): cameras, places, then each's ids and counts (countsOf).
   */
  readonly #counts: Int32Array;
  /** Files per month, 'YYYY-MM'. */
  readonly months: ReadonlyMap<string, number>;
  #captions: { of: ReadonlyMap<string, string>; index: TokenIndex } | undefined;

  private constructor(
    readonly path: string,
    /** The media list the files' numbers refer to (an album's, as of one scan). */
    readonly media: readonly MediaItem[],
    rows: Row[],
    interners: Interners,
  ) {
    rows.sort((a, b) => b.sortTime - a.sortTime || compareNames(media[a.itemAt] as MediaItem, media[b.itemAt] as MediaItem));
    const n = rows.length;
    this.count = n;
    this.itemAt = Int32Array.from(rows, (r) => r.itemAt);
    this.sortTime = Float64Array.from(rows, (r) => r.sortTime);
    this.taken = Uint8Array.from(rows, (r) => (r.taken ? 1 : 0));
    this.added = Float64Array.from(rows, (r) => r.added);
    this.width = Uint32Array.from(rows, (r) => r.width);
    this.height = Uint32Array.from(rows, (r) => r.height);
    this.duration = Float32Array.from(rows, (r) => r.duration);
    this.camera = Int16Array.from(rows, (r) => r.camera);
    this.lat = Float32Array.from(rows, (r) => r.lat);
    this.lon = Float32Array.from(rows, (r) => r.lon);
    this.places = Int32Array.from(rows, (r) => r.places);
    this.monthDay = new Uint16Array(n);
    this.#hashStarts = new Uint32Array(n + 1);
    let bytes = 0;
    rows.forEach((r, i) => {
      this.#hashStarts[i] = bytes;
      bytes += r.thumbHash?.length ?? 0;
    });
    this.#hashStarts[n] = bytes;
    this.#hashes = Buffer.alloc(bytes);
    const months = new Map<string, number>();
    rows.forEach((r, i) => {
      r.thumbHash?.copy(this.#hashes, this.#hashStarts[i]);
      const t = new Date(r.sortTime);
      if (r.taken) this.monthDay[i] = (t.getUTCMonth() + 1) * 32 + t.getUTCDate();
      const month = `${String(t.getUTCFullYear()).padStart(4, '0')}-${String(t.getUTCMonth() + 1).padStart(2, '0')}`;
      months.set(month, (months.get(month) ?? 0) + 1);
    });
    this.months = months;
    const cameras = idCounts(this.camera);
    const places = idCounts(this.places);
    this.#counts = Int32Array.from([cameras.size, places.size, ...cameras.keys(), ...cameras.values(), ...places.keys(), ...places.values()]);
    this.names = TokenIndex.build(n, (i) => wordsOf((media[this.itemAt[i] as number] as MediaItem).name));
    this.namesEverywhere = interners.everywhere.id(n > 0 ? this.names.everywhere(n) : []);
  }

  /** The slice of an album's facts record: one entry per file of `media` the record knows (a Live Photo's movie is not one). */
  static fromRecord(path: string, media: readonly MediaItem[], entries: Iterable<readonly [string, Stored]>, interners: Interners): AlbumSlice {
    const at = new Map<string, number>();
    media.forEach((item, i) => {
      at.set(item.name, i);
    });
    const rows: Row[] = [];
    for (const [name, stored] of entries) {
      const itemAt = at.get(name);
      // A file shown through a symlink into another album is listed under its own album, by
      // its own album's access: never here, where the link's album might open what its own does not.
      if (itemAt !== undefined && !stored.elsewhere) rows.push(rowOf(itemAt, stored, interners));
    }
    return new AlbumSlice(path, media, rows, interners);
  }

  /** This slice for the album's media list as a rescan made it: files gone are left out, the others renumbered. */
  remapped(media: readonly MediaItem[], interners: Interners): AlbumSlice {
    const at = new Map<string, number>();
    media.forEach((item, i) => {
      at.set(item.name, i);
    });
    const rows: Row[] = [];
    for (let i = 0; i < this.count; i++) {
      const itemAt = at.get((this.media[this.itemAt[i] as number] as MediaItem).name);
      if (itemAt !== undefined) rows.push({ ...this.#row(i), itemAt });
    }
    return new AlbumSlice(this.path, media, rows, interners);
  }

  /** The album's cameras (or place lists) and how many of its files have each. */
  /**
   * Files per pair of camera and place list (both known), made on the first query that names
   * both (a camera and a place: "lisbon canon"), so such a query counts an album from a few
   * pairs instead of a pass over its files (11 ms at a million files); kept with the slice,
   * which a change of the album's facts replaces.
   */
  pairCounts(): PairCounts {
    if (this.#pairs) return this.#pairs;
    const at = new Map<number, number>();
    const cameras: number[] = [];
    const places: number[] = [];
    const counts: number[] = [];
    for (let i = 0; i < this.count; i++) {
      const camera = this.camera[i] as number;
      const place = this.places[i] as number;
      if (camera < 0 || place < 0) continue;
      // Exact as a double: a camera id is under 2^15, a place list's under 2^31.
      const key = place * 0x8000 + camera;
      const k = at.get(key);
      if (k === undefined) {
        at.set(key, counts.length);
        cameras.push(camera);
        places.push(place);
        counts.push(1);
      } else counts[k]!++;
    }
    this.#pairs = { cameras: Int32Array.from(cameras), places: Int32Array.from(places), counts: Int32Array.from(counts) };
    return this.#pairs;
  }

  #pairs: PairCounts | undefined;

  countsOf(kind: 'camera' | 'places'): IdCounts {
    const cameras = this.#counts[0] as number;
    const places = this.#counts[1] as number;
    const from = kind === 'camera' ? 2 : 2 + 2 * cameras;
    const size = kind === 'camera' ? cameras : places;
    return { ids: this.#counts.subarray(from, from + size), counts: this.#counts.subarray(from + size, from + 2 * size) };
  }

  item(i: number): MediaItem {
    return this.media[this.itemAt[i] as number] as MediaItem;
  }

  thumbHash(i: number): string | undefined {
    const from = this.#hashStarts[i] as number;
    const to = this.#hashStarts[i + 1] as number;
    return to > from ? this.#hashes.toString('base64', from, to) : undefined;
  }

  /** The words of the album's captions (album.json `captions`), indexed once per version of album.json. */
  captions(captions: ReadonlyMap<string, string>): TokenIndex {
    if (captions.size === 0) return TokenIndex.EMPTY;
    if (this.#captions?.of !== captions) {
      const index = TokenIndex.build(this.count, (i) => {
        const caption = captions.get(this.item(i).name);
        return caption ? wordsOf(caption) : [];
      });
      this.#captions = { of: captions, index };
    }
    return this.#captions.index;
  }

  /** The first file at or after (older than) `time`: files are newest first. */
  firstAtOrBefore(time: number): number {
    let lo = 0;
    let hi = this.count;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.sortTime[mid] as number) > time) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  #row(i: number): Row {
    const from = this.#hashStarts[i] as number;
    const to = this.#hashStarts[i + 1] as number;
    return {
      itemAt: this.itemAt[i] as number,
      sortTime: this.sortTime[i] as number,
      taken: this.taken[i] === 1,
      added: this.added[i] as number,
      width: this.width[i] as number,
      height: this.height[i] as number,
      duration: this.duration[i] as number,
      thumbHash: to > from ? this.#hashes.subarray(from, to) : undefined,
      camera: this.camera[i] as number,
      lat: this.lat[i] as number,
      lon: this.lon[i] as number,
      places: this.places[i] as number,
    };
  }
}

/** Ids (of an Interner) and how many files carry each. */
/** Files per pair of camera and place list, side by side (AlbumSlice.pairCounts). */
export interface PairCounts {
  readonly cameras: Int32Array;
  readonly places: Int32Array;
  readonly counts: Int32Array;
}

export interface IdCounts {
  readonly ids: Int32Array;
  readonly counts: Int32Array;
}

function idCounts(column: Int16Array | Int32Array): Map<number, number> {
  const counts = new Map<number, number>();
  for (const id of column) if (id !== NONE) counts.set(id, (counts.get(id) ?? 0) + 1);
  return counts;
}

/** Names in the album's order of files with equal times: as strings compare (stable, locale-free). */
export function compareNames(a: MediaItem, b: MediaItem): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

function rowOf(itemAt: number, s: Stored, interners: Interners): Row {
  const taken = s.taken !== undefined && isTakenDate(s.taken);
  // The date a page shows (server/media/dimensions-file.ts toDimensions): the file's own, else its mtime's wall clock.
  const wallClock = taken ? s.taken : wallClockOf(s.mtimeMs);
  const position = s.position;
  const located =
    position !== undefined && Number.isFinite(position.lat) && Number.isFinite(position.lon) && Math.abs(position.lat) <= 90 && Math.abs(position.lon) <= 180;
  const places = Array.isArray(s.places) ? s.places.filter((p): p is string => typeof p === 'string' && p.length > 0) : [];
  return {
    itemAt,
    sortTime: wallClock ? wallClockMs(wallClock) : s.mtimeMs,
    taken,
    added: s.mtimeMs,
    width: s.width,
    height: s.height,
    duration: s.duration ?? 0,
    thumbHash: s.thumbHash ? Buffer.from(s.thumbHash, 'base64') : undefined,
    camera: typeof s.camera === 'string' && s.camera.trim() ? cameraId(interners, s.camera.trim()) : NONE,
    lat: located ? position.lat : Number.NaN,
    lon: located ? position.lon : Number.NaN,
    places: places.length > 0 ? interners.places.id(places) : NONE,
  };
}

/** Cameras are kept as 16-bit ids: a library of more than 32,767 camera names finds the rest by no camera. */
function cameraId(interners: Interners, camera: string): number {
  const id = interners.cameras.id(camera);
  return id <= 0x7fff ? id : NONE;
}
