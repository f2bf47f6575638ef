/**
 * Location in a WebP (docs/api.md#location-privacy): its `EXIF` chunk (a TIFF block) and its
 * `XMP ` chunk, found by walking the RIFF chunks header by header (a few in any WebP; at most
 * MAX_CHUNKS). RIFF chunks carry no checksum. An `EXIF` chunk that cannot be walked safely
 * has its whole data zeroed.
 */
import type { ByteSource } from '../byte-source.js';
import { bufferSource } from '../byte-source.js';
import { type BytePatch, shiftPatches, zeroPatch } from './byte-patches.js';
import { tiffGpsPatches } from './tiff-gps.js';
import { xmpLocationPatches } from './xmp-location.js';

const MAX_CHUNKS = 64;
const MAX_METADATA_CHUNK = 1024 * 1024;
const EXIF_PREFIX = Buffer.from('Exif\0\0', 'latin1');

export const isWebp = (head: Buffer): boolean => head.length >= 12 && head.toString('latin1', 0, 4) === 'RIFF' && head.toString('latin1', 8, 12) === 'WEBP';

export async function webpLocationPatches(file: ByteSource): Promise<BytePatch[]> {
  const patches: BytePatch[] = [];
  let at = 12;
  for (let n = 0; n < MAX_CHUNKS; n++) {
    const header = await file.read(at, 8);
    if (header.length < 8) break;
    const type = header.toString('latin1', 0, 4);
    const length = header.readUInt32LE(4);
    const dataAt = at + 8;
    if ((type === 'EXIF' || type === 'XMP ') && length <= MAX_METADATA_CHUNK) {
      const data = await file.read(dataAt, length);
      if (type === 'XMP ') patches.push(...shiftPatches(xmpLocationPatches(data), dataAt));
      else {
        const tiffAt = data.subarray(0, EXIF_PREFIX.length).equals(EXIF_PREFIX) ? EXIF_PREFIX.length : 0;
        const found = await tiffGpsPatches(bufferSource(data.subarray(tiffAt)));
        patches.push(...(found.unsafe ? [zeroPatch(dataAt, data.length)] : shiftPatches(found.patches, dataAt + tiffAt)));
      }
    }
    // Chunks are padded to an even length.
    at = dataAt + length + (length % 2);
  }
  return patches;
}
