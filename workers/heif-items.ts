/**
 * What a HEIF file (HEIC from phones, AVIF) is made of, read from its `meta` box alone and
 * within fixed bounds, without libvips or libheif: which image is the photo, how it is coded,
 * its size, its turn, where its EXIF lies, and how many pixels decoding it would make.
 *
 * Why our own reader: libvips reads a HEIF header through libheif with limits of its own (it
 * refuses a file of more than 256 items, which a 48 MP phone photo with its depth and gain
 * maps, or a long panorama, can have: "Input file has corrupt header"), so a photo libheif
 * decodes would have no size, no EXIF and no thumbnail. And what decoding costs is not the
 * size a file declares: a grid item says how big the photo is, its tiles say how big they
 * are, and each tile's HEVC set-up (`hvcC`) says what the decoder will make of it. A file of
 * a few KB can declare a 4032 x 3024 photo made of sixteen 8192 x 8192 tiles (1.07 gigapixels
 * to decode); every coded image the decoder would decode is counted here before any is.
 *
 * The boxes (ISO/IEC 14496-12 and 23008-12): `pitm` names the primary item; `iinf` gives each
 * item's type (`hvc1`, `av01`, `grid`, `iden`, `iovl`, `Exif`, `mime`); `iref` links items
 * (`dimg`: a derived image's inputs, `auxl`: an auxiliary image such as alpha, `cdsc`:
 * metadata describing an image); `iprp` gives their properties (`ispe` size, `irot` turn,
 * `imir` mirror, `hvcC`, `auxC`) through `ipma`; `iloc` says where each item's bytes are, in
 * the file or in the `meta` box's `idat`.
 */
import type { ByteSource } from '../server/core/media/byte-source.js';
import { type ChildAtom, childAtomsIn, readChildAtoms, walkTopLevelAtoms } from '../server/core/media/mp4-atoms.js';
import { hevcPictureSize } from './hevc-sps.js';

/** A phone's `meta` box is a few KB; a 48 MP grid photo with its auxiliary images some tens. */
const MAX_META_BYTES = 4 * 1024 * 1024;
/** Items read from `iinf`, references from `iref`, entries from `ipma` and `iloc`. */
const MAX_ITEMS = 16 * 1024;
const MAX_EXTENTS = 64;
/** Derived images of derived images followed: a grid of tiles, or a turn (`iden`) of a grid. */
const MAX_DERIVATION_DEPTH = 3;

/** A file that is not a HEIF we can read within the bounds: the reason says what. */
export class HeifLayoutError extends Error {}

/** A run of an item's bytes, as offsets in the file. */
export interface Extent {
  readonly at: number;
  readonly length: number;
}

export interface HeifLayout {
  /** The file type's major brand ('heic', 'mif1', 'avif'). */
  readonly brand: string;
  /** How the primary image's pixels are coded: HEVC (HEIC, which libvips cannot decode here), AV1 (AVIF), or another codec. */
  readonly coding: 'hevc' | 'av1' | 'other';
  /** The primary image's size as stored, before its turn (`ispe`). */
  readonly width: number;
  readonly height: number;
  /** Quarter turns the viewer applies (`irot`, counter-clockwise) and whether it mirrors (`imir`). */
  readonly turn: { readonly quarters: number; readonly mirrored: boolean };
  /** Pixels the decoder makes to show the primary image: every coded image it decodes (tiles, alpha), and every canvas it pastes them on. */
  readonly decodedPixels: number;
  /** Where the EXIF of the primary image lies (its 4-byte offset, then the TIFF block); absent when it has none. */
  readonly exif?: readonly Extent[];
}

/** The brands of the HEIF family (ISO/IEC 23008-12, AVIF, Apple's and Nokia's). */
const HEIF_BRANDS = new Set(['heic', 'heix', 'heim', 'heis', 'hevc', 'hevx', 'hevm', 'hevs', 'mif1', 'mif2', 'msf1', 'avif', 'avis', 'avio']);

