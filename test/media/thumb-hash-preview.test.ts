import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import sharp from 'sharp';
import { thumbHashToApproximateAspectRatio, thumbHashToAverageRGBA, thumbHashToRGBA } from 'thumbhash';
import { createMediaPool, type MediaPool } from '../../server/media/pool.js';
import { exifPreview } from '../../workers/exif-reader.js';
import { thumbHashOf, thumbHashOfPreview } from '../../workers/thumb-hash.js';
import { quietLogger } from '../support/capture-logger.js';
import { makeTempDir, removeTempDir } from '../support/temp-dir.js';

/**
 * An EXIF block (little-endian TIFF) whose IFD0 holds the orientation and whose IFD1 holds a
 * preview JPEG, as a camera writes it; and a JPEG with that block in its APP1 segment.
 */
function exifWithPreview(preview: Buffer, orientation: number): Buffer {
  const ifd0 = 8;
  const ifd0Size = 2 + 12 + 4;
  const ifd1 = ifd0 + ifd0Size;
  const ifd1Size = 2 + 2 * 12 + 4;
  const data = ifd1 + ifd1Size;
  const tiff = Buffer.alloc(data + preview.length);
  tiff.write('II', 0, 'latin1');
  tiff.writeUInt16LE(42, 2);
  tiff.writeUInt32LE(ifd0, 4);
  tiff.writeUInt16LE(1, ifd0);
  // Orientation, SHORT, 1 value.
  tiff.writeUInt16LE(0x0112, ifd0 + 2);
  tiff.writeUInt16LE(3, ifd0 + 4);
  tiff.writeUInt32LE(1, ifd0 + 6);
  tiff.writeUInt16LE(orientation, ifd0 + 10);
  tiff.writeUInt32LE(ifd1, ifd0 + 14);
  tiff.writeUInt16LE(2, ifd1);
  const entry = (at: number, tag: number, value: number) => {
    tiff.writeUInt16LE(tag, at);
    tiff.writeUInt16LE(4, at + 2);
    tiff.writeUInt32LE(1, at + 4);
    tiff.writeUInt32LE(value, at + 8);
  };
  entry(ifd1 + 2, 0x0201, data);
  entry(ifd1 + 14, 0x0202, preview.length);
  tiff.writeUInt32LE(0, ifd1 + 26);
  preview.copy(tiff, data);
  return Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), tiff]);
}

async function jpegWithExif(pixels: Buffer, exif: Buffer): Promise<Buffer> {
  const app1 = Buffer.alloc(4);
  app1.writeUInt16BE(0xffe1, 0);
  app1.writeUInt16BE(exif.length + 2, 2);
  return Buffer.concat([pixels.subarray(0, 2), app1, exif, pixels.subarray(2)]);
}

const solid = (width: number, height: number, background: string) => sharp({ create: { width, height, channels: 3, background } });

describe('ThumbHash from the EXIF preview of a camera JPEG', function () {
  this.timeout(30_000);
  let root: string;
  let pool: MediaPool;

  before(() => {
    root = makeTempDir('thumb-hash-preview-');
    pool = createMediaPool({ workers: 1, maxQueue: 10, log: quietLogger });
  });
  after(async () => {
    await pool.close();
    removeTempDir(root);
  });

  it('should find the preview in IFD1, and nothing in a block without one or with a lying offset', async () => {
    const preview = await solid(160, 120, '#00c000').jpeg().toBuffer();
    const block = exifWithPreview(preview, 1);
    expect(Buffer.compare(exifPreview(block)!, preview)).to.equal(0);
    const lying = Buffer.from(block);
    // IFD1's offset entry (after 'Exif\0\0', IFD0 at 8 of 18 bytes, then IFD1's count): far past the block.
    lying.writeUInt32LE(0x7fffffff, 6 + 26 + 2 + 8);
    expect(exifPreview(lying)).to.equal(undefined);
    expect(exifPreview(Buffer.from('Exif\0\0II*\0\x08\0\0\0\0\0\0\0\0\0', 'latin1'))).to.equal(undefined);
  });

  it("should take the placeholder's colours from the preview, without its black bars, oriented as the photo", async () => {
    // A 3:2 photo whose pixels are red, with a green 4:3 preview padded top and bottom with black:
    // the hash must come from the preview (green), and the bars must not darken it.
    const padded = await solid(160, 107, '#00c000').extend({ top: 7, bottom: 6, left: 0, right: 0, background: '#000000' }).jpeg().toBuffer();
    const photo = await jpegWithExif(await solid(1500, 1000, '#d00000').jpeg().toBuffer(), exifWithPreview(padded, 6));
    const file = path.join(root, 'camera.jpg');
    fs.writeFileSync(file, photo);
    const result = await pool.dimensions({ src: file, kind: 'image' });
    // Orientation 6: displayed portrait.
    expect([result.width, result.height]).to.deep.equal([1000, 1500]);
    const hash = Buffer.from(result.thumbHash!, 'base64');
    expect(thumbHashToApproximateAspectRatio(hash), 'portrait, as displayed, bars cut off').to.be.closeTo(2 / 3, 0.08);
    const average = thumbHashToAverageRGBA(hash);
    expect(average.g, 'green from the preview').to.be.above(0.6);
    expect(average.r, 'not the red photo').to.be.below(0.2);
  });

  it('should orient the preview as libvips does, for each EXIF orientation and turn of the owner', async () => {
    // Four quadrants of four colours: where each lands tells the orientation apart.
    const [w, h] = [160, 120];
    const pixels = Buffer.alloc(w * h * 3);
    const colours = [
      [220, 30, 30],
      [30, 200, 30],
      [30, 30, 220],
      [230, 230, 230],
    ];
    for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) pixels.set(colours[(y < h / 2 ? 0 : 2) + (x < w / 2 ? 0 : 1)]!, (y * w + x) * 3);
    const preview = await sharp(pixels, { raw: { width: w, height: h, channels: 3 } })
      .jpeg({ quality: 95 })
      .toBuffer();
    /** The decoded hash's colour at the centre of each quadrant, and its shape. */
    const look = (hash: string) => {
      const image = thumbHashToRGBA(Buffer.from(hash, 'base64'));
      const at = (fx: number, fy: number) => {
        const i = (Math.floor(fy * image.h) * image.w + Math.floor(fx * image.w)) * 4;
        return Array.from(image.rgba.subarray(i, i + 3));
      };
      return { landscape: image.w > image.h, quadrants: [at(0.25, 0.25), at(0.75, 0.25), at(0.25, 0.75), at(0.75, 0.75)] };
    };
    for (let orientation = 1; orientation <= 8; orientation++) {
      for (const rotate of [0, 90, 270]) {
        const ours = look(await thumbHashOfPreview(preview, { width: w, height: h, orientation }, rotate));
        const oriented = await sharp(preview).withMetadata({ orientation }).jpeg({ quality: 95 }).toBuffer();
        const libvips = look(await thumbHashOf(sharp(oriented), rotate));
        expect(ours.landscape, `orientation ${orientation}, turn ${rotate}: shape`).to.equal(libvips.landscape);
        for (let q = 0; q < 4; q++) {
          for (let c = 0; c < 3; c++) {
            expect(ours.quadrants[q]![c]!, `orientation ${orientation}, turn ${rotate}, quadrant ${q}`).to.be.closeTo(libvips.quadrants[q]![c]!, 40);
          }
        }
      }
    }
  });
});
