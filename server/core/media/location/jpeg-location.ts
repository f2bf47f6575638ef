/**
 * Location in a JPEG (docs/api.md#location-privacy): the GPS IFD of each Exif APP1 segment
 * and the place properties of each XMP APP1 segment. Segments are walked marker by marker
 * up to the image data (start of scan), as the gallery's EXIF reader does
 * (workers/exif-reader.ts): each step moves past one segment, and there are at most
 * MAX_SEGMENTS, so the walk ends within the file's head in practice and is bounded anyway.
 *
 * An Exif block that cannot be walked safely (tiff-gps.ts) has its whole payload zeroed
 * after the `Exif\0\0` header: readers then find no EXIF at all (the photo's orientation
 * and camera data go too, in crafted or badly damaged files only), and the image itself is
 * untouched.
 */
import { type BytePatch, shiftPatches, zeroPatch } from './byte-patches.js';
import { bufferSource, type ByteSource } from '../byte-source.js';
import { tiffGpsPatches } from './tiff-gps.js';
import { JPEG_XMP_PREFIX, xmpLocationPatches } from './xmp-location.js';

const EXIF_PREFIX = Buffer.from('Exif\0\0', 'latin1');
const APP1 = 0xe1;
const SOS = 0xda;
const EOI = 0xd9;
/** Segments before the image data: tens in real files (APPn, quantisation and Huffman tables, frame header). */
const MAX_SEGMENTS = 512;

export const isJpeg = (head: Buffer): boolean => head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff;

export async function jpegLocationPatches(file: ByteSource): Promise<BytePatch[]> {
  const patches: BytePatch[] = [];
  let pos = 2; // after SOI
  for (let segments = 0; segments < MAX_SEGMENTS; segments++) {
    const marker = await file.read(pos, 4);
    if (marker.length < 2 || marker[0] !== 0xff) break; // not a marker: damaged, nothing more a reader would find
    const type = marker[1]!;
    if (type === 0xff) {
      pos++; // fill byte
      continue;
    }
    if (type === SOS || type === EOI) break;
    if ((type >= 0xd0 && type <= 0xd7) || type === 0x01) {
      pos += 2; // standalone marker, no length
      continue;
    }
    if (marker.length < 4) break;
    const length = marker.readUInt16BE(2);
    if (length < 2) break;
    if (type === APP1) patches.push(...(await app1Patches(file, pos + 4, length - 2)));
    pos += 2 + length;
  }
  return patches;
}

/** What to blank in the APP1 payload of `length` bytes at `at`, when it is Exif or XMP. */
async function app1Patches(file: ByteSource, at: number, length: number): Promise<BytePatch[]> {
  const payload = await file.read(at, length);
  if (payload.subarray(0, EXIF_PREFIX.length).equals(EXIF_PREFIX)) {
    const tiffAt = EXIF_PREFIX.length;
    const found = await tiffGpsPatches(bufferSource(payload.subarray(tiffAt)));
    return found.unsafe ? [zeroPatch(at + tiffAt, payload.length - tiffAt)] : shiftPatches(found.patches, at + tiffAt);
  }
  if (payload.subarray(0, JPEG_XMP_PREFIX.length).equals(JPEG_XMP_PREFIX)) {
    return shiftPatches(xmpLocationPatches(payload.subarray(JPEG_XMP_PREFIX.length)), at + JPEG_XMP_PREFIX.length);
  }
  return [];
}
