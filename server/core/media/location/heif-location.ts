/**
 * Location in a HEIF file: HEIC from phones, AVIF (docs/api.md#location-privacy). Its EXIF
 * is an item, `Exif`, whose bytes lie where the item location box says (`iloc`, usually in
 * `mdat`, possibly in the `idat` of the `meta` box, possibly in several extents): a 4-byte
 * offset to the TIFF header, then the TIFF block. XMP is a `mime` item of type
 * `application/rdf+xml`. Both are found through the top-level `meta` box, read whole (a few
 * KB in a phone's photo; at most MAX_META_BYTES), and each item's bytes are read from its
 * extents (at most MAX_ITEM_BYTES).
 *
 * An Exif item that cannot be walked safely is zeroed whole (the photo's rotation lives in
 * the container's `irot`/`imir`, not in EXIF, so it still shows upright). A `meta` box that
 * cannot be read within the bounds, or whose item locations cannot be followed, is turned
 * into a `free` box: the file is then no longer an image anyone can open, which only
 * crafted files come to, and it carries no location.
 */
import type { ByteSource } from '../byte-source.js';
import { bufferSource } from '../byte-source.js';
import { type ChildAtom, childAtomsIn, readChildAtoms, type TopLevelAtom } from '../mp4-atoms.js';
import { type BytePatch, bytesPatch, shiftPatches, zeroPatch } from './byte-patches.js';
import { tiffGpsPatches } from './tiff-gps.js';
import { xmpLocationPatches } from './xmp-location.js';

/** A phone's `meta` box is a few KB; a 48 MP grid photo's some tens. */
const MAX_META_BYTES = 4 * 1024 * 1024;
/** An Exif or XMP item is at most tens of KB. */
const MAX_ITEM_BYTES = 1024 * 1024;
/** Items and extents read from `iinf` and `iloc`: a grid photo has a few hundred items. */
const MAX_ITEMS = 16 * 1024;
const MAX_EXTENTS = 64;
const FREE = Buffer.from('free', 'latin1');
const XMP_TYPE = 'application/rdf+xml';

/** Raised inside this module when a box cannot be read as the format says. */
class Unreadable extends Error {}

interface Extent {
  /** Offset in the file. */
  readonly at: number;
  readonly length: number;
}

export async function heifLocationPatches(file: ByteSource, atoms: readonly TopLevelAtom[]): Promise<BytePatch[]> {
  const top = atoms.find((a) => a.type === 'meta');
  if (!top) return [];
  const [meta] = await readChildAtoms(file, top.offset, top.offset + top.size, 1);
  if (!meta) return [];
  const asFree = [bytesPatch(meta.at + 4, FREE)];
  if (meta.end - meta.bodyAt > MAX_META_BYTES) return asFree;
  try {
    const body = await file.read(meta.bodyAt, meta.end - meta.bodyAt);
    // meta is a full box: version and flags first.
    const boxes = childAtomsIn(body, 4, body.length);
    const iinf = boxes.find((b) => b.type === 'iinf');
    const iloc = boxes.find((b) => b.type === 'iloc');
    if (!iinf || !iloc) return [];
    const idat = boxes.find((b) => b.type === 'idat');
    const wanted = itemsToBlank(body, iinf);
    if (wanted.size === 0) return [];
    const locations = itemLocations(body, iloc, wanted, idat && meta.bodyAt + idat.bodyAt);
    const patches: BytePatch[] = [];
    for (const [id, kind] of wanted) {
      const extents = locations.get(id);
      if (!extents) continue;
      patches.push(...(await itemPatches(file, extents, kind)));
    }
    return patches;
  } catch (err) {
    if (err instanceof Unreadable || err instanceof RangeError) return asFree;
    throw err;
  }
}

