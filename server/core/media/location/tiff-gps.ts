/**
 * The GPS position inside a TIFF structure: the EXIF block of a JPEG, HEIF, PNG or WebP, or
 * a TIFF file itself (docs/api.md#location-privacy). EXIF keeps it in the GPS IFD, which an
 * IFD points to with tag 0x8825 (GPSInfo); what is blanked is that IFD (its entry count
 * becomes 0, so every reader sees an empty GPS IFD, and its entries and next-IFD pointer are
 * zeroed) and every value its entries point to (the rationals of latitude and longitude,
 * the altitude, the processing method and area texts, the time stamp…). The GPSInfo pointer
 * stays: it points at an empty IFD.
 *
 * The block is untrusted, so the walk is bounded whatever it claims, as in the gallery's EXIF
 * reader (workers/exif-reader.ts): at most MAX_IFDS IFDs, each visited once and read with one
 * read, at most MAX_IFD_ENTRIES entries each. The walk follows every place a reader may find a
 * GPSInfo tag: the chain of IFDs (IFD0, the thumbnail's IFD1, a TIFF's pages), each one's
 * Exif sub-IFD and a TIFF's SubIFDs. When it cannot be sure it has seen them all, or blanking
 * would overwrite another IFD (structures sharing bytes, which only a crafted file has), it
 * says so (`unsafe`), and the caller blanks the whole metadata block instead.
 */
import { type BytePatch, zeroPatch } from './byte-patches.js';
import type { ByteSource } from '../byte-source.js';

export interface TiffLocation {
  /** What to zero, as offsets inside the TIFF block. */
  readonly patches: readonly BytePatch[];
  /** The block could not be walked safely within the bounds: blank all of it instead. */
  readonly unsafe: boolean;
}

const GPS_INFO = 0x8825;
const EXIF_IFD = 0x8769;
const SUB_IFDS = 0x014a;

/** Real IFDs hold tens of entries; one declaring more is not walked (unsafe). */
const MAX_IFD_ENTRIES = 1024;
/** IFDs visited in one block: IFD0, IFD1, the Exif IFD, a TIFF's pages and their sub-IFDs. */
const MAX_IFDS = 64;
/** Distinct GPS IFDs blanked in one block: one in a photo, one per page in a TIFF. */
const MAX_GPS_IFDS = 16;
/** SubIFDs offsets read from one entry. */
const MAX_SUB_IFDS = 16;
/** The largest GPS value (a processing-method or area text is tens of bytes). */
const MAX_GPS_VALUE_BYTES = 64 * 1024;
const ENTRY_BYTES = 12;

/** Bytes per component of the TIFF field types (13: an IFD offset). */
const TYPE_BYTES: Readonly<Record<number, number>> = { 1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 6: 1, 7: 1, 8: 2, 9: 4, 10: 8, 11: 4, 12: 8, 13: 4 };

const NOTHING: TiffLocation = Object.freeze({ patches: [], unsafe: false });
const UNSAFE: TiffLocation = Object.freeze({ patches: [], unsafe: true });

interface Span {
  readonly at: number;
  readonly end: number;
}

const overlaps = (a: Span, b: Span) => a.at < b.end && b.at < a.end;

