import type { MediaItem } from './album-tree.js';

/**
 * Live Photos (docs/api.md#live-photos): an iPhone saves a still (`IMG_1234.HEIC`, or `.JPG`
 * once exported "most compatible") and a short `IMG_1234.MOV` side by side. The gallery shows
 * the pair as one photo: the still carries the movie as its `motion`, and the movie is not an
 * item of its own.
 *
 * Pairs are found by file name only. Apple also writes one content identifier into both files
 * (the still's MakerNote, the movie's QuickTime metadata), but reading it means opening every
 * photo and movie, and the scan reads directories only, so that 100,000 photos load in well
 * under a second. Two files named alike in one folder are a pair in every camera roll we know.
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

const isStill = (item: MediaItem, ext: string) => item.kind === 'image' && STILL_EXTENSIONS.has(ext);
const isMotion = (item: MediaItem, ext: string) => item.kind === 'video' && ext === MOTION_EXTENSION;

/**
 * The listed media of one folder: `items` (in natural order) with every Live Photo's `.mov`
 * moved into its still's `motion`. A still and a movie pair when their names differ only in
 * the extension and in letter case (`IMG_1.HEIC` + `img_1.mov`).
 *
 * When one stem has several stills (`IMG_1.HEIC` and `IMG_1.JPG`, an export beside the
 * original) or several movies, the first of each in natural order pairs, so the answer never
 * depends on the order the directory happened to be read in; the others stay ordinary photos
 * and videos. A movie without a still stays a video. The order of what is listed is the order
 * of `items`.
 */
export function pairLivePhotos(items: readonly MediaItem[]): MediaItem[] {
  const stills = new Map<string, number>();
  const motions = new Map<string, number>();
  items.forEach((item, i) => {
    const parts = splitName(item.name);
    if (!parts) return;
    if (isStill(item, parts.ext) && !stills.has(parts.stem)) stills.set(parts.stem, i);
    else if (isMotion(item, parts.ext) && !motions.has(parts.stem)) motions.set(parts.stem, i);
  });
  const motionOf = new Map<number, MediaItem>();
  const paired = new Set<number>();
  for (const [stem, at] of motions) {
    const still = stills.get(stem);
    if (still === undefined) continue;
    motionOf.set(still, items[at]!);
    paired.add(at);
  }
  if (paired.size === 0) return [...items];
  const listed: MediaItem[] = [];
  items.forEach((item, i) => {
    if (paired.has(i)) return;
    const motion = motionOf.get(i);
    listed.push(motion ? { ...item, motion } : item);
  });
  return listed;
}

/** Every file of a folder's listed media: each item and, after a Live Photo, its motion. */
export function* filesOf(items: readonly MediaItem[]): Generator<MediaItem> {
  for (const item of items) {
    yield item;
    if (item.motion) yield item.motion;
  }
}
