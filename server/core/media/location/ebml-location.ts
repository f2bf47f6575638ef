/**
 * A WebM or Matroska movie served without a place (docs/api.md#location-privacy). ffmpeg's
 * `-metadata location=` and titles go into its Tags; chapters and attachments may carry any
 * text. The Segment's children are walked by keep-list: the seek index, segment info (but its
 * title and file names), tracks (but their names), clusters and cues are kept; Tags,
 * Chapters, Attachments and any unknown element become an EBML Void element of the same
 * length, its body zeroed, which every reader skips; Void bodies (leftovers of an earlier
 * edit) are zeroed. A master element that loses a child loses its CRC-32 too.
 *
 * Clusters of unknown size (browsers' MediaRecorder writes them) are walked block by block
 * to the next top-level element. Where the walk loses its way, everything from there to the
 * end of the file is zeroed.
 */
import type { ByteSource } from '../byte-source.js';
import { type BytePatch, bytesPatch, zeroPatch } from './byte-patches.js';
import type { Budget } from './walk.js';

const EBML = 0x1a45dfa3;
const SEGMENT = 0x18538067;
const CLUSTER = 0x1f43b675;
const VOID = 0xec;
const CRC32 = 0xbf;
/** Children of a Segment kept as they are (Info and Tracks are walked). */
const SEGMENT_KEPT = new Set([0x114d9b74 /* SeekHead */, CLUSTER, 0x1c53bb6b /* Cues */]);
const INFO = 0x1549a966;
const TRACKS = 0x1654ae6b;
const TRACK_ENTRY = 0xae;
/** Segment info kept: UIDs, timestamps, duration, date, the muxing and writing applications. */
const INFO_KEPT = new Set([0x73a4, 0x3cb923, 0x3eb923, 0x4444, 0x6924, 0x2ad7b1, 0x4489, 0x4461, 0x4d80, 0x5741]);
/** A track's name: free text. */
const TRACK_NAME = 0x536e;
/** What a cluster of unknown size holds: timestamp, silent tracks, position, previous size, blocks. */
const CLUSTER_CHILDREN = new Set([0xe7, 0x5854, 0xa7, 0xab, 0xa3, 0xa0, 0xaf, VOID, CRC32]);
const TOP_LEVEL = new Set([EBML, SEGMENT, ...SEGMENT_KEPT, INFO, TRACKS, 0x1043a770, 0x1254c367, 0x1941a469]);

export const isEbml = (head: Buffer): boolean => head.length >= 4 && head.readUInt32BE(0) === EBML;

interface Element {
  readonly id: number;
  readonly at: number;
  readonly bodyAt: number;
  /** Its end, or undefined for an unknown size. */
  readonly end: number | undefined;
}

/** Raised inside this module where the walk cannot go on. */
class Lost extends Error {}

