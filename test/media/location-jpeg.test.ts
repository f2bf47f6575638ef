import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import sharp, { type JpegOptions } from 'sharp';
import { jpegMotionPhoto, jpegMultiPicture, LISBON_EXIF, segment, withSegments } from '../support/corpus-images.js';
import { boxesIn } from '../support/iso-boxes.js';
import { changedOffsets, exifEntries, jpegSegments, served, text } from '../support/format-walks.js';
import { gpsIn, jpegWithExifBlock, movieLocationTags, TiffLayout } from '../support/located-media.js';
import { makeTempDir, removeTempDir } from '../support/temp-dir.js';

const pixels = async (jpeg: Buffer) => sharp(jpeg).raw().toBuffer();
const has = (b: Buffer, s: string) => b.includes(Buffer.from(s, 'latin1'));

/** A 320×240 JPEG with an ICC profile (APP2) and JFIF (APP0), and `exif` when given. */
async function cameraJpeg(exif = LISBON_EXIF, options: JpegOptions = {}, orientation = 1): Promise<Buffer> {
  const svg =
    '<svg xmlns="http://www.w3.org/2000/svg" width="320" height="240"><rect width="100%" height="100%" fill="#3070c0"/><circle cx="100" cy="90" r="60" fill="#f0c020"/></svg>';
  return sharp(Buffer.from(svg)).withIccProfile('p3').withExif(exif).withMetadata({ orientation }).jpeg(options).toBuffer();
}