/** Whether `head` (the first bytes of a file) is a HEIF's: an `ftyp` box whose major brand, or one of the first compatible ones, is of the family. */
export function isHeifHead(head: Buffer): boolean {
  if (head.length < 12 || head.toString('latin1', 4, 8) !== 'ftyp') return false;
  const size = Math.min(head.readUInt32BE(0), head.length);
  for (let at = 8; at + 4 <= size; at += at === 8 ? 8 : 4) if (HEIF_BRANDS.has(head.toString('latin1', at, at + 4))) return true;
  return false;
}

/** The layout of the HEIF file in `source`; HeifLayoutError when it cannot be read within the bounds. */
export async function readHeifLayout(source: ByteSource): Promise<HeifLayout> {
  const { atoms } = await walkTopLevelAtoms(source);
  const ftyp = atoms[0];
  if (ftyp?.type !== 'ftyp') throw new HeifLayoutError('no file type box first');
  const brand = (await source.read(ftyp.offset + 8, 4)).toString('latin1');
  const top = atoms.find((a) => a.type === 'meta');
  if (!top) throw new HeifLayoutError('no meta box');
  if (top.size > MAX_META_BYTES) throw new HeifLayoutError(`a meta box of ${top.size} bytes`);
  const body = await source.read(top.offset, top.size);
  if (body.length !== top.size) throw new HeifLayoutError('the meta box is cut short');
  const [meta] = await readChildAtoms(source, top.offset, top.offset + top.size, 1);
  if (!meta) throw new HeifLayoutError('no meta box');
  try {
    return layoutOf(new MetaBox(body, meta.bodyAt - top.offset, top.offset), brand, source);
  } catch (err) {
    // A read past a box's end in the bytes in hand: a box that says more than it holds.
    if (err instanceof RangeError) throw new HeifLayoutError(`a box cut short (${err.message})`);
    throw err;
  }
}

interface Item {
  readonly type: string;
  readonly contentType?: string;
}

/** The `meta` box's children, parsed into the tables the layout needs. */
class MetaBox {
  readonly items = new Map<number, Item>();
  /** References by type, from item to items, in order ('dimg' order is the tiles' order). */
  readonly refs = new Map<string, Map<number, number[]>>();
  readonly properties: ChildAtom[] = [];
  /** Each item's properties, as indices into `properties`. */
  readonly associations = new Map<number, number[]>();
  readonly locations = new Map<number, { method: number; extents: Extent[] }>();
  readonly primary: number;
  /** The `idat` box's body, as an offset in `body`. */
  readonly idatAt: number | undefined;

  constructor(
    readonly body: Buffer,
    bodyAt: number,
    /** Where `body` lies in the file. */
    readonly fileAt: number,
  ) {
    // meta is a full box: version and flags first.
    const boxes = childAtomsIn(body, bodyAt + 4, body.length, 64);
    const find = (type: string) => boxes.find((b) => b.type === type);
    const pitm = find('pitm');
    if (!pitm) throw new HeifLayoutError('no primary item');
    this.primary = body.readUInt8(pitm.bodyAt) === 0 ? body.readUInt16BE(pitm.bodyAt + 4) : body.readUInt32BE(pitm.bodyAt + 4);
    this.idatAt = find('idat')?.bodyAt;
    const iinf = find('iinf');
    const iloc = find('iloc');
    if (!iinf || !iloc) throw new HeifLayoutError('no item information or locations');
    this.readItems(iinf);
    this.readLocations(iloc);
    const iref = find('iref');
    if (iref) this.readReferences(iref);
    const iprp = find('iprp');
    const iprpBoxes = iprp ? childAtomsIn(body, iprp.bodyAt, iprp.end, 8) : [];
    const ipco = iprpBoxes.find((b) => b.type === 'ipco');
    if (ipco) this.properties.push(...childAtomsIn(body, ipco.bodyAt, ipco.end, MAX_ITEMS));
    for (const ipma of iprpBoxes.filter((b) => b.type === 'ipma')) this.readAssociations(ipma);
  }

  /** The first property of `type` associated with `item`. */
  property(item: number, type: string): ChildAtom | undefined {
    for (const index of this.associations.get(item) ?? []) {
      const box = this.properties[index - 1];
      if (box?.type === type) return box;
    }
    return undefined;
  }

  references(type: string, from: number): readonly number[] {
    return this.refs.get(type)?.get(from) ?? [];
  }

