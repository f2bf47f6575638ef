import { expect } from 'chai';
import { readExifFields, readJpegHead } from '../../workers/exif-reader.js';
import { BOMB_MAKE, exifBombJpeg } from '../support/exif-bomb.js';

type Entry = [tag: number, type: number, count: number, value: number | Buffer];

/**
 * A TIFF block with one IFD at offset 8 holding `entries`; a Buffer value longer than four
 * bytes is stored after the IFD. `exifIfd` adds a pointer to a second IFD built the same way.
 */
function tiff(entries: Entry[], opts: { bigEndian?: boolean; exifIfd?: Entry[]; nextIfd?: number } = {}): Buffer {
  const le = !opts.bigEndian;
  const parts: Buffer[] = [];
  const header = Buffer.alloc(8);
  header.write(le ? 'II' : 'MM', 0, 'latin1');
  if (le) {
    header.writeUInt16LE(42, 2);
    header.writeUInt32LE(8, 4);
  } else {
    header.writeUInt16BE(42, 2);
    header.writeUInt32BE(8, 4);
  }
  parts.push(header);
  let size = 8;
  const ifd = (list: Entry[], next: number): Buffer => {
    const start = size;
    const table = Buffer.alloc(2 + list.length * 12 + 4);
    let data = start + table.length;
    const blobs: Buffer[] = [];
    const u16 = (v: number, at: number) => (le ? table.writeUInt16LE(v, at) : table.writeUInt16BE(v, at));
    const u32 = (v: number, at: number) => (le ? table.writeUInt32LE(v, at) : table.writeUInt32BE(v, at));
    u16(list.length, 0);
    list.forEach(([tag, type, count, value], i) => {
      const at = 2 + i * 12;
      u16(tag, at);
      u16(type, at + 2);
      u32(count, at + 4);
      if (typeof value === 'number') u32(value, at + 8);
      else if (value.length <= 4) value.copy(table, at + 8);
      else {
        u32(data, at + 8);
        blobs.push(value);
        data += value.length;
      }
    });
    u32(next, 2 + list.length * 12);
    size = data;
    return Buffer.concat([table, ...blobs]);
  };
  if (opts.exifIfd) {
    // IFD0 first, with the pointer filled in once its size is known.
    const withPointer: Entry[] = [...entries, [0x8769, 4, 1, 0]];
    const first = ifd(withPointer, opts.nextIfd ?? 0);
    const second = ifd(opts.exifIfd, 0);
    const pointerAt = 2 + (withPointer.length - 1) * 12 + 8;
    if (le) first.writeUInt32LE(size - second.length, pointerAt);
    else first.writeUInt32BE(size - second.length, pointerAt);
    return Buffer.concat([...parts, first, second]);
  }
  return Buffer.concat([...parts, ifd(entries, opts.nextIfd ?? 0)]);
}

const ascii = (s: string) => Buffer.from(`${s}\0`, 'latin1');
function rational(num: number, den: number, le = true): Buffer {
  const b = Buffer.alloc(8);
  if (le) {
    b.writeUInt32LE(num, 0);
    b.writeUInt32LE(den, 4);
  } else {
    b.writeUInt32BE(num, 0);
    b.writeUInt32BE(den, 4);
  }
  return b;
}

describe('exif-reader', function () {
  describe('readExifFields()', function () {
    it("should read the gallery's fields from IFD0 and the Exif sub-IFD", function () {
      const block = tiff(
        [
          [0x010f, 2, 6, ascii('Canon')],
          [0x0110, 2, 7, ascii('EOS R5')],
        ],
        {
          exifIfd: [
            [0x829a, 5, 1, rational(1, 250)],
            [0x829d, 5, 1, rational(28, 10)],
            [0x8827, 3, 1, 400],
            [0x9003, 2, 20, ascii('2024:05:01 12:34:56')],
            [0x920a, 5, 1, rational(50, 1)],
            [0xa434, 2, 24, ascii('RF24-70mm F2.8 L IS USM')],
          ],
        },
      );
      expect(readExifFields(block)).to.deep.equal({
        Make: 'Canon',
        Model: 'EOS R5',
        LensModel: 'RF24-70mm F2.8 L IS USM',
        FocalLength: 50,
        FNumber: 2.8,
        ExposureTime: 0.004,
        ISO: 400,
        DateTimeOriginal: '2024:05:01 12:34:56',
      });
    });

    it('should read a big-endian block, with or without the Exif prefix', function () {
      const block = tiff(
        [
          [0x010f, 2, 6, ascii('Nikon')],
          [0x829d, 5, 1, rational(4, 1, false)],
        ],
        { bigEndian: true },
      );
      for (const b of [block, Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), block])]) {
        expect(readExifFields(b)).to.include({ Make: 'Nikon', FNumber: 4 });
      }
    });

    it('should leave out a tag whose value reaches past the block', function () {
      const block = tiff([
        [0x010f, 2, 0x7fffffff, 8],
        [0x0110, 2, 5, ascii('Good')],
        [0x829d, 5, 0x10000000, 8],
      ]);
      expect(readExifFields(block)).to.include({ Make: null, Model: 'Good', FNumber: null });
    });

    it('should not follow an Exif pointer or a next-IFD pointer back to IFD0', function () {
      const block = tiff(
        [
          [0x010f, 2, 5, ascii('Loop')],
          [0x8769, 4, 1, 8],
        ],
        { nextIfd: 8 },
      );
      expect(readExifFields(block)).to.include({ Make: 'Loop' });
    });

    it('should answer nulls for a zero denominator, a damaged header or a truncated IFD', function () {
      expect(readExifFields(tiff([[0x829d, 5, 1, rational(1, 0)]])).FNumber).to.equal(null);
      expect(readExifFields(Buffer.from('IX*\0\x08\0\0\0', 'latin1')).Make).to.equal(null);
      const cut = tiff([[0x010f, 2, 6, ascii('Canon')]]).subarray(0, 14);
      expect(readExifFields(cut).Make).to.equal(null);
    });

    it('should cap text at 256 bytes', function () {
      const block = tiff([[0xa434, 2, 1001, ascii('L'.repeat(1000))]]);
      expect(readExifFields(block).LensModel).to.have.length(256);
    });
  });

  describe('readJpegHead()', function () {
    it('should find the Exif segment and the frame size of the bomb, and the fields it can read', async function () {
      const head = readJpegHead(await exifBombJpeg(320, 240));
      expect(head.size).to.deep.equal({ width: 320, height: 240 });
      expect(head.exif).to.be.instanceOf(Buffer);
      expect(readExifFields(head.exif!)).to.include({ Make: BOMB_MAKE, Model: 'Loop', ISO: null });
    });

    it('should give no size when the frame header lies past the bytes given', async function () {
      const jpeg = await exifBombJpeg(320, 240);
      expect(readJpegHead(jpeg.subarray(0, 1024)).size).to.equal(undefined);
    });
  });
});
