/**
 * Bytes to overwrite in a file as it is served, never on disk (docs/api.md#location-privacy).
 * A patch replaces bytes one for one, so the served file keeps its length: Content-Length,
 * byte ranges and a ZIP's precomputed size stay exact. Patches are remembered per version of
 * a file (server/media/location-patcher.ts), so long runs are kept as a fill byte (zeros, or
 * the spaces of a blanked XMP packet), not as bytes.
 */
export interface BytePatch {
  /** Offset in the file. */
  readonly at: number;
  readonly length: number;
  /** The replacement, `length` bytes; absent: `fill` repeated. */
  readonly bytes?: Buffer;
  /** The byte repeated when there are no `bytes`: 0 unless told. */
  readonly fill?: number;
}

export const zeroPatch = (at: number, length: number): BytePatch => ({ at, length });

export const fillPatch = (at: number, length: number, fill: number): BytePatch => (fill === 0 ? { at, length } : { at, length, fill });

export const bytesPatch = (at: number, bytes: Buffer): BytePatch => ({ at, length: bytes.length, bytes });

/** `patches` moved by `by` bytes: from offsets inside a block to offsets in the file. */
export const shiftPatches = (patches: readonly BytePatch[], by: number): BytePatch[] => patches.map((p) => ({ ...p, at: p.at + by }));

/** The part of `p` from `start` to `end` (within it). */
function cut(p: BytePatch, start: number, end: number): BytePatch {
  if (start === p.at && end === p.at + p.length) return p;
  return p.bytes ? bytesPatch(start, p.bytes.subarray(start - p.at, end - p.at)) : fillPatch(start, end - start, p.fill ?? 0);
}

const sameFill = (a: BytePatch, b: BytePatch) => !a.bytes && !b.bytes && (a.fill ?? 0) === (b.fill ?? 0);

/**
 * The patches clipped to a file of `size` bytes, sorted and without overlaps (where two
 * overlap, the later in the list wins), neighbours of one fill merged, so a reader can apply
 * them chunk by chunk. Patches that overlap nothing (nearly all) go straight through; only
 * a cluster of overlapping ones is cut at its boundaries.
 */
export function normalizePatches(patches: readonly BytePatch[], size: number): BytePatch[] {
  const clipped: Clipped[] = [];
  for (const [order, p] of patches.entries()) {
    const start = Math.max(0, p.at);
    const end = Math.min(size, p.at + p.length);
    if (end > start) clipped.push({ p, order, start, end });
  }
  clipped.sort((a, b) => a.start - b.start || a.order - b.order);
  const out: BytePatch[] = [];
  const emit = (piece: BytePatch) => {
    const last = out.at(-1);
    if (last && last.at + last.length === piece.at && sameFill(last, piece))
      out[out.length - 1] = fillPatch(last.at, last.length + piece.length, last.fill ?? 0);
    else out.push(piece);
  };
  for (let i = 0; i < clipped.length; ) {
    let j = i + 1;
    let end = clipped[i]!.end;
    while (j < clipped.length && clipped[j]!.start < end) end = Math.max(end, clipped[j++]!.end);
    if (j === i + 1) emit(cut(clipped[i]!.p, clipped[i]!.start, clipped[i]!.end));
    else for (const piece of resolveCluster(clipped.slice(i, j))) emit(piece);
    i = j;
  }
  return out;
}

interface Clipped {
  readonly p: BytePatch;
  /** Its place in the list: the later wins. */
  readonly order: number;
  readonly start: number;
  readonly end: number;
}

/**
 * Overlapping patches as pieces between their boundaries, each from the latest patch covering
 * it: a sweep over the boundaries with the patches covering the current piece in a heap by
 * order (O(k log k): a crafted file may make thousands of patches overlap).
 */
function resolveCluster(cluster: readonly Clipped[]): BytePatch[] {
  const bounds = [...new Set(cluster.flatMap((c) => [c.start, c.end]))].sort((a, b) => a - b);
  const heap: Clipped[] = [];
  const pieces: BytePatch[] = [];
  let next = 0;
  for (let i = 0; i + 1 < bounds.length; i++) {
    const [start, end] = [bounds[i]!, bounds[i + 1]!];
    // cluster is sorted by start: open those starting here.
    while (next < cluster.length && cluster[next]!.start <= start) heapPush(heap, cluster[next++]!);
    // Patches over already (lazily: only the top matters).
    while (heap.length > 0 && heap[0]!.end <= start) heapPop(heap);
    if (heap.length > 0) pieces.push(cut(heap[0]!.p, start, end));
  }
  return pieces;
}

/** A max-heap of patches by order. */
function heapPush(heap: Clipped[], item: Clipped): void {
  heap.push(item);
  for (let i = heap.length - 1; i > 0; ) {
    const parent = (i - 1) >> 1;
    if (heap[parent]!.order >= heap[i]!.order) break;
    [heap[parent], heap[i]] = [heap[i]!, heap[parent]!];
    i = parent;
  }
}

function heapPop(heap: Clipped[]): void {
  const last = heap.pop()!;
  if (heap.length === 0) return;
  heap[0] = last;
  for (let i = 0; ; ) {
    const [l, r] = [2 * i + 1, 2 * i + 2];
    let top = i;
    if (l < heap.length && heap[l]!.order > heap[top]!.order) top = l;
    if (r < heap.length && heap[r]!.order > heap[top]!.order) top = r;
    if (top === i) return;
    [heap[top], heap[i]] = [heap[i]!, heap[top]!];
    i = top;
  }
}

/**
 * Overwrites, in place, the bytes of `chunk` (the file's bytes from offset `chunkAt`) that
 * `patches` (normalized) cover.
 */
export function applyPatches(chunk: Buffer, chunkAt: number, patches: readonly BytePatch[]): void {
  const chunkEnd = chunkAt + chunk.length;
  // The first patch that ends after the chunk starts.
  let lo = 0;
  let hi = patches.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const p = patches[mid]!;
    if (p.at + p.length <= chunkAt) lo = mid + 1;
    else hi = mid;
  }
  for (let i = lo; i < patches.length; i++) {
    const p = patches[i]!;
    if (p.at >= chunkEnd) break;
    const from = Math.max(p.at, chunkAt);
    const to = Math.min(p.at + p.length, chunkEnd);
    if (p.bytes) p.bytes.copy(chunk, from - chunkAt, from - p.at, to - p.at);
    else chunk.fill(p.fill ?? 0, from - chunkAt, to - chunkAt);
  }
}
