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
 * The albums with files matching a query, k = 0, 1, …: album k has `count[k]` of them, newest
 * first: those numbered in `lists[k]`, else those `from[k]` to `to[k]` whose camera is marked
 * in `cameras[k]` and place list in `places[k]` (where given; listed when a page needs them),
 * else files `from[k]` to `to[k]`. Side by side in arrays rather than an object each: a
 * search finds thousands of albums, and each object is work for the garbage collector.
 */
export class Candidates {
  size = 0;
  /** Files in all. */
  total = 0;
  readonly albums: Album[] = [];
  readonly slices: AlbumSlice[] = [];
  readonly lists: (Int32Array | undefined)[] = [];
  readonly cameras: (Uint8Array | undefined)[] = [];
  readonly places: (Uint8Array | undefined)[] = [];
  count = new Int32Array(256);
  from = new Int32Array(256);
  to = new Int32Array(256);
  /** The time of its newest matching file, or a time none of them is newer than. */
  bound = new Float64Array(256);

  add(
    album: Album,
    slice: AlbumSlice,
    count: number,
    from: number,
    to: number,
    bound: number,
    list?: Int32Array,
    cameras?: Uint8Array,
    places?: Uint8Array,
  ): void {
    const k = this.size++;
    if (k === this.count.length) {
      const grown = (array: Int32Array) => {
        const more = new Int32Array(k * 2);
        more.set(array);
        return more;
      };
      this.count = grown(this.count);
      this.from = grown(this.from);
      this.to = grown(this.to);
      const bounds = new Float64Array(k * 2);
      bounds.set(this.bound);
      this.bound = bounds;
    }
    this.albums[k] = album;
    this.slices[k] = slice;
    this.lists[k] = list;
    this.cameras[k] = cameras;
    this.places[k] = places;
    this.count[k] = count;
    this.from[k] = from;
    this.to[k] = to;
    this.bound[k] = bound;
    this.total += count;
  }

  run(k: number): Run {
    const album = this.albums[k] as Album;
    const slice = this.slices[k] as AlbumSlice;
    const list = this.lists[k];
    const cameras = this.cameras[k];
    const places = this.places[k];
    const from = this.from[k] as number;
    const to = this.to[k] as number;
    if (list) return { album, slice, list, at: 0, end: list.length };
    if (!cameras && !places) return { album, slice, at: from, end: to };
    const made = new Int32Array(this.count[k] as number);
    for (let i = from, j = 0; i < to; i++) if (hasBoth(slice, i, cameras, places)) made[j++] = i;
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
export function pickPage(candidates: Candidates, skip: number, limit: number): Picked[] {
  const need = skip + limit;
  const bounds = candidates.bound;
  let size = candidates.size;
  // A heap of candidates, the newest bound on top: building it costs one pass, each album taken log(albums).
  const heap = new Int32Array(size);
  for (let k = 0; k < size; k++) heap[k] = k;
  const before = (a: number, b: number) => {
    const ta = bounds[a] as number;
    const tb = bounds[b] as number;
    return ta > tb || (ta === tb && (candidates.albums[a] as Album).path < (candidates.albums[b] as Album).path);
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
    runs.push(candidates.run(top));
    listed += candidates.count[top] as number;
    heap[0] = heap[--size] as number;
    siftDown(0);
  }
  return mergeNewest(runs, skip, limit);
}
