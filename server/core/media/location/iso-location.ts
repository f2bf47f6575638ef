/**
 * An ISO base media file (MP4, MOV, M4V, HEIF, AVIF; also a movie after a phone's JPEG)
 * served without a place (docs/api.md#location-privacy): its top-level boxes by keep-list.
 * `ftyp`, the media data and the indexes of fragmented files are kept; `moov` and the
 * fragments' `moof` go through movie-location.ts, a HEIF's `meta` through heif-location.ts (another `meta`, as a movie's);
 * `free` and `skip` have their bodies zeroed; anything else (ExifTool's XMP `uuid` box, an
 * unknown box) becomes a `free` box with a zeroed body.
 *
 * The walk goes box by box to the end of the file, bounded by the file's budget. Where it
 * loses its way (a header that cannot be a box) everything from there is zeroed; a box cut
 * short by the end of the file keeps its bytes only when it is media data (a recording cut
 * short), and is zeroed otherwise.
 */
import type { ByteSource } from '../byte-source.js';
import { type BytePatch, zeroPatch } from './byte-patches.js';
import { type Extent, heifPatches, isPictureMeta } from './heif-location.js';
import { asFree, boxAt, type IsoBox, zeroBody } from './iso-boxes.js';
import { movieMetaPatches } from './movie-metadata.js';
import { moovPatches } from './movie-location.js';
import { type Budget, Unreadable } from './walk.js';

/** Top-level boxes kept as they are: the file type, media data, fragments' indexes. */
const KEPT = new Set(['ftyp', 'styp', 'wide', 'mdat', 'sidx', 'ssix', 'pdin', 'prft', 'mfra']);
/** Top-level boxes files start with (old QuickTime movies have no `ftyp`). */
const FIRST = new Set(['ftyp', 'moov', 'mdat', 'wide', 'free', 'skip', 'pnot', 'uuid', 'meta', 'styp']);

/** Whether `head` (a file's first 16 bytes) starts an ISO base media file. */
export const isIsoStart = (head: Buffer): boolean => head.length >= 8 && head.readUInt32BE(0) !== 0 && FIRST.has(head.toString('latin1', 4, 8));

/** The patches of the ISO base media file `source`. */
export async function isoPatches(source: ByteSource, budget: Budget): Promise<BytePatch[]> {
  const patches: BytePatch[] = [];
  const boxes: IsoBox[] = [];
  for (let at = 0; at < source.size; ) {
    budget.step();
    const box = await boxAt(source, at, source.size);
    if (!box || !/^[\x20-\x7e]{4}$/.test(box.type)) {
      patches.push(zeroPatch(at, source.size - at));
      break;
    }
    if (box.cut && box.type !== 'mdat') {
      patches.push(zeroPatch(box.bodyAt, source.size - box.bodyAt));
      break;
    }
    boxes.push(box);
    budget.hold(boxes);
    at = box.end;
  }
  let metadataTracks = 0;
  let pictureItems: readonly Extent[] | undefined;
  for (const box of boxes) {
    if (KEPT.has(box.type)) continue;
    if (box.type === 'moov' || box.type === 'moof') {
      const movie = await moovPatches(source, box, budget);
      patches.push(...movie.patches);
      metadataTracks += movie.metadataTracks;
    } else if (box.type === 'meta') {
      if (await isPictureMeta(source, box)) {
        const heif = await heifPatches(source, box, budget);
        patches.push(...heif.patches);
        pictureItems = heif.items;
      } else patches.push(...(await movieMetaPatches(source, box, budget)));
    } else if (box.type === 'free' || box.type === 'skip') patches.push(...zeroBody(box));
    else patches.push(...asFree(box));
  }
  // Fragments carry samples of their own, which the index does not list.
  if (metadataTracks > 0 && boxes.some((b) => b.type === 'moof')) throw new Unreadable('a fragmented movie with a metadata track');
  // A HEIF photo's media data holds its items and nothing else (an image sequence's samples are the movie's).
  if (pictureItems && !boxes.some((b) => b.type === 'moov' || b.type === 'moof')) {
    for (const mdat of boxes.filter((b) => b.type === 'mdat')) patches.push(...unpointed(mdat, pictureItems));
  }
  return patches;
}

/** Zero patches over the bytes of `mdat`'s body no item's extent covers. */
function unpointed(mdat: IsoBox, items: readonly Extent[]): BytePatch[] {
  const inside = items
    .map((e) => ({ at: Math.max(e.at, mdat.bodyAt), end: Math.min(e.at + e.length, mdat.end) }))
    .filter((e) => e.end > e.at)
    .sort((a, b) => a.at - b.at);
  const gaps: BytePatch[] = [];
  let covered = mdat.bodyAt;
  for (const e of inside) {
    if (e.at > covered) gaps.push(zeroPatch(covered, e.at - covered));
    covered = Math.max(covered, e.end);
  }
  if (covered < mdat.end) gaps.push(zeroPatch(covered, mdat.end - covered));
  return gaps;
}
