/**
 * A JPEG served without a place (docs/api.md#location-privacy). The photo is walked segment
 * by segment to its end (jpeg-segments.ts), with this policy for its application segments:
 * - APP1 Exif: the TIFF policy (tiff-policy.ts) over its TIFF block, or the whole payload
 *   zeroed when the block cannot be walked safely;
 * - APP1 XMP: the packet blanked (xmp-blank.ts); ExtendedXMP and any other APP1: zeroed;
 * - APP2 MPF (multi-picture: a phone's depth map, a camera's second shot) kept, and every
 *   image it indexes must be one of the images walked after the photo: otherwise its index
 *   is zeroed, so no reader follows it elsewhere;
 * - any other (IPTC-IIM in APP13 with its City and Country, FlashPix, JUMBF…): zeroed.
 *
 * What follows the photo's EOI is walked too: another JPEG (MPF's images, a burst's) with the
 * same policy, an ISO base media movie (the MP4 of an Android motion photo) with the movie
 * policy (iso-location.ts), and anything else (a Samsung trailer, padding) zeroed to the end
 * of the file. Finding the photo's end means reading its image data once, 256 KB at a time,
 * looking for markers: about 6 ms for a 5.6 MB photo here, once per version of the file.
 */
import { type ByteSource, sliceSource } from '../byte-source.js';
import { type BytePatch, shiftPatches, zeroPatch } from './byte-patches.js';
import { isIsoStart, isoPatches } from './iso-location.js';
import { type AppPolicy, APP1, APP2, isJpegStart, walkJpegImage } from './jpeg-segments.js';
import { tiffPatches } from './tiff-policy.js';
import { type Budget, cannotWalk } from './walk.js';
import { blankXmp, JPEG_XMP_PREFIX } from './xmp-blank.js';

const EXIF_PREFIX = Buffer.from('Exif\0\0', 'latin1');
const MPF_PREFIX = Buffer.from('MPF\0', 'latin1');
const MP_ENTRY = 0xb002;

/** An MPF index found in a segment: where its payload is, and the files offsets of the images it lists. */
interface MultiPicture {
  readonly payloadAt: number;
  readonly length: number;
  /** Offsets in the file of the images indexed (none for a payload that could not be read). */
  readonly images: readonly number[] | undefined;
}

export async function jpegPatches(file: ByteSource, budget: Budget): Promise<BytePatch[]> {
  const indexes: MultiPicture[] = [];
  const app: AppPolicy = async (marker, payloadAt, length, head) => {
    const starts = (prefix: Buffer) => head.subarray(0, prefix.length).equals(prefix);
    if (marker === APP1 && starts(EXIF_PREFIX)) {
      const tiffAt = payloadAt + EXIF_PREFIX.length;
      try {
        return shiftPatches(await tiffPatches(sliceSource(file, tiffAt, payloadAt + length), budget), tiffAt);
      } catch (err) {
        if (!cannotWalk(err)) throw err;
      }
    } else if (marker === APP1 && starts(JPEG_XMP_PREFIX)) {
      return blankXmp(payloadAt + JPEG_XMP_PREFIX.length, length - JPEG_XMP_PREFIX.length);
    } else if (marker === APP2 && starts(MPF_PREFIX)) {
      indexes.push({ payloadAt, length, images: await multiPictureImages(file, payloadAt + MPF_PREFIX.length, length - MPF_PREFIX.length) });
      return [];
    }
    return [zeroPatch(payloadAt, length)];
  };

  const photo = await walkJpegImage(file, 0, budget, app);
  const patches = [...photo.patches];
  const imagesAfter = new Set<number>();
  for (let at = photo.end; at < file.size; ) {
    budget.step();
    budget.hold(patches);
    const head = await file.read(at, 16);
    if (isJpegStart(head)) {
      const image = await walkJpegImage(file, at, budget, app);
      patches.push(...image.patches);
      imagesAfter.add(at);
      at = image.end;
    } else if (isIsoStart(head)) {
      const movie = sliceSource(file, at, file.size);
      try {
        patches.push(...shiftPatches(await isoPatches(movie, budget), at));
      } catch (err) {
        if (!cannotWalk(err)) throw err;
        patches.push(zeroPatch(at, file.size - at));
      }
      break;
    } else {
      patches.push(zeroPatch(at, file.size - at));
      break;
    }
  }
  for (const index of indexes) {
    if (index.images?.every((image) => imagesAfter.has(image))) continue;
    patches.push(zeroPatch(index.payloadAt, index.length));
  }
  return patches;
}

/**
 * The images an MPF index lists, as offsets in the file: its TIFF block (at `tiffAt`) holds
 * an IFD whose MPEntry tag lists 16 bytes per image (attributes, size, offset from the TIFF
 * block, two dependent images); offset 0 is the photo itself. Undefined when it cannot be read.
 */
async function multiPictureImages(file: ByteSource, tiffAt: number, length: number): Promise<number[] | undefined> {
  const tiff = await file.read(tiffAt, length);
  try {
    const le = tiff.toString('latin1', 0, 2) === 'II';
    const u16 = (at: number) => (le ? tiff.readUInt16LE(at) : tiff.readUInt16BE(at));
    const u32 = (at: number) => (le ? tiff.readUInt32LE(at) : tiff.readUInt32BE(at));
    const ifd = u32(4);
    const images: number[] = [];
    for (let i = 0; i < u16(ifd); i++) {
      const entry = ifd + 2 + i * 12;
      if (u16(entry) !== MP_ENTRY) continue;
      const count = u32(entry + 4);
      const at = count <= 4 ? entry + 8 : u32(entry + 8);
      for (let e = 0; e + 16 <= count; e += 16) {
        const offset = u32(at + e + 8);
        if (offset !== 0) images.push(tiffAt + offset);
      }
    }
    return images;
  } catch (err) {
    if (err instanceof RangeError) return undefined;
    throw err;
  }
}
