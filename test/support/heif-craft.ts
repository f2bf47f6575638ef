/**
 * HEIF files assembled box by box from real HEVC-coded images: a grid item whose tiles are
 * coded images taken from a fixture, each used as often as the grid asks. Grids are how
 * phones store every photo (an iPhone's is 512 px tiles), and they are where a file can lie:
 * the size the grid declares, the number of tiles and the tiles' own size are three facts.
 *
 * The tiles come from `tile-64.heic` (one 64 x 64 image, made for these tests with libheif's
 * heif-enc from a JPEG drawn with sharp) or, with `phoneTiles()`, from the iPhone photo
 * IMG_5195.HEIC (its 42 tiles of 512 x 512, which a grid of 12 x 8 uses over again to make a
 * 24 MP photo that costs libheif what a 24 MP iPhone photo does).
 *
 * - `heifGrid({ rows: 16, columns: 16 })`: 256 tiles, 257 items: more than libvips reads in a
 *   HEIF header ("corrupt header"), while libheif decodes the photo in a tenth of a second.
 * - `heifGrid({ rows: 4, columns: 4, declared: 4032 x 3024, tileDeclared: 8192 x 8192 })`: the
 *   bomb of issue 25, a file of 1.5 KB whose grid declares a 12 MP photo made of sixteen tiles
 *   of 67 MP (1.07 gigapixels to decode).
 */
import fs from 'node:fs';
import path from 'node:path';

const FIXTURES = path.join(import.meta.dirname, '..', 'fixtures', 'heic');
/** The one image of tile-64.heic: 64 x 64. */
export const TILE = Object.freeze({ width: 64, height: 64 });

/** Coded images of one size sharing one decoder set-up (`hvcC`), to lay out as tiles. */
export interface TileSource {
  readonly hvcC: Buffer;
  readonly coded: readonly Buffer[];
  readonly width: number;
  readonly height: number;
}

export interface GridSpec {
  readonly rows: number;
  readonly columns: number;
  /** The size the grid declares (its descriptor and its `ispe`); default: rows and columns of whole tiles. */
  readonly declared?: Size;
  /** The size each tile's `ispe` declares; default the coded images' own. */
  readonly tileDeclared?: Size;
  /** Default: the one image of tile-64.heic. */
  readonly tiles?: TileSource;
  /** The first coded image used (tiles go round the source's images from there): files of different bytes from one source. */
  readonly firstTile?: number;
}

interface Size {
  readonly width: number;
  readonly height: number;
}

/** The bytes of a HEIC whose primary image is a grid of `rows` x `columns` tiles, each the fixture's coded image. */
export function heifGrid({ rows, columns, declared, tiles: source = smallTile(), tileDeclared = source, firstTile = 0 }: GridSpec): Buffer {
  const { hvcC, coded } = source;
  const width = declared?.width ?? columns * tileDeclared.width;
  const height = declared?.height ?? rows * tileDeclared.height;
  const tiles = rows * columns;
  // Item 1 is the grid; tiles are items 2 and up, each its own item (libheif refuses a grid
  // that names one item twice), all located at the same coded bytes.
  const GRID_ID = 1;
  const tileIds = Array.from({ length: tiles }, (_, i) => i + 2);
  const codedAt = coded.map((_, i) => coded.slice(0, i).reduce((sum, c) => sum + c.length, 0));
  const large = width > 0xffff || height > 0xffff;
  const descriptor = Buffer.concat([Buffer.from([0, large ? 1 : 0, rows - 1, columns - 1]), large ? u32(width, height) : u16(width, height)]);

  const hdlr = fullBox('hdlr', 0, 0, Buffer.concat([u32(0), Buffer.from('pict'), Buffer.alloc(12), Buffer.from([0])]));
  const pitm = fullBox('pitm', 0, 0, u16(GRID_ID));
  // Flags 1 on the tiles: hidden items, as phones mark theirs.
  const infe = (id: number, type: string, flags: number) =>
    fullBox('infe', 2, flags, Buffer.concat([u16(id, 0), Buffer.from(type, 'latin1'), Buffer.from([0])]));
  const iinf = fullBox('iinf', 0, 0, Buffer.concat([u16(1 + tiles), infe(GRID_ID, 'grid', 0), ...tileIds.map((id) => infe(id, 'hvc1', 1))]));
  const iref = fullBox('iref', 0, 0, box('dimg', Buffer.concat([u16(GRID_ID, tiles), u16(...tileIds)])));
  const ispe = (w: number, h: number) => fullBox('ispe', 0, 0, u32(w, h));
  const ipco = box('ipco', Buffer.concat([hvcC, ispe(tileDeclared.width, tileDeclared.height), ispe(width, height)]));
  // Property indices are 1-based; the high bit marks an essential one.
  const ipma = fullBox(
    'ipma',
    0,
    0,
    Buffer.concat([u32(1 + tiles), u16(GRID_ID), Buffer.from([1, 3]), ...tileIds.map((id) => Buffer.concat([u16(id), Buffer.from([2, 0x81, 2])]))]),
  );
  const iprp = box('iprp', Buffer.concat([ipco, ipma]));
  const idat = box('idat', descriptor);

  // iloc version 1: 4-byte offsets and lengths, no base offset; the grid descriptor in idat
  // (construction method 1), the tiles in mdat (method 0), whose offset is known once the meta box is.
  const iloc = (mdatBodyAt: number) =>
    fullBox(
      'iloc',
      1,
      0,
      Buffer.concat([
        Buffer.from([0x44, 0x00]),
        u16(1 + tiles),
        u16(GRID_ID, 1, 0, 1),
        u32(0, descriptor.length),
        ...tileIds.map((id, i) => {
          const which = (firstTile + i) % coded.length;
          return Buffer.concat([u16(id, 0, 0, 1), u32(mdatBodyAt + codedAt[which]!, coded[which]!.length)]);
        }),
      ]),
    );
  const ftyp = box('ftyp', Buffer.concat([Buffer.from('heic'), u32(0), Buffer.from('mif1heic')]));
  const metaOf = (mdatBodyAt: number) => fullBox('meta', 0, 0, Buffer.concat([hdlr, pitm, iinf, iref, iprp, idat, iloc(mdatBodyAt)]));
  const mdatBodyAt = ftyp.length + metaOf(0).length + 8;
  return Buffer.concat([ftyp, metaOf(mdatBodyAt), box('mdat', Buffer.concat(coded))]);
}

