import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import sharp from 'sharp';
import { OrientationError, orientationEdit, readJpegHead, rotatedOrientation } from '../../server/admin/media-actions/jpeg-orientation.js';
import { rotateJpegFile } from '../../server/admin/media-actions/rotate-jpeg.js';
import { readExifFields, readJpegHead as readExifHead } from '../../workers/exif-reader.js';
import { CAMERA, writeCameraJpeg, writeJpeg, writeOrientedJpeg } from '../support/media-fixtures.js';
import { makeTempDir, removeTempDir } from '../support/temp-dir.js';

/** The photo as every viewer shows it: EXIF orientation applied, raw pixels. */
const displayed = (file: string | Buffer) => sharp(file).autoOrient().raw().toBuffer({ resolveWithObject: true });
/** The pixels as stored, no orientation applied. */
const stored = (file: string | Buffer) => sharp(file).raw().toBuffer();

/** The byte offset of the JPEG's SOS marker onwards: the compressed pixels. */
function scanData(bytes: Buffer): Buffer {
  for (let at = 2; at + 4 <= bytes.length; ) {
    const marker = bytes[at + 1]!;
    if (marker === 0xda) return bytes.subarray(at);
    at += 2 + bytes.readUInt16BE(at + 2);
  }
  throw new Error('no SOS');
}

/** A JFIF APP0 segment, as cameras and most encoders other than libvips write first. */
const JFIF = Buffer.from([0xff, 0xe0, 0, 16, ...Buffer.from('JFIF\0', 'latin1'), 1, 1, 0, 0, 1, 0, 1, 0, 0]);

/**
 * A little-endian EXIF block as a camera writes one without an orientation: IFD0 with Make,
 * Model and a pointer to the Exif sub-IFD, which holds DateTimeOriginal.
 */
function cameraExifWithoutOrientation(): Buffer {
  const tiff = Buffer.alloc(128);
  tiff.write('II', 0, 'latin1');
  tiff.writeUInt16LE(42, 2);
  tiff.writeUInt32LE(8, 4);
  const entry = (at: number, tag: number, type: number, count: number, value: number) => {
    tiff.writeUInt16LE(tag, at);
    tiff.writeUInt16LE(type, at + 2);
    tiff.writeUInt32LE(count, at + 4);
    tiff.writeUInt32LE(value, at + 8);
  };
  // IFD0 at 8: 3 entries, then the next-IFD pointer (0); values from 50.
  tiff.writeUInt16LE(3, 8);
  entry(10, 0x010f, 2, 6, 50); // Make
  entry(22, 0x0110, 2, 7, 56); // Model
  entry(34, 0x8769, 4, 1, 64); // Exif IFD
  tiff.write('Canon\0', 50, 'latin1');
  tiff.write('EOS R5\0', 56, 'latin1');
  // Exif IFD at 64: DateTimeOriginal, value at 84.
  tiff.writeUInt16LE(1, 64);
  entry(66, 0x9003, 2, 20, 84);
  tiff.write('2024:05:01 12:34:56\0', 84, 'latin1');
  const payload = Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), tiff.subarray(0, 104)]);
  const header = Buffer.from([0xff, 0xe1, 0, 0]);
  header.writeUInt16BE(2 + payload.length, 2);
  return Buffer.concat([header, payload]);
}

/** A JPEG from sharp (which writes SOI then its tables) with `segments` put right after SOI. */
async function jpegWith(width: number, height: number, ...segments: Buffer[]): Promise<Buffer> {
  const plain = await sharp({ create: { width, height, channels: 3, background: '#3366cc' } })
    .jpeg()
    .toBuffer();
  return Buffer.concat([plain.subarray(0, 2), ...segments, plain.subarray(2)]);
}

