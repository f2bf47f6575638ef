/**
 * The walk of one JPEG image, marker by marker, from its SOI to its EOI
 * (docs/api.md#location-privacy), for the photo itself (jpeg-location.ts), the images after
 * it (multi-picture, a phone's trailer) and the thumbnail inside its EXIF (tiff-policy.ts).
 *
 * Every segment is either kept by a keep-list or has its payload zeroed: the structural
 * markers (frame headers, tables, scans) and, among application segments, JFIF (APP0),
 * ICC_PROFILE (APP2) and Adobe (APP14) are kept; what the caller's policy says for the other
 * application segments (Exif, XMP, MPF); everything else (COM, other APPn: IPTC in APP13,
 * FlashPix, JUMBF…) is zeroed. The image data between markers is scanned for the next
 * marker (a memchr over 256 KB reads, O(file size)), so segments after the first scan
 * (progressive JPEGs' tables, anything a writer put there) are walked too.
 *
 * Where the walk loses its way (a byte that is no marker, a length that cannot be, a second
 * SOI) everything from there to the end of the source is zeroed: a decoder stops there too.
 */
import type { ByteSource } from '../byte-source.js';
import { type BytePatch, zeroPatch } from './byte-patches.js';
import type { Budget } from './walk.js';

export const SOI = 0xd8;
export const EOI = 0xd9;
const SOS = 0xda;
export const APP0 = 0xe0;
export const APP1 = 0xe1;
export const APP2 = 0xe2;
const APP14 = 0xee;
const APP15 = 0xef;
/** Bytes of image data read at once while looking for the next marker. */
const SCAN_BYTES = 256 * 1024;

export const isJpegStart = (head: Buffer, at = 0): boolean => head.length >= at + 3 && head[at] === 0xff && head[at + 1] === SOI && head[at + 2] === 0xff;

/** Markers whose segments give the picture's structure: frame headers, Huffman and arithmetic tables, quantisation, restart interval, DNL, hierarchical, JPEG-LS. */
function isStructural(marker: number): boolean {
  return (marker >= 0xc0 && marker <= 0xcf) || (marker >= 0xdb && marker <= 0xdf) || marker === 0xf7 || marker === 0xf8;
}

/** Application segments every JPEG reader needs to show the picture as it is: JFIF, the ICC profile, Adobe's colour transform. */
export function isPictureApp(marker: number, head: Buffer): boolean {
  const starts = (s: string) => head.toString('latin1', 0, s.length) === s;
  return (marker === APP0 && starts('JFIF\0')) || (marker === APP2 && starts('ICC_PROFILE\0')) || (marker === APP14 && starts('Adobe'));
}

/** Decides for an application segment (APP1–APP15, and APP0/APP2/APP14 not kept by isPictureApp): its patches, offsets in the file. */
export type AppPolicy = (marker: number, payloadAt: number, length: number, head: Buffer) => Promise<BytePatch[]>;

/** The policy of an image inside metadata (EXIF's thumbnail): no application segment but the picture's own. */
export const zeroApps: AppPolicy = async (_marker, payloadAt, length) => [zeroPatch(payloadAt, length)];

export interface JpegImage {
  readonly patches: BytePatch[];
  /** Just after its EOI; the end of the source when it has none (cut short, or lost). */
  readonly end: number;
}

/** Walks the JPEG image whose SOI is at `start` of `file`. */
export async function walkJpegImage(file: ByteSource, start: number, budget: Budget, app: AppPolicy): Promise<JpegImage> {
  const patches: BytePatch[] = [];
  const lost = (at: number): JpegImage => {
    patches.push(zeroPatch(at, file.size - at));
    return { patches, end: file.size };
  };
  let pos = start + 2;
  for (;;) {
    budget.step();
    budget.hold(patches);
    const head = await file.read(pos, 4);
    if (head.length < 2) return { patches, end: file.size };
    if (head[0] !== 0xff) return lost(pos);
    const marker = head[1]!;
    if (marker === 0xff) {
      pos++; // fill byte
      continue;
    }
    if (marker === EOI) return { patches, end: pos + 2 };
    if (marker === SOI) return lost(pos);
    if ((marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      pos += 2; // a marker without a segment
      continue;
    }
    if (head.length < 4) return { patches, end: file.size };
    const length = head.readUInt16BE(2);
    if (length < 2) return lost(pos);
    const payloadAt = pos + 4;
    const end = Math.min(pos + 2 + length, file.size);
    if (marker === SOS) {
      if (end >= file.size) return { patches, end: file.size };
      pos = await nextMarker(file, end, budget);
      continue;
    }
    if (marker >= APP0 && marker <= APP15) {
      const payloadHead = await file.read(payloadAt, Math.min(64, end - payloadAt));
      if (!isPictureApp(marker, payloadHead)) patches.push(...(await app(marker, payloadAt, end - payloadAt, payloadHead)));
    } else if (!isStructural(marker)) patches.push(zeroPatch(payloadAt, end - payloadAt)); // COM, reserved and extension markers
    if (end >= file.size) return { patches, end: file.size };
    pos = end;
  }
}

/**
 * Where the next marker is after `from`, in entropy-coded data: an 0xFF followed by neither
 * a stuffed 0x00, a restart marker nor another 0xFF (fill). The end of the source when none.
 */
async function nextMarker(file: ByteSource, from: number, budget: Budget): Promise<number> {
  let at = from;
  while (at < file.size) {
    budget.step();
    const chunk = await file.read(at, SCAN_BYTES);
    if (chunk.length < 2) return file.size;
    let i = chunk.indexOf(0xff);
    while (i >= 0 && i + 1 < chunk.length) {
      const next = chunk[i + 1]!;
      if (next !== 0x00 && next !== 0xff && !(next >= 0xd0 && next <= 0xd7)) return at + i;
      i = chunk.indexOf(0xff, next === 0xff ? i + 1 : i + 2);
    }
    // An 0xFF as the chunk's last byte is looked at again with what follows it.
    at += i < 0 ? chunk.length : i;
  }
  return file.size;
}