describe('location patches of JPEGs (the segment keep-list, the TIFF policy, what follows the photo)', () => {
  it('should keep the picture’s segments byte for byte and zero every other application segment and comment', async () => {
    const photo = await cameraJpeg();
    const original = withSegments(photo, [
      segment(0xed, Buffer.from('Photoshop 3.0\0' + '8BIM\x04\x04\0\0\0\0\0\x0b\x1c\x02\x5a\0\x06Lisbon', 'latin1')),
      segment(0xfe, Buffer.from('Taken in Lisbon', 'latin1')),
      segment(0xeb, Buffer.from('JP\0\0Lisbon jumbf', 'latin1')),
      segment(0xe2, Buffer.from('FPXR\0Lisbon', 'latin1')),
    ]);
    const { out } = await served(original);
    expect(out.length).to.equal(original.length);
    const before = jpegSegments(original);
    expect(jpegSegments(out)).to.deep.equal(before);
    for (const s of before) {
      const payload = (b: Buffer) => b.subarray(s.at + 4, s.end);
      const head = payload(original).toString('latin1', 0, 12);
      if (s.marker === 0xe1) continue; // EXIF: its own test below
      const kept = s.marker < 0xe0 || s.marker === 0xda || (s.marker === 0xe0 && head.startsWith('JFIF')) || head.startsWith('ICC_PROFILE');
      if (kept) expect(payload(out).equals(payload(original)), `segment ${s.marker.toString(16)} kept`).to.equal(true);
      else
        expect(
          payload(out).every((b) => b === 0),
          `segment ${s.marker.toString(16)} ${head} zeroed`,
        ).to.equal(true);
    }
    expect(has(out, 'Lisbon')).to.equal(false);
    expect((await pixels(out)).equals(await pixels(original))).to.equal(true);
    expect((await sharp(out).metadata()).icc?.length).to.equal((await sharp(original).metadata()).icc?.length);
  });

  it('should keep the camera, lens, exposure and dates of the EXIF, and zero the GPS IFD, captions and comments', async () => {
    const original = await cameraJpeg(LISBON_EXIF, {}, 6);
    expect(gpsIn((await sharp(original).metadata()).exif).tags.size, 'fixture has GPS').to.be.above(3);
    const { out } = await served(original);
    const exif = (await sharp(out).metadata()).exif!;
    const entries = exifEntries(exif);
    expect(text(entries.get(0x010f))).to.equal('Canon');
    expect(text(entries.get(0x0110))).to.equal('EOS R5');
    expect(text(entries.get(0x9003))).to.equal('2025:06:01 09:30:00');
    expect(text(entries.get(0xa434))).to.equal('RF24-105mm F4 L IS USM');
    expect(entries.get(0x829d)?.readUInt32BE(0), 'FNumber').to.be.above(0);
    expect((await sharp(out).metadata()).orientation).to.equal(6);
    // Dropped: text becomes spaces (ended by a NUL), other values zeros.
    for (const dropped of [0x010e, 0x9286])
      expect(
        entries.get(dropped)?.every((b) => b === 0 || b === 0x20),
        `tag ${dropped.toString(16)}`,
      ).to.equal(true);
    expect(gpsIn(exif)).to.deep.include({ gpsIfds: 1 });
    expect(gpsIn(exif).tags.size).to.equal(0);
    expect(has(out, 'Jeronimos') || has(out, 'Lisbon')).to.equal(false);
  });

  it('should zero the bytes of the EXIF block no IFD points to (leftovers of an edit)', async () => {
    const t = new TiffLayout(300);
    t.ifd(8, [[0x010f, 2, 6, 100]]).ascii(100, 'Nikon');
    t.ascii(200, 'GPS 38.7104 N, Lisbon');
    const { out } = await served(await jpegWithExifBlock(t.bytes));
    expect(has(out, 'Nikon')).to.equal(true);
    expect(has(out, 'Lisbon')).to.equal(false);
  });

  it('should zero a dropped value even where a kept one claims its bytes, and the whole block when a kept one runs past its end', async () => {
    const t = new TiffLayout(300);
    // Make claims 40 bytes, over the caption that follows it.
    t.ifd(8, [
      [0x010e, 2, 14, 120],
      [0x010f, 2, 40, 100],
    ])
      .ascii(100, 'Nikon')
      .ascii(120, 'Lisbon harbour');
    const { out } = await served(await jpegWithExifBlock(t.bytes));
    expect(has(out, 'Nikon')).to.equal(true);
    expect(has(out, 'Lisbon')).to.equal(false);
    t.ifd(8, [[0x010f, 2, 5000, 100]]);
    const tiffAt = (await jpegWithExifBlock(t.bytes)).indexOf('Exif\0\0', 0, 'latin1') + 6;
    const past = (await served(await jpegWithExifBlock(t.bytes))).out;
    expect(past.subarray(tiffAt, tiffAt + 300).every((b) => b === 0)).to.equal(true);
  });

  it('should keep the EXIF thumbnail (IFD1), decodable, without metadata of its own', async () => {
    const thumbnail = await cameraJpeg(LISBON_EXIF, { quality: 50 });
    const t = new TiffLayout(400 + thumbnail.length);
    t.ifd(8, [[0x010f, 2, 6, 100]], 200).ascii(100, 'Canon');
    t.ifd(200, [
      [0x0201, 4, 1, 400],
      [0x0202, 4, 1, thumbnail.length],
    ]);
    thumbnail.copy(t.bytes, 400);
    const original = await jpegWithExifBlock(t.bytes);
    const { out } = await served(original);
    const tiffAt = out.indexOf('Exif\0\0', 0, 'latin1') + 6;
    const kept = out.subarray(tiffAt + 400, tiffAt + 400 + thumbnail.length);
    expect((await pixels(kept)).equals(await pixels(thumbnail))).to.equal(true);
    expect(has(kept, 'Canon') || has(kept, 'Lisbon') || has(kept, 'Jeronimos'), 'the thumbnail’s own EXIF is zeroed').to.equal(false);
  });

  it('should walk the segments after the first scan of a progressive JPEG', async () => {
    const progressive = await cameraJpeg({ IFD0: { Make: 'Canon' } }, { progressive: true });
    const firstScan = progressive.indexOf(Buffer.from([0xff, 0xda]));
    const secondScan = progressive.indexOf(Buffer.from([0xff, 0xda]), firstScan + 2);
    expect(secondScan, 'a second scan').to.be.above(firstScan);
    const comment = segment(0xfe, Buffer.from('Sunset over Lisbon', 'latin1'));
    const original = Buffer.concat([progressive.subarray(0, secondScan), comment, progressive.subarray(secondScan)]);
    const { out } = await served(original);
    expect(has(out, 'Lisbon')).to.equal(false);
    expect(changedOffsets(original, out).every((i) => i >= secondScan + 4 && i < secondScan + comment.length)).to.equal(true);
    expect((await pixels(out)).equals(await pixels(original))).to.equal(true);
  });

  it('should walk 600 segments before the EXIF (the old walk stopped at 512)', async () => {
    const photo = await cameraJpeg();
    const app1At = photo.indexOf('Exif\0\0', 0, 'latin1') - 4;
    const app1 = photo.subarray(app1At, app1At + 2 + photo.readUInt16BE(app1At + 2));
    const rest = Buffer.concat([photo.subarray(0, app1At), photo.subarray(app1At + app1.length)]);
    const original = withSegments(rest, [...Array.from({ length: 600 }, () => segment(0xfe, Buffer.from('note', 'latin1'))), app1]);
    const { out } = await served(original);
    expect(gpsIn((await sharp(out).metadata()).exif).tags.size).to.equal(0);
    expect(text(exifEntries((await sharp(out).metadata()).exif!).get(0x010f))).to.equal('Canon');
  });

  describe('what follows the photo', () => {
    let dir: string;
    before(() => {
      dir = makeTempDir('location-jpeg-');
    });
    after(() => removeTempDir(dir));

    it('should walk the images of a multi-picture JPEG with the same policy, keeping the index that leads to them', async () => {
      const file = path.join(dir, 'mpf.jpg');
      await jpegMultiPicture(file);
      const original = fs.readFileSync(file);
      const secondAt = original.indexOf(Buffer.from([0xff, 0xd8, 0xff]), 2);
      const { out } = await served(original);
      const second = out.subarray(secondAt);
      expect(gpsIn((await sharp(second).metadata()).exif).tags.size).to.equal(0);
      expect(text(exifEntries((await sharp(second).metadata()).exif!).get(0x010f))).to.equal('Canon');
      const mpf = original.indexOf('MPF\0', 0, 'latin1');
      expect(out.subarray(mpf, mpf + 60).equals(original.subarray(mpf, mpf + 60)), 'the MPF index kept').to.equal(true);
      expect((await pixels(second)).equals(await pixels(original.subarray(secondAt)))).to.equal(true);
    });

    it('should zero an MPF index that leads anywhere but to an image it walked', async () => {
      const file = path.join(dir, 'mpf-elsewhere.jpg');
      await jpegMultiPicture(file);
      const original = fs.readFileSync(file);
      const mpf = original.indexOf('MPF\0', 0, 'latin1');
      // The second entry's offset (after 'MPF\0', the TIFF header, an IFD of 3 entries, the next pointer, the first entry): one byte off.
      const offsetAt = mpf + 4 + 8 + 2 + 36 + 4 + 16 + 8;
      original.writeUInt32BE(original.readUInt32BE(offsetAt) + 1, offsetAt);
      const { out } = await served(original);
      const length = original.readUInt16BE(mpf - 2) - 2;
      expect(out.subarray(mpf, mpf + length).every((b) => b === 0)).to.equal(true);
    });

    it('should walk a motion photo’s movie with the movie policy, and keep it playable', async () => {
      const file = path.join(dir, 'motion.jpg');
      await jpegMotionPhoto(file);
      const original = fs.readFileSync(file);
      const movieAt = original.indexOf('ftyp', 0, 'latin1') - 4;
      const { out } = await served(original);
      const movie = path.join(dir, 'motion.mp4');
      fs.writeFileSync(movie, out.subarray(movieAt));
      expect(await movieLocationTags(movie)).to.deep.equal({});
      expect(boxesIn(out.subarray(movieAt)).map((b) => b.type)).to.deep.equal(boxesIn(original.subarray(movieAt)).map((b) => b.type));
      expect(has(out, 'Jeronimos')).to.equal(false);
    });

    it('should zero anything else after the photo (a phone maker’s trailer)', async () => {
      const photo = await cameraJpeg({ IFD0: { Make: 'Samsung' } });
      const original = Buffer.concat([photo, Buffer.from('SEFH\0\0\0\0 Lisbon 38.7104,-9.1399 SEFT', 'latin1')]);
      const { out } = await served(original);
      expect(out.subarray(photo.length).every((b) => b === 0)).to.equal(true);
      expect((await pixels(out)).equals(await pixels(original))).to.equal(true);
    });
  });

  describe('a JPEG whose structure is lost', () => {
    it('should zero everything from a byte that is no marker to the end', async () => {
      const photo = await cameraJpeg();
      const exifEnd = jpegSegments(photo).find((s) => s.marker === 0xe1)!.end;
      const original = Buffer.concat([photo.subarray(0, exifEnd), Buffer.from('Lisbon'), photo.subarray(exifEnd)]);
      const { out } = await served(original);
      expect(out.length).to.equal(original.length);
      expect(out.subarray(exifEnd).every((b) => b === 0)).to.equal(true);
    });

    it('should take a few milliseconds for a 7 MB photo, reading its image data once', async () => {
      const [w, h] = [4000, 3000];
      const noise = Buffer.alloc(w * h * 3);
      for (let i = 0; i < noise.length; i++) noise[i] = (i * 2654435761) >>> 24;
      const big = await sharp(noise, { raw: { width: w, height: h, channels: 3 } })
        .withExif(LISBON_EXIF)
        .jpeg({ quality: 85 })
        .toBuffer();
      expect(big.length).to.be.above(5_000_000);
      const started = performance.now();
      const { out } = await served(big);
      expect(performance.now() - started).to.be.below(500);
      expect(gpsIn((await sharp(out).metadata()).exif).tags.size).to.equal(0);
    });
  });
});
