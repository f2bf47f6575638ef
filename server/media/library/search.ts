/**
 * A search over the files of some albums (README "Finding photos"): every term of the query
 * must match (words in any order), each by the album (its title, description, folder names),
 * or by the file (its name, caption, camera, places where its album shows them, its date).
 *
 * Fast on a million files because most albums are decided without looking at their files:
 * a term is met by every file of an album (its words, a date range over its whole span, a
 * camera all its files share), by none (no word, camera, place or date of it there), or by
 * files that can be counted from what the album keeps (one word's files, the files of some
 * cameras or places, a run of dates). Only an album where two terms each match some of its
 * files, or one term matches in several ways, is crossed or marked file by file (several
 * terms met by cameras alone, or places alone, are counted as one). The files of an album are
 * listed only when a page needs them (search-page.ts); the query's lookups are search-query.ts.
 */
import type { Album } from '../../core/albums/album-tree.js';
import type { AlbumSlice } from './album-slice.js';
import type { AlbumSummary, CountsByAlbum } from './album-summary.js';
import { type DateTerm, onMonthDay } from './date-phrases.js';
import { Candidates, hasBoth } from './search-page.js';
import type { Alternative, PreparedQuery } from './search-query.js';
import { STARTING, type StartBits, type TokenIndex } from './token-index.js';

/** How a term meets an album's files: no file, every file, a number of them (where: `Found`), or some, to be marked file by file. */
const NONE = 0;
const ALL = 1;
const COUNT = 2;
const MARK = 3;

/** Where the files a term counted are (as Candidates keep them), written by the way it matched. */
class Found {
  count = 0;
  from = 0;
  to = 0;
  list: Int32Array | undefined = undefined;
  mask: Uint8Array | undefined = undefined;
  column: 'camera' | 'places' | undefined = undefined;

  set(count: number, from: number, to: number, list?: Int32Array, mask?: Uint8Array, column?: 'camera' | 'places'): number {
    this.count = count;
    this.from = from;
    this.to = to;
    this.list = list;
    this.mask = mask;
    this.column = column;
    return COUNT;
  }
}

// Reused by every album of every query: a search allocates per album it finds, not per album it looks at.
const found = new Found();
/** The counted terms of the album at hand, in order. */
const counted: Found[] = [new Found()];
let open = new Uint8Array(8);

/**
 * The albums with files matching the query, each with how many (`total` is their sum), and
 * the albums the query matches by their own words alone (the cards above the results), in
 * the order given. Undefined when an album is not in the summary's directory (the caller
 * asks again with one that has it).
 */
export function findCandidates(albums: readonly Album[], query: PreparedQuery, summary: AlbumSummary): { candidates: Candidates; albums: Album[] } | undefined {
  const { directory } = summary;
  const placed = directory.placesOf(albums);
  if (!placed) return undefined;
  const { numbers, visible } = placed;
  if (open.length < query.length) open = new Uint8Array(query.length);
  const candidates = new Candidates();
  const combined: Combined[] = [];
  const byWords: Album[] = [];
  for (let k = 0; k < albums.length; k++) {
    const album = albums[k] as Album;
    const n = numbers[k] as number;
    let opened = 0;
    for (let g = 0; g < query.length; g++) {
      const met = metByWords(query[g] as readonly Alternative[], n, directory, visible);
      open[g] = met ? 0 : 1;
      if (!met) opened++;
    }
    if (opened === 0) byWords.push(album);
    const count = summary.count[n] as number;
    if (count === 0) continue;
    let some = 0;
    let none = false;
    let marks = false;
    for (let g = 0; g < query.length && !none; g++) {
      if (open[g] === 0) continue;
      const met = meetsOf(summary, n, query[g] as readonly Alternative[], found);
      if (met === NONE) none = true;
      else if (met === MARK) marks = true;
      else if (met === COUNT) {
        if (counted.length <= some) counted.push(new Found());
        (counted[some] as Found).set(found.count, found.from, found.to, found.list, found.mask, found.column);
        some++;
      }
    }
    if (none) continue;
    const slice = summary.slices[n] as AlbumSlice;
    if (marks) {
      const list = marked(slice, album, query, directory.hides[n] === 0);
      if (list.length === 0) continue;
      candidates.add(album, slice, list.length, 0, 0, slice.sortTime[list[0] as number] as number, list);
    } else if (some === 1) {
      // One term counted (a word's files, some cameras or places, a run of dates): its count is the album's, as it stands.
      const { list, mask, column, count: met, from, to } = counted[0] as Found;
      if (list) candidates.add(album, slice, met, 0, 0, slice.sortTime[list[0] as number] as number, list);
      else if (mask)
        candidates.add(
          album,
          slice,
          met,
          0,
          count,
          summary.newest[n] as number,
          undefined,
          column === 'camera' ? mask : undefined,
          column === 'places' ? mask : undefined,
        );
      else candidates.add(album, slice, met, from, to, from === 0 ? (summary.newest[n] as number) : (slice.sortTime[from] as number));
    } else {
      // Every term counted: a run of dates, cameras, places (each kind's terms as one mask), a word's files.
      const { from, to, lists, cameras, places } = termsTogether(counted, some, count, combined);
      if (to <= from) continue;
      if (lists > 0) {
        const list = crossed(slice, counted, some, from, to);
        if (list.length === 0) continue;
        candidates.add(album, slice, list.length, 0, 0, slice.sortTime[list[0] as number] as number, list);
      } else {
        // From the albums' counts where one kind over all the album says; else a pass over its files, listed only if a page needs them.
        const whole = from === 0 && to === count;
        const met =
          whole && cameras && places
            ? countPairs(slice, cameras, places)
            : whole
              ? cameras || places
                ? countIds(cameras ? summary.cameras : summary.places, n, (cameras ?? places) as Uint8Array)
                : count
              : countBoth(slice, from, to, cameras, places);
        if (met === 0) continue;
        const bound = from === 0 ? (summary.newest[n] as number) : (slice.sortTime[from] as number);
        if (met === to - from) candidates.add(album, slice, met, from, to, bound);
        else candidates.add(album, slice, met, from, to, bound, undefined, cameras, places);
      }
    }
  }
  return { candidates, albums: byWords };
}

