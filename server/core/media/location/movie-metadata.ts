/**
 * The user data (`udta`) and metadata (`meta`) boxes of a movie, in `moov` or in a track
 * (docs/api.md#location-privacy), by keep-list. Phones, cameras and tools write a place in
 * many of their items: QuickTime's `©xyz` (ISO 6709 text), 3GPP's `loci`, Apple's keys
 * (`com.apple.quicktime.location.ISO6709`, `…location.name`…), XMP in `XMP_`, titles and
 * comments in free text, GoPro's and Samsung's own items. What is kept: the camera's make,
 * model and software, the dates, the encoder; Apple's content identifier (it pairs a Live
 * Photo's movie with its still), and Android's capture frame rate (slow motion plays by it).
 * Every other item becomes a `free` box with a zeroed body, so readers skip it; there may be
 * any number of items and keys.
 *
 * A `udta` or `meta` that cannot be walked (a child whose size cannot be), or larger than
 * MAX_METADATA_BYTES, is blanked whole the same way.
 */
import type { ByteSource } from '../byte-source.js';
import { type BytePatch, shiftPatches } from './byte-patches.js';
import { asFree, childrenIn, handlerType, type IsoBox, zeroBody } from './iso-boxes.js';
import { type Budget, cannotWalk } from './walk.js';

/** A movie's user data is a few KB; past this it is blanked without being read. */
const MAX_METADATA_BYTES = 16 * 1024 * 1024;

/** QuickTime user data items kept (text of the camera's own naming). */
const KEPT_USER_DATA = new Set(['\u00a9mak', '\u00a9mod', '\u00a9swr', '\u00a9day', '\u00a9too', 'hnti']);

/** Items of an iTunes-style `meta` (handler `mdir`) kept. */
const KEPT_ITEMS = new Set(['\u00a9mak', '\u00a9mod', '\u00a9swr', '\u00a9day', '\u00a9too']);

/** Keys of a QuickTime `meta` (handler `mdta`) whose values are kept. */
const KEPT_KEYS = new Set([
  'com.apple.quicktime.make',
  'com.apple.quicktime.model',
  'com.apple.quicktime.software',
  'com.apple.quicktime.creationdate',
  'com.apple.quicktime.content.identifier',
  'com.apple.quicktime.live-photo.auto',
  'com.apple.quicktime.live-photo.vitality-score',
  'com.apple.quicktime.live-photo.vitality-scoring-version',
  'com.apple.quicktime.full-frame-rate-playback-intent',
  'com.android.version',
  'com.android.manufacturer',
  'com.android.model',
  'com.android.capture.fps',
  'encoder',
  'creation_time',
]);

/** The patches of a `udta` box (offsets in the file). */
export async function userDataPatches(source: ByteSource, udta: IsoBox, budget: Budget): Promise<BytePatch[]> {
  return inMemory(source, udta, (body) => {
    const patches: BytePatch[] = [];
    for (const item of childrenIn(body, 0, body.length, budget)) {
      if (KEPT_USER_DATA.has(item.type)) continue;
      if (item.type === 'meta') patches.push(...metaBodyPatches(body, item, budget));
      else if (item.type === 'free' || item.type === 'skip') patches.push(...zeroBody(item));
      else patches.push(...asFree(item));
    }
    return patches;
  });
}

/** The patches of a movie's `meta` box (offsets in the file). */
export async function movieMetaPatches(source: ByteSource, meta: IsoBox, budget: Budget): Promise<BytePatch[]> {
  // The box as it lies in its body read alone: its header before offset 0.
  return inMemory(source, meta, (body) => metaBodyPatches(body, { ...meta, at: meta.at - meta.bodyAt, bodyAt: 0, end: body.length }, budget));
}

/** Reads `container`'s body and runs `walk` over it (offsets in the body); blanks it whole when it is too large or cannot be walked. */
async function inMemory(source: ByteSource, container: IsoBox, walk: (body: Buffer) => BytePatch[]): Promise<BytePatch[]> {
  const length = container.end - container.bodyAt;
  if (length > MAX_METADATA_BYTES) return asFree(container);
  try {
    const body = await source.read(container.bodyAt, length);
    return shiftPatches(walk(body), container.bodyAt);
  } catch (err) {
    if (!cannotWalk(err)) throw err;
    return asFree(container);
  }
}

/**
 * A `meta` box held in `buf`: QuickTime's starts with its children, ISO's (as ffmpeg writes
 * it) with 4 bytes of version and flags. Its handler says what its `ilst` items are named by:
 * `mdta`, the index of a key in `keys`; `mdir`, the item's type. Any other handler: all of it goes.
 */
function metaBodyPatches(buf: Buffer, meta: IsoBox, budget: Budget): BytePatch[] {
  const start = buf.toString('latin1', meta.bodyAt + 4, meta.bodyAt + 8) === 'hdlr' ? meta.bodyAt : meta.bodyAt + 4;
  const children = childrenIn(buf, start, meta.end, budget);
  const hdlr = children.find((c) => c.type === 'hdlr');
  const handler = hdlr ? handlerType(buf, hdlr.bodyAt) : '';
  if (handler !== 'mdta' && handler !== 'mdir') return asFree(meta);
  const keys =
    handler === 'mdta'
      ? keyNames(
          buf,
          children.find((c) => c.type === 'keys'),
          budget,
        )
      : [];
  const patches: BytePatch[] = [];
  for (const child of children) {
    if (child.type === 'hdlr' || child.type === 'keys') continue;
    if (child.type !== 'ilst') {
      patches.push(...(child.type === 'free' ? zeroBody(child) : asFree(child)));
      continue;
    }
    for (const item of childrenIn(buf, child.bodyAt, child.end, budget)) {
      budget.hold(patches);
      const kept = handler === 'mdta' ? KEPT_KEYS.has(keys[buf.readUInt32BE(item.at + 4) - 1] ?? '') : KEPT_ITEMS.has(item.type);
      if (!kept) patches.push(...asFree(item));
    }
  }
  return patches;
}

/** The names of a `keys` box, in order (an item of `ilst` names the 1-based index of its key): version and flags, count, then (size, namespace, name) entries. */
function keyNames(buf: Buffer, keys: IsoBox | undefined, budget: Budget): string[] {
  if (!keys) return [];
  const names: string[] = [];
  for (let at = keys.bodyAt + 8; at + 8 <= keys.end; ) {
    budget.step();
    const size = buf.readUInt32BE(at);
    if (size < 8 || at + size > keys.end) break;
    names.push(buf.toString('latin1', at + 8, at + size));
    budget.hold(names);
    at += size;
  }
  return names;
}
