/**
 * A HEIF photo's items (HEIC from phones, AVIF) served without a place
 * (docs/api.md#location-privacy). The `meta` box (read whole: a few KB in a phone's photo, at
 * most MAX_META_BYTES) says what each item is (`iinf`) and where its bytes lie (`iloc`: in
 * `mdat`, or in the `idat` of `meta`, in one or more extents). Items by type:
 * - pictures (`hvc1`, `av01`, `grid`, `iden`, `iovl`, `tmap`, …) are kept; a `jpeg` item is
 *   walked as a JPEG whose application segments, but the picture's own, are zeroed;
 * - `Exif`: the TIFF policy (tiff-policy.ts) over its bytes, or zeroed when it cannot be walked;
 * - `mime` XMP (`application/rdf+xml`): blanked as an empty packet;
 * - every other item (other `mime` types, `uri `, unknown types): its bytes zeroed.
 * Bytes of `mdat` no item points to (leftovers of an edit) are zeroed (iso-location.ts).
 * Item properties are kept (codec configuration, size, colour, rotation), but a user
 * description (`udes`) or a `uuid` property, which become `free`; other boxes of `meta` not
 * needed to show the picture become `free`.
 *
 * A `meta` that cannot be walked, or item locations that cannot be followed, throw
 * Unreadable: the file is then zeroed whole (location-patches.ts). Renaming `meta` would
 * leave the Exif item's bytes in `mdat`, where a lenient reader or a file carver still finds
 * them; and the picture could not be shown anyway without its `meta`.
 */
import { type ByteSource, sliceSource } from '../byte-source.js';
import { type BytePatch, bytesPatch, fillPatch, shiftPatches, zeroPatch } from './byte-patches.js';
import { asFree, childrenIn, handlerType, type IsoBox, zeroBody } from './iso-boxes.js';
import { isJpegStart, walkJpegImage, zeroApps } from './jpeg-segments.js';
import { tiffPatches } from './tiff-policy.js';
import { type Budget, cannotWalk, Unreadable } from './walk.js';
import { blankXmp } from './xmp-blank.js';

const MAX_META_BYTES = 64 * 1024 * 1024;
/** An Exif or XMP item read whole, at most; a larger one is zeroed unread. */
const MAX_ITEM_BYTES = 16 * 1024 * 1024;
const PICTURES = new Set(['hvc1', 'hev1', 'av01', 'avc1', 'vvc1', 'j2k1', 'unci', 'mski', 'grid', 'iden', 'iovl', 'tmap', 'hvt1', 'lhv1', 'jpeg']);
const META_KEPT = new Set(['hdlr', 'pitm', 'dinf', 'iref', 'grpl', 'idat', 'iinf', 'iloc', 'iprp']);
const PROPERTIES_DROPPED = new Set(['udes', 'uuid', 'xml ', 'bxml']);
const XMP_TYPE = 'application/rdf+xml';

export interface Extent {
  /** Offset in the file. */
  readonly at: number;
  readonly length: number;
}

interface Item {
  readonly type: string;
  /** A `mime` item's content type. */
  readonly contentType?: string;
}

/** Whether a top-level `meta` (read from `source`) is a HEIF image's: its handler is `pict`. */
export async function isPictureMeta(source: ByteSource, meta: IsoBox): Promise<boolean> {
  const head = await source.read(meta.bodyAt, 24);
  return head.toString('latin1', 8, 12) === 'hdlr' && handlerType(head, 12) === 'pict';
}

export interface HeifPatches {
  /** Offsets in the file. */
  readonly patches: BytePatch[];
  /** Where every item's bytes lie in the file; undefined when one runs to the end of its data (length 0). */
  readonly items: readonly Extent[] | undefined;
}