/** Whether the album's words, or those of an album above it this query may use, meet a term (never a locked album's title). */
function metByWords(alternatives: readonly Alternative[], n: number, directory: AlbumSummary['directory'], visible: Uint8Array): boolean {
  for (let k = 0; k < alternatives.length; k++) {
    const albums = (alternatives[k] as Alternative).albums;
    if (albums === undefined) continue;
    if (albums[n] === 1) return true;
    const above = directory.ancestors[n] as Int32Array;
    for (let j = 0; j < above.length; j++) if (albums[above[j] as number] === 1 && visible[above[j] as number] === 1) return true;
  }
  return false;
}

/**
 * How one term (its alternatives, any of which may match) meets album n's files, apart from
 * the album's words: from the summary where it decides, from the album's slice where not.
 */
function meetsOf(summary: AlbumSummary, n: number, alternatives: readonly Alternative[], out: Found): number {
  const count = summary.count[n] as number;
  let ways = 0;
  let kind = NONE;
  for (let k = 0; k < alternatives.length; k++) {
    const a = alternatives[k] as Alternative;
    for (let way = 0; way < 5; way++) {
      let met = NONE;
      // Each way writes `out` only when it counts: a way that finds nothing leaves another's count.
      if (way === 0 && a.text !== undefined) met = byName(summary, n, a, a.text, out);
      else if (way === 1 && a.text !== undefined && summary.directory.hasCaptions[n] === 1) {
        const slice = summary.slices[n] as AlbumSlice;
        met = byWord(slice.captions((summary.directory.albums[n] as Album).meta.captions), a.text, count, out);
      } else if (way === 2 && a.text !== undefined && a.anyCamera) met = byIds(summary.cameras, n, count, a.cameras, 'camera', out);
      else if (way === 3 && a.text !== undefined && a.anyPlace && summary.directory.hides[n] === 0)
        met = byIds(summary.places, n, count, a.places, 'places', out);
      else if (way === 4 && a.date !== undefined)
        met = a.range ? byRange(summary, n, a.range, out) : byMonthDay(summary.newest[n] as number, summary.oldest[n] as number, a.date);
      if (met === ALL) return ALL;
      if (met !== NONE) {
        ways++;
        kind = met;
      }
    }
  }
  return ways > 1 ? MARK : kind;
}

/** Files with a word of their name starting with `text`: the summary tells most albums without one, and those where every file has one. */
function byName(summary: AlbumSummary, n: number, a: Alternative, text: string, out: Found): number {
  const start = a.start as StartBits;
  const at = n * STARTING;
  if (((summary.nameStarts[at + start.at] as number) & start.mask) === 0 || ((summary.nameStarts[at + start.at2] as number) & start.mask2) === 0) return NONE;
  if ((a.everywhere as Uint8Array)[summary.everywhereId[n] as number] === 1) return ALL;
  return byWord((summary.slices[n] as AlbumSlice).names, text, summary.count[n] as number, out);
}

