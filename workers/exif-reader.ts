/**
 * Reads the few EXIF fields the gallery shows, and a JPEG's frame size, with work bounded by
 * the size of the input whatever it contains. A general EXIF parser materialises every value
 * of every tag and follows every IFD pointer; a crafted file (thousands of tags each claiming
 * the whole segment, IFDs pointing back at themselves) then costs seconds to minutes of CPU.
 * Here only two IFDs are read (IFD0 and its Exif sub-IFD, never one twice), only the wanted
 * tags are decoded, only the first component of a number is read and text is capped: the cost
 * is at most a few thousand 12-byte entries. The same holds for Apple's content identifier
 * (readAppleContentId), one more IFD inside the MakerNote, and for the GPS IFD (readExifPosition).
 */

import { type GpsPosition, isPosition } from './place-tags.js';

export interface ExifFields {
  Make: string | null;
  Model: string | null;
  LensModel: string | null;
  FocalLength: number | null;
  FNumber: number | null;
  /** Seconds (1/250 s is 0.004). */
  ExposureTime: number | null;
  ISO: number | null;
  /** 'YYYY:MM:DD HH:MM:SS', the camera's wall clock, as it wrote it; the caller normalises it. */
  DateTimeOriginal: string | null;
}

export interface JpegHead {
  /** The APP1 payload after 'Exif\0\0': a TIFF block. */
  exif?: Buffer;
  /** From the first frame header (SOF), when it lies within the bytes given. */
  size?: { width: number; height: number };
}

const TEXT_TAGS = { Make: 0x010f, Model: 0x0110, LensModel: 0xa434, DateTimeOriginal: 0x9003 } as const;
const NUMBER_TAGS = { FocalLength: 0x920a, FNumber: 0x829d, ExposureTime: 0x829a, ISO: 0x8827 } as const;
const EXIF_IFD_POINTER = 0x8769;
/** Where IFD1 keeps the camera's own small preview (a JPEG inside the EXIF block). */
const PREVIEW_TAGS = { offset: 0x0201, length: 0x0202 } as const;
const WANTED = new Set<number>([...Object.values(TEXT_TAGS), ...Object.values(NUMBER_TAGS), EXIF_IFD_POINTER]);

/** Real IFDs hold tens of entries; an IFD claiming more is read up to this many. */
const MAX_IFD_ENTRIES = 1024;
/** Longer text is cut: the gallery shows a lens name, not a paragraph. */
const MAX_TEXT_BYTES = 256;
const ENTRY_BYTES = 12;

/** Bytes per component of each TIFF field type (0: a type we never read). */
const TYPE_BYTES: Record<number, number> = { 1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 6: 1, 7: 1, 8: 2, 9: 4, 10: 8, 11: 4, 12: 8 };

const EXIF_PREFIX = Buffer.from('Exif\0\0', 'latin1');

const EMPTY: ExifFields = Object.freeze({
  Make: null,
  Model: null,
  LensModel: null,
  FocalLength: null,
  FNumber: null,
  ExposureTime: null,
  ISO: null,
  DateTimeOriginal: null,
});

/**
 * Walks the JPEG's marker segments up to the image data (each step moves past one segment,
 * so the walk ends within `head`) and returns the first Exif APP1 and the first frame size.
 */
