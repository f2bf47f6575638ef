/**
 * What a search first asks of every album, kept side by side for all albums of a directory
 * (album-directory.ts), by album number: file count, time span, the starts of its file
 * names' words (as bits), the words all its file names have, its cameras and places with
 * their counts. A query reads these few arrays for each album it may use and goes to an
 * album's own slice only where the answer is not decided here: at a million files, 5,000
 * slices each looked at cost far more in memory reads than the work done on them.
 *
 * Kept current album by album as the library's slices change (update); made again (a pass
 * over albums, never files) for a new snapshot of the tree.
 */
import type { AlbumDirectory } from './album-directory.js';
import type { AlbumSlice, IdCounts } from './album-slice.js';
import { STARTING } from './token-index.js';

/**
 * Per album, ids and counts side by side in two arrays: album n's are `starts[n]` to
 * `starts[n + 1]`, with room for SLACK more (id 0, count 0: it adds nothing) so that an album's new facts
 * mostly fit where its old ones were.
 */
export interface CountsByAlbum {
  readonly starts: Int32Array;
  readonly ids: Int32Array;
  readonly counts: Int32Array;
}

const SLACK = 2;

function countsByAlbum(slices: readonly (AlbumSlice | undefined)[], of: (slice: AlbumSlice) => IdCounts): CountsByAlbum {
  const starts = new Int32Array(slices.length + 1);
  for (let n = 0; n < slices.length; n++) {
    const slice = slices[n];
    starts[n + 1] = (starts[n] as number) + (slice ? of(slice).ids.length : 0) + SLACK;
  }
  const counts = { starts, ids: new Int32Array(starts[slices.length] as number), counts: new Int32Array(starts[slices.length] as number) };
  for (let n = 0; n < slices.length; n++) putCounts(counts, n, slices[n], of);
  return counts;
}

/** Writes album n's counts in its place; false when they do not fit. */
function putCounts(into: CountsByAlbum, n: number, slice: AlbumSlice | undefined, of: (slice: AlbumSlice) => IdCounts): boolean {
  const from = into.starts[n] as number;
  const room = (into.starts[n + 1] as number) - from;
  const { ids, counts } = slice ? of(slice) : { ids: new Int32Array(0), counts: new Int32Array(0) };
  if (ids.length > room) return false;
  // Not -1: a typed array read out of its bounds is slow, and a count of 0 adds nothing.
  into.ids.fill(0, from, from + room);
  into.counts.fill(0, from, from + room);
  into.ids.set(ids, from);
  into.counts.set(counts, from);
  return true;
}

const cameraCounts = (slice: AlbumSlice) => slice.countsOf('camera');
const placeCounts = (slice: AlbumSlice) => slice.countsOf('places');

export class AlbumSummary {
  /** The album's slice as of the summary (undefined: no facts read yet). */
  readonly slices: (AlbumSlice | undefined)[];
  readonly count: Int32Array;
  /** Times of the newest and the oldest file. */
  readonly newest: Float64Array;
  readonly oldest: Float64Array;
  /** TokenIndex.starting of the album's file names, STARTING numbers an album. */
  readonly nameStarts: Int32Array;
  /** Which list of Interners.everywhere the album's names all have (AlbumSlice.namesEverywhere). */
  readonly everywhereId: Int32Array;
  readonly cameras: CountsByAlbum;
  readonly places: CountsByAlbum;

  constructor(
    readonly directory: AlbumDirectory,
    /** The library's changes when made or brought up to date (library.ts). */
    public generation: number,
    sliceOf: (n: number) => AlbumSlice | undefined,
  ) {
    const size = directory.albums.length;
    this.slices = Array.from({ length: size }, (_, n) => sliceOf(n));
    this.count = new Int32Array(size);
    this.newest = new Float64Array(size);
    this.oldest = new Float64Array(size);
    this.nameStarts = new Int32Array(size * STARTING);
    this.everywhereId = new Int32Array(size);
    this.slices.forEach((slice, n) => {
      this.#put(n, slice);
    });
    this.cameras = countsByAlbum(this.slices, cameraCounts);
    this.places = countsByAlbum(this.slices, placeCounts);
  }

  /**
   * Album n's slice as it is now (an update, a record read): its entries rewritten, nothing
   * else looked at. False when its cameras or places no longer fit: the caller makes the
   * summary again.
   */
  update(n: number, slice: AlbumSlice | undefined): boolean {
    this.slices[n] = slice;
    this.#put(n, slice);
    return putCounts(this.cameras, n, slice, cameraCounts) && putCounts(this.places, n, slice, placeCounts);
  }

  #put(n: number, slice: AlbumSlice | undefined): void {
    const count = slice?.count ?? 0;
    this.count[n] = count;
    if (!slice || count === 0) return;
    this.newest[n] = slice.sortTime[0] as number;
    this.oldest[n] = slice.sortTime[count - 1] as number;
    for (let k = 0; k < STARTING; k++) this.nameStarts[n * STARTING + k] = slice.names.starting[k] as number;
    this.everywhereId[n] = slice.namesEverywhere;
  }
}