/** Files with a word starting with `text`: all (one word is in every file's), those of its only word, or several words' (marked). */
function byWord(index: TokenIndex, text: string, count: number, out: Found): number {
  const words = index.find(text, count);
  if (words === undefined) return NONE;
  if (words.all) return ALL;
  return words.entries ? out.set(words.entries.length, 0, 0, words.entries) : MARK;
}

/** Masks of cameras (places) several terms met, and the ids all of them marked: one per query and set of terms. */
interface Combined {
  readonly masks: readonly Uint8Array[];
  readonly mask: Uint8Array;
}

/** What the counted terms leave together: a run of files, how many lists, one mask of cameras and one of places. */
function termsTogether(
  counted: readonly Found[],
  terms: number,
  count: number,
  combined: Combined[],
): { from: number; to: number; lists: number; cameras: Uint8Array | undefined; places: Uint8Array | undefined } {
  let from = 0;
  let to = count;
  let lists = 0;
  for (let k = 0; k < terms; k++) {
    const term = counted[k] as Found;
    if (term.list) lists++;
    else if (!term.mask) {
      from = Math.max(from, term.from);
      to = Math.min(to, term.to);
    }
  }
  return { from, to, lists, cameras: masksOf(counted, terms, 'camera', combined), places: masksOf(counted, terms, 'places', combined) };
}

/** The one mask of the terms' cameras (or places): the ids all of them marked; undefined when none is of that kind. */
function masksOf(counted: readonly Found[], terms: number, column: 'camera' | 'places', combined: Combined[]): Uint8Array | undefined {
  const masks: Uint8Array[] = [];
  for (let k = 0; k < terms; k++) {
    const term = counted[k] as Found;
    if (term.mask && term.column === column) masks.push(term.mask);
  }
  if (masks.length <= 1) return masks[0];
  for (const known of combined) {
    if (known.masks.length !== masks.length) continue;
    let same = true;
    for (let k = 0; k < masks.length && same; k++) same = known.masks[k] === masks[k];
    if (same) return known.mask;
  }
  const mask = (masks[0] as Uint8Array).map((marked, id) => (marked === 1 && masks.every((m) => m[id] === 1) ? 1 : 0));
  combined.push({ masks, mask });
  return mask;
}

/** Files `from` to `to` whose camera is one of `cameras` and place list one of `places` (where given). */
function countBoth(slice: AlbumSlice, from: number, to: number, cameras: Uint8Array | undefined, places: Uint8Array | undefined): number {
  let count = 0;
  for (let i = from; i < to; i++) if (hasBoth(slice, i, cameras, places)) count++;
  return count;
}

/** Files of an album whose camera is one of `cameras` and place list one of `places`, from its counts per pair. */
function countPairs(slice: AlbumSlice, cameras: Uint8Array, places: Uint8Array): number {
  const pairs = slice.pairCounts();
  let count = 0;
  for (let k = 0; k < pairs.counts.length; k++) {
    if (cameras[pairs.cameras[k] as number] === 1 && places[pairs.places[k] as number] === 1) count += pairs.counts[k] as number;
  }
  return count;
}

/** Files of album n whose camera (or place list) is one of `mask`'s, from its counts per id. */
function countIds(counts: CountsByAlbum, n: number, mask: Uint8Array): number {
  let count = 0;
  const end = counts.starts[n + 1] as number;
  for (let k = counts.starts[n] as number; k < end; k++) if (mask[counts.ids[k] as number] === 1) count += counts.counts[k] as number;
  return count;
}

/** Files whose camera (or place list) is one of `mask`'s: counted from the album's counts per id. */
function byIds(counts: CountsByAlbum, n: number, total: number, mask: Uint8Array, column: 'camera' | 'places', out: Found): number {
  const count = countIds(counts, n, mask);
  if (count === 0) return NONE;
  if (count === total) return ALL;
  return out.set(count, 0, total, undefined, mask, column);
}

/** Files of a date range: all or none where the album's span says so, else a run of its files, newest first. */
function byRange(summary: AlbumSummary, n: number, range: { from: number; to: number }, out: Found): number {
  const newest = summary.newest[n] as number;
  const oldest = summary.oldest[n] as number;
  if (newest < range.from || oldest >= range.to) return NONE;
  if (oldest >= range.from && newest < range.to) return ALL;
  const slice = summary.slices[n] as AlbumSlice;
  const from = slice.firstAtOrBefore(range.to - 1);
  const to = slice.firstAtOrBefore(range.from - 1);
  if (to <= from) return NONE;
  if (from === 0 && to === slice.count) return ALL;
  return out.set(to - from, from, to);
}

