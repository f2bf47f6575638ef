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
 * them chunk by chunk.
 */
export function normalizePatches(patches: readonly BytePatch[], size: number): BytePatch[] {
  // Boundaries of every patch; between two neighbouring boundaries, the last patch covering the piece wins.
  const clipped = patches.map((p, order) => ({ p, order, start: Math.max(0, p.at), end: Math.min(size, p.at + p.length) })).filter((c) => c.end > c.start);
  if (clipped.length === 0) return [];
  const bounds = [...new Set(clipped.flatMap((c) => [c.start, c.end]))].sort((a, b) => a - b);
  const byStart = [...clipped].sort((a, b) => a.start - b.start || a.order - b.order);
  const out: BytePatch[] = [];
  // Patches covering the current piece, as a max-heap by order would; few overlap in practice, so a list is enough.
  let open: typeof clipped = [];
  let next = 0;
  for (let i = 0; i + 1 < bounds.length; i++) {
    const [start, end] = [bounds[i]!, bounds[i + 1]!];
    open = open.filter((c) => c.end > start);
    while (next < byStart.length && byStart[next]!.start <= start) {
      const c = byStart[next++]!;
      if (c.end > start) open.push(c);
    }
    if (open.length === 0) continue;
    const winner = open.reduce((a, b) => (b.order > a.order ? b : a));
    const piece = cut(winner.p, start, end);
    const last = out.at(-1);
    if (last && last.at + last.length === start && sameFill(last, piece)) out[out.length - 1] = fillPatch(last.at, last.length + piece.length, last.fill ?? 0);
    else out.push(piece);
  }
  return out;
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
