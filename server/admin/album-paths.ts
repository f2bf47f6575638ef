import type { Request } from 'express';
import { badRequest } from '../http-error.js';
import { hasHiddenSegment, parseRelativePath } from '../paths.js';

/** Albums live at year/category/name or deeper (child albums). */
export const MIN_ALBUM_DEPTH = 3;
const MAX_SEGMENT_LENGTH = 100;

/**
 * One directory name of a new album: letters of any script (with their combining marks),
 * digits, '-', '_', ' ' and '.', never leading with '.' or ' ' (hidden, or invisible in a
 * listing) nor ending with ' ' or '.' (both are trimmed away on some filesystems).
 */
const SEGMENT = /^[\p{L}\p{N}_-](?:[\p{L}\p{M}\p{N}_. -]*[\p{L}\p{M}\p{N}_-])?$/u;

/**
 * Validates the path of an album about to be created. Stricter than the paths of albums that
 * already exist (those may have been made by hand with any name): the admin only creates
 * names that are safe in a URL, a shell and every filesystem.
 */
export function parseNewAlbumPath(raw: unknown): string {
  const rel = parseRelativePath(raw, 'path');
  const segments = rel.split('/');
  if (segments.length < MIN_ALBUM_DEPTH) {
    throw badRequest('Invalid parameter: path must have the shape year/category/album (or deeper for a child album)');
  }
  for (const s of segments) {
    if (s.length > MAX_SEGMENT_LENGTH) {
      throw badRequest(`Invalid parameter: path segment "${s.slice(0, 20)}…" is longer than ${MAX_SEGMENT_LENGTH} characters`);
    }
    if (!SEGMENT.test(s)) {
      throw badRequest(
        `Invalid parameter: path segment "${s}" may hold only letters, digits, "-", "_", " " and "." (not first or last)`,
      );
    }
  }
  return rel;
}

/**
 * The album path named by the `*albumPath` wildcard of a route. Express 5 hands wildcards
 * over as an array of decoded segments; joining them back and validating the whole catches
 * '..', an empty first segment (a leading '/') and encoded backslashes or NUL bytes.
 */
export function albumPathParam(req: Request): string {
  const raw: unknown = req.params.albumPath;
  const joined = Array.isArray(raw) ? raw.join('/') : raw;
  const rel = parseRelativePath(joined, 'path');
  if (hasHiddenSegment(rel)) throw badRequest('Invalid parameter: path must not name a hidden file or folder');
  return rel;
}