  private readItems(iinf: ChildAtom): void {
    const { body } = this;
    const entriesAt = iinf.bodyAt + 4 + (body.readUInt8(iinf.bodyAt) === 0 ? 2 : 4);
    for (const infe of childAtomsIn(body, entriesAt, iinf.end, MAX_ITEMS)) {
      const version = body.readUInt8(infe.bodyAt);
      // Versions 0 and 1 carry no item type: none of the images and metadata looked for here.
      if (infe.type !== 'infe' || version < 2) continue;
      let at = infe.bodyAt + 4;
      const id = version === 2 ? body.readUInt16BE(at) : body.readUInt32BE(at);
      at += (version === 2 ? 2 : 4) + 2; // protection index
      const type = body.toString('latin1', at, at + 4);
      let contentType: string | undefined;
      if (type === 'mime') {
        const nameEnd = body.indexOf(0, at + 4);
        const typeEnd = nameEnd < 0 ? -1 : body.indexOf(0, nameEnd + 1);
        if (typeEnd > 0 && typeEnd < infe.end) contentType = body.toString('latin1', nameEnd + 1, typeEnd);
      }
      this.items.set(id, contentType === undefined ? { type } : { type, contentType });
    }
  }

  private readReferences(iref: ChildAtom): void {
    const { body } = this;
    const wide = body.readUInt8(iref.bodyAt) !== 0;
    const id = (at: number) => (wide ? body.readUInt32BE(at) : body.readUInt16BE(at));
    const idBytes = wide ? 4 : 2;
    let total = 0;
    for (const ref of childAtomsIn(body, iref.bodyAt + 4, iref.end, MAX_ITEMS)) {
      const from = id(ref.bodyAt);
      const count = body.readUInt16BE(ref.bodyAt + idBytes);
      total += count;
      if (total > MAX_ITEMS) throw new HeifLayoutError('too many item references');
      if (ref.bodyAt + idBytes + 2 + count * idBytes > ref.end) throw new HeifLayoutError(`a ${ref.type} reference cut short`);
      const to = Array.from({ length: count }, (_, i) => id(ref.bodyAt + idBytes + 2 + i * idBytes));
      const byType = this.refs.get(ref.type) ?? new Map<number, number[]>();
      this.refs.set(ref.type, byType);
      byType.set(from, [...(byType.get(from) ?? []), ...to]);
    }
  }

  private readAssociations(ipma: ChildAtom): void {
    const { body } = this;
    const version = body.readUInt8(ipma.bodyAt);
    const wideIndex = (body.readUInt8(ipma.bodyAt + 3) & 1) === 1;
    let at = ipma.bodyAt + 4;
    const count = body.readUInt32BE(at);
    if (count > MAX_ITEMS) throw new HeifLayoutError('too many property associations');
    at += 4;
    for (let i = 0; i < count; i++) {
      const id = version < 1 ? body.readUInt16BE(at) : body.readUInt32BE(at);
      at += version < 1 ? 2 : 4;
      const n = body.readUInt8(at++);
      const indices: number[] = [];
      for (let j = 0; j < n; j++) {
        indices.push(wideIndex ? body.readUInt16BE(at) & 0x7fff : body.readUInt8(at) & 0x7f);
        at += wideIndex ? 2 : 1;
      }
      if (at > ipma.end) throw new HeifLayoutError('property associations cut short');
      this.associations.set(id, [...(this.associations.get(id) ?? []), ...indices]);
    }
  }

