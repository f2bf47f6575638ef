/**
 * Where a track's samples lie in the file, from its sample table (docs/api.md#location-privacy):
 * chunk offsets (`stco`/`co64`), samples per chunk (`stsc`) and sample sizes (`stsz`/`stz2`).
 * A timed metadata or text track (a GoPro's `gpmd` GPS, a drone's subtitles, Apple's `mebx`,
 * `camm`) keeps its positions in its samples, which are zeroed where they lie. Tables that
 * cannot be read within their bounds, or that disagree, throw Unreadable: the movie is then
 * blanked whole by its caller.
 */
import type { ByteSource } from '../byte-source.js';
import type { IsoBox } from './iso-boxes.js';
import { type Budget, MAX_PATCHES, Unreadable } from './walk.js';

/** One table read whole at most (a metadata track's are a few KB; a video track of hours, a few MB). */
const MAX_TABLE_BYTES = 64 * 1024 * 1024;

export interface Span {
  readonly at: number;
  readonly end: number;
}

/** The spans of the file the samples of the track whose `stbl` children are `tables` lie in, one per chunk. */
export async function sampleSpans(source: ByteSource, tables: readonly IsoBox[], budget: Budget): Promise<Span[]> {
  const find = (...types: string[]) => tables.find((t) => types.includes(t.type));
  const [stco, stsc, stsz] = [find('stco', 'co64'), find('stsc'), find('stsz', 'stz2')];
  if (!stsz) throw new Unreadable('no sample sizes');
  const sizes = await sampleSizes(source, stsz, budget);
  if (sizes.count === 0) return [];
  if (!stco || !stsc) throw new Unreadable('no chunk table');
  const offsets = await chunkOffsets(source, stco, budget);
  const runs = await chunkRuns(source, stsc, budget);
  const spans: Span[] = [];
  let sample = 0;
  for (let r = 0; r < runs.length; r++) {
    const { firstChunk, samplesPerChunk } = runs[r]!;
    const lastChunk = r + 1 < runs.length ? runs[r + 1]!.firstChunk - 1 : offsets.length;
    if (firstChunk < 1 || lastChunk > offsets.length || lastChunk < firstChunk - 1) throw new Unreadable('stsc and the chunk offsets disagree');
    budget.step(Math.ceil((lastChunk - firstChunk + 1) / 64));
    for (let chunk = firstChunk; chunk <= lastChunk; chunk++) {
      if (sample + samplesPerChunk > sizes.count) throw new Unreadable('more samples in chunks than sizes');
      let bytes = sizes.fixed * samplesPerChunk;
      if (sizes.fixed === 0) for (let i = 0; i < samplesPerChunk; i++) bytes += sizes.of(sample + i);
      const at = offsets[chunk - 1]!;
      // Chunks one after the other (a track's samples written together) make one span.
      const last = spans.at(-1);
      if (last && last.end === at) spans[spans.length - 1] = { at: last.at, end: at + bytes };
      else spans.push({ at, end: at + bytes });
      budget.hold(spans, MAX_PATCHES);
      sample += samplesPerChunk;
    }
  }
  return spans;
}

/** A table's body, read whole within its bound. */
async function body(source: ByteSource, box: IsoBox, budget: Budget): Promise<Buffer> {
  const length = box.end - box.bodyAt;
  if (length > MAX_TABLE_BYTES) throw new Unreadable(`${box.type} of ${length} bytes`);
  budget.step(Math.ceil(length / 4096));
  const bytes = await source.read(box.bodyAt, length);
  if (bytes.length < 8) throw new Unreadable(`${box.type} cut short`);
  return bytes;
}

/** A full box's entry count (after version and flags), checked against the bytes there are. */
function entryCount(bytes: Buffer, at: number, entryBytes: number, type: string): number {
  const count = bytes.readUInt32BE(at);
  if (at + 4 + count * entryBytes > bytes.length) throw new Unreadable(`${type} claims ${count} entries`);
  return count;
}

async function chunkOffsets(source: ByteSource, box: IsoBox, budget: Budget): Promise<number[]> {
  const bytes = await body(source, box, budget);
  const wide = box.type === 'co64';
  const count = entryCount(bytes, 4, wide ? 8 : 4, box.type);
  return Array.from({ length: count }, (_, i) => {
    if (!wide) return bytes.readUInt32BE(8 + i * 4);
    const value = bytes.readBigUInt64BE(8 + i * 8);
    if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw new Unreadable('a chunk offset past 2^53');
    return Number(value);
  });
}

async function chunkRuns(source: ByteSource, box: IsoBox, budget: Budget): Promise<{ firstChunk: number; samplesPerChunk: number }[]> {
  const bytes = await body(source, box, budget);
  const count = entryCount(bytes, 4, 12, box.type);
  const runs = Array.from({ length: count }, (_, i) => ({ firstChunk: bytes.readUInt32BE(8 + i * 12), samplesPerChunk: bytes.readUInt32BE(12 + i * 12) }));
  for (let i = 1; i < runs.length; i++) if (runs[i]!.firstChunk <= runs[i - 1]!.firstChunk) throw new Unreadable('stsc out of order');
  return runs;
}

async function sampleSizes(source: ByteSource, box: IsoBox, budget: Budget): Promise<{ count: number; fixed: number; of: (i: number) => number }> {
  const bytes = await body(source, box, budget);
  if (box.type === 'stsz') {
    const fixed = bytes.readUInt32BE(4);
    const count = bytes.readUInt32BE(8);
    if (fixed !== 0) return { count, fixed, of: () => fixed };
    if (12 + count * 4 > bytes.length) throw new Unreadable(`stsz claims ${count} samples`);
    return { count, fixed: 0, of: (i) => bytes.readUInt32BE(12 + i * 4) };
  }
  // stz2: reserved (3), field size in bits (1), count, packed sizes.
  const field = bytes.readUInt8(7);
  const count = bytes.readUInt32BE(8);
  if (field !== 4 && field !== 8 && field !== 16) throw new Unreadable(`stz2 field of ${field} bits`);
  if (12 + Math.ceil((count * field) / 8) > bytes.length) throw new Unreadable(`stz2 claims ${count} samples`);
  const of = (i: number) =>
    field === 16 ? bytes.readUInt16BE(12 + i * 2) : field === 8 ? bytes.readUInt8(12 + i) : (bytes.readUInt8(12 + (i >> 1)) >> (i & 1 ? 0 : 4)) & 15;
  return { count, fixed: 0, of };
}