/** The patches of a HEIF image's `meta` box and of its items' bytes. */
export async function heifPatches(source: ByteSource, meta: IsoBox, budget: Budget): Promise<HeifPatches> {
  if (meta.end - meta.bodyAt > MAX_META_BYTES) throw new Unreadable('a meta box too large');
  const body = await source.read(meta.bodyAt, meta.end - meta.bodyAt);
  // A full box: version and flags first.
  const boxes = childrenIn(body, 4, body.length, budget);
  const patches: BytePatch[] = [];
  for (const box of boxes) {
    if (box.type === 'iprp') patches.push(...propertyPatches(body, box, budget));
    else if (box.type === 'free' || box.type === 'skip') patches.push(...zeroBody(box));
    else if (!META_KEPT.has(box.type)) patches.push(...asFree(box));
  }
  const iinf = boxes.find((b) => b.type === 'iinf');
  const iloc = boxes.find((b) => b.type === 'iloc');
  const idat = boxes.find((b) => b.type === 'idat');
  const items = iinf ? itemTypes(body, iinf, budget) : new Map<number, Item>();
  const locations = iloc ? itemLocations(body, iloc, idat && meta.bodyAt + idat.bodyAt, budget) : new Map<number, Extent[]>();
  const inFile = shiftPatches(patches, meta.bodyAt);
  let all: Extent[] | undefined = [];
  for (const [id, extents] of locations) {
    if (extents.some((e) => e.length === 0)) all = undefined;
    else all?.push(...extents);
    budget.hold(inFile);
    const item = items.get(id) ?? { type: '' };
    if (PICTURES.has(item.type) && item.type !== 'jpeg') continue;
    // Length 0: "to the end of the data", which a picture may use and metadata never does.
    if (extents.some((e) => e.length === 0)) throw new Unreadable('an open-ended extent');
    inFile.push(...(await itemPatches(source, item, extents, budget)));
  }
  return { patches: inFile, items: all };
}

/** What to overwrite in one item's bytes, as offsets in the file. */
async function itemPatches(source: ByteSource, item: Item, extents: readonly Extent[], budget: Budget): Promise<BytePatch[]> {
  const zeroAll = () => extents.map((e) => zeroPatch(e.at, e.length));
  const total = extents.reduce((sum, e) => sum + e.length, 0);
  const isXmp = item.type === 'mime' && item.contentType === XMP_TYPE;
  if (!['Exif', 'jpeg'].includes(item.type) && !isXmp) return zeroAll();
  if (isXmp) return blankXmp(0, total).flatMap((p) => toFile(p, extents));
  if (item.type === 'Exif' && total > MAX_ITEM_BYTES) return zeroAll();
  const bytes = extentsSource(source, extents);
  try {
    if (item.type === 'jpeg') {
      if (!isJpegStart(await bytes.read(0, 3))) return [];
      return (await walkJpegImage(bytes, 0, budget, zeroApps)).patches.flatMap((p) => toFile(p, extents));
    }
    // ExifDataBlock: where the TIFF header starts, after these 4 bytes.
    const head = await bytes.read(0, 4);
    if (head.length < 4) return zeroAll();
    const tiffAt = 4 + head.readUInt32BE(0);
    const found = await tiffPatches(sliceSource(bytes, tiffAt, total), budget);
    return shiftPatches(found, tiffAt).flatMap((p) => toFile(p, extents));
  } catch (err) {
    if (!cannotWalk(err)) throw err;
    return item.type === 'jpeg' ? [] : zeroAll();
  }
}

/** The item's extents, one after the other, as one source. */
function extentsSource(source: ByteSource, extents: readonly Extent[]): ByteSource {
  const size = extents.reduce((sum, e) => sum + e.length, 0);
  return {
    size,
    async read(at, length) {
      const parts: Buffer[] = [];
      let itemAt = 0;
      for (const e of extents) {
        const from = Math.max(at, itemAt);
        const to = Math.min(at + length, itemAt + e.length);
        if (from < to) parts.push(await source.read(e.at + (from - itemAt), to - from));
        itemAt += e.length;
      }
      return Buffer.concat(parts);
    },
  };
}

/** A patch at an offset in the item's bytes, split over the extents those bytes come from. */
function toFile(patch: BytePatch, extents: readonly Extent[]): BytePatch[] {
  const out: BytePatch[] = [];
  let itemAt = 0;
  for (const e of extents) {
    const from = Math.max(patch.at, itemAt);
    const to = Math.min(patch.at + patch.length, itemAt + e.length);
    if (from < to) {
      const at = e.at + (from - itemAt);
      out.push(patch.bytes ? bytesPatch(at, patch.bytes.subarray(from - patch.at, to - patch.at)) : fillPatch(at, to - from, patch.fill ?? 0));
    }
    itemAt += e.length;
  }
  return out;
}

