/**
 * What a search first asks of every album, kept side by side for all albums of a directory
 * (album-directory.ts), by album number: file count, time span, the starts of its file
 * names' words (as bits), the words all its file names have, its cameras and places with
 * their counts. A query reads these few arrays for each album it may use and goes to an
 * album's own slice only where the answer is not decided here: at a million files, 5,000
 * slices each looked at cost far more in memory reads than the work done on them.
 *
 * Made again (a pass over albums, not files) when the library's slices changed since.
 */
import type { AlbumDirectory } from './album-directory.js';
import type { AlbumSlice, IdCounts } from './album-slice.js';
import { STARTING } from './token-index.js';

/** Per album, ids and counts side by side in two arrays: album n's are `starts[n]` to `starts[n + 1]`. */
export interface CountsByAlbum {
  readonly starts: Int32Array;
  readonly ids: Int32Array;
  readonly counts: Int32Array;
}

function countsByAlbum(slices: readonly (AlbumSlice | undefined)[], of: (slice: AlbumSlice) => IdCounts): CountsByAlbum {
  const starts = new Int32Array(slices.length + 1);
  for (let n = 0; n < slices.length; n++) {
    const slice = slices[n];
    starts[n + 1] = (starts[n] as number) + (slice ? of(slice).ids.length : 0);
  }
  const ids = new Int32Array(starts[slices.length] as number);
  const counts = new Int32Array(ids.length);
  for (let n = 0; n < slices.length; n++) {
    const slice = slices[n];
    if (!slice) continue;
    ids.set(of(slice).ids, starts[n] as number);
    counts.set(of(slice).counts, starts[n] as number);
  }
  return { starts, ids, counts };
}

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
    /** The library's changes when made (library.ts): made again when they are not these. */
    readonly generation: number,
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
      if (!slice || slice.count === 0) return;
      this.count[n] = slice.count;
      this.newest[n] = slice.sortTime[0] as number;
      this.oldest[n] = slice.sortTime[slice.count - 1] as number;
      for (let k = 0; k < STARTING; k++) this.nameStarts[n * STARTING + k] = slice.names.starting[k] as number;
      this.everywhereId[n] = slice.namesEverywhere;
    });
    this.cameras = countsByAlbum(this.slices, (slice) => slice.countsOf('camera'));
    this.places = countsByAlbum(this.slices, (slice) => slice.countsOf('places'));
  }
}
