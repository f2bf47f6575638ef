import fs from 'node:fs/promises';
import path from 'node:path';
import { badRequest, missingParameter, notFound } from './errors.js';
import { hasControlCharacter } from './control-characters.js';

/**
 * The one place where a client-supplied path becomes a file on disk.
 * Checks run in a fixed order (after send): presence, type, control bytes, separators,
 * segments, then the real path's containment.
 */

/** Validates an already URL-decoded album-relative path and returns it normalised ('a/b/c'). */
export function parseRelativePath(raw: unknown, param = 'path'): string {
  if (raw === undefined || raw === null || raw === '') throw missingParameter(param);
  if (typeof raw !== 'string') throw badRequest(`Invalid parameter: ${param} must be a single string`);
  // NUL and other control characters never name a real album file.
  if (hasControlCharacter(raw)) throw badRequest(`Invalid parameter: ${param} contains a control character`);
  if (raw.includes('\\')) throw badRequest(`Invalid parameter: ${param} contains a backslash`);
  if (raw.startsWith('/')) throw badRequest(`Invalid parameter: ${param} must be relative to the albums directory`);
  const segments = raw.split('/');
  if (segments.some((s) => s === '..')) throw badRequest(`Invalid parameter: ${param} contains a ".." segment`);
  // A trailing slash is tolerated ('2024/trip/'), empty or '.' segments inside are not.
  if (segments[segments.length - 1] === '' && segments.length > 1) segments.pop();
  if (segments.some((s) => s === '' || s === '.')) throw badRequest(`Invalid parameter: ${param} has an empty segment`);
  return segments.join('/');
}

/** Decodes a raw URL path tail (e.g. from `/albums/<tail>`) and validates it. */
export function decodeUrlPath(rawTail: string, param = 'path'): string {
  let decoded: string;
  try {
    decoded = decodeURIComponent(rawTail);
  } catch {
    throw badRequest(`Invalid parameter: ${param} is not valid URL encoding`);
  }
  return parseRelativePath(decoded, param);
}

/** True when some segment is hidden (a dotfile): those are never served. */
export function hasHiddenSegment(relPath: string): boolean {
  return relPath.split('/').some((s) => s.startsWith('.'));
}

/** True when `child` is `root` or lies below it (both absolute and normalised). */
export function isInside(root: string, child: string): boolean {
  const rel = path.relative(root, child);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
}

/**
 * Maps a validated relative path to its real absolute path, following symlinks, and
 * insists that it stays inside `root`. Anything missing or outside is a 404: a client
 * must not learn whether a file exists outside the tree.
 */
export async function resolveInside(root: string, relPath: string): Promise<string> {
  const realRoot = await realRootOf(root);
  let real: string;
  try {
    real = await fs.realpath(path.join(realRoot, ...relPath.split('/')));
  } catch (err) {
    if (isMissing(err)) throw notFound('File not found');
    throw err;
  }
  if (!isInside(realRoot, real)) throw notFound('File not found');
  return real;
}

const realRoots = new Map<string, string>();
/** The real path of a root directory, resolved once per process. */
export async function realRootOf(root: string): Promise<string> {
  let real = realRoots.get(root);
  if (real === undefined) {
    real = await fs.realpath(root);
    realRoots.set(root, real);
  }
  return real;
}

/** fs error codes that mean "there is no such file" to a client. */
export function isMissing(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR' || code === 'ELOOP' || code === 'ENAMETOOLONG';
}