/** The GPS IFDs of the TIFF block `tiff` and what to zero to blank them. */
export async function tiffGpsPatches(tiff: ByteSource): Promise<TiffLocation> {
  const header = await tiff.read(0, 8);
  if (header.length < 8) return NOTHING;
  const order = header.toString('latin1', 0, 2);
  if (order !== 'II' && order !== 'MM') return NOTHING;
  const le = order === 'II';
  const u16 = (b: Buffer, at: number) => (le ? b.readUInt16LE(at) : b.readUInt16BE(at));
  const u32 = (b: Buffer, at: number) => (le ? b.readUInt32LE(at) : b.readUInt32BE(at));
  const magic = u16(header, 2);
  // BigTIFF (43) has 8-byte offsets this walk does not read; anything else is no TIFF at all.
  if (magic === 43) return UNSAFE;
  if (magic !== 42) return NOTHING;

  /** An IFD as read: its span and its entries (those within the block). */
  const readIfd = async (at: number) => {
    const count = await tiff.read(at, 2);
    if (count.length < 2) return undefined;
    const declared = u16(count, 0);
    if (declared > MAX_IFD_ENTRIES) return 'too-large' as const;
    const body = await tiff.read(at + 2, declared * ENTRY_BYTES + 4);
    const entries = Math.min(declared, Math.floor(body.length / ENTRY_BYTES));
    const span: Span = { at, end: at + 2 + declared * ENTRY_BYTES + 4 };
    const next = body.length >= declared * ENTRY_BYTES + 4 ? u32(body, declared * ENTRY_BYTES) : 0;
    return { span, body, entries, next };
  };

  const walked: Span[] = [];
  const visited = new Set<number>();
  const gpsAt = new Set<number>();
  // `chain`: an IFD of the main chain (IFD0, IFD1, a TIFF's pages), whose next-IFD pointer is
  // followed; a sub-IFD's is not (cameras leave junk there).
  const queue: { at: number; chain: boolean }[] = [{ at: u32(header, 4), chain: true }];
  while (queue.length > 0) {
    const { at, chain } = queue.shift()!;
    // Offset 0 is "none"; one past the block has nothing a reader could find either.
    if (at === 0 || at + 2 > tiff.size || visited.has(at)) continue;
    visited.add(at);
    if (visited.size > MAX_IFDS) return UNSAFE;
    const ifd = await readIfd(at);
    if (ifd === undefined) continue;
    if (ifd === 'too-large') return UNSAFE;
    if (walked.some((s) => overlaps(s, ifd.span))) return UNSAFE;
    walked.push(ifd.span);
    for (let i = 0; i < ifd.entries; i++) {
      const e = i * ENTRY_BYTES;
      const tag = u16(ifd.body, e);
      if (tag !== GPS_INFO && tag !== EXIF_IFD && tag !== SUB_IFDS) continue;
      const type = u16(ifd.body, e + 2);
      const count = u32(ifd.body, e + 4);
      if (tag === SUB_IFDS) {
        for (const sub of await subIfdOffsets(type, count, ifd.body.subarray(e + 8, e + 12))) queue.push({ at: sub, chain: false });
        continue;
      }
      const pointer = u32(ifd.body, e + 8);
      if (tag === GPS_INFO) gpsAt.add(pointer);
      else queue.push({ at: pointer, chain: false });
    }
    if (chain) queue.push({ at: ifd.next, chain: true });
  }

  /** A TIFF's SubIFDs: one offset in the entry, or an array of them where it points. */
  async function subIfdOffsets(type: number, count: number, value: Buffer): Promise<number[]> {
    if ((type !== 4 && type !== 13) || count === 0) return [];
    if (count === 1) return [u32(value, 0)];
    const list = await tiff.read(u32(value, 0), Math.min(count, MAX_SUB_IFDS) * 4);
    return Array.from({ length: Math.floor(list.length / 4) }, (_, i) => u32(list, i * 4));
  }

  if (gpsAt.size > MAX_GPS_IFDS) return UNSAFE;
  const patches: BytePatch[] = [];
  for (const at of gpsAt) {
    if (at === 0 || at + 2 > tiff.size) continue;
    const ifd = await readIfd(at);
    if (ifd === undefined) continue;
    if (ifd === 'too-large' || walked.some((s) => overlaps(s, ifd.span))) return UNSAFE;
    patches.push(zeroPatch(at, Math.min(ifd.span.end, tiff.size) - at));
    for (let i = 0; i < ifd.entries; i++) {
      const e = i * ENTRY_BYTES;
      const bytes = (TYPE_BYTES[u16(ifd.body, e + 2)] ?? 0) * u32(ifd.body, e + 4);
      // Up to 4 bytes sit in the entry itself, zeroed with the IFD; an unknown type has no size anyone could read.
      if (bytes <= 4) continue;
      if (bytes > MAX_GPS_VALUE_BYTES) return UNSAFE;
      const value: Span = { at: u32(ifd.body, e + 8), end: u32(ifd.body, e + 8) + bytes };
      if (value.at >= tiff.size) continue;
      if (walked.some((s) => overlaps(s, value))) return UNSAFE;
      patches.push(zeroPatch(value.at, Math.min(value.end, tiff.size) - value.at));
    }
  }
  return { patches, unsafe: false };
}