export function readJpegHead(head: Buffer): JpegHead {
  const found: JpegHead = {};
  let pos = 2; // after SOI
  while (pos + 4 <= head.length) {
    if (head[pos] !== 0xff) break; // not a marker: damaged, stop with what we have
    const marker = head[pos + 1]!;
    if (marker === 0xff) {
      pos++; // fill byte
      continue;
    }
    if (marker === 0xda || marker === 0xd9) break; // image data or end: no headers follow
    if ((marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      pos += 2; // standalone marker, no length
      continue;
    }
    const length = head.readUInt16BE(pos + 2);
    if (length < 2) break;
    const body = head.subarray(pos + 4, Math.min(head.length, pos + 2 + length));
    if (marker === 0xe1 && found.exif === undefined && body.subarray(0, 6).equals(EXIF_PREFIX)) {
      found.exif = body.subarray(6);
    } else if (isFrameHeader(marker) && found.size === undefined && body.length >= 5) {
      found.size = { height: body.readUInt16BE(1), width: body.readUInt16BE(3) };
    }
    if (found.exif !== undefined && found.size !== undefined) break;
    pos += 2 + length;
  }
  return found;
}

/** SOF0–SOF15, less DHT (C4), JPG (C8) and DAC (CC), which share the range. */
function isFrameHeader(marker: number): boolean {
  return marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
}

/**
 * The gallery's fields from an EXIF block, a TIFF structure with or without the 'Exif\0\0'
 * prefix (sharp hands out both). A damaged block gives nulls, never an error: the photo is fine.
 */
export function readExifFields(block: Buffer): ExifFields {
  const tiff = block.subarray(0, 6).equals(EXIF_PREFIX) ? block.subarray(6) : block;
  if (tiff.length < 8) return { ...EMPTY };
  const order = tiff.toString('latin1', 0, 2);
  if (order !== 'II' && order !== 'MM') return { ...EMPTY };
  const reader = new TiffReader(tiff, order === 'II');
  if (reader.u16(2) !== 42) return { ...EMPTY };

  const ifd0Offset = reader.u32(4);
  const entries = reader.ifd(ifd0Offset);
  const exifIfd = entries.get(EXIF_IFD_POINTER);
  const exifOffset = exifIfd ? reader.firstNumber(exifIfd) : null;
  // The Exif sub-IFD is read once, and never when it points back at IFD0.
  if (exifOffset !== null && exifOffset !== ifd0Offset) {
    for (const [tag, entry] of reader.ifd(exifOffset)) if (!entries.has(tag)) entries.set(tag, entry);
  }

  const text = (tag: number) => {
    const entry = entries.get(tag);
    return entry ? reader.text(entry) : null;
  };
  const number = (tag: number) => {
    const entry = entries.get(tag);
    return entry ? reader.firstNumber(entry) : null;
  };
  return {
    Make: text(TEXT_TAGS.Make),
    Model: text(TEXT_TAGS.Model),
    LensModel: text(TEXT_TAGS.LensModel),
    FocalLength: number(NUMBER_TAGS.FocalLength),
    FNumber: number(NUMBER_TAGS.FNumber),
    ExposureTime: number(NUMBER_TAGS.ExposureTime),
    ISO: number(NUMBER_TAGS.ISO),
    DateTimeOriginal: text(TEXT_TAGS.DateTimeOriginal),
  };
}

/**
 * The preview JPEG a camera writes into the EXIF block (IFD1, typically 160×120), when the
 * block holds a whole one: a placeholder can be made from it without decoding the photo.
 * Bounded like the rest: offsets are checked against the block, nothing is followed twice.
 */
export function exifPreview(block: Buffer): Buffer | undefined {
  const tiff = block.subarray(0, 6).equals(EXIF_PREFIX) ? block.subarray(6) : block;
  const reader = tiffReader(tiff);
  if (!reader) return undefined;
  const ifd0 = reader.u32(4);
  const ifd1 = reader.nextIfd(ifd0);
  if (ifd1 === null || ifd1 === ifd0) return undefined;
  const entries = reader.ifd(ifd1, PREVIEW_ONLY);
  const offsetEntry = entries.get(PREVIEW_TAGS.offset);
  const lengthEntry = entries.get(PREVIEW_TAGS.length);
  const offset = offsetEntry ? reader.firstNumber(offsetEntry) : null;
  const length = lengthEntry ? reader.firstNumber(lengthEntry) : null;
  if (offset === null || length === null || length < 4 || offset + length > tiff.length) return undefined;
  const preview = tiff.subarray(offset, offset + length);
  return preview[0] === 0xff && preview[1] === 0xd8 ? preview : undefined;
}

const PREVIEW_ONLY: ReadonlySet<number> = new Set(Object.values(PREVIEW_TAGS));

const GPS_IFD_POINTER = 0x8825;
const GPS_TAGS = { latitudeRef: 0x0001, latitude: 0x0002, longitudeRef: 0x0003, longitude: 0x0004 } as const;
const GPS_POINTER_ONLY: ReadonlySet<number> = new Set([GPS_IFD_POINTER]);
const GPS_ONLY: ReadonlySet<number> = new Set(Object.values(GPS_TAGS));

/**
 * Where the photo was taken, from the GPS IFD of an EXIF block as readExifFields takes it
 * (degrees, minutes and seconds as three rationals, and the hemisphere as a letter); null when
 * the block has none, or one out of range. 0°, 0° is what a camera without a fix writes, not a
 * place: it reads as none. Two IFDs are read, as the other readers here bound them.
 */
export function readExifPosition(block: Buffer): GpsPosition | null {
  const tiff = block.subarray(0, 6).equals(EXIF_PREFIX) ? block.subarray(6) : block;
  const reader = tiffReader(tiff);
  if (!reader) return null;
  const ifd0Offset = reader.u32(4);
  const pointer = reader.ifd(ifd0Offset, GPS_POINTER_ONLY).get(GPS_IFD_POINTER);
  const gpsOffset = pointer ? reader.firstNumber(pointer) : null;
  if (gpsOffset === null || gpsOffset === ifd0Offset) return null;
  const gps = reader.ifd(gpsOffset, GPS_ONLY);
  const degrees = (tag: number, refTag: number, negative: string): number | null => {
    const entry = gps.get(tag);
    const ref = gps.get(refTag);
    if (!entry || !ref) return null;
    const [d, m = 0, s = 0] = reader.numbers(entry, 3);
    if (d === undefined) return null;
    const value = d + m / 60 + s / 3600;
    return reader.text(ref)?.toUpperCase() === negative ? -value : value;
  };
  const lat = degrees(GPS_TAGS.latitude, GPS_TAGS.latitudeRef, 'S');
  const lon = degrees(GPS_TAGS.longitude, GPS_TAGS.longitudeRef, 'W');
  return lat !== null && lon !== null && isPosition(lat, lon) ? { lat, lon } : null;
}

/**
 * Apple's content identifier of a photo, the one the Live Photo's movie carries too
 * (docs/api.md#live-photos), from an EXIF block as readExifFields takes it; null when absent.
 *
 * It lives in the MakerNote (tag 0x927C of the Exif sub-IFD), which on an iPhone is
 * 'Apple iOS\0', a version (2 bytes), a byte order ('MM') and then an IFD whose offsets count
 * from the MakerNote's first byte; tag 0x0011 of that IFD is the identifier, an ASCII UUID.
 * The same bounds hold as for the gallery's fields: three IFDs at most, each read once, and
 * every value checked to lie within its block.
 */
export function readAppleContentId(block: Buffer): string | null {
  const tiff = block.subarray(0, 6).equals(EXIF_PREFIX) ? block.subarray(6) : block;
  const reader = tiffReader(tiff);
  if (!reader) return null;
  const ifd0Offset = reader.u32(4);
  const pointer = reader.ifd(ifd0Offset, EXIF_POINTER_ONLY).get(EXIF_IFD_POINTER);
  const exifOffset = pointer ? reader.firstNumber(pointer) : null;
  if (exifOffset === null || exifOffset === ifd0Offset) return null;
  const makerNote = reader.ifd(exifOffset, MAKER_NOTE_ONLY).get(MAKER_NOTE);
  if (makerNote?.type !== 7) return null; // UNDEFINED bytes
  return appleMakerNoteContentId(reader.bytes(makerNote));
}

const MAKER_NOTE = 0x927c;
const APPLE_MAKER_NOTE_PREFIX = Buffer.from('Apple iOS\0', 'latin1');
/** Where the byte order and the IFD start inside Apple's MakerNote. */
const APPLE_BYTE_ORDER_AT = 12;
const APPLE_IFD_AT = 14;
const APPLE_CONTENT_ID = 0x0011;
const EXIF_POINTER_ONLY: ReadonlySet<number> = new Set([EXIF_IFD_POINTER]);
const MAKER_NOTE_ONLY: ReadonlySet<number> = new Set([MAKER_NOTE]);
const CONTENT_ID_ONLY: ReadonlySet<number> = new Set([APPLE_CONTENT_ID]);

function appleMakerNoteContentId(note: Buffer): string | null {
  if (note.length < APPLE_IFD_AT + 2 || !note.subarray(0, APPLE_MAKER_NOTE_PREFIX.length).equals(APPLE_MAKER_NOTE_PREFIX)) return null;
  const order = note.toString('latin1', APPLE_BYTE_ORDER_AT, APPLE_IFD_AT);
  if (order !== 'MM' && order !== 'II') return null;
  const reader = new TiffReader(note, order === 'II');
  const entry = reader.ifd(APPLE_IFD_AT, CONTENT_ID_ONLY).get(APPLE_CONTENT_ID);
  return entry ? contentIdText(reader.text(entry)) : null;
}

/**
 * A content identifier as the gallery compares it: printable ASCII without spaces (a UUID in
 * every file we have seen), upper case; anything else reads as absent rather than pairing
 * files on garbage.
 */
export function contentIdText(value: string | null): string | null {
  if (value === null || !/^[\x21-\x7e]{1,128}$/.test(value)) return null;
  return value.toUpperCase();
}

/** A reader over a TIFF block whose header is sound, or null. */
function tiffReader(tiff: Buffer): TiffReader | null {
  if (tiff.length < 8) return null;
  const order = tiff.toString('latin1', 0, 2);
  if (order !== 'II' && order !== 'MM') return null;
  const reader = new TiffReader(tiff, order === 'II');
  return reader.u16(2) === 42 ? reader : null;
}

interface IfdEntry {
  readonly type: number;
  readonly count: number;
  /** Offset of the value: inside the entry when it fits in 4 bytes, else where the entry points. */
  readonly valueAt: number;
}

/** Every read is checked against the block: an offset past its end reads as "absent". */
class TiffReader {
  constructor(
    private readonly buf: Buffer,
    private readonly littleEndian: boolean,
  ) {}

  u16(at: number): number | null {
    if (at < 0 || at + 2 > this.buf.length) return null;
    return this.littleEndian ? this.buf.readUInt16LE(at) : this.buf.readUInt16BE(at);
  }

  u32(at: number): number | null {
    if (at < 0 || at + 4 > this.buf.length) return null;
    return this.littleEndian ? this.buf.readUInt32LE(at) : this.buf.readUInt32BE(at);
  }

  /** The offset of the IFD that follows the one at `offset` (0 or out of the block: none). */
  nextIfd(offset: number | null): number | null {
    const declared = offset === null ? null : this.u16(offset);
    if (offset === null || declared === null || declared > MAX_IFD_ENTRIES) return null;
    const next = this.u32(offset + 2 + declared * ENTRY_BYTES);
    return next === null || next === 0 || next >= this.buf.length ? null : next;
  }

  /** The wanted entries of the IFD at `offset` (first of a tag wins); the gallery's fields unless told. */
  ifd(offset: number | null, wanted: ReadonlySet<number> = WANTED): Map<number, IfdEntry> {
    const found = new Map<number, IfdEntry>();
    const declared = offset === null ? null : this.u16(offset);
    if (offset === null || declared === null) return found;
    const fitting = Math.floor((this.buf.length - offset - 2) / ENTRY_BYTES);
    const count = Math.min(declared, fitting, MAX_IFD_ENTRIES);
    for (let i = 0; i < count; i++) {
      const at = offset + 2 + i * ENTRY_BYTES;
      const tag = this.u16(at)!;
      if (!wanted.has(tag) || found.has(tag)) continue;
      const type = this.u16(at + 2)!;
      const componentCount = this.u32(at + 4)!;
      const bytes = (TYPE_BYTES[type] ?? 0) * componentCount;
      if (bytes === 0) continue;
      const valueAt = bytes <= 4 ? at + 8 : this.u32(at + 8)!;
      // A value said to reach past the block is damaged (or hostile): leave the tag out.
      if (valueAt + bytes > this.buf.length) continue;
      found.set(tag, { type, count: componentCount, valueAt });
    }
    return found;
  }

  /** The bytes of a value, as stored (an UNDEFINED blob such as a MakerNote); bounded by ifd(). */
  bytes(entry: IfdEntry): Buffer {
    return this.buf.subarray(entry.valueAt, entry.valueAt + (TYPE_BYTES[entry.type] ?? 0) * entry.count);
  }

  text(entry: IfdEntry): string | null {
    if (entry.type !== 2) return null;
    const raw = this.buf.subarray(entry.valueAt, entry.valueAt + Math.min(entry.count, MAX_TEXT_BYTES));
    const end = raw.indexOf(0);
    const value = raw.toString('utf8', 0, end === -1 ? raw.length : end).trim();
    return value === '' ? null : value;
  }

  /** Up to `max` components as numbers, in order, stopping at the first that is not one (a rational over 0). */
  numbers(entry: IfdEntry, max: number): number[] {
    const size = TYPE_BYTES[entry.type] ?? 0;
    const found: number[] = [];
    for (let i = 0; i < Math.min(entry.count, max); i++) {
      const value = this.firstNumber({ ...entry, valueAt: entry.valueAt + i * size });
      if (value === null) break;
      found.push(value);
    }
    return found;
  }

  /** The first component as a number (a rational divided out); integers, rationals, floats. */
  firstNumber(entry: IfdEntry): number | null {
    const at = entry.valueAt;
    const le = this.littleEndian;
    const b = this.buf;
    let value: number;
    switch (entry.type) {
      case 1:
        value = b.readUInt8(at);
        break;
      case 3:
        value = le ? b.readUInt16LE(at) : b.readUInt16BE(at);
        break;
      case 4:
        value = le ? b.readUInt32LE(at) : b.readUInt32BE(at);
        break;
      case 9:
        value = le ? b.readInt32LE(at) : b.readInt32BE(at);
        break;
      case 11:
        value = le ? b.readFloatLE(at) : b.readFloatBE(at);
        break;
      case 12:
        value = le ? b.readDoubleLE(at) : b.readDoubleBE(at);
        break;
      case 5:
      case 10: {
        const signed = entry.type === 10;
        const part = (o: number) => (signed ? (le ? b.readInt32LE(o) : b.readInt32BE(o)) : le ? b.readUInt32LE(o) : b.readUInt32BE(o));
        const den = part(at + 4);
        if (den === 0) return null;
        value = part(at) / den;
        break;
      }
      default:
        return null;
    }
    return Number.isFinite(value) ? value : null;
  }
}
