/**
 * Bytes to overwrite in a file as it is served, never on disk (docs/api.md#location-privacy).
 * A patch replaces bytes one for one, so the served file keeps its length: Content-Length,
 * byte ranges and a ZIP's precomputed size stay exact.
 */
export interface BytePatch {
  /** Offset in the file. */
  readonly at: number;
  readonly length: number;
  /** The replacement, `length` bytes; absent: zeros. */
  readonly bytes?: Buffer;
}

export const zeroPatch = (at: number, length: number): BytePatch => ({ at, length });

export const bytesPatch = (at: number, bytes: Buffer): BytePatch => ({ at, length: bytes.length, bytes });

/** `patches` moved by `by` bytes: from offsets inside a block to offsets in the file. */
export const shiftPatches = (patches: readonly BytePatch[], by: number): BytePatch[] => patches.map((p) => ({ ...p, at: p.at + by }));

/**
 * The patches clipped to a file of `size` bytes, sorted and without overlaps (where two
 * overlap, the later in the list wins), so a reader can apply them chunk by chunk.
 */
export function normalizePatches(patches: readonly BytePatch[], size: number): BytePatch[] {
  const clipped: BytePatch[] = [];
  for (const p of patches) {
    const start = Math.max(0, p.at);
    const end = Math.min(size, p.at + p.length);
    if (end <= start) continue;
    clipped.push(p.bytes ? bytesPatch(start, p.bytes.subarray(start - p.at, end - p.at)) : zeroPatch(start, end - start));
  }
  // Spans of overlapping patches, each rebuilt from its patches in list order.
  const order = clipped.map((p, i) => ({ p, i })).sort((a, b) => a.p.at - b.p.at);
  const out: BytePatch[] = [];
  let span: { at: number; end: number; members: { p: BytePatch; i: number }[] } | undefined;
  const flush = () => {
    if (!span) return;
    const { at, end, members } = span;
    if (members.length === 1) out.push(members[0]!.p);
    else if (members.every((m) => m.p.bytes === undefined)) out.push(zeroPatch(at, end - at));
    else {
      const bytes = Buffer.alloc(end - at);
      for (const { p } of members.sort((a, b) => a.i - b.i)) {
        if (p.bytes) p.bytes.copy(bytes, p.at - at);
        else bytes.fill(0, p.at - at, p.at - at + p.length);
      }
      out.push(bytesPatch(at, bytes));
    }
    span = undefined;
  };
  for (const m of order) {
    const end = m.p.at + m.p.length;
    if (span && m.p.at < span.end) {
      span.end = Math.max(span.end, end);
      span.members.push(m);
    } else {
      flush();
      span = { at: m.p.at, end, members: [m] };
    }
  }
  flush();
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
    else chunk.fill(0, from - chunkAt, to - chunkAt);
  }
}