describe('lossless JPEG rotation', () => {
  let dir: string;
  beforeEach(() => {
    dir = makeTempDir('gallery-rotate-');
  });
  afterEach(() => removeTempDir(dir));

  describe('rotatedOrientation', () => {
    it('should compose turns with each of the eight orientations, mirrored ones staying mirrored', () => {
      expect([1, 2, 3, 4, 5, 6, 7, 8].map((o) => rotatedOrientation(o, 1))).to.deep.equal([6, 7, 8, 5, 2, 3, 4, 1]);
      expect([1, 2, 3, 4, 5, 6, 7, 8].map((o) => rotatedOrientation(o, -1))).to.deep.equal([8, 5, 6, 7, 4, 1, 2, 3]);
      for (const o of [1, 2, 3, 4, 5, 6, 7, 8]) expect(rotatedOrientation(rotatedOrientation(o, 2), 2)).to.equal(o);
    });
  });

  for (const orientation of [1, 2, 3, 4, 5, 6, 7, 8]) {
    for (const turns of [1, 2, 3]) {
      it(`should show orientation ${orientation} turned ${turns * 90}° clockwise, its pixels byte for byte the same`, async () => {
        const file = path.join(dir, 'photo.jpg');
        await writeOrientedJpeg(file, orientation);
        const before = fs.readFileSync(file);
        const shown = await displayed(before);
        const expected = await sharp(shown.data, { raw: { width: shown.info.width, height: shown.info.height, channels: shown.info.channels } })
          .rotate(90 * turns)
          .raw()
          .toBuffer({ resolveWithObject: true });

        await rotateJpegFile(file, turns);

        const after = fs.readFileSync(file);
        expect(scanData(after).equals(scanData(before))).to.equal(true);
        expect((await stored(after)).equals(await stored(before))).to.equal(true);
        const now = await displayed(after);
        expect([now.info.width, now.info.height]).to.deep.equal([expected.info.width, expected.info.height]);
        expect(now.data.equals(expected.data)).to.equal(true);
        expect((await sharp(after).metadata()).orientation).to.equal(rotatedOrientation(orientation, turns));
      });
    }
  }

  it('should add the tag to a camera EXIF block that has none, keeping every other field readable', async () => {
    const file = path.join(dir, 'camera.jpg');
    fs.writeFileSync(file, await jpegWith(320, 240, JFIF, cameraExifWithoutOrientation()));
    expect((await sharp(file).metadata()).orientation).to.equal(undefined);
    const fieldsBefore = readExifFields(readExifHead(fs.readFileSync(file)).exif!);
    expect(fieldsBefore).to.include({ Make: 'Canon', Model: 'EOS R5', DateTimeOriginal: '2024:05:01 12:34:56' });

    await rotateJpegFile(file, 1);

    const meta = await sharp(file).metadata();
    expect(meta.orientation).to.equal(6);
    expect(meta.autoOrient).to.deep.equal({ width: 240, height: 320 });
    // The date lives in the Exif sub-IFD, found through IFD0's pointer: still valid after IFD0 moved.
    expect(readExifFields(readExifHead(fs.readFileSync(file)).exif!)).to.deep.equal(fieldsBefore);
  });

  it('should rewrite the tag of a camera JPEG made by sharp, keeping its fields', async () => {
    const file = path.join(dir, 'camera.jpg');
    await writeCameraJpeg(file, 320, 240);
    const fieldsBefore = readExifFields(readExifHead(fs.readFileSync(file)).exif!);
    await rotateJpegFile(file, 3);
    expect((await sharp(file).metadata()).orientation).to.equal(8);
    expect(readExifFields(readExifHead(fs.readFileSync(file)).exif!)).to.deep.equal(fieldsBefore);
    expect(fieldsBefore).to.include({ Make: CAMERA.Make, Model: CAMERA.Model });
  });

  it('should insert an EXIF block into a JPEG without one, after its JFIF header', async () => {
    const file = path.join(dir, 'plain.jpg');
    fs.writeFileSync(file, await jpegWith(300, 200, JFIF));
    expect(readJpegHead(fs.readFileSync(file)).exif).to.equal(undefined);
    await rotateJpegFile(file, -1);
    const meta = await sharp(file).metadata();
    expect(meta.orientation).to.equal(8);
    expect(meta.autoOrient).to.deep.equal({ width: 200, height: 300 });
    const bytes = fs.readFileSync(file);
    expect(bytes.subarray(0, 2 + JFIF.length).equals(Buffer.concat([Buffer.from([0xff, 0xd8]), JFIF]))).to.equal(true);
    expect(bytes.subarray(2 + JFIF.length, 4 + JFIF.length)).to.deep.equal(Buffer.from([0xff, 0xe1]));
  });

  it('should insert an EXIF block right after SOI when there is no JFIF header', async () => {
    const file = path.join(dir, 'bare.jpg');
    await writeJpeg(file, 300, 200);
    await rotateJpegFile(file, 2);
    expect((await sharp(file).metadata()).orientation).to.equal(3);
    expect(fs.readFileSync(file).subarray(0, 4)).to.deep.equal(Buffer.from([0xff, 0xd8, 0xff, 0xe1]));
  });

  it('should keep the file mode and give the file a new identity (its caches go stale)', async () => {
    const file = path.join(dir, 'mode.jpg');
    await writeJpeg(file, 40, 30);
    // Group-writable: more than the usual umask (022) would leave a new file.
    fs.chmodSync(file, 0o664);
    const before = fs.statSync(file);
    await rotateJpegFile(file, 2);
    const after = fs.statSync(file);
    expect(after.mode & 0o777).to.equal(0o664);
    expect(after.ino).to.not.equal(before.ino);
    expect(fs.readdirSync(dir)).to.deep.equal(['mode.jpg']);
  });

  for (const [what, bytes] of [
    [
      'a PNG',
      () =>
        sharp({ create: { width: 8, height: 8, channels: 3, background: '#000' } })
          .png()
          .toBuffer(),
    ],
    ['a text file', async () => Buffer.from('not a jpeg at all')],
    ['a JPEG cut inside its EXIF block', async () => (await jpegWith(8, 8, cameraExifWithoutOrientation())).subarray(0, 60)],
  ] as const) {
    it(`should refuse ${what} and leave it as it was`, async () => {
      const file = path.join(dir, 'x.jpg');
      const original = await bytes();
      fs.writeFileSync(file, original);
      let error: unknown;
      try {
        await rotateJpegFile(file, 1);
      } catch (err) {
        error = err;
      }
      expect(error).to.be.instanceOf(OrientationError);
      expect(fs.readFileSync(file).equals(original)).to.equal(true);
      expect(fs.readdirSync(dir)).to.deep.equal(['x.jpg']);
    });
  }

  it('should refuse an EXIF block whose IFD0 offset points outside it', () => {
    const tiff = Buffer.from('MM\0\x2a\0\0\xff\xff', 'latin1');
    const app1 = Buffer.concat([Buffer.from([0xff, 0xe1, 0, 2 + 6 + tiff.length]), Buffer.from('Exif\0\0', 'latin1'), tiff]);
    const jpeg = Buffer.concat([Buffer.from([0xff, 0xd8]), app1, Buffer.from([0xff, 0xdb, 0, 2])]);
    const head = readJpegHead(jpeg);
    expect(() => orientationEdit(head, 6)).to.throw(OrientationError, /offset points outside/);
  });
});
