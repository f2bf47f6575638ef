/**
 * Lossless rotation of a JPEG: its pixels stay as they are, byte for byte, and only the EXIF
 * Orientation tag (0x0112 of IFD0) changes. Every reader of the photo honours the tag: sharp's
 * autoOrient (thumbnails, page sizes, full-size JPEGs), browsers showing the original, and
 * other photo tools, so the photo turns everywhere at once and nothing is ever re-encoded.
 *
 * The file is read up to the end of its APP segments (where EXIF lives, 64 KB a segment at
 * most); the new head is then written with the rest of the file copied after it unchanged.
 * Three cases: the tag is there (its value is rewritten in place); the EXIF block has no such
 * tag (IFD0 is copied to the end of the block with the tag added, and the header points at
 * the copy: every other offset in the block stays valid, nothing moves); or there is no EXIF
 * block at all (a minimal one holding the tag alone is inserted after SOI and any JFIF APP0).
 */
import { ORIENTATION_TRANSFORMS, transformOf } from '../../core/media/orientation.js';

/** The orientation that shows what `orientation` shows turned clockwise by `quarterTurns` more. */
export function rotatedOrientation(orientation: number, quarterTurns: number): number {
  const now = transformOf(orientation);
  const turns = (((now.turns + quarterTurns) % 4) + 4) % 4;
  const found = Object.entries(ORIENTATION_TRANSFORMS).find(([, t]) => t.mirrored === now.mirrored && t.turns === turns);
  return Number(found![0]);
}

/** A JPEG this module will not touch: the message says why, for the owner. */
export class OrientationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OrientationError';
  }
}

const ORIENTATION_TAG = 0x0112;
const SHORT = 3;
const LONG = 4;
const EXIF_HEADER = Buffer.from('Exif\0\0', 'latin1');
/** A segment's length field counts itself and its payload: at most 65535 bytes. */
const MAX_SEGMENT_LENGTH = 0xffff;

/** Where the EXIF block is in a JPEG's head, or where one should go. */
export interface JpegHead {
  /** The APP1 Exif segment: offset of its marker and its whole length (marker included). */
  readonly exif: { readonly start: number; readonly length: number; readonly tiff: Buffer } | undefined;
  /** Where a new APP1 goes when there is none: after SOI and a leading JFIF APP0. */
  readonly insertAt: number;
  /** Bytes of the head that the scan needed: the segments up to the first non-APP marker. */
  readonly scanned: number;
}

/**
 * Finds the EXIF block among the APP segments at the start of `head` (the first bytes of the
 * file). Throws OrientationError for anything that is not a well-formed JPEG head.
 */
export function readJpegHead(head: Buffer): JpegHead {
  if (head.length < 4 || head[0] !== 0xff || head[1] !== 0xd8) throw new OrientationError('Not a JPEG file');
  let at = 2;
  let insertAt = 2;
  let exif: JpegHead['exif'];
  for (let segment = 0; ; segment++) {
    if (at + 4 > head.length) throw new OrientationError('The JPEG header is cut short or unusually long');
    if (head[at] !== 0xff) throw new OrientationError('The JPEG header is damaged');
    const marker = head[at + 1]!;
    // Fill bytes (0xFF 0xFF…) may stand between segments.
    if (marker === 0xff) {
      at += 1;
      continue;
    }
    // APP0–APP15 and comments hold metadata; the first other marker (tables, frame) ends the search.
    const isMetadata = (marker >= 0xe0 && marker <= 0xef) || marker === 0xfe;
    if (!isMetadata) return { exif, insertAt, scanned: at };
    const length = head.readUInt16BE(at + 2);
    if (length < 2 || at + 2 + length > head.length) throw new OrientationError('The JPEG header is cut short or unusually long');
    const payload = head.subarray(at + 4, at + 2 + length);
    if (marker === 0xe1 && exif === undefined && payload.subarray(0, EXIF_HEADER.length).equals(EXIF_HEADER)) {
      exif = { start: at, length: 2 + length, tiff: payload.subarray(EXIF_HEADER.length) };
    }
    if (segment === 0 && marker === 0xe0 && payload.subarray(0, 5).toString('latin1') === 'JFIF\0') insertAt = at + 2 + length;
    at += 2 + length;
  }
}

/** Reads and writes the TIFF structure of an EXIF block in its own byte order, within its bounds. */
class Tiff {
  readonly little: boolean;

  constructor(readonly bytes: Buffer) {
    const order = bytes.subarray(0, 2).toString('latin1');
    if (order !== 'II' && order !== 'MM') throw new OrientationError('The EXIF block is damaged (byte order)');
    this.little = order === 'II';
    if (this.u16(2) !== 42) throw new OrientationError('The EXIF block is damaged (TIFF header)');
  }

  u16(at: number): number {
    this.#check(at, 2);
    return this.little ? this.bytes.readUInt16LE(at) : this.bytes.readUInt16BE(at);
  }

  u32(at: number): number {
    this.#check(at, 4);
    return this.little ? this.bytes.readUInt32LE(at) : this.bytes.readUInt32BE(at);
  }

  #check(at: number, size: number): void {
    if (at < 0 || at + size > this.bytes.length) throw new OrientationError('The EXIF block is damaged (an offset points outside it)');
  }
}