export function writeHeifGrid(file: string, spec: GridSpec): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, heifGrid(spec));
}

/** The one 64 x 64 image of tile-64.heic. */
export function smallTile(): TileSource {
  const { hvcC, extents } = itemsOf(fs.readFileSync(path.join(FIXTURES, 'tile-64.heic')));
  const coded = extents.get(1);
  if (!coded) throw new Error('tile-64.heic has no item 1');
  return { hvcC, coded: [coded], ...TILE };
}

/** The 42 tiles (512 x 512) of the iPhone photo IMG_5195.HEIC, items 1 to 42 of its grid. */
export function phoneTiles(): TileSource {
  const { hvcC, extents } = itemsOf(fs.readFileSync(path.join(FIXTURES, 'IMG_5195.HEIC')));
  const coded = Array.from({ length: 42 }, (_, i) => extents.get(i + 1)).filter((c): c is Buffer => c !== undefined);
  if (coded.length !== 42) throw new Error('IMG_5195.HEIC is not the file heif-craft.ts was written for');
  return { hvcC, coded, width: 512, height: 512 };
}

/**
 * The first `hvcC` box of a HEIF file and the bytes of each item in one extent in the file,
 * by item ID, from its `iloc` (versions 0 and 1, as heif-enc and iPhones write it).
 */
function itemsOf(file: Buffer): { hvcC: Buffer; extents: Map<number, Buffer> } {
  const hvcCAt = file.indexOf('hvcC', 0, 'latin1') - 4;
  const ilocAt = file.indexOf('iloc', 0, 'latin1') - 4;
  if (hvcCAt < 0 || ilocAt < 0) throw new Error('no hvcC or iloc box');
  const hvcC = file.subarray(hvcCAt, hvcCAt + file.readUInt32BE(hvcCAt));
  let at = ilocAt + 8;
  const read = (bytes: number) => {
    const value = bytes === 0 ? 0 : bytes === 2 ? file.readUInt16BE(at) : file.readUInt32BE(at);
    at += bytes;
    return value;
  };
  const version = read(4) >>> 24;
  const sizes = read(2);
  const [offsetSize, lengthSize, baseSize] = [sizes >> 12, (sizes >> 8) & 15, (sizes >> 4) & 15];
  const indexSize = version === 1 ? sizes & 15 : 0;
  const extents = new Map<number, Buffer>();
  for (let count = read(2), i = 0; i < count; i++) {
    const id = read(2);
    const method = version === 1 ? read(2) & 15 : 0;
    read(2); // data reference
    const base = read(baseSize);
    const parts = read(2);
    for (let e = 0; e < parts; e++) {
      read(indexSize);
      const offset = read(offsetSize);
      const length = read(lengthSize);
      if (parts === 1 && method === 0) extents.set(id, file.subarray(base + offset, base + offset + length));
    }
  }
  return { hvcC, extents };
}

function box(type: string, body: Buffer): Buffer {
  return Buffer.concat([u32(8 + body.length), Buffer.from(type, 'latin1'), body]);
}

function fullBox(type: string, version: number, flags: number, body: Buffer): Buffer {
  return box(type, Buffer.concat([u32(((version & 0xff) << 24) | (flags & 0xffffff)), body]));
}

function u16(...values: number[]): Buffer {
  const b = Buffer.alloc(2 * values.length);
  for (const [i, v] of values.entries()) b.writeUInt16BE(v, 2 * i);
  return b;
}

function u32(...values: number[]): Buffer {
  const b = Buffer.alloc(4 * values.length);
  for (const [i, v] of values.entries()) b.writeUInt32BE(v >>> 0, 4 * i);
  return b;
}