const DAY_MS = 24 * 3600 * 1000;

/** A month (and day) of any year: decided from the album's span when it is short (under 28 days it touches two months at most). */
function byMonthDay(newest: number, oldest: number, date: DateTerm): number {
  if (newest - oldest >= 28 * DAY_MS) return MARK;
  const a = new Date(oldest);
  const b = new Date(newest);
  if (date.month !== undefined && date.month !== a.getUTCMonth() + 1 && date.month !== b.getUTCMonth() + 1) return NONE;
  const sameMonth = a.getUTCMonth() === b.getUTCMonth();
  if (date.day === undefined) return sameMonth ? ALL : MARK;
  if (sameMonth && a.getUTCDate() === b.getUTCDate()) return onMonthDay(oldest, date) ? ALL : NONE;
  return MARK;
}

/** Scratch space for marking an album's files: grown to the largest album, reused by every query. */
let levels = new Int32Array(1024);

/** The files every one of `terms` counted (one word's files among them) from `from` to `to`, crossed term by term, newest first. */
function crossed(slice: AlbumSlice, counted: readonly Found[], terms: number, from: number, to: number): Int32Array {
  if (levels.length < slice.count) levels = new Int32Array(slice.count);
  levels.fill(0, from, to);
  let level = 0;
  for (let k = 0; k < terms; k++) {
    const { list, mask, column } = counted[k] as Found;
    if (list) {
      for (let j = 0; j < list.length; j++) {
        const i = list[j] as number;
        if (i >= from && i < to && levels[i] === level) levels[i] = level + 1;
      }
    } else if (mask) {
      for (let i = from; i < to; i++)
        if (levels[i] === level && hasBoth(slice, i, column === 'camera' ? mask : undefined, column === 'places' ? mask : undefined)) levels[i] = level + 1;
    } else continue;
    level++;
  }
  let count = 0;
  for (let i = from; i < to; i++) if (levels[i] === level) count++;
  const files = new Int32Array(count);
  for (let i = from, j = 0; i < to; i++) if (levels[i] === level) files[j++] = i;
  return files;
}

/** The files meeting every term the album's words do not (`open`), marked file by file, newest first. */
function marked(slice: AlbumSlice, album: Album, query: PreparedQuery, showsPlaces: boolean): Int32Array {
  if (levels.length < slice.count) levels = new Int32Array(slice.count);
  levels.fill(0, 0, slice.count);
  let level = 0;
  for (let g = 0; g < query.length; g++) {
    if (open[g] === 0) continue;
    const k = level++;
    const mark = (i: number) => {
      if (levels[i] === k) levels[i] = k + 1;
    };
    for (const a of query[g] as readonly Alternative[]) markAlternative(slice, album, a, showsPlaces, mark);
  }
  let count = 0;
  for (let i = 0; i < slice.count; i++) if (levels[i] === level) count++;
  const files = new Int32Array(count);
  for (let i = 0, j = 0; i < slice.count; i++) if (levels[i] === level) files[j++] = i;
  return files;
}

function markAlternative(slice: AlbumSlice, album: Album, a: Alternative, showsPlaces: boolean, mark: (i: number) => void): void {
  if (a.text !== undefined) {
    slice.names.forEach(a.text, mark);
    slice.captions(album.meta.captions).forEach(a.text, mark);
    // A file without a camera or places is -1: looked at first, as a typed array read out of its bounds is slow.
    if (a.anyCamera) {
      for (let i = 0; i < slice.count; i++) {
        const id = slice.camera[i] as number;
        if (id >= 0 && a.cameras[id] === 1) mark(i);
      }
    }
    if (showsPlaces && a.anyPlace) {
      for (let i = 0; i < slice.count; i++) {
        const id = slice.places[i] as number;
        if (id >= 0 && a.places[id] === 1) mark(i);
      }
    }
  }
  if (a.date === undefined) return;
  if (a.range) {
    const end = slice.firstAtOrBefore(a.range.from - 1);
    for (let i = slice.firstAtOrBefore(a.range.to - 1); i < end; i++) mark(i);
  } else {
    for (let i = 0; i < slice.count; i++) if (onMonthDay(slice.sortTime[i] as number, a.date)) mark(i);
  }
}
