/**
 * A WebP served without a place (docs/api.md#location-privacy). Every RIFF chunk is walked,
 * header by header, by keep-list: the picture's (`VP8 `, `VP8L`, `VP8X`, `ALPH`, `ANIM`,
 * `ICCP`) are kept, and each animation frame (`ANMF`) is walked the same way inside, so an
 * animated WebP of any number of frames is read to its end; `EXIF` goes through the TIFF
 * policy (tiff-policy.ts), or is zeroed when it cannot be walked; XMP, however its chunk is
 * spelled (`XMP `, ImageMagick's `XMP\0`), is blanked as an empty packet; every other chunk's
 * data is zeroed. RIFF chunks carry no checksum.
 *
 * Bytes after the RIFF chunk's declared end are zeroed; where the walk loses its way (a chunk
 * that cannot be), everything from there to the end of the file is zeroed.
 */
import type { ByteSource } from '../byte-source.js';
import { sliceSource } from '../byte-source.js';
import { type BytePatch, shiftPatches, zeroPatch } from './byte-patches.js';
import { tiffPatches } from './tiff-policy.js';
import { type Budget, cannotWalk } from './walk.js';
import { blankXmp } from './xmp-blank.js';

const KEPT = new Set(['VP8 ', 'VP8L', 'VP8X', 'ALPH', 'ANIM', 'ICCP']);
/** What a frame (`ANMF`) holds after its 16-byte header. */
const FRAME_KEPT = new Set(['VP8 ', 'VP8L', 'ALPH']);
const FRAME_HEADER_BYTES = 16;
const EXIF_PREFIX = Buffer.from('Exif\0\0', 'latin1');

export const isWebp = (head: Buffer): boolean => head.length >= 12 && head.toString('latin1', 0, 4) === 'RIFF' && head.toString('latin1', 8, 12) === 'WEBP';

export async function webpPatches(file: ByteSource, budget: Budget): Promise<BytePatch[]> {
  const riffEnd = Math.min(file.size, 8 + (await file.read(4, 4)).readUInt32LE(0));
  const patches = await chunkPatches(file, 12, riffEnd, KEPT, budget);
  if (riffEnd < file.size) patches.push(zeroPatch(riffEnd, file.size - riffEnd));
  return patches;
}

/** The chunks from `start` to `end`, judged by `kept`. */
async function chunkPatches(file: ByteSource, start: number, end: number, kept: ReadonlySet<string>, budget: Budget): Promise<BytePatch[]> {
  const patches: BytePatch[] = [];
  for (let at = start; at < end; ) {
    budget.step();
    budget.hold(patches);
    const header = await file.read(at, 8);
    if (header.length < 8) {
      patches.push(zeroPatch(at, end - at));
      break;
    }
    // Any four bytes: ImageMagick names its XMP chunk 'XMP\0'. A chunk of a type not kept is zeroed, so garbage is too.
    const type = header.toString('latin1', 0, 4);
    const length = header.readUInt32LE(4);
    const dataAt = at + 8;
    const dataEnd = Math.min(dataAt + length, end);
    if (type === 'ANMF' && kept === KEPT) {
      patches.push(...(await chunkPatches(file, Math.min(dataAt + FRAME_HEADER_BYTES, dataEnd), dataEnd, FRAME_KEPT, budget)));
    } else if (type === 'EXIF' && kept === KEPT) {
      patches.push(...(await exifPatches(file, dataAt, dataEnd, budget)));
    } else if (/^xmp/i.test(type) && kept === KEPT) {
      patches.push(...blankXmp(dataAt, dataEnd - dataAt));
    } else if (!kept.has(type)) patches.push(zeroPatch(dataAt, dataEnd - dataAt));
    // Chunks are padded to an even length.
    at = dataAt + length + (length % 2);
  }
  return patches;
}

async function exifPatches(file: ByteSource, dataAt: number, dataEnd: number, budget: Budget): Promise<BytePatch[]> {
  const head = await file.read(dataAt, EXIF_PREFIX.length);
  const tiffAt = dataAt + (head.equals(EXIF_PREFIX) ? EXIF_PREFIX.length : 0);
  try {
    return shiftPatches(await tiffPatches(sliceSource(file, tiffAt, dataEnd), budget), tiffAt);
  } catch (err) {
    if (!cannotWalk(err)) throw err;
    return [zeroPatch(dataAt, dataEnd - dataAt)];
  }
}
