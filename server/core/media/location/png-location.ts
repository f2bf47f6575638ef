/**
 * Location in a PNG (docs/api.md#location-privacy): the `eXIf` chunk (a TIFF block, the
 * same EXIF as a JPEG's) and the XMP of an uncompressed `iTXt` chunk keyed
 * `XML:com.adobe.xmp`. Each chunk ends with a CRC of its type and data that decoders check,
 * so a chunk that is patched gets its CRC patched too, to the CRC of the bytes served.
 *
 * Chunks are walked header by header, at most MAX_CHUNKS of them (a large PNG has many
 * `IDAT` chunks; metadata comes before or between them). A compressed XMP `iTXt` is not
 * read. An `eXIf` that cannot be walked safely has its whole data zeroed.
 */
import type { ByteSource } from '../byte-source.js';
import { bufferSource } from '../byte-source.js';
import { applyPatches, type BytePatch, bytesPatch, normalizePatches, shiftPatches, zeroPatch } from './byte-patches.js';
import { tiffGpsPatches } from './tiff-gps.js';
import { xmpLocationPatches } from './xmp-location.js';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const MAX_CHUNKS = 4096;
/** Metadata chunks read whole, at most: an EXIF block is at most 64 KB, an XMP packet tens of KB. */
const MAX_METADATA_CHUNK = 1024 * 1024;
const EXIF_PREFIX = Buffer.from('Exif\0\0', 'latin1');
const XMP_KEYWORD = Buffer.from('XML:com.adobe.xmp\0', 'latin1');

export const isPng = (head: Buffer): boolean => head.subarray(0, SIGNATURE.length).equals(SIGNATURE);

export async function pngLocationPatches(file: ByteSource): Promise<BytePatch[]> {
  const patches: BytePatch[] = [];
  let at = SIGNATURE.length;
  for (let n = 0; n < MAX_CHUNKS; n++) {
    const header = await file.read(at, 8);
    if (header.length < 8) break;
    const length = header.readUInt32BE(0);
    const type = header.toString('latin1', 4, 8);
    if (type === 'IEND') break;
    const dataAt = at + 8;
    if ((type === 'eXIf' || type === 'iTXt') && length <= MAX_METADATA_CHUNK) {
      const data = await file.read(dataAt, length);
      if (data.length === length) {
        const found = type === 'eXIf' ? await exifPatches(data) : xmpPatches(data);
        if (found.length > 0) patches.push(...withCrc(header.subarray(4, 8), data, dataAt, found));
      }
    }
    at = dataAt + length + 4;
  }
  return patches;
}

async function exifPatches(data: Buffer): Promise<readonly BytePatch[]> {
  // The chunk holds the TIFF block; some writers keep JPEG's 'Exif\0\0' in front of it.
  const tiffAt = data.subarray(0, EXIF_PREFIX.length).equals(EXIF_PREFIX) ? EXIF_PREFIX.length : 0;
  const found = await tiffGpsPatches(bufferSource(data.subarray(tiffAt)));
  if (found.unsafe) return [zeroPatch(0, data.length)];
  return shiftPatches(found.patches, tiffAt);
}

/** iTXt: keyword, NUL, compression flag, compression method, language tag NUL, translated keyword NUL, text. */
function xmpPatches(data: Buffer): readonly BytePatch[] {
  if (!data.subarray(0, XMP_KEYWORD.length).equals(XMP_KEYWORD)) return [];
  let at = XMP_KEYWORD.length;
  if (data[at] !== 0) return []; // compressed
  at += 2;
  for (let field = 0; field < 2; field++) {
    const end = data.indexOf(0, at);
    if (end < 0) return [];
    at = end + 1;
  }
  return shiftPatches(xmpLocationPatches(data.subarray(at)), at);
}

/** `found` (offsets in the chunk's data) as file patches, with the chunk's CRC recomputed over the patched data. */
function withCrc(type: Buffer, data: Buffer, dataAt: number, found: readonly BytePatch[]): BytePatch[] {
  const patched = Buffer.from(data);
  applyPatches(patched, 0, normalizePatches(found, data.length));
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([type, patched])));
  return [...shiftPatches(found, dataAt), bytesPatch(dataAt + data.length, crc)];
}

let table: Uint32Array | undefined;

/** The CRC-32 of PNG (and ZIP): polynomial 0xEDB88320. */
export function crc32(bytes: Buffer): number {
  table ??= Uint32Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  let crc = 0xffffffff;
  for (const byte of bytes) crc = table[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}