/** Item properties (`iprp/ipco`): kept, but user descriptions and opaque boxes, which become `free` (their place in ipco's order stays). */
function propertyPatches(body: Buffer, iprp: IsoBox, budget: Budget): BytePatch[] {
  const patches: BytePatch[] = [];
  for (const box of childrenIn(body, iprp.bodyAt, iprp.end, budget)) {
    if (box.type !== 'ipco') continue;
    for (const property of childrenIn(body, box.bodyAt, box.end, budget)) if (PROPERTIES_DROPPED.has(property.type)) patches.push(...asFree(property));
  }
  return patches;
}

/** The items of the item information box (`iinf`), by ID. */
function itemTypes(body: Buffer, iinf: IsoBox, budget: Budget): Map<number, Item> {
  const version = body.readUInt8(iinf.bodyAt);
  const entriesAt = iinf.bodyAt + 4 + (version === 0 ? 2 : 4);
  const found = new Map<number, Item>();
  for (const infe of childrenIn(body, entriesAt, iinf.end, budget)) {
    if (infe.type !== 'infe') continue;
    const infeVersion = body.readUInt8(infe.bodyAt);
    let at = infe.bodyAt + 4;
    const id = infeVersion < 3 ? body.readUInt16BE(at) : body.readUInt32BE(at);
    at += (infeVersion < 3 ? 2 : 4) + 2; // protection index
    const text = (from: number) => {
      const end = body.indexOf(0, from);
      return end < 0 || end >= infe.end ? undefined : { value: body.toString('latin1', from, end), next: end + 1 };
    };
    if (infeVersion < 2) {
      // Versions 0 and 1: item name, content type; no item type.
      const name = text(at);
      found.set(id, { type: 'mime', contentType: name && text(name.next)?.value });
      continue;
    }
    budget.hold(found);
    const type = body.toString('latin1', at, at + 4);
    const name = type === 'mime' ? text(at + 4) : undefined;
    found.set(id, { type, contentType: name && text(name.next)?.value });
  }
  return found;
}

/**
 * Where each item's bytes are, from the item location box (`iloc`): extents in the file
 * (construction method 0) or in the `meta` box's `idat` (method 1, `idatAt` its body in the
 * file). An item built from other items (method 2) has no bytes of its own.
 */
function itemLocations(body: Buffer, iloc: IsoBox, idatAt: number | undefined, budget: Budget): Map<number, Extent[]> {
  let at = iloc.bodyAt;
  const read = (bytes: number): number => {
    if (at + bytes > iloc.end) throw new Unreadable('iloc cut short');
    const value =
      bytes === 0 ? 0 : bytes === 2 ? body.readUInt16BE(at) : bytes === 4 ? body.readUInt32BE(at) : bytes === 8 ? Number(body.readBigUInt64BE(at)) : NaN;
    if (!Number.isSafeInteger(value)) throw new Unreadable(`iloc field of ${bytes} bytes`);
    at += bytes;
    return value;
  };
  const version = read(4) >>> 24;
  if (version > 2) throw new Unreadable(`iloc version ${version}`);
  const sizes = read(2);
  const [offsetSize, lengthSize, baseOffsetSize] = [sizes >> 12, (sizes >> 8) & 15, (sizes >> 4) & 15];
  const indexSize = version === 0 ? 0 : sizes & 15;
  const count = read(version < 2 ? 2 : 4);
  const found = new Map<number, Extent[]>();
  for (let i = 0; i < count; i++) {
    budget.step();
    const id = read(version < 2 ? 2 : 4);
    const method = version === 0 ? 0 : read(2) & 15;
    read(2); // data reference index
    const base = read(baseOffsetSize);
    const extentCount = read(2);
    budget.step(extentCount);
    const extents: Extent[] = [];
    for (let e = 0; e < extentCount; e++) {
      read(indexSize);
      const offset = read(offsetSize);
      extents.push({ at: base + offset, length: read(lengthSize) });
    }
    if (method === 2) continue;
    if (method === 1 && idatAt === undefined) throw new Unreadable('an item in an idat that is not there');
    budget.hold(found);
    found.set(
      id,
      extents.map((e) => (method === 1 ? { at: (idatAt ?? 0) + e.at, length: e.length } : e)),
    );
  }
  return found;
}