  private readLocations(iloc: ChildAtom): void {
    const { body } = this;
    let at = iloc.bodyAt;
    const read = (bytes: number): number => {
      if (at + bytes > iloc.end) throw new HeifLayoutError('item locations cut short');
      const value =
        bytes === 0 ? 0 : bytes === 2 ? body.readUInt16BE(at) : bytes === 4 ? body.readUInt32BE(at) : bytes === 8 ? Number(body.readBigUInt64BE(at)) : NaN;
      if (!Number.isSafeInteger(value)) throw new HeifLayoutError(`an item location field of ${bytes} bytes`);
      at += bytes;
      return value;
    };
    const version = read(4) >>> 24;
    if (version > 2) throw new HeifLayoutError(`item locations of version ${version}`);
    const sizes = read(2);
    const [offsetSize, lengthSize, baseSize] = [sizes >> 12, (sizes >> 8) & 15, (sizes >> 4) & 15];
    const indexSize = version === 0 ? 0 : sizes & 15;
    const count = read(version < 2 ? 2 : 4);
    if (count > MAX_ITEMS) throw new HeifLayoutError('too many item locations');
    for (let i = 0; i < count; i++) {
      const id = read(version < 2 ? 2 : 4);
      const method = version === 0 ? 0 : read(2) & 15;
      read(2); // data reference index
      const base = read(baseSize);
      const extentCount = read(2);
      if (extentCount > MAX_EXTENTS) throw new HeifLayoutError('an item in too many pieces');
      const extents: Extent[] = [];
      for (let e = 0; e < extentCount; e++) {
        read(indexSize);
        const offset = read(offsetSize);
        extents.push({ at: base + offset, length: read(lengthSize) });
      }
      this.locations.set(id, { method, extents });
    }
  }
}

async function layoutOf(meta: MetaBox, brand: string, source: ByteSource): Promise<HeifLayout> {
  const primary = meta.items.get(meta.primary);
  if (!primary) throw new HeifLayoutError(`the primary item ${meta.primary} is not listed`);
  const size = ispeOf(meta, meta.primary);
  if (!size) throw new HeifLayoutError('the primary image has no size');
  const irot = meta.property(meta.primary, 'irot');
  const quarters = irot ? meta.body.readUInt8(irot.bodyAt) & 3 : 0;
  const mirrored = meta.property(meta.primary, 'imir') !== undefined;

  const decoded = { pixels: 0, coding: new Set<string>() };
  await countDecode(meta, meta.primary, source, decoded, 0);
  // libheif decodes an alpha plane with its image: an auxiliary image of the primary whose type names alpha.
  for (const [id, to] of meta.refs.get('auxl') ?? []) {
    if (!to.includes(meta.primary)) continue;
    const auxC = meta.property(id, 'auxC');
    const auxType = auxC ? meta.body.toString('latin1', auxC.bodyAt + 4, Math.max(auxC.bodyAt + 4, meta.body.indexOf(0, auxC.bodyAt + 4))) : '';
    if (/alpha/i.test(auxType)) await countDecode(meta, id, source, decoded, 0);
  }
  const coding = decoded.coding.has('hvc1') ? 'hevc' : decoded.coding.has('av01') ? 'av1' : 'other';
  const exif = exifOf(meta);
  return { brand, coding, width: size.width, height: size.height, turn: { quarters, mirrored }, decodedPixels: decoded.pixels, ...(exif ? { exif } : {}) };
}

/** Adds to `decoded` the pixels decoding `id` makes, following derived images down to their coded ones. */
async function countDecode(meta: MetaBox, id: number, source: ByteSource, decoded: { pixels: number; coding: Set<string> }, depth: number): Promise<void> {
  const item = meta.items.get(id);
  if (!item) throw new HeifLayoutError(`item ${id} is not listed`);
  if (item.type === 'grid' || item.type === 'iovl' || item.type === 'iden') {
    if (depth >= MAX_DERIVATION_DEPTH) throw new HeifLayoutError('images derived too deep');
    const inputs = meta.references('dimg', id);
    if (inputs.length === 0) throw new HeifLayoutError(`the ${item.type} item ${id} has no input`);
    if (item.type === 'grid') {
      const grid = await gridOf(meta, id, source);
      if (inputs.length !== grid.rows * grid.columns) throw new HeifLayoutError(`a grid of ${grid.rows}x${grid.columns} tiles with ${inputs.length} tiles`);
      // Tiles are all of one size and cover the canvas, none lying wholly outside it (ISO/IEC 23008-12, 6.6.2.3).
      const tile = ispeOf(meta, inputs[0]!);
      if (!tile) throw new HeifLayoutError('a tile without a size');
      const fits = (count: number, tileSide: number, side: number) => (count - 1) * tileSide < side && side <= count * tileSide;
      if (!fits(grid.columns, tile.width, grid.width) || !fits(grid.rows, tile.height, grid.height)) {
        throw new HeifLayoutError(`a grid of ${grid.width}x${grid.height} made of ${grid.columns}x${grid.rows} tiles of ${tile.width}x${tile.height}`);
      }
      decoded.pixels += grid.width * grid.height;
    } else if (item.type === 'iovl') {
      const canvas = ispeOf(meta, id);
      if (!canvas) throw new HeifLayoutError('an overlay without a size');
      decoded.pixels += canvas.width * canvas.height;
    }
    for (const input of inputs) await countDecode(meta, input, source, decoded, depth + 1);
    return;
  }
  decoded.coding.add(item.type);
  const declared = ispeOf(meta, id);
  // What the decoder makes is what the coded picture says, whatever `ispe` declares.
  const hvcC = item.type === 'hvc1' ? meta.property(id, 'hvcC') : undefined;
  const coded = hvcC ? hevcPictureSize(meta.body.subarray(hvcC.bodyAt, hvcC.end)) : undefined;
  const width = Math.max(declared?.width ?? 0, coded?.width ?? 0);
  const height = Math.max(declared?.height ?? 0, coded?.height ?? 0);
  if (width === 0 || height === 0) throw new HeifLayoutError(`the ${item.type} image ${id} has no size`);
  decoded.pixels += width * height;
}

