/**
 * What to overwrite in a photo or video so that, served, it carries no place
 * (docs/api.md#location-privacy): the one entry point. It tells the format from the file's
 * first bytes (never from its name), walks the file with that format's keep-list, and returns
 * patches that keep the length, sorted and without overlaps, ready for applyPatches.
 *
 * It fails closed. A format it does not know, a structure that cannot be walked at all (a
 * TIFF whose IFDs loop, a HEIF whose item locations cannot be followed, a movie whose index
 * cannot be read), the file's walk bound (walk.ts) or more than MAX_PATCHES patches: the
 * whole file is zeroed, at its length. Served, it opens nowhere, and carries nothing.
 */
import type { ByteSource } from '../byte-source.js';
import { type BytePatch, normalizePatches, zeroPatch } from './byte-patches.js';
import { ebmlPatches, isEbml } from './ebml-location.js';
import { gifPatches, isGif } from './gif-location.js';
import { isIsoStart, isoPatches } from './iso-location.js';
import { isJpegStart } from './jpeg-segments.js';
import { jpegPatches } from './jpeg-location.js';
import { isPng, pngPatches } from './png-location.js';
import { isTiffHeader, tiffPatches } from './tiff-policy.js';
import { Budget, MAX_PATCHES, Unreadable } from './walk.js';

export { MAX_PATCHES };
import { isWebp, webpPatches } from './webp-location.js';

/** Bump when what is patched changes: served ETags carry it, so caches do not keep bytes patched the old way. */
export const LOCATION_PATCH_VERSION = 2;

type FormatWalk = (file: ByteSource, budget: Budget) => Promise<BytePatch[]>;

/** The walk of the format `head` (the file's first 16 bytes) starts; undefined for a format not known here. */
function formatOf(head: Buffer): FormatWalk | undefined {
  if (isJpegStart(head)) return jpegPatches;
  if (isPng(head)) return pngPatches;
  if (isWebp(head)) return webpPatches;
  if (isTiffHeader(head)) return tiffPatches;
  if (isGif(head)) return gifPatches;
  if (isEbml(head)) return ebmlPatches;
  if (isIsoStart(head)) return isoPatches;
  return undefined;
}

export interface WalkLimits {
  /** Steps the walk may take (walk.ts); maxSteps(file size) unless told. */
  readonly maxSteps?: number;
}

export async function locationPatches(file: ByteSource, limits: WalkLimits = {}): Promise<readonly BytePatch[]> {
  if (file.size === 0) return [];
  const whole = [zeroPatch(0, file.size)];
  const walk = formatOf(await file.read(0, 16));
  if (!walk) return whole;
  let found: BytePatch[];
  try {
    found = await walk(file, new Budget(file.size, limits.maxSteps));
  } catch (err) {
    // Unreadable (the walk bound included), or a read past a buffer's end that a lying length led to.
    if (err instanceof Unreadable || err instanceof RangeError) return whole;
    throw err;
  }
  const patches = normalizePatches(found, file.size);
  return patches.length > MAX_PATCHES ? whole : patches;
}
