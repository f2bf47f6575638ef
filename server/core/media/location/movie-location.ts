/**
 * Location in a QuickTime or MP4 movie (docs/api.md#location-privacy). Phones and ffmpeg
 * write it in a few places, all inside `moov`:
 * - `moov/udta/©xyz`: an ISO 6709 string (`+48.8577+002.2950/`) in QuickTime's text form
 *   (length, language, text), as ffmpeg writes `-metadata location=` into a MOV and Android
 *   phones write it into an MP4;
 * - `moov/udta/loci`: the 3GPP location box (binary coordinates), as ffmpeg writes it into an MP4;
 * - the metadata atom `meta` (in `moov`, where iPhones put it, or in `moov/udta`): keys such
 *   as `com.apple.quicktime.location.ISO6709` (handler `mdta`), or an iTunes-style `©xyz`
 *   item (handler `mdir`), each value in a `data` atom.
 * Text values are overwritten with spaces of the same length (readers then find no position
 * in them), binary ones with zeros; `loci` becomes a `free` atom (which every reader skips)
 * with a zeroed body, since its zero coordinates would still read as a place.
 *
 * Only headers are read, and metadata atoms of at most MAX_META_BYTES (a handful of keys),
 * as in workers/content-id.ts; a `udta` or `meta` larger than that is not read: it becomes a
 * `free` atom with a zeroed body, so the movie still plays and its metadata is simply gone.
 */
import type { ByteSource } from '../byte-source.js';
import { type ChildAtom, childAtomsIn, readChildAtoms, type TopLevelAtom } from '../mp4-atoms.js';
import { type BytePatch, bytesPatch, shiftPatches, zeroPatch } from './byte-patches.js';

/** A metadata atom holds a handful of keys; one larger than this is blanked without being read. */
const MAX_META_BYTES = 256 * 1024;
/** Keys of one `keys` atom, and strings of one text item, read at most. */
const MAX_KEYS = 256;
/** Metadata keys that hold a place: Apple's `com.apple.quicktime.location.*`, ffmpeg's `location`. */
const LOCATION_KEY = /location|iso6709/i;
const XYZ = '\u00a9xyz';
const FREE = Buffer.from('free', 'latin1');
const SPACE = 0x20;

export async function movieLocationPatches(file: ByteSource, atoms: readonly TopLevelAtom[]): Promise<BytePatch[]> {
  const top = atoms.find((a) => a.type === 'moov');
  if (!top) return [];
  const [moov] = await readChildAtoms(file, top.offset, top.offset + top.size, 1);
  if (!moov) return [];
  const patches: BytePatch[] = [];
  for (const child of await readChildAtoms(file, moov.bodyAt, moov.end)) {
    if (child.type !== 'udta' && child.type !== 'meta') continue;
    if (child.end - child.bodyAt > MAX_META_BYTES) {
      patches.push(...asFree(child));
      continue;
    }
    const body = await file.read(child.bodyAt, child.end - child.bodyAt);
    const found = child.type === 'udta' ? userDataPatches(body) : metaPatches(body);
    patches.push(...shiftPatches(found, child.bodyAt));
  }
  return patches;
}

/** An atom turned into `free` with a zeroed body: readers skip it. Offsets as the atom's. */
function asFree(atom: ChildAtom): BytePatch[] {
  return [bytesPatch(atom.at + 4, FREE), zeroPatch(atom.bodyAt, atom.end - atom.bodyAt)];
}

/** The location items of a `udta` body (offsets into it). */
function userDataPatches(udta: Buffer): BytePatch[] {
  const patches: BytePatch[] = [];
  for (const item of childAtomsIn(udta, 0, udta.length)) {
    if (item.type === XYZ) patches.push(...textItemPatches(udta, item));
    else if (item.type === 'loci') patches.push(...asFree(item));
    else if (item.type === 'meta') patches.push(...shiftPatches(metaPatches(udta.subarray(item.bodyAt, item.end)), item.bodyAt));
  }
  return patches;
}

