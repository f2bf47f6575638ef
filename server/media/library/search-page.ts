/**
 * A page of search results from the albums a query found (search.ts): albums are taken in
 * the order of their newest matching file, their files listed only then, and no more once
 * the page's files are certain, that is once enough files listed are newer than any file of
 * an album not yet taken. A page of a query matching half a million files lists a few albums.
 */
import type { Album } from '../../core/albums/album-tree.js';
import type { AlbumSlice } from './album-slice.js';
import { mergeNewest, type Picked, type Run } from './newest-merge.js';

/**
 * An album with `count` files matching a query, newest first: those numbered in `list`, else
 * those `from` to `to` whose camera is marked in `cameras` and place list in `places` (where
 * given; listed when a page needs them), else files `from` to `to`. One shape for all: a
 * search makes thousands.
 */
export class Candidate {
  constructor(
    readonly album: Album,
    readonly slice: AlbumSlice,
    readonly count: number,
    readonly from: number,
    readonly to: number,
    /** The time of its newest matching file, or a time none of them is newer than. */
    readonly bound: number,
    readonly list?: Int32Array,
    readonly cameras?: Uint8Array,
    readonly places?: Uint8Array,
  ) {}

  run(): Run {
    const { album, slice, list } = this;
    if (list) return { album, slice, list, at: 0, end: list.length };
    if (!this.cameras && !this.places) return { album, slice, at: this.from, end: this.to };
    const made = new Int32Array(this.count);
    for (let i = this.from, j = 0; i < this.to; i++) if (hasBoth(slice, i, this.cameras, this.places)) made[j++] = i;
    return { album, slice, list: made, at: 0, end: made.length };
  }
}

/** Whether file i's camera is one of `cameras` and its place list one of `places` (where given). */
export function hasBoth(slice: AlbumSlice, i: number, cameras: Uint8Array | undefined, places: Uint8Array | undefined): boolean {
  if (cameras) {
    const id = slice.camera[i] as number;
    if (id < 0 || cameras[id] !== 1) return false;
  }
  if (places) {
    const id = slice.places[i] as number;
    if (id < 0 || places[id] !== 1) return false;
  }
  return true;
}

/** Files of a run newer than `time`. */
function newerThan(run: Run, time: number): number {
  let lo = run.at;
  let hi = run.end;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const i = run.list ? (run.list[mid] as number) : mid;
    if ((run.slice.sortTime[i] as number) > time) lo = mid + 1;
    else hi = mid;
  }
  return lo - run.at;
}

/** Skips `skip` files of the candidates together, newest first, and returns the next `limit`. */
export function pickPage(candidates: readonly Candidate[], skip: number, limit: number): Picked[] {
  const need = skip + limit;
  let size = candidates.length;
  const bounds = new Float64Array(size);
  // A heap of candidates, the newest bound on top: building it costs one pass, each album taken log(albums).
  const heap = new Int32Array(size);
  for (let k = 0; k < size; k++) {
    bounds[k] = (candidates[k] as Candidate).bound;
    heap[k] = k;
  }
  const before = (a: number, b: number) => {
    const ta = bounds[a] as number;
    const tb = bounds[b] as number;
    return ta > tb || (ta === tb && (candidates[a] as Candidate).album.path < (candidates[b] as Candidate).album.path);
  };
  const siftDown = (from: number) => {
    let i = from;
    for (;;) {
      const left = 2 * i + 1;
      let first = i;
      if (left < size && before(heap[left] as number, heap[first] as number)) first = left;
      if (left + 1 < size && before(heap[left + 1] as number, heap[first] as number)) first = left + 1;
      if (first === i) return;
      const swap = heap[i] as number;
      heap[i] = heap[first] as number;
      heap[first] = swap;
      i = first;
    }
  };
  for (let i = (size >> 1) - 1; i >= 0; i--) siftDown(i);
  const runs: Run[] = [];
  let listed = 0;
  while (size > 0) {
    const top = heap[0] as number;
    if (listed >= need) {
      const bound = bounds[top] as number;
      let certain = 0;
      for (const run of runs) certain += newerThan(run, bound);
      if (certain >= need) break;
    }
    runs.push((candidates[top] as Candidate).run());
    listed += (candidates[top] as Candidate).count;
    heap[0] = heap[--size] as number;
    siftDown(0);
  }
  return mergeNewest(runs, skip, limit);
}
