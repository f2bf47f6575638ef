import type { Request } from 'express';
import { badRequest } from '../core/errors.js';
import { hasHiddenSegment, parseRelativePath } from '../core/paths.js';

/**
 * Limits of a new album's path. An album may sit at any depth (`holidays`, `2024/lisbon`,
 * `2024/travel/lisbon/day-1`); the limits keep its directory, its thumbnail cache folder and
 * its place in `.trash/<time>/` within what every filesystem accepts (255 bytes a name,
 * a few KB a path), whatever script the names are written in.
 */
const MAX_SEGMENT_CHARS = 100;
const MAX_SEGMENT_BYTES = 200;
const MAX_DEPTH = 20;
const MAX_PATH_BYTES = 1024;

/**
 * One directory name of a new album: letters of any script (with their combining marks),
 * digits, '-', '_', ' ' and '.', never leading with '.' or ' ' (hidden, or invisible in a
 * listing) nor ending with ' ' or '.' (both are trimmed away on some filesystems).
 */
const SEGMENT = /^[\p{L}\p{N}_-](?:[\p{L}\p{M}\p{N}_. -]*[\p{L}\p{M}\p{N}_-])?$/u;

/**
 * Validates the path of an album about to be created: one or more segments, at any depth,
 * inside an existing album or not. Stricter than the paths of albums that already exist
 * (those may have been made by hand with any name): the admin only creates names that are
 * safe in a URL, a shell and every filesystem.
 */
export function parseNewAlbumPath(raw: unknown): string {
  const rel = parseRelativePath(raw, 'path');
  const segments = rel.split('/');
  if (segments.length > MAX_DEPTH || Buffer.byteLength(rel) > MAX_PATH_BYTES) {
    throw badRequest(`Invalid parameter: path is too deep or too long (at most ${MAX_DEPTH} folders and ${MAX_PATH_BYTES} bytes)`);
  }
  for (const s of segments) {
    if (s.length > MAX_SEGMENT_CHARS || Buffer.byteLength(s) > MAX_SEGMENT_BYTES) {
      throw badRequest(
        `Invalid parameter: path segment "${[...s].slice(0, 20).join('')}…" is longer than ${MAX_SEGMENT_CHARS} characters or ${MAX_SEGMENT_BYTES} bytes`,
      );
    }
    if (!SEGMENT.test(s)) {
      throw badRequest(`Invalid parameter: path segment "${s}" may hold only letters, digits, "-", "_", " " and "." (not first or last)`);
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
