/**
 * A TIFF structure served without anything but what describes the picture and the camera
 * (docs/api.md#location-privacy): the EXIF block of a JPEG, PNG, WebP or HEIF, or a TIFF
 * file itself. One walk for all of them.
 *
 * It visits every IFD a reader may reach: IFD0 and its chain (IFD1, the thumbnail's; a
 * TIFF's pages), the Exif IFD, the Interoperability IFD, SubIFDs, and the GPS IFD. Each
 * entry is judged by the keep-list of its IFD's kind (tiff-tags.ts): kept, its value stays;
 * not kept, its value is zeroed (inline, or where it points), XMP (700) becoming an empty
 * packet. What is kept is a list of spans: the header, every IFD but the GPS IFD, the values
 * kept, the strips and tiles of the pixels, the JPEG thumbnail (walked as a JPEG of its own,
 * with no metadata of its own kept). **Every byte of the block outside those spans is
 * zeroed**: dropped values, the GPS IFD (its entry count becomes 0: an empty IFD the GPSInfo
 * pointer still leads to), a MakerNote and anything it points to, and any byte no pointer
 * leads to (leftovers of an earlier edit). Dropped values and the GPS IFD are zeroed even
 * where a kept value claims the same bytes. Dropped text becomes spaces ended by a NUL. A
 * sub-IFD's next-IFD pointer (junk, in many cameras' files) is zeroed.
 *
 * A structure that cannot be walked safely throws Unreadable, and the caller blanks the whole
 * block (for a TIFF file: the whole file): BigTIFF, an IFD reached twice (a loop, or two
 * pointers sharing one), IFDs that overlap, an IFD cut by the block's end, a dropped value
 * inside an IFD, a kept value running past the block's end, pixel offsets without their byte
 * counts. A pointer past the block's end leads to nothing a reader finds.
 */
import { type ByteSource, sliceSource } from '../byte-source.js';
import { type BytePatch, fillPatch, shiftPatches, zeroPatch } from './byte-patches.js';
import { isJpegStart, walkJpegImage, zeroApps } from './jpeg-segments.js';
import { IFD_POINTERS, type IfdKind, JPEG_INTERCHANGE, keepsValue, OLD_JPEG_TABLES, PIXEL_DATA, TYPE_BYTES, XMP_TAG } from './tiff-tags.js';
import { type Budget, cannotWalk, Unreadable } from './walk.js';
import { blankXmp } from './xmp-blank.js';

interface Span {
  readonly at: number;
  readonly end: number;
}

interface Entry {
  readonly tag: number;
  readonly type: number;
  readonly count: number;
  /** Where its 4-byte value field is, in the block. */
  readonly fieldAt: number;
  /** Its value's bytes (type size × count); undefined for an unknown type. */
  readonly bytes: number | undefined;
}

const ENTRY_BYTES = 12;
const MAX_NUMBERS_BYTES = 64 * 1024 * 1024;

export const isTiffHeader = (head: Buffer): boolean => {
  if (head.length < 4) return false;
  const order = head.toString('latin1', 0, 2);
  if (order !== 'II' && order !== 'MM') return false;
  const magic = order === 'II' ? head.readUInt16LE(2) : head.readUInt16BE(2);
  return magic === 42 || magic === 43;
};

