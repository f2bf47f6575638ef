/**
 * Files of several albums newest first: each album's files are already in that order
 * (album-slice.ts), so a page is a merge of the albums' runs through a small heap, costing
 * the page's length times log(albums), whatever the library's size.
 */
import type { Album } from '../../core/albums/album-tree.js';
import type { AlbumSlice } from './album-slice.js';

/** Files of one album in order: its files `from` to `to`, or those numbered in `list`. */
export interface Run {
  readonly album: Album;
  readonly slice: AlbumSlice;
  readonly list?: Int32Array;
  at: number;
  readonly end: number;
}

export interface Picked {
  readonly album: Album;
  readonly slice: AlbumSlice;
  readonly i: number;
}

const fileOf = (run: Run): number => (run.list ? (run.list[run.at] as number) : run.at);

/** Order of "newest first": sortTime, then album path, then file name. Negative when `a` comes first. */
export function compareFiles(a: Picked, b: Picked): number {
  const dt = (b.slice.sortTime[b.i] as number) - (a.slice.sortTime[a.i] as number);
  if (dt !== 0) return dt;
  if (a.album.path !== b.album.path) return a.album.path < b.album.path ? -1 : 1;
  const an = a.slice.item(a.i).name;
  const bn = b.slice.item(b.i).name;
  return an < bn ? -1 : an > bn ? 1 : 0;
}

const compareRuns = (a: Run, b: Run) => compareFiles({ album: a.album, slice: a.slice, i: fileOf(a) }, { album: b.album, slice: b.slice, i: fileOf(b) });

/** Skips `skip` files of the runs together, then returns the next `limit` in order. */
export function mergeNewest(runs: Run[], skip: number, limit: number): Picked[] {
  const heap = runs.filter((run) => run.at < run.end);
  for (let i = (heap.length >> 1) - 1; i >= 0; i--) siftDown(heap, i);
  const picked: Picked[] = [];
  let skipped = 0;
  while (heap.length > 0 && picked.length < limit) {
    const run = heap[0] as Run;
    if (skipped < skip) skipped++;
    else picked.push({ album: run.album, slice: run.slice, i: fileOf(run) });
    run.at++;
    if (run.at >= run.end) {
      const last = heap.pop() as Run;
      if (heap.length === 0) break;
      heap[0] = last;
    }
    siftDown(heap, 0);
  }
  return picked;
}

function siftDown(heap: Run[], from: number): void {
  let i = from;
  for (;;) {
    const left = 2 * i + 1;
    const right = left + 1;
    let first = i;
    if (left < heap.length && compareRuns(heap[left] as Run, heap[first] as Run) < 0) first = left;
    if (right < heap.length && compareRuns(heap[right] as Run, heap[first] as Run) < 0) first = right;
    if (first === i) return;
    [heap[i], heap[first]] = [heap[first] as Run, heap[i] as Run];
    i = first;
  }
}
