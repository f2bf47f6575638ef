/**
 * What to overwrite in a photo or video so that, served, it carries no location
 * (docs/api.md#location-privacy): the one entry point, which tells the format from the
 * file's first bytes (never from its name) and returns patches that keep the length, sorted
 * and without overlaps, ready for applyPatches. GIF and WebM have no place for a position
 * that cameras use: nothing is patched in them.
 */
import type { ByteSource } from '../byte-source.js';
import { walkTopLevelAtoms } from '../mp4-atoms.js';
import { type BytePatch, normalizePatches } from './byte-patches.js';
import { heifLocationPatches } from './heif-location.js';
import { isJpeg, jpegLocationPatches } from './jpeg-location.js';
import { movieLocationPatches } from './movie-location.js';
import { isPng, pngLocationPatches } from './png-location.js';
import { isTiff, tiffFileLocationPatches } from './tiff-file-location.js';
import { isWebp, webpLocationPatches } from './webp-location.js';

/** Bump when what is patched changes: served ETags carry it, so caches do not keep bytes patched the old way. */
export const LOCATION_PATCH_VERSION = 1;

export async function locationPatches(file: ByteSource): Promise<readonly BytePatch[]> {
  const head = await file.read(0, 16);
  let found: readonly BytePatch[];
  if (isJpeg(head)) found = await jpegLocationPatches(file);
  else if (isPng(head)) found = await pngLocationPatches(file);
  else if (isWebp(head)) found = await webpLocationPatches(file);
  else if (isTiff(head)) found = await tiffFileLocationPatches(file);
  else {
    // ISO base media: a HEIF photo keeps its metadata in `meta`, a movie in `moov` (old MOVs have no `ftyp`).
    const { atoms } = await walkTopLevelAtoms(file);
    found = [...(await heifLocationPatches(file, atoms)), ...(await movieLocationPatches(file, atoms))];
  }
  return normalizePatches(found, file.size);
}
