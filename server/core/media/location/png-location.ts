/**
 * A PNG served without a place (docs/api.md#location-privacy). Every chunk is walked, header
 * by header, to IEND, by keep-list: the chunks of the picture (IHDR, PLTE, IDAT, IEND,
 * transparency, colour and gamma, ICC profile, physical size, animation, HDR) are kept;
 * `eXIf` goes through the TIFF policy (tiff-policy.ts); every other chunk, whatever it holds
 * (`tEXt`, `zTXt`, `iTXt` of any keyword: ImageMagick's `exif:GPSLatitude`, "Raw profile
 * type exif/xmp/iptc", `XML:com.adobe.xmp`; `caBX`; unknown chunks) is renamed `blNk`, a
 * private ancillary chunk every decoder skips, with its data zeroed. Decoders check each
 * chunk's CRC, so a chunk that changes gets the CRC of its served bytes.
 *
 * Bytes after IEND are zeroed; where the walk loses its way (a length or type that cannot
 * be), everything from there to the end of the file is zeroed: a decoder stops there too.
 */
import zlib from 'node:zlib';
import type { ByteSource } from '../byte-source.js';
import { bufferSource } from '../byte-source.js';
import { applyPatches, type BytePatch, bytesPatch, normalizePatches, shiftPatches, zeroPatch } from './byte-patches.js';
import { tiffPatches } from './tiff-policy.js';
import { type Budget, cannotWalk, fourCC } from './walk.js';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const KEPT = new Set([
  'IHDR',
  'PLTE',
  'IDAT',
  'IEND',
  'tRNS',
  'gAMA',
  'cHRM',
  'sRGB',
  'iCCP',
  'sBIT',
  'bKGD',
  'pHYs',
  'hIST',
  'tIME',
  'acTL',
  'fcTL',
  'fdAT',
  'cICP',
  'mDCv',
  'cLLi',
  'mDCV',
  'cLLI',
]);
/** A private (2nd letter), ancillary (1st), safe-to-copy (4th) chunk type: decoders skip it. */
const BLANK = Buffer.from('blNk', 'latin1');
/** An EXIF block read whole, at most; a larger `eXIf` is blanked unread. */
const MAX_EXIF_BYTES = 16 * 1024 * 1024;
const EXIF_PREFIX = Buffer.from('Exif\0\0', 'latin1');

export const isPng = (head: Buffer): boolean => head.subarray(0, SIGNATURE.length).equals(SIGNATURE);

export async function pngPatches(file: ByteSource, budget: Budget): Promise<BytePatch[]> {
  const patches: BytePatch[] = [];
  for (let at = SIGNATURE.length; at < file.size; ) {
    budget.step();
    budget.hold(patches);
    const header = await file.read(at, 8);
    const type = fourCC(header, 4);
    const length = header.length === 8 ? header.readUInt32BE(0) : 0;
    if (!type || !/^[A-Za-z]{4}$/.test(type) || length > 0x7fffffff) {
      patches.push(zeroPatch(at, file.size - at));
      break;
    }
    const dataAt = at + 8;
    const end = dataAt + length + 4;
    if (end > file.size) {
      // Cut short: a picture chunk keeps what there is; anything else is zeroed to the end.
      if (!KEPT.has(type)) patches.push(zeroPatch(dataAt, file.size - dataAt));
      break;
    }
    if (type === 'eXIf') patches.push(...(await exifPatches(file, dataAt, length, budget)));
    else if (!KEPT.has(type)) patches.push(...blanked(dataAt, length));
    at = end;
    if (type === 'IEND') {
      if (at < file.size) patches.push(zeroPatch(at, file.size - at));
      break;
    }
  }
  return patches;
}

/** A chunk renamed `blNk`, its data zeroed and its CRC that of the bytes served. */
function blanked(dataAt: number, length: number): BytePatch[] {
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crcOfZeros(crc32(BLANK), length));
  return [bytesPatch(dataAt - 4, BLANK), zeroPatch(dataAt, length), bytesPatch(dataAt + length, crc)];
}

/** An `eXIf` chunk: its TIFF block through the TIFF policy, the CRC recomputed; blanked when it cannot be walked or is too large. */
async function exifPatches(file: ByteSource, dataAt: number, length: number, budget: Budget): Promise<BytePatch[]> {
  if (length > MAX_EXIF_BYTES) return blanked(dataAt, length);
  const data = await file.read(dataAt, length);
  // The chunk holds the TIFF block; some writers keep JPEG's 'Exif\0\0' in front of it.
  const tiffAt = data.subarray(0, EXIF_PREFIX.length).equals(EXIF_PREFIX) ? EXIF_PREFIX.length : 0;
  let found: BytePatch[];
  try {
    found = shiftPatches(await tiffPatches(bufferSource(data.subarray(tiffAt)), budget), tiffAt);
  } catch (err) {
    if (!cannotWalk(err)) throw err;
    return blanked(dataAt, length);
  }
  const served = Buffer.from(data);
  applyPatches(served, 0, normalizePatches(found, data.length));
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([Buffer.from('eXIf', 'latin1'), served])));
  return [...shiftPatches(found, dataAt), bytesPatch(dataAt + length, crc)];
}

let table: Uint32Array | undefined;

/** The CRC-32 of PNG (and ZIP), polynomial 0xEDB88320, continued from `crc` (a finished CRC) over `bytes`. */
export function crc32(bytes: Buffer, crc = 0): number {
  if (typeof zlib.crc32 === 'function') return zlib.crc32(bytes, crc);
  table ??= Uint32Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  let c = (crc ^ 0xffffffff) >>> 0;
  for (const byte of bytes) c = table[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

const ZEROS = Buffer.alloc(64 * 1024);

/** `crc` continued over `length` zero bytes. */
function crcOfZeros(crc: number, length: number): number {
  let c = crc;
  for (let left = length; left > 0; left -= ZEROS.length) c = crc32(ZEROS.subarray(0, Math.min(left, ZEROS.length)), c);
  return c;
}