/**
 * A QuickTime text item: strings of (length: 2 bytes, language: 2 bytes, text), or, as some
 * writers do, `data` atoms.
 */
function textItemPatches(buf: Buffer, item: ChildAtom): BytePatch[] {
  if (item.end - item.bodyAt >= 16 && buf.toString('latin1', item.bodyAt + 4, item.bodyAt + 8) === 'data') return dataValuePatches(buf, item);
  const patches: BytePatch[] = [];
  let at = item.bodyAt;
  for (let n = 0; n < MAX_KEYS && at + 4 <= item.end; n++) {
    const textAt = at + 4;
    const end = Math.min(textAt + buf.readUInt16BE(at), item.end);
    if (end > textAt) patches.push(bytesPatch(textAt, Buffer.alloc(end - textAt, SPACE)));
    at = textAt + buf.readUInt16BE(at);
  }
  return patches;
}

/**
 * The location values of a metadata atom's body (offsets into it). QuickTime's `meta` starts
 * with its children; ISO's (as ffmpeg writes it) with 4 bytes of version and flags first.
 */
function metaPatches(meta: Buffer): BytePatch[] {
  const start = meta.toString('latin1', 4, 8) === 'hdlr' ? 0 : 4;
  const children = childAtomsIn(meta, start, meta.length);
  const hdlr = children.find((a) => a.type === 'hdlr');
  const ilst = children.find((a) => a.type === 'ilst');
  if (!ilst) return [];
  // hdlr: version and flags (4), pre-defined (4), then the handler type.
  const handler = hdlr && hdlr.end - hdlr.bodyAt >= 12 ? meta.toString('latin1', hdlr.bodyAt + 8, hdlr.bodyAt + 12) : '';
  const keys = children.find((a) => a.type === 'keys');
  const locationKeys = handler === 'mdta' && keys ? locationKeyIndexes(meta, keys) : new Set<number>();
  const patches: BytePatch[] = [];
  // ilst: one atom per value, its type the 1-based key index (mdta) or the item's name (mdir), holding `data` atoms.
  for (const item of childAtomsIn(meta, ilst.bodyAt, ilst.end)) {
    const isLocation = handler === 'mdta' ? locationKeys.has(meta.readUInt32BE(item.at + 4)) : item.type === XYZ;
    if (isLocation) patches.push(...dataValuePatches(meta, item));
  }
  return patches;
}

/** The 1-based indexes of the location keys of a `keys` atom: version and flags (4), count (4), then (size, namespace, name) entries. */
function locationKeyIndexes(meta: Buffer, keys: ChildAtom): Set<number> {
  const found = new Set<number>();
  if (keys.end - keys.bodyAt < 8) return found;
  const count = Math.min(meta.readUInt32BE(keys.bodyAt + 4), MAX_KEYS);
  let at = keys.bodyAt + 8;
  for (let i = 1; i <= count && at + 8 <= keys.end; i++) {
    const size = meta.readUInt32BE(at);
    if (size < 8 || at + size > keys.end) break;
    if (LOCATION_KEY.test(meta.toString('latin1', at + 8, at + size))) found.add(i);
    at += size;
  }
  return found;
}

/** The values of the `data` atoms of an item: type (4; 1 is UTF-8) and locale (4), then the value. */
function dataValuePatches(buf: Buffer, item: ChildAtom): BytePatch[] {
  const patches: BytePatch[] = [];
  for (const data of childAtomsIn(buf, item.bodyAt, item.end, MAX_KEYS)) {
    if (data.type !== 'data' || data.end - data.bodyAt <= 8) continue;
    const valueAt = data.bodyAt + 8;
    const text = (buf.readUInt32BE(data.bodyAt) & 0xffffff) === 1;
    patches.push(text ? bytesPatch(valueAt, Buffer.alloc(data.end - valueAt, SPACE)) : zeroPatch(valueAt, data.end - valueAt));
  }
  return patches;
}