export async function ebmlPatches(file: ByteSource, budget: Budget): Promise<BytePatch[]> {
  const patches: BytePatch[] = [];
  const element = async (at: number, limit: number): Promise<Element> => {
    budget.step();
    budget.hold(patches);
    const head = await file.read(at, 12);
    const id = vint(head, 0, true);
    const size = id && vint(head, id.length, false);
    if (!id || !size) throw new Lost();
    const bodyAt = at + id.length + size.length;
    const end = size.value === undefined ? undefined : bodyAt + size.value;
    if (end !== undefined && end > limit) throw new Lost();
    return { id: id.value!, at, bodyAt, end };
  };
  /** Walks the children of a master from `start` to `end`, voiding those `keep` refuses; true when any was. */
  const masterPatches = async (start: number, end: number, keep: (id: number) => boolean, walk?: (child: Element) => Promise<boolean>) => {
    const children: Element[] = [];
    let voided = false;
    for (let at = start; at < end; ) {
      const child = await element(at, end);
      if (child.end === undefined) throw new Lost();
      children.push(child);
      budget.hold(children);
      if (child.id === VOID) patches.push(zeroPatch(child.bodyAt, child.end - child.bodyAt));
      else if (walk && (await walk(child))) voided = true;
      else if (!keep(child.id) && child.id !== CRC32) {
        patches.push(...asVoid(child.at, child.end));
        voided = true;
      }
      at = child.end;
    }
    const crc = children.find((c) => c.id === CRC32);
    if (voided && crc) patches.push(...asVoid(crc.at, crc.end!));
    return voided;
  };

  let at = 0;
  try {
    while (at < file.size) {
      const top = await element(at, file.size);
      const end = top.end ?? file.size;
      if (top.id === SEGMENT) await segment(top.bodyAt, end);
      else if (top.id !== EBML) throw new Lost();
      at = end;
    }
  } catch (err) {
    if (!(err instanceof Lost)) throw err;
    patches.push(zeroPatch(at, file.size - at));
  }
  return patches;

  async function segment(start: number, end: number): Promise<void> {
    for (at = start; at < end; ) {
      const child = await element(at, end);
      if (child.end === undefined) {
        if (child.id !== CLUSTER) throw new Lost();
        at = await pastUnknownCluster(child.bodyAt, end);
        continue;
      }
      if (child.id === INFO) await masterPatches(child.bodyAt, child.end, (id) => INFO_KEPT.has(id));
      else if (child.id === TRACKS) {
        await masterPatches(
          child.bodyAt,
          child.end,
          (id) => id === TRACK_ENTRY,
          async (entry) => entry.id === TRACK_ENTRY && masterPatches(entry.bodyAt, entry.end!, (id) => id !== TRACK_NAME),
        );
      } else if (child.id === VOID) patches.push(zeroPatch(child.bodyAt, child.end - child.bodyAt));
      else if (!SEGMENT_KEPT.has(child.id)) patches.push(...asVoid(child.at, child.end));
      at = child.end;
    }
  }

  /** Where a cluster of unknown size ends: at the first element that is not one of a cluster's. */
  async function pastUnknownCluster(start: number, end: number): Promise<number> {
    for (let inner = start; inner < end; ) {
      const child = await element(inner, end);
      if (TOP_LEVEL.has(child.id)) return inner;
      if (!CLUSTER_CHILDREN.has(child.id) || child.end === undefined) {
        at = inner;
        throw new Lost();
      }
      if (child.id === VOID) patches.push(zeroPatch(child.bodyAt, child.end - child.bodyAt));
      inner = child.end;
    }
    return end;
  }
}

/** An EBML variable-length integer at `at`: an ID keeps its marker bits; a size does not, and all ones is "unknown". */
function vint(bytes: Buffer, at: number, isId: boolean): { value: number | undefined; length: number } | undefined {
  const first = bytes[at];
  if (first === undefined || first === 0) return undefined;
  const length = Math.clz32(first) - 23;
  if (length > (isId ? 4 : 8) || at + length > bytes.length) return undefined;
  let value = isId ? first : first & (0xff >> length);
  let allOnes = value === 0xff >> length;
  for (let i = 1; i < length; i++) {
    value = value * 256 + bytes[at + i]!;
    allOnes &&= bytes[at + i] === 0xff;
  }
  if (!isId && allOnes) return { value: undefined, length };
  return Number.isSafeInteger(value) ? { value, length } : undefined;
}

/** The element over `[at, end)` turned into a Void of the same length, its body zeroed. */
function asVoid(at: number, end: number): BytePatch[] {
  const total = end - at;
  // Void's ID, then its size: 8 bytes when there is room, else 1 (an element is at least 2 bytes).
  const header = total >= 9 ? Buffer.from([VOID, 0x01, 0, 0, 0, 0, 0, 0, 0]) : Buffer.from([VOID, 0x80 | (total - 2)]);
  if (total >= 9) header.writeUIntBE(total - 9, 3, 6);
  return [bytesPatch(at, header), zeroPatch(at + header.length, total - header.length)];
}