function ispeOf(meta: MetaBox, id: number): { width: number; height: number } | undefined {
  const ispe = meta.property(id, 'ispe');
  if (!ispe || ispe.end - ispe.bodyAt < 12) return undefined;
  return { width: meta.body.readUInt32BE(ispe.bodyAt + 4), height: meta.body.readUInt32BE(ispe.bodyAt + 8) };
}

/** A grid item's descriptor: its rows, columns and the canvas size (a few bytes, in `idat` or the file). */
async function gridOf(meta: MetaBox, id: number, source: ByteSource): Promise<{ rows: number; columns: number; width: number; height: number }> {
  const bytes = await itemBytes(meta, id, source, 12);
  if (bytes.length < 8) throw new HeifLayoutError(`grid ${id} has no descriptor`);
  const large = (bytes.readUInt8(1) & 1) === 1;
  if (large && bytes.length < 12) throw new HeifLayoutError(`grid ${id} has a descriptor cut short`);
  const rows = bytes.readUInt8(2) + 1;
  const columns = bytes.readUInt8(3) + 1;
  const [width, height] = large ? [bytes.readUInt32BE(4), bytes.readUInt32BE(8)] : [bytes.readUInt16BE(4), bytes.readUInt16BE(6)];
  return { rows, columns, width, height };
}

/** Up to `max` bytes of an item. */
async function itemBytes(meta: MetaBox, id: number, source: ByteSource, max: number): Promise<Buffer> {
  const location = meta.locations.get(id);
  if (!location) throw new HeifLayoutError(`item ${id} has no location`);
  const first = location.extents[0];
  if (!first) return Buffer.alloc(0);
  const length = Math.min(max, first.length === 0 ? max : first.length);
  if (location.method === 1) {
    if (meta.idatAt === undefined) throw new HeifLayoutError(`item ${id} is in an idat there is not`);
    return meta.body.subarray(meta.idatAt + first.at, meta.idatAt + first.at + length);
  }
  if (location.method !== 0) throw new HeifLayoutError(`item ${id} is built from other items`);
  return source.read(first.at, length);
}

/** The extents in the file of the Exif item describing the primary image (or of the only one). */
function exifOf(meta: MetaBox): Extent[] | undefined {
  const exifItems = [...meta.items].filter(([, item]) => item.type === 'Exif').map(([id]) => id);
  const describing = exifItems.find((id) => meta.references('cdsc', id).includes(meta.primary)) ?? (exifItems.length === 1 ? exifItems[0] : undefined);
  const location = describing === undefined ? undefined : meta.locations.get(describing);
  if (!location || location.extents.length === 0 || location.extents.some((e) => e.length === 0)) return undefined;
  if (location.method === 0) return location.extents;
  if (location.method === 1 && meta.idatAt !== undefined) {
    const idatInFile = meta.fileAt + meta.idatAt;
    return location.extents.map((e) => ({ at: idatInFile + e.at, length: e.length }));
  }
  return undefined;
}
