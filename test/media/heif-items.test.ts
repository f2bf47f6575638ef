import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { bufferSource } from '../../server/core/media/byte-source.js';
import { HeifLayoutError, isHeifHead, readHeifLayout } from '../../workers/heif-items.js';
import { hevcPictureSize } from '../../workers/hevc-sps.js';
import { heifGrid, phoneTiles, smallTile } from '../support/heif-craft.js';

const FIXTURES = path.join(import.meta.dirname, '..', 'fixtures', 'heic');
const layoutOf = (bytes: Buffer) => readHeifLayout(bufferSource(bytes));
const refusal = (bytes: Buffer) =>
  layoutOf(bytes).then(
    () => expect.fail('the layout was read'),
    (err: unknown) => {
      expect(err).to.be.instanceOf(HeifLayoutError);
      return (err as Error).message;
    },
  );

describe('workers/heif-items', function () {
  describe('a real iPhone photo (IMG_5195.HEIC)', function () {
    it('should read its size, coding, turn and EXIF, and count its tiles and canvas', async function () {
      const bytes = fs.readFileSync(path.join(FIXTURES, 'IMG_5195.HEIC'));
      const layout = await layoutOf(bytes);
      expect(layout).to.deep.include({ brand: 'heic', coding: 'hevc', width: 2566, height: 3313, turn: { quarters: 0, mirrored: false } });
      // The canvas, then 6 x 7 tiles of 512 x 512.
      expect(layout.decodedPixels).to.equal(2566 * 3313 + 42 * 512 * 512);
      const [exif] = layout.exif ?? [];
      expect(bytes.toString('latin1', exif!.at + 4 + bytes.readUInt32BE(exif!.at), exif!.at + 8 + bytes.readUInt32BE(exif!.at))).to.equal('MM\0*');
    });
  });

  it('should tell a HEIF by its file type box, whatever its brand order', function () {
    const head = (brands: string) => Buffer.concat([Buffer.from([0, 0, 0, 8 + brands.length]), Buffer.from(`ftyp${brands}`, 'latin1')]);
    expect(isHeifHead(head('heic\0\0\0\0mif1heic'))).to.equal(true);
    expect(isHeifHead(head('avif\0\0\0\0avifmif1'))).to.equal(true);
    expect(isHeifHead(head('isom\0\0\0\0isomavc1'))).to.equal(false);
    expect(isHeifHead(head('qt  \0\0\0\0qt  '))).to.equal(false);
  });

  it("should read the picture size an HEVC decoder makes from the tile's parameter set", function () {
    const hvcC = smallTile().hvcC;
    expect(hevcPictureSize(hvcC.subarray(8))).to.deep.equal({ width: 64, height: 64 });
    expect(hevcPictureSize(phoneTiles().hvcC.subarray(8))).to.deep.equal({ width: 512, height: 512 });
    expect(hevcPictureSize(hvcC.subarray(8, 30))).to.equal(undefined);
  });

  describe('a grid', function () {
    it('should count every tile and the canvas', async function () {
      const layout = await layoutOf(heifGrid({ rows: 2, columns: 3 }));
      expect(layout).to.deep.include({ width: 192, height: 128, coding: 'hevc' });
      expect(layout.decodedPixels).to.equal(2 * 192 * 128);
    });

    it('should count a tile at the size its parameter set makes, when its ispe declares less', async function () {
      const layout = await layoutOf(heifGrid({ rows: 1, columns: 2, tileDeclared: { width: 32, height: 32 } }));
      expect(layout.decodedPixels).to.equal(64 * 32 + 2 * 64 * 64);
    });

    it('should refuse tiles that do not fit the size the grid declares (the bomb)', async function () {
      const message = await refusal(heifGrid({ rows: 4, columns: 4, declared: { width: 4032, height: 3024 }, tileDeclared: { width: 8192, height: 8192 } }));
      expect(message).to.equal('a grid of 4032x3024 made of 4x4 tiles of 8192x8192');
    });

    it('should count the bomb that declares its whole size: 1.07 gigapixels of tiles', async function () {
      const layout = await layoutOf(heifGrid({ rows: 4, columns: 4, tileDeclared: { width: 8192, height: 8192 } }));
      expect(layout.decodedPixels).to.equal(2 * 32768 * 32768);
    });

    it('should refuse a grid with fewer tiles than its rows and columns', async function () {
      const bytes = heifGrid({ rows: 2, columns: 2 });
      // rows_minus_one in the descriptor (in idat): 2 rows become 3.
      const idat = bytes.indexOf('idat', 0, 'latin1') + 4;
      bytes[idat + 2] = 2;
      expect(await refusal(bytes)).to.equal('a grid of 3x2 tiles with 4 tiles');
    });
  });

  it('should refuse a meta box cut short', async function () {
    const bytes = fs.readFileSync(path.join(FIXTURES, 'IMG_5195.HEIC')).subarray(0, 1500);
    expect(await refusal(bytes)).to.match(/no meta box|cut short/);
  });
});
