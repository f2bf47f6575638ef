import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { expect } from 'chai';
import sharp, { type TiffOptions } from 'sharp';
import { gradient, LISBON_EXIF } from '../support/corpus-images.js';
import { boxesIn } from '../support/iso-boxes.js';
import {
  changedOffsets,
  exifEntries,
  pngChunk,
  pngChunks,
  riffChunk,
  riffChunks,
  served,
  text,
  withPngChunks,
  withRiffChunks,
  zeroedWhole,
} from '../support/format-walks.js';
import { gpsIn, gpsOfImage, TiffLayout, tiffWithGps } from '../support/located-media.js';

const has = (b: Buffer, s: string) => b.includes(Buffer.from(s, 'latin1'));
const sameDecoded = async (a: Buffer, b: Buffer) => (await sharp(a, { pages: -1 }).raw().toBuffer()).equals(await sharp(b, { pages: -1 }).raw().toBuffer());
const latin1 = (s: string) => Buffer.from(s, 'latin1');
const XMP = `<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description xmlns:photoshop="http://ns.adobe.com/photoshop/1.0/"><photoshop:City>Lisbon</photoshop:City></rdf:Description></rdf:RDF></x:xmpmeta>${' '.repeat(100)}<?xpacket end="w"?>`;

describe('location patches of PNG, WebP, TIFF, GIF and HEIF files (keep-lists of chunks, tags, blocks and items)', () => {
  describe('PNG', () => {
    it('should rename every text chunk, whatever its keyword, to a private chunk of zeros with a right CRC, and keep the picture’s chunks', async () => {
      const original = withPngChunks(await gradient('png'), [
        pngChunk('tEXt', latin1('exif:GPSLatitude\0 38/1, 42/1, 3750/100')),
        pngChunk('zTXt', Buffer.concat([latin1('Raw profile type xmp\0\0'), zlib.deflateSync(latin1(XMP))])),
        pngChunk('iTXt', latin1(`XML:com.adobe.xmp\0\0\0\0\0${XMP}`)),
        pngChunk('caBX', latin1('Lisbon')),
      ]);
      const { out } = await served(original);
      const [before, after] = [pngChunks(original), pngChunks(out)];
      expect(after.map((c) => c.at)).to.deep.equal(before.map((c) => c.at));
      expect(after.every((c) => c.crcOk)).to.equal(true);
      expect(after.map((c) => c.type)).to.deep.equal(before.map((c) => (['tEXt', 'zTXt', 'iTXt', 'caBX'].includes(c.type) ? 'blNk' : c.type)));
      for (const c of after.filter((x) => x.type === 'blNk')) expect(c.data.every((b) => b === 0)).to.equal(true);
      expect(await sameDecoded(out, original)).to.equal(true);
    });

    it('should walk past 5,000 IDAT chunks to an eXIf, keep its camera and lose its GPS, with the CRC of the bytes served', async () => {
      const png = await gradient('png');
      const chunks = pngChunks(png);
      const data = Buffer.concat(chunks.filter((c) => c.type === 'IDAT').map((c) => c.data));
      const pieces = Array.from({ length: 5000 }, (_, i) => data.subarray(Math.floor((i * data.length) / 5000), Math.floor(((i + 1) * data.length) / 5000)));
      const exif = (await sharp(await gradient('jpeg', LISBON_EXIF)).metadata()).exif!.subarray(6);
      const head = chunks.filter((c) => c.type !== 'IDAT' && c.type !== 'IEND').map((c) => pngChunk(c.type, c.data));
      const original = Buffer.concat([
        png.subarray(0, 8),
        ...head,
        ...pieces.map((p) => pngChunk('IDAT', p)),
        pngChunk('eXIf', exif),
        pngChunk('IEND', Buffer.alloc(0)),
      ]);
      const { out } = await served(original);
      const served_ = pngChunks(out).find((c) => c.type === 'eXIf')!;
      expect(served_.crcOk).to.equal(true);
      expect(gpsIn(served_.data).tags.size).to.equal(0);
      expect(text(exifEntries(served_.data).get(0x010f))).to.equal('Canon');
      expect(await sameDecoded(out, original)).to.equal(true);
    });

    it('should zero what follows IEND, and everything from a chunk that cannot be one', async () => {
      const png = await gradient('png');
      const trailing = Buffer.concat([png, latin1('Lisbon')]);
      expect((await served(trailing)).out.subarray(png.length).every((b) => b === 0)).to.equal(true);
      const idat = pngChunks(png).find((c) => c.type === 'IDAT')!;
      const broken = withPngChunks(png, [Buffer.concat([latin1('\0\0\0\x04t3Xt'), latin1('Lisbon')])], 'IDAT');
      const { out } = await served(broken);
      expect(out.subarray(idat.at).every((b) => b === 0)).to.equal(true);
      expect(out.subarray(0, idat.at).equals(broken.subarray(0, idat.at))).to.equal(true);
    });
  });

  describe('WebP', () => {
    it('should blank XMP however its chunk is spelled, zero unknown chunks, and keep every chunk in its place', async () => {
      const original = withRiffChunks(await gradient('webp'), [
        riffChunk('XMP\0', latin1(XMP)),
        riffChunk('XMP ', latin1(XMP)),
        riffChunk('LOCN', latin1('Lisbon')),
      ]);
      const { out } = await served(original);
      expect(riffChunks(out).map((c) => [c.type, c.at, c.length])).to.deep.equal(riffChunks(original).map((c) => [c.type, c.at, c.length]));
      expect(has(out, 'Lisbon')).to.equal(false);
      const xmp = riffChunks(out)
        .find((c) => c.type === 'XMP\0')!
        .data.toString('latin1');
      expect(xmp).to.match(/^<\?xpacket begin="".*<\/x:xmpmeta> +<\?xpacket end="w"\?>$/);
      expect(await sameDecoded(out, original)).to.equal(true);
    });

    it('should walk an animation of 100 frames to the EXIF after them, and keep every frame', async () => {
      const frames = await Promise.all(
        Array.from({ length: 100 }, (_, i) =>
          sharp({ create: { width: 16, height: 16, channels: 4, background: { r: i * 2, g: 255 - i, b: i, alpha: 0.5 } } })
            .png()
            .toBuffer(),
        ),
      );
      const original = await sharp(frames, { join: { animated: true } })
        .withExif(LISBON_EXIF)
        .webp({ lossless: true })
        .toBuffer();
      expect(riffChunks(original).filter((c) => c.type === 'ANMF').length).to.equal(100);
      const { out } = await served(original);
      const exif = riffChunks(out).find((c) => c.type === 'EXIF')!.data;
      expect(gpsIn(exif).tags.size).to.equal(0);
      expect(text(exifEntries(exif).get(0x010f))).to.equal('Canon');
      expect(await sameDecoded(out, original)).to.equal(true);
    });
  });

  describe('TIFF files', () => {
    const raw = Buffer.alloc(200 * 120 * 3);
    for (let i = 0; i < raw.length; i++) raw[i] = (i * 2654435761) >>> 24;
    const image = () => sharp(raw, { raw: { width: 200, height: 120, channels: 3 } });
    const kinds: [string, TiffOptions][] = [
      ['strips', {}],
      ['JPEG-compressed (JPEGTables)', { compression: 'jpeg' }],
      ['tiles with a predictor', { tile: true, tileWidth: 64, tileHeight: 64, compression: 'deflate', predictor: 'horizontal' }],
      ['a pyramid of pages', { pyramid: true, tile: true, tileWidth: 64, tileHeight: 64, compression: 'lzw' }],
    ];
    for (const [kind, options] of kinds) {
      it(`should keep every page’s pixels of ${kind}, and drop its XMP (tag 700)`, async () => {
        const original = await image().withXmp(XMP).tiff(options).toBuffer();
        expect(has(original, 'Lisbon'), 'fixture has XMP').to.equal(true);
        const { out } = await served(original);
        expect(zeroedWhole(out)).to.equal(false);
        const pages = (await sharp(original).metadata()).pages ?? 1;
        for (let page = 0; page < pages; page++) {
          expect((await sharp(out, { page }).raw().toBuffer()).equals(await sharp(original, { page }).raw().toBuffer()), `page ${page}`).to.equal(true);
        }
        expect(has(out, 'Lisbon')).to.equal(false);
      });
    }

    it('should keep the picture of a SubIFD (as raw and pyramid TIFFs hold their other images)', async () => {
      const t = new TiffLayout(800);
      const grey = (width: number, height: number, pixelsAt: number) =>
        [
          [256, 3, 1, width],
          [257, 3, 1, height],
          [258, 3, 1, 8],
          [262, 3, 1, 1],
          [273, 4, 1, pixelsAt],
          [277, 3, 1, 1],
          [278, 3, 1, height],
          [279, 4, 1, width * height],
        ] as const;
      const sorted = (entries: readonly (readonly [number, number, number, number])[]) => [...entries].sort((a, b) => a[0] - b[0]);
      t.ifd(8, sorted([...grey(16, 8, 400), [330, 13, 1, 200], [270, 2, 7, 150]])).ascii(150, 'Lisbon');
      t.ifd(200, grey(8, 4, 600));
      for (let i = 0; i < 128; i++) t.bytes[400 + i] = i * 2;
      for (let i = 0; i < 32; i++) t.bytes[600 + i] = 255 - i * 8;
      const { out } = await served(t.bytes);
      expect(has(out, 'Lisbon')).to.equal(false);
      for (const subifd of [-1, 0]) {
        expect((await sharp(out, { subifd }).raw().toBuffer()).equals(await sharp(t.bytes, { subifd }).raw().toBuffer()), `subifd ${subifd}`).to.equal(true);
      }
    });

    it('should zero GeoTIFF’s tags, IPTC, Photoshop’s resources and captions, and keep the picture', async () => {
      const t = new TiffLayout(600);
      const pixelsAt = 500;
      t.ifd(8, [
        [256, 3, 1, 8],
        [257, 3, 1, 8],
        [258, 3, 1, 8],
        [262, 3, 1, 1],
        [270, 2, 8, 300],
        [273, 4, 1, pixelsAt],
        [277, 3, 1, 1],
        [278, 3, 1, 8],
        [279, 4, 1, 64],
        [33723, 7, 8, 320],
        [33922, 12, 6, 340],
        [34377, 7, 8, 400],
      ]);
      t.ascii(300, 'Lisbon.').ascii(320, 'Lisbon.').ascii(400, 'Lisbon.');
      for (let i = 0; i < 6; i++) t.bytes.writeDoubleLE(38.71 + i, 340 + i * 8);
      for (let i = 0; i < 64; i++) t.bytes[pixelsAt + i] = i * 4;
      const { out } = await served(t.bytes);
      expect(has(out, 'Lisbon')).to.equal(false);
      expect(out.subarray(340, 388).every((b) => b === 0)).to.equal(true);
      expect((await sharp(out).raw().toBuffer()).equals(await sharp(t.bytes).raw().toBuffer())).to.equal(true);
    });

    it('should zero the whole file of a BigTIFF, or of a TIFF whose IFDs overlap', async () => {
      const big = Buffer.from(tiffWithGps(true));
      big.writeUInt16LE(43, 2);
      expect(zeroedWhole((await served(big)).out)).to.equal(true);
      const t = new TiffLayout(200);
      t.ifd(8, [[0x8769, 4, 1, 14]]);
      expect(zeroedWhole((await served(t.bytes)).out)).to.equal(true);
    });
  });

  describe('GIF', () => {
    it('should blank comments and XMP, keep the animation’s loop, and every frame', async () => {
      const frames = await Promise.all(
        [0, 1, 2].map((i) =>
          sharp({ create: { width: 20, height: 10, channels: 3, background: { r: i * 100, g: 40, b: 90 } } })
            .png()
            .toBuffer(),
        ),
      );
      const gif = await sharp(frames, { join: { animated: true } })
        .gif({ loop: 0 })
        .toBuffer();
      const comment = Buffer.concat([latin1('\x21\xfe\x0fSunset, Lisbon.'), Buffer.from([0])]);
      const xmp = Buffer.concat([latin1('\x21\xff\x0bXMP DataXMP'), subBlocks(latin1(XMP))]);
      const at = gif.indexOf(Buffer.from([0x21, 0xf9])); // before the first frame's graphic control
      const original = Buffer.concat([gif.subarray(0, at), comment, xmp, gif.subarray(at)]);
      const { out } = await served(original);
      expect(has(out, 'Lisbon') || has(out, 'XMP DataXMP')).to.equal(false);
      expect(has(out, 'NETSCAPE2.0')).to.equal(true);
      expect(changedOffsets(original, out).every((i) => i >= at && i < at + comment.length + xmp.length)).to.equal(true);
      expect(await sameDecoded(out, original)).to.equal(true);
      expect((await sharp(out).metadata()).pages).to.equal(3);
    });
  });

  describe('HEIF', () => {
    const iphone = () => fs.readFileSync(path.join(import.meta.dirname, '../fixtures/heic/IMG_5195.HEIC'));

    it('should blank an iPhone’s XMP item and its GPS, keep its camera and every box in its place', async () => {
      const original = iphone();
      const { out } = await served(original);
      expect((await gpsOfImage(out)).tags.size).to.equal(0);
      expect(text(exifEntries((await sharp(out).metadata()).exif!).get(0x010f))).to.equal('Apple');
      expect((await sharp(out).metadata()).xmp?.toString('latin1')).to.match(/^<\?xpacket begin="".*<\?xpacket end="w"\?>$/s);
      expect(boxesIn(out).map((b) => [b.type, b.at])).to.deep.equal(boxesIn(original).map((b) => [b.type, b.at]));
    });

    it('should zero the bytes of its media data no item points to', async () => {
      const avif = await gradient('avif', LISBON_EXIF);
      const mdat = boxesIn(avif).at(-1)!;
      expect(mdat.type).to.equal('mdat');
      // A leftover at the end of mdat (its size grown to hold it): no item's extent reaches it.
      const original = Buffer.concat([avif, Buffer.from('GPS 38.7104 N Lisbon', 'latin1')]);
      original.writeUInt32BE(original.length - mdat.at, mdat.at);
      const { out } = await served(original);
      expect(has(out, 'Lisbon')).to.equal(false);
      expect(out.subarray(avif.length).every((b) => b === 0)).to.equal(true);
      expect(await sameDecoded(out, original)).to.equal(true);
    });

    it('should zero the whole file when its item locations cannot be followed', async () => {
      const original = iphone();
      const iloc = original.indexOf('iloc', 0, 'latin1');
      original.writeUInt8(7, iloc + 4); // an iloc version no reader knows
      expect(zeroedWhole((await served(original)).out)).to.equal(true);
    });
  });
});

/** GIF sub-blocks holding `data`: at most 255 bytes each, then the zero terminator. */
function subBlocks(data: Buffer): Buffer {
  const parts: Buffer[] = [];
  for (let at = 0; at < data.length; at += 255) {
    const piece = data.subarray(at, at + 255);
    parts.push(Buffer.from([piece.length]), piece);
  }
  return Buffer.concat([...parts, Buffer.from([0])]);
}
