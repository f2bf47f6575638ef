import type { MediaItem } from './album-tree.js';
import { naturalCompare } from './natural-order.js';

/**
 * Live Photos (docs/api.md#live-photos): an iPhone saves a still (`IMG_1234.HEIC`, or `.JPG`
 * once exported "most compatible") and a short `IMG_1234.MOV` side by side, and writes one
 * content identifier into both (the still's MakerNote, the movie's QuickTime metadata). The
 * gallery shows the pair as one photo: the still carries the movie as its `motion`, and the
 * movie is not an item of its own.
 *
 * Pairs are found by that identifier where both files have one, by file name otherwise. The
 * scan reads directories only, so that 100,000 photos load in well under a second: it pairs
 * by name. The identifiers are read afterwards, in the background, only in folders holding
 * both movies and stills (server/media/live-photo-ids.ts, cached on disk), and handed to the
 * index, which pairs those folders again with them (`pairLivePhotos(items, ids)`).
 */

/** Extensions (lower case) of the stills a Live Photo is saved as. */
const STILL_EXTENSIONS: ReadonlySet<string> = new Set(['.heic', '.heif', '.jpg', '.jpeg']);
/** Extension (lower case) of its motion: QuickTime, whatever the codec inside. */
const MOTION_EXTENSION = '.mov';

/** The name's extension, lower case with its dot ('.heic'), and its stem, lower case ('img_1234'): what two names of a pair share, in any case. */
function splitName(name: string): { stem: string; ext: string } | undefined {
  const dot = name.lastIndexOf('.');
  if (dot <= 0) return undefined;
  return { stem: name.slice(0, dot).toLowerCase(), ext: name.slice(dot).toLowerCase() };
}

const isStill = (item: Pick<MediaItem, 'kind'>, ext: string) => item.kind === 'image' && STILL_EXTENSIONS.has(ext);
const isMotion = (item: Pick<MediaItem, 'kind'>, ext: string) => item.kind === 'video' && ext === MOTION_EXTENSION;

/** Whether a file could be the still of a Live Photo (`.heic .heif .jpg .jpeg`). */
export const isLivePhotoStill = (item: Pick<MediaItem, 'name' | 'kind'>): boolean => {
  const parts = splitName(item.name);
  return parts !== undefined && isStill(item, parts.ext);
};

/** Whether a file could be the motion of a Live Photo (`.mov`). */
export const isLivePhotoMotion = (item: Pick<MediaItem, 'name' | 'kind'>): boolean => {
  const parts = splitName(item.name);
  return parts !== undefined && isMotion(item, parts.ext);
};

/** Content identifiers by file name (exact), for the files of one folder that have one. */
export type ContentIds = ReadonlyMap<string, string>;

/**
 * The listed media of one folder: `items` (in natural order) with every Live Photo's `.mov`
 * moved into its still's `motion`. Pairs are made in two steps:
 *
 * 1. By content identifier (`ids`): a still and a movie with the same identifier pair,
 *    whatever their names (`IMG_1.JPG` + `IMG_1_export.MOV`).
 * 2. By name, among the files left: a still and a movie whose names differ only in the
 *    extension and in letter case (`IMG_1.HEIC` + `img_1.mov`), unless both have an
 *    identifier: two identifiers that differ say the files are not one Live Photo.
 *
 * When several stills or movies could pair (one identifier or one stem for `IMG_1.HEIC` and
 * an exported `IMG_1.JPG`), the first of each in natural order pairs, so the answer never
 * depends on the order the directory happened to be read in; the others stay ordinary photos
 * and videos, and one stem makes at most one pair by name. A movie without a still stays a
 * video. The order of what is listed is the order of `items`.
 */
export function pairLivePhotos(items: readonly MediaItem[], ids: ContentIds = NO_IDS): MediaItem[] {
  const stills: Candidate[] = [];
  const motions: Candidate[] = [];
  items.forEach((item, at) => {
    const parts = splitName(item.name);
    if (!parts) return;
    const candidate = { at, stem: parts.stem, id: ids.get(item.name) };
    if (isStill(item, parts.ext)) stills.push(candidate);
    else if (isMotion(item, parts.ext)) motions.push(candidate);
  });
  const motionOf = new Map<number, MediaItem>();
  const paired = new Set<number>();
  const pair = (still: Candidate, motion: Candidate) => {
    motionOf.set(still.at, items[motion.at]!);
    paired.add(still.at).add(motion.at);
  };

  // 1. By identifier: the first still and the first movie of each identifier.
  const stillById = new Map<string, Candidate>();
  for (const still of stills) if (still.id !== undefined && !stillById.has(still.id)) stillById.set(still.id, still);
  for (const motion of motions) {
    const still = motion.id === undefined ? undefined : stillById.get(motion.id);
    if (!still || paired.has(still.at)) continue;
    pair(still, motion);
  }

  // 2. By name, among the rest: per stem, the first still and movie in natural order that may pair.
  const byStem = new Map<string, { stills: Candidate[]; motions: Candidate[] }>();
  const group = (stem: string) => byStem.get(stem) ?? byStem.set(stem, { stills: [], motions: [] }).get(stem)!;
  for (const still of stills) if (!paired.has(still.at)) group(still.stem).stills.push(still);
  for (const motion of motions) if (!paired.has(motion.at)) group(motion.stem).motions.push(motion);
  for (const { stills: s, motions: m } of byStem.values()) {
    const found = firstPairable(s, m);
    if (found) pair(...found);
  }

  if (paired.size === 0) return [...items];
  const listed: MediaItem[] = [];
  items.forEach((item, i) => {
    if (paired.has(i) && !motionOf.has(i)) return;
    const motion = motionOf.get(i);
    listed.push(motion ? { ...item, motion } : item);
  });
  return listed;
}

/** The same folder paired again with other identifiers: every file back in natural order, then paired. */
export function repairLivePhotos(media: readonly MediaItem[], ids: ContentIds): MediaItem[] {
  const files = Array.from(filesOf(media), ({ name, kind }): MediaItem => ({ name, kind }));
  return pairLivePhotos(
    files.sort((a, b) => naturalCompare(a.name, b.name)),
    ids,
  );
}

interface Candidate {
  /** Index in the folder's items (natural order). */
  readonly at: number;
  readonly stem: string;
  readonly id: string | undefined;
}

const NO_IDS: ContentIds = new Map();

/**
 * A still and a movie of one stem may pair by name unless both carry identifiers: different
 * ones, or one that step 1 gave to other files.
 */
function firstPairable(stills: readonly Candidate[], motions: readonly Candidate[]): [Candidate, Candidate] | undefined {
  for (const still of stills) {
    for (const motion of motions) if (still.id === undefined || motion.id === undefined) return [still, motion];
  }
  return undefined;
}

/** Every file of a folder's listed media: each item and, after a Live Photo, its motion. */
export function* filesOf(items: readonly MediaItem[]): Generator<MediaItem> {
  for (const item of items) {
    yield item;
    if (item.motion) yield item.motion;
  }
}