/** The patches (offsets in the block) that leave only the picture and the camera in the TIFF structure `tiff`. */
export async function tiffPatches(tiff: ByteSource, budget: Budget): Promise<BytePatch[]> {
  const header = await tiff.read(0, 8);
  if (header.length < 8 || !isTiffHeader(header)) throw new Unreadable('no TIFF header');
  const le = header.toString('latin1', 0, 2) === 'II';
  const u16 = (b: Buffer, at: number) => (le ? b.readUInt16LE(at) : b.readUInt16BE(at));
  const u32 = (b: Buffer, at: number) => (le ? b.readUInt32LE(at) : b.readUInt32BE(at));
  if (u16(header, 2) !== 42) throw new Unreadable('BigTIFF');

  const kept: Span[] = [{ at: 0, end: 8 }];
  const ifds: Span[] = [];
  const patches: BytePatch[] = [];
  /** Values of entries not kept (and of the GPS IFD): zeroed even where a kept span covers them. */
  const dropped: Span[] = [];
  /** A span kept; strips and tiles written one after the other make one. */
  const keep = (at: number, end: number) => {
    const last = kept.at(-1);
    if (last && last.end === at) kept[kept.length - 1] = { at: last.at, end: Math.max(end, last.end) };
    else kept.push({ at, end });
    budget.hold(kept);
  };
  const visited = new Set<number>();
  const queue: { at: number; kind: IfdKind; chain: boolean }[] = [{ at: u32(header, 4), kind: 'picture', chain: true }];

  /** The values of an entry of SHORT or LONG offsets or counts (strips, SubIFDs), the array kept where it lies. */
  const numbers = async (e: Entry): Promise<number[]> => {
    if (e.type !== 3 && e.type !== 4 && e.type !== 13) throw new Unreadable(`tag ${e.tag} of type ${e.type}`);
    budget.step(Math.ceil(e.count / 64));
    const size = e.type === 3 ? 2 : 4;
    // 16 million strips or tiles: more than any picture has, and the most read into memory.
    if (e.count * size > MAX_NUMBERS_BYTES) throw new Unreadable(`tag ${e.tag} of ${e.count} values`);
    const inline = e.count * size <= 4;
    const at = inline ? e.fieldAt : u32(await tiff.read(e.fieldAt, 4), 0);
    const bytes = await tiff.read(at, e.count * size);
    if (bytes.length < e.count * size) throw new Unreadable(`tag ${e.tag} cut short`);
    if (!inline) kept.push({ at, end: at + bytes.length });
    return Array.from({ length: e.count }, (_, i) => (size === 2 ? u16(bytes, i * 2) : u32(bytes, i * 4)));
  };

  for (let next = 0; next < queue.length; next++) {
    budget.step();
    for (const list of [queue, patches, kept, dropped]) budget.hold(list);
    const { at, kind, chain } = queue[next]!;
    // 0 is "none"; past the block there is nothing any reader finds.
    if (at === 0 || at + 2 > tiff.size) continue;
    if (visited.has(at)) throw new Unreadable('an IFD reached twice');
    visited.add(at);
    const count = u16(await tiff.read(at, 2), 0);
    const span = { at, end: at + 2 + count * ENTRY_BYTES + 4 };
    if (span.end > tiff.size) throw new Unreadable('an IFD cut short');
    if (ifds.some((s) => s.at < span.end && at < s.end)) throw new Unreadable('IFDs overlap');
    ifds.push(span);
    budget.step(Math.ceil(count / 16));
    const body = await tiff.read(at + 2, count * ENTRY_BYTES + 4);
    if (kind === 'gps') {
      // Kept by nothing, and zeroed even where another span would keep its bytes: all of the IFD and every value it points to.
      patches.push(zeroPatch(span.at, span.end - span.at));
      for (let e = 0; e < count * ENTRY_BYTES; e += ENTRY_BYTES) {
        const bytes = (TYPE_BYTES[u16(body, e + 2)] ?? 0) * u32(body, e + 4);
        if (bytes > 4) dropped.push({ at: u32(body, e + 8), end: u32(body, e + 8) + bytes });
      }
      continue;
    }
    kept.push(span);
    const entries = new Map<number, Entry>();
    for (let i = 0; i < count; i++) {
      const e = i * ENTRY_BYTES;
      const type = u16(body, e + 2);
      const n = u32(body, e + 4);
      const size = TYPE_BYTES[type];
      const entry: Entry = { tag: u16(body, e), type, count: n, fieldAt: at + 2 + e + 8, bytes: size === undefined ? undefined : size * n };
      entries.set(entry.tag, entry);
      const pointerKind = kind === 'interop' ? undefined : IFD_POINTERS.get(entry.tag);
      if (pointerKind !== undefined && (type === 4 || type === 13) && n > 0) {
        for (const sub of await numbers(entry)) queue.push({ at: sub, kind: pointerKind, chain: false });
      } else if (entry.tag === XMP_TAG && entry.bytes !== undefined && entry.bytes > 4) {
        const valueAt = u32(body, e + 8);
        dropped.push({ at: valueAt, end: valueAt + entry.bytes });
        patches.push(...blankXmp(valueAt, Math.max(0, Math.min(entry.bytes, tiff.size - valueAt))));
      } else if (keepsValue(kind, entry.tag) && entry.bytes !== undefined) {
        const valueAt = u32(body, e + 8);
        // A kept value past the block's end would keep what follows it: not a value any camera writes.
        if (entry.bytes > 4 && valueAt + entry.bytes > tiff.size) throw new Unreadable(`tag ${entry.tag} runs past the block`);
        if (entry.bytes > 4) kept.push({ at: valueAt, end: valueAt + entry.bytes });
      } else if (!isPixelTag(entry.tag)) {
        // Dropped: its value zeroed, inline or where it points. A value of an unknown type cannot be located: its
        // field is zeroed, pointer and all. Text becomes spaces ended by a NUL: libtiff warns of a NUL inside an
        // ASCII value, and sharp fails on warnings.
        if (entry.bytes === undefined || entry.bytes <= 4) patches.push(zeroPatch(entry.fieldAt, 4));
        else dropped.push({ at: u32(body, e + 8), end: u32(body, e + 8) + entry.bytes });
        if (entry.type === ASCII && entry.bytes !== undefined && entry.bytes > 1) {
          patches.push(...blankText(entry.bytes <= 4 ? entry.fieldAt : u32(body, e + 8), entry.bytes));
        }
      }
    }
    if (kind === 'picture' || kind === 'exif') patches.push(...(await pictureData(entries)));
    const nextAt = at + 2 + count * ENTRY_BYTES;
    const following = u32(body, count * ENTRY_BYTES);
    if (chain) queue.push({ at: following, kind: 'picture', chain: true });
    else if (following !== 0) patches.push(zeroPatch(nextAt, 4));
  }

  /** Keeps the pixels an IFD points to (strips, tiles, old-style JPEG tables) and walks its JPEG thumbnail; its own patches. */
  async function pictureData(entries: ReadonlyMap<number, Entry>): Promise<BytePatch[]> {
    const own: BytePatch[] = [];
    for (const [offsetsTag, countsTag] of PIXEL_DATA) {
      const offsets = entries.get(offsetsTag);
      if (!offsets) continue;
      const counts = entries.get(countsTag);
      if (!counts) throw new Unreadable(`tag ${offsetsTag} without its byte counts`);
      const [at, lengths] = [await numbers(offsets), await numbers(counts)];
      if (at.length !== lengths.length) throw new Unreadable(`tags ${offsetsTag} and ${countsTag} disagree`);
      for (const [i, a] of at.entries()) keep(a, a + lengths[i]!);
    }
    for (const [tag, tableBytes] of OLD_JPEG_TABLES) {
      const tables = entries.get(tag);
      if (tables) for (const a of await numbers(tables)) keep(a, a + tableBytes);
    }
    const thumbnail = entries.get(JPEG_INTERCHANGE.offset);
    if (thumbnail) {
      const length = entries.get(JPEG_INTERCHANGE.length);
      const [at] = await numbers(thumbnail);
      const [bytes] = length ? await numbers(length) : [];
      if (at === undefined || bytes === undefined || !isJpegStart(await tiff.read(at, 3))) {
        // No JPEG there, or of unknown length: the pointer goes, and the bytes it led to with it.
        own.push(zeroPatch(thumbnail.fieldAt, 4));
      } else {
        try {
          const image = await walkJpegImage(sliceSource(tiff, at, at + bytes), 0, budget, zeroApps);
          own.push(...shiftPatches(image.patches, at));
          kept.push({ at, end: at + image.end });
        } catch (err) {
          if (!cannotWalk(err)) throw err;
        }
      }
    }
    return own;
  }

  const zeros: BytePatch[] = [];
  for (const value of dropped) {
    if (value.at >= tiff.size) continue;
    // Zeroing a value that lies in an IFD would break the structure every reader walks.
    if (ifds.some((s) => s.at < value.end && value.at < s.end)) throw new Unreadable('a value inside an IFD');
    zeros.push(zeroPatch(value.at, Math.min(value.end, tiff.size) - value.at));
  }
  // Later patches win: the zeros of what nothing keeps, then of dropped values (even where a kept value shares
  // their bytes: only a crafted file has that), then what dropped values become (spaces, an empty XMP packet).
  return [...complement(kept, tiff.size), ...zeros, ...patches];
}

const ASCII = 2;

/** An ASCII value of `bytes` bytes at `at`, blanked: spaces, then the NUL that ends it. */
const blankText = (at: number, bytes: number): BytePatch[] => [fillPatch(at, bytes - 1, 0x20), zeroPatch(at + bytes - 1, 1)];

const isPixelTag = (tag: number) => PIXEL_DATA.some(([o, c]) => tag === o || tag === c) || tag === JPEG_INTERCHANGE.offset || tag === JPEG_INTERCHANGE.length;

/** Zero patches over every byte of `[0, size)` that no span covers. */
function complement(spans: readonly Span[], size: number): BytePatch[] {
  const sorted = spans
    .map((s) => ({ at: Math.max(0, s.at), end: Math.min(size, s.end) }))
    .filter((s) => s.end > s.at)
    .sort((a, b) => a.at - b.at);
  const gaps: BytePatch[] = [];
  let covered = 0;
  for (const s of sorted) {
    if (s.at > covered) gaps.push(zeroPatch(covered, s.at - covered));
    covered = Math.max(covered, s.end);
  }
  if (covered < size) gaps.push(zeroPatch(covered, size - covered));
  return gaps;
}