/** What to blank in one item, as offsets in the file. */
async function itemPatches(file: ByteSource, extents: readonly Extent[], kind: 'exif' | 'xmp'): Promise<BytePatch[]> {
  const total = extents.reduce((sum, e) => sum + e.length, 0);
  if (total > MAX_ITEM_BYTES) throw new Unreadable('item too large');
  const parts = await Promise.all(extents.map((e) => file.read(e.at, e.length)));
  const zeroAll = () => extents.map((e) => zeroPatch(e.at, e.length));
  // An item cut short by the end of the file: no reader gets it whole, and its offsets would not line up.
  if (parts.some((part, i) => part.length !== extents[i]!.length)) return zeroAll();
  const bytes = Buffer.concat(parts);
  let found: readonly BytePatch[];
  if (kind === 'xmp') found = xmpLocationPatches(bytes);
  else {
    // ExifDataBlock: where the TIFF header starts, after these 4 bytes.
    if (bytes.length < 4) return [];
    const tiffAt = 4 + bytes.readUInt32BE(0);
    if (tiffAt >= bytes.length) return zeroAll();
    const gps = await tiffGpsPatches(bufferSource(bytes.subarray(tiffAt)));
    if (gps.unsafe) return zeroAll();
    found = shiftPatches(gps.patches, tiffAt);
  }
  return found.flatMap((p) => toFile(p, extents));
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
      out.push(patch.bytes ? bytesPatch(at, patch.bytes.subarray(from - patch.at, to - patch.at)) : zeroPatch(at, to - from));
    }
    itemAt += e.length;
  }
  return out;
}

/** The Exif and XMP items of the item information box (`iinf`), by item ID. */
function itemsToBlank(body: Buffer, iinf: ChildAtom): Map<number, 'exif' | 'xmp'> {
  const version = body.readUInt8(iinf.bodyAt);
  const entriesAt = iinf.bodyAt + 4 + (version === 0 ? 2 : 4);
  const found = new Map<number, 'exif' | 'xmp'>();
  for (const infe of childAtomsIn(body, entriesAt, iinf.end, MAX_ITEMS)) {
    if (infe.type !== 'infe' || infe.end - infe.bodyAt < 12) continue;
    const infeVersion = body.readUInt8(infe.bodyAt);
    // Versions 0 and 1 carry no item type, so no Exif item.
    if (infeVersion < 2) continue;
    let at = infe.bodyAt + 4;
    const id = infeVersion === 2 ? body.readUInt16BE(at) : body.readUInt32BE(at);
    at += (infeVersion === 2 ? 2 : 4) + 2; // protection index
    const type = body.toString('latin1', at, at + 4);
    if (type === 'Exif') found.set(id, 'exif');
    else if (type === 'mime') {
      // item_name then content_type, each NUL-terminated.
      const nameEnd = body.indexOf(0, at + 4);
      const typeEnd = nameEnd < 0 ? -1 : body.indexOf(0, nameEnd + 1);
      if (typeEnd > 0 && typeEnd < infe.end && body.toString('latin1', nameEnd + 1, typeEnd) === XMP_TYPE) found.set(id, 'xmp');
    }
  }
  return found;
}

/**
 * Where the wanted items' bytes are, from the item location box (`iloc`): extents in the
 * file (construction method 0) or in the `meta` box's `idat` (method 1, `idatAt` its body
 * in the file). An item built from other items (method 2) is not followed: Unreadable.
 */
function itemLocations(body: Buffer, iloc: ChildAtom, wanted: ReadonlyMap<number, unknown>, idatAt: number | undefined): Map<number, Extent[]> {
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
  const offsetSize = sizes >> 12;
  const lengthSize = (sizes >> 8) & 15;
  const baseOffsetSize = (sizes >> 4) & 15;
  const indexSize = version === 0 ? 0 : sizes & 15;
  const count = read(version < 2 ? 2 : 4);
  if (count > MAX_ITEMS) throw new Unreadable('too many items');
  const found = new Map<number, Extent[]>();
  for (let i = 0; i < count; i++) {
    const id = read(version < 2 ? 2 : 4);
    const method = version === 0 ? 0 : read(2) & 15;
    read(2); // data reference index
    const base = read(baseOffsetSize);
    const extentCount = read(2);
    if (extentCount > MAX_EXTENTS) throw new Unreadable('too many extents');
    const extents: Extent[] = [];
    for (let e = 0; e < extentCount; e++) {
      read(indexSize);
      const offset = read(offsetSize);
      const length = read(lengthSize);
      extents.push({ at: base + offset, length });
    }
    if (!wanted.has(id)) continue;
    if (method === 2 || (method === 1 && idatAt === undefined)) throw new Unreadable('item not located in the file');
    // Length 0: "to the end of the data", which an item of metadata never needs.
    if (extents.some((e) => e.length === 0)) throw new Unreadable('open-ended extent');
    found.set(
      id,
      extents.map((e) => (method === 1 ? { at: (idatAt ?? 0) + e.at, length: e.length } : e)),
    );
  }
  return found;
}
