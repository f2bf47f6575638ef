import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import sharp from 'sharp';
import { exifBombJpeg } from '../support/exif-bomb.js';
import { mp4GoproGps, webmFfmpegLocation } from '../support/corpus-movies.js';
import { changedOffsets, served } from '../support/format-walks.js';
import {
  gpsImage,
  gpsIn,
  gpsOfImage,
  jpegWithExifBlock,
  jpegWithXmp,
  latitudeBytes,
  TiffLayout,
  tiffWithGps,
  writeGpsIfd,
  writeLocatedMovie,
} from '../support/located-media.js';
import { makeTempDir, removeTempDir } from '../support/temp-dir.js';

/** The Exif APP1 payload's place in a JPEG: [start of 'Exif\0\0', end of segment). */
function exifSegment(jpeg: Buffer): [number, number] {
  const at = jpeg.indexOf('Exif\0\0', 0, 'latin1');
  return [at, at - 4 + 2 + jpeg.readUInt16BE(at - 2)];
}

describe('locationPatches', () => {
  describe('for a JPEG with a GPS IFD (sharp withExif)', () => {
    let original: Buffer;
    before(async () => {
      original = await gpsImage('jpeg');
    });

    it('should leave an empty GPS IFD and no trace of the position, at the same length', async () => {
      expect((await gpsOfImage(original)).tags.size, 'fixture has GPS').to.be.above(3);
      expect(original.indexOf(latitudeBytes())).to.be.above(0);
      const { out } = await served(original);
      expect(out.length).to.equal(original.length);
      const gps = await gpsOfImage(out);
      expect(gps.gpsIfds, 'the pointer leads to an IFD').to.equal(1);
      expect([...gps.tags.keys()]).to.deep.equal([]);
      expect(out.indexOf(latitudeBytes())).to.equal(-1);
    });

    it('should change bytes inside the Exif segment only, and keep the camera fields and the pixels', async () => {
      const { out } = await served(original);
      const [start, end] = exifSegment(original);
      const changed = changedOffsets(original, out);
      expect(changed).to.not.be.empty;
      expect(changed.every((i) => i >= start && i < end)).to.equal(true);
      expect((await sharp(out).metadata()).exif?.includes('Canon')).to.equal(true);
      expect(Buffer.compare(await sharp(out).raw().toBuffer(), await sharp(original).raw().toBuffer())).to.equal(0);
    });

    it('should find nothing to patch in a JPEG without EXIF', async () => {
      const plain = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#fff' } })
        .jpeg()
        .toBuffer();
      expect((await served(plain)).patches).to.deep.equal([]);
    });
  });

  describe('for a JPEG with big-endian EXIF', () => {
    it('should blank the GPS IFD and its values', async () => {
      const t = new TiffLayout(400, false);
      t.ifd(8, [
        [0x010f, 2, 6, 100],
        [0x8825, 4, 1, 200],
      ]).ascii(100, 'Nikon');
      writeGpsIfd(t, 200, 300);
      const original = await jpegWithExifBlock(t.bytes);
      expect((await gpsOfImage(original)).tags.size).to.equal(4);
      const { out } = await served(original);
      expect((await gpsOfImage(out)).tags.size).to.equal(0);
      expect(out.indexOf(latitudeBytes(false))).to.equal(-1);
      expect(out.includes('Nikon')).to.equal(true);
    });
  });

  for (const format of ['png', 'webp', 'avif'] as const) {
    describe(`for a ${format.toUpperCase()} with a GPS IFD (sharp withExif)`, () => {
      it('should leave no GPS and no trace of the position, and still decode', async () => {
        const original = await gpsImage(format);
        expect((await gpsOfImage(original)).tags.size, 'fixture has GPS').to.be.above(3);
        const { out } = await served(original);
        expect(out.length).to.equal(original.length);
        expect((await gpsOfImage(out)).tags.size).to.equal(0);
        expect(out.indexOf(latitudeBytes())).to.equal(-1);
        // sharp fails on a warning by default: a PNG chunk whose CRC no longer matched would fail here.
        const pixels = await sharp(out).raw().toBuffer({ resolveWithObject: true });
        expect(pixels.info.width).to.equal(320);
      });
    });
  }

  describe('for a HEIC from an iPhone (test/fixtures/heic)', () => {
    it('should leave an empty GPS IFD and no trace of the position, and keep the rest of its EXIF', async () => {
      const original = fs.readFileSync(path.join(import.meta.dirname, '../fixtures/heic/IMG_5195.HEIC'));
      // The sample's latitude as its Exif item stores it: 39/1 3/1 484/100.
      const latitude = Buffer.from('00000027000000010000000300000001000001e400000064', 'hex');
      expect((await gpsOfImage(original)).tags.size, 'the sample has GPS').to.be.above(10);
      expect(original.indexOf(latitude)).to.be.above(0);
      const { out } = await served(original);
      expect(out.length).to.equal(original.length);
      expect((await gpsOfImage(out)).tags.size).to.equal(0);
      expect(out.indexOf(latitude)).to.equal(-1);
      const meta = await sharp(out).metadata();
      expect(meta.exif?.includes('Apple')).to.equal(true);
      expect(meta.width).to.equal((await sharp(original).metadata()).width);
    });
  });

  for (const littleEndian of [true, false]) {
    describe(`for a ${littleEndian ? 'little' : 'big'}-endian TIFF file with a GPS IFD`, () => {
      it('should blank the GPS IFD in place and keep the image as it was', async () => {
        const original = tiffWithGps(littleEndian);
        expect(gpsIn(original).tags.size, 'fixture has GPS').to.equal(4);
        const { out } = await served(original);
        expect(gpsIn(out).tags.size).to.equal(0);
        expect(out.indexOf(latitudeBytes(littleEndian))).to.equal(-1);
        expect(Buffer.compare(await sharp(out).raw().toBuffer(), await sharp(original).raw().toBuffer())).to.equal(0);
      });
    });
  }

  describe('for XMP in a JPEG', () => {
    it('should blank the whole packet: an empty well-formed packet, padded with spaces to its length', async () => {
      const original = await jpegWithXmp();
      const { out } = await served(original);
      expect(out.length).to.equal(original.length);
      const xmp = (await sharp(out).metadata()).xmp?.toString('utf8') ?? '';
      expect(xmp).to.match(
        /^<\?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"\?><x:xmpmeta xmlns:x="adobe:ns:meta\/"><rdf:RDF [^>]*\/><\/x:xmpmeta> +<\?xpacket end="w"\?>$/,
      );
      expect(xmp.length).to.equal((await sharp(original).metadata()).xmp?.length);
      expect(out.includes('Paris')).to.equal(false);
    });
  });

  describe('for hostile EXIF', () => {
    it('should blank the whole block of an EXIF bomb (an IFD too large to walk), quickly', async () => {
      const original = await exifBombJpeg(64, 48);
      const started = performance.now();
      const { out } = await served(original);
      expect(performance.now() - started).to.be.below(1000);
      const [start, end] = exifSegment(original);
      expect(out.subarray(start, end).every((b) => b === 0)).to.equal(true);
      expect(changedOffsets(original, out).every((i) => i >= start && i < end)).to.equal(true);
      await sharp(out).raw().toBuffer();
    });

    it('should blank the whole block when the GPS pointer leads back to IFD0', async () => {
      const t = new TiffLayout(400);
      t.ifd(8, [
        [0x010f, 2, 6, 100],
        [0x8825, 4, 1, 8],
        [2, 5, 3, 300],
      ]).ascii(100, 'Loopy');
      t.rationals(300, [48, 51, 30]);
      const original = await jpegWithExifBlock(t.bytes);
      const { out } = await served(original);
      expect(out.indexOf(latitudeBytes())).to.equal(-1);
      expect(out.includes('Loopy')).to.equal(false);
      expect((await gpsOfImage(out)).tags.size).to.equal(0);
    });

    it('should blank the whole block when IFDs point back at themselves (a loop)', async () => {
      const t = new TiffLayout(400);
      // IFD0's next IFD and its Exif IFD are IFD0 itself: a loop for a reader that follows them.
      t.ifd(
        8,
        [
          [0x010f, 2, 6, 100],
          [0x8769, 4, 1, 8],
          [0x8825, 4, 1, 200],
        ],
        8,
      ).ascii(100, 'Loopy');
      writeGpsIfd(t, 200, 300, 200);
      const original = await jpegWithExifBlock(t.bytes);
      const { out } = await served(original);
      expect((await gpsOfImage(out)).tags.size).to.equal(0);
      expect(out.indexOf(latitudeBytes())).to.equal(-1);
      expect(out.includes('Loopy')).to.equal(false);
    });

    it('should not fail on offsets past the end of the block', async () => {
      const t = new TiffLayout(300);
      t.ifd(8, [
        [0x8769, 4, 1, 0xfffffff0],
        [0x8825, 4, 1, 200],
      ]);
      t.ifd(200, [
        [1, 2, 2, 0x4e],
        [2, 5, 3, 0x7ffffff0],
        [4, 5, 0x10000000, 250],
      ]);
      const original = await jpegWithExifBlock(t.bytes);
      const { out } = await served(original);
      expect(out.length).to.equal(original.length);
      expect((await gpsOfImage(out)).tags.size).to.equal(0);
    });

    it('should blank the whole block when the GPS IFD claims more entries than can be walked', async () => {
      const t = new TiffLayout(400);
      t.ifd(8, [[0x8825, 4, 1, 200]]);
      writeGpsIfd(t, 200, 300);
      t.u16(200, 60000);
      const original = await jpegWithExifBlock(t.bytes);
      const { out } = await served(original);
      const [start, end] = exifSegment(original);
      expect(out.subarray(start + 6, end).every((b) => b === 0)).to.equal(true);
    });

    it('should zero all of the block but its header when IFD0 lies past its end (nothing there is pointed to)', async () => {
      const t = new TiffLayout(64, true, 5000);
      t.ascii(20, 'Lisbon');
      const original = await jpegWithExifBlock(t.bytes);
      const { out } = await served(original);
      const tiffAt = original.indexOf('Exif\0\0', 0, 'latin1') + 6;
      expect(out.subarray(tiffAt, tiffAt + 8).equals(original.subarray(tiffAt, tiffAt + 8))).to.equal(true);
      expect(out.subarray(tiffAt + 8, tiffAt + 64).every((b) => b === 0)).to.equal(true);
    });

    it('should not fail on a JPEG cut inside its Exif segment', async () => {
      const original = await gpsImage('jpeg');
      const cut = original.subarray(0, exifSegment(original)[0] + 40);
      const { out } = await served(cut);
      expect(out.length).to.equal(cut.length);
    });

    it('should neither throw nor take long on files damaged at random in their metadata', async function () {
      this.timeout(60_000);
      const dir = makeTempDir();
      try {
        await writeLocatedMovie(path.join(dir, 'clip.mov'), 'iphone');
        await mp4GoproGps(path.join(dir, 'gopro.mp4'));
        await webmFfmpegLocation(path.join(dir, 'clip.webm'));
        const movie = fs.readFileSync(path.join(dir, 'clip.mov'));
        const moovAt = movie.lastIndexOf('moov', movie.length, 'latin1') - 4;
        const gopro = fs.readFileSync(path.join(dir, 'gopro.mp4'));
        const heic = fs.readFileSync(path.join(import.meta.dirname, '../fixtures/heic/IMG_5195.HEIC'));
        const webm = fs.readFileSync(path.join(dir, 'clip.webm'));
        const samples: [string, Buffer, number, number][] = [
          ['jpeg', await gpsImage('jpeg'), 0, 400],
          ['avif', await gpsImage('avif'), 0, 700],
          ['heic', heic, 0, 4000],
          ['png', await gpsImage('png'), 0, 400],
          ['webp', await gpsImage('webp'), 0, 450],
          ['tiff', tiffWithGps(false), 0, 400],
          ['movie', movie, moovAt, movie.length],
          ['gopro', gopro, gopro.lastIndexOf('moov', gopro.length, 'latin1') - 4, gopro.length],
          ['webm', webm, 0, 700],
        ];
        const gif = await sharp({ create: { width: 20, height: 10, channels: 3, background: '#369' } })
          .gif()
          .toBuffer();
        const comment = Buffer.from('\x21\xfe\x06Lisbon\x00', 'latin1');
        samples.push(['gif', Buffer.concat([gif.subarray(0, gif.length - 1), comment, gif.subarray(gif.length - 1)]), 0, gif.length + comment.length]);
        // A fixed seed: the same damage on every run.
        let seed = 0x2545f491;
        const random = () => {
          seed ^= seed << 13;
          seed ^= seed >>> 17;
          seed ^= seed << 5;
          return (seed >>> 0) / 0x100000000;
        };
        for (const [name, file, from, to] of samples) {
          for (let round = 0; round < 150; round++) {
            const damaged = Buffer.from(file);
            for (let n = 1 + Math.floor(random() * 8); n > 0; n--) damaged[from + Math.floor(random() * (to - from))] = Math.floor(random() * 256);
            const started = performance.now();
            const { out } = await served(damaged);
            expect(out.length, name).to.equal(damaged.length);
            expect(performance.now() - started, name).to.be.below(500);
          }
        }
      } finally {
        removeTempDir(dir);
      }
    });

    it('should zero the whole of a TIFF file it cannot walk', async () => {
      const t = new TiffLayout(400);
      t.ifd(8, [[0x8825, 4, 1, 8]]);
      const { out } = await served(t.bytes);
      expect(out.length).to.equal(400);
      expect(out.every((b) => b === 0)).to.equal(true);
    });
  });
});