/** IFD0 of the block: where its entries are and which is the orientation's. */
function ifd0Of(tiff: Tiff): { offset: number; count: number; orientationEntry: number | undefined } {
  const offset = tiff.u32(4);
  const count = tiff.u16(offset);
  // The entries and the next-IFD pointer after them must lie within the block.
  tiff.u32(offset + 2 + 12 * count);
  for (let i = 0; i < count; i++) {
    const entry = offset + 2 + 12 * i;
    if (tiff.u16(entry) === ORIENTATION_TAG) return { offset, count, orientationEntry: entry };
  }
  return { offset, count, orientationEntry: undefined };
}

/** The orientation a JPEG's head declares (1 when it declares none). */
export function orientationOf(head: JpegHead): number {
  if (!head.exif) return 1;
  const tiff = new Tiff(head.exif.tiff);
  const { orientationEntry } = ifd0Of(tiff);
  if (orientationEntry === undefined) return 1;
  const type = tiff.u16(orientationEntry + 2);
  const value = type === LONG ? tiff.u32(orientationEntry + 8) : tiff.u16(orientationEntry + 8);
  return value >= 1 && value <= 8 ? value : 1;
}

/** The new bytes for [start, start + length) of the file that give it `orientation`. */
export interface HeadEdit {
  readonly start: number;
  /** Bytes of the original replaced (0: an insertion). */
  readonly length: number;
  readonly bytes: Buffer;
}

/** How to give the JPEG whose head is `head` the orientation `orientation`, its pixels untouched. */
export function orientationEdit(head: JpegHead, orientation: number): HeadEdit {
  if (!Number.isInteger(orientation) || orientation < 1 || orientation > 8) throw new RangeError(`orientation must be 1 to 8, got ${orientation}`);
  if (!head.exif) {
    const tiff = Buffer.alloc(8 + 2 + 12 + 4);
    tiff.write('MM', 0, 'latin1');
    tiff.writeUInt16BE(42, 2);
    tiff.writeUInt32BE(8, 4);
    tiff.writeUInt16BE(1, 8);
    writeOrientationEntry(tiff, 10, orientation, false);
    // Next IFD: none (already zero).
    return { start: head.insertAt, length: 0, bytes: app1(tiff) };
  }
  const tiff = new Tiff(head.exif.tiff);
  const ifd0 = ifd0Of(tiff);
  const bytes = Buffer.from(head.exif.tiff);
  if (ifd0.orientationEntry !== undefined) {
    const type = tiff.u16(ifd0.orientationEntry + 2);
    if (type !== SHORT && type !== LONG) throw new OrientationError('The EXIF orientation tag has an unusual type');
    writeOrientationEntry(bytes, ifd0.orientationEntry, orientation, tiff.little, type);
  } else {
    return { start: head.exif.start, length: head.exif.length, bytes: app1(withMovedIfd0(tiff, ifd0, orientation)) };
  }
  return { start: head.exif.start, length: head.exif.length, bytes: app1(bytes) };
}

/** The block with IFD0 copied to its end, the orientation entry added in tag order, and the header pointing at the copy. */
function withMovedIfd0(tiff: Tiff, ifd0: { offset: number; count: number }, orientation: number): Buffer {
  const entries: Buffer[] = [];
  for (let i = 0; i < ifd0.count; i++) {
    const entry = ifd0.offset + 2 + 12 * i;
    entries.push(tiff.bytes.subarray(entry, entry + 12));
  }
  const added = Buffer.alloc(12);
  writeOrientationEntry(added, 0, orientation, tiff.little);
  const tagOf = (e: Buffer) => (tiff.little ? e.readUInt16LE(0) : e.readUInt16BE(0));
  const at = entries.findIndex((e) => tagOf(e) > ORIENTATION_TAG);
  entries.splice(at < 0 ? entries.length : at, 0, added);
  const nextIfd = tiff.bytes.subarray(ifd0.offset + 2 + 12 * ifd0.count, ifd0.offset + 2 + 12 * ifd0.count + 4);
  // IFDs start on a word boundary.
  const pad = tiff.bytes.length % 2;
  const newOffset = tiff.bytes.length + pad;
  const count = Buffer.alloc(2);
  if (tiff.little) count.writeUInt16LE(entries.length);
  else count.writeUInt16BE(entries.length);
  const out = Buffer.concat([tiff.bytes, Buffer.alloc(pad), count, ...entries, nextIfd]);
  if (tiff.little) out.writeUInt32LE(newOffset, 4);
  else out.writeUInt32BE(newOffset, 4);
  return out;
}

function writeOrientationEntry(buf: Buffer, at: number, orientation: number, little: boolean, type = SHORT): void {
  const u16 = (v: number, o: number) => (little ? buf.writeUInt16LE(v, o) : buf.writeUInt16BE(v, o));
  const u32 = (v: number, o: number) => (little ? buf.writeUInt32LE(v, o) : buf.writeUInt32BE(v, o));
  u16(ORIENTATION_TAG, at);
  u16(type, at + 2);
  u32(1, at + 4);
  // A SHORT sits in the first two bytes of the value field, the rest zero.
  if (type === LONG) u32(orientation, at + 8);
  else {
    u16(orientation, at + 8);
    u16(0, at + 10);
  }
}

/** An APP1 segment holding `tiff` as its EXIF block. */
function app1(tiff: Buffer): Buffer {
  const length = 2 + EXIF_HEADER.length + tiff.length;
  if (length > MAX_SEGMENT_LENGTH) throw new OrientationError('The EXIF block is too large to take one more tag');
  const header = Buffer.alloc(4);
  header.writeUInt16BE(0xffe1, 0);
  header.writeUInt16BE(length, 2);
  return Buffer.concat([header, EXIF_HEADER, tiff]);
}
