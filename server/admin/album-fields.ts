/**
 * album.json's fields as the admin writes them (docs/api.md#albumjson): a patch checked and
 * merged (what `null` or an empty text removes, which fields may not go, a strong token, the
 * lengths the admin accepts, a cover that exists) and the record serialised with the known
 * fields first. What goes into the file, apart from where and when it is written
 * (album-files.ts: the album's queue, the atomic replace of the version read).
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { checkAlbumFields } from '../core/albums/album-record.js';
import { badRequest } from '../core/errors.js';
import { mediaKind } from '../core/media-catalogue.js';
import { hasHiddenSegment, isInside, isMissing, parseRelativePath } from '../core/paths.js';

/** album.json as parsed: the fields of docs/api.md#albumjson, plus any the admin does not know (kept as they are). */
export type AlbumRecord = Record<string, unknown>;

/** A token has to resist guessing: a share link with it opens the album without a password. */
const TOKEN_SHAPE = /^[A-Za-z0-9._~-]{16,200}$/;

/** Fields that cannot be removed with `null`: an album needs a title and a token. */
const REQUIRED_FIELDS = new Set(['title', 'token']);

/** The 400 of album fields that break the rules, each problem named. */
export const invalidMetadata = (problems: readonly string[]) => badRequest(`Invalid album metadata: ${problems.join('; ')}`);

/** Checks a patch before it is merged: known fields, right types, a strong token, a safe cover path. */
export function checkPatch(patch: Record<string, unknown>): void {
  // An empty optional text removes the field (mergePatch): it is not a value to check.
  const problems = checkAlbumFields(Object.fromEntries(Object.entries(patch).filter(([key, value]) => !(CLEARED_BY_EMPTY.has(key) && value === ''))));
  for (const field of REQUIRED_FIELDS) if (Object.hasOwn(patch, field) && patch[field] === null) problems.push(`${field} cannot be removed`);
  // Made and revoked one at a time, with strong ids, by /api/share-links (docs/api.md#admin-server).
  if (Object.hasOwn(patch, 'shareLinks')) problems.push('shareLinks are made and revoked through /api/share-links/{path}');
  if (typeof patch.token === 'string' && !TOKEN_SHAPE.test(patch.token)) {
    problems.push('token must be 16 to 200 characters of letters, digits, ".", "_", "~" and "-"');
  }
  if (typeof patch.description === 'string' && patch.description.length > MAX_DESCRIPTION_LENGTH) {
    problems.push(`description must be at most ${MAX_DESCRIPTION_LENGTH} characters`);
  }
  const captions = patch.captions;
  if (typeof captions === 'object' && captions !== null && Object.values(captions).some((c) => typeof c === 'string' && c.length > MAX_CAPTION_LENGTH)) {
    problems.push(`a caption must be at most ${MAX_CAPTION_LENGTH} characters`);
  }
  if (problems.length > 0) throw invalidMetadata(problems);
}

/** Optional text fields an empty string removes, as `null` does. */
const CLEARED_BY_EMPTY = new Set(['password', 'thumbnail', 'description', 'date']);

/** Lengths the admin accepts (the gallery itself reads any): a description is a paragraph or two, a caption a line. */
export const MAX_DESCRIPTION_LENGTH = 5000;
export const MAX_CAPTION_LENGTH = 1000;

/**
 * A record with `patch` (already checked) applied: null (or an empty password or cover) removes the field, so
 * album.json keeps only what differs from the documented defaults that were set on purpose.
 */
export function applyPatch(record: AlbumRecord, patch: Record<string, unknown>): AlbumRecord {
  const next: AlbumRecord = { ...record };
  for (const [key, value] of Object.entries(patch)) {
    const clears = value === null || value === undefined || (CLEARED_BY_EMPTY.has(key) && value === '');
    if (clears) delete next[key];
    else next[key] = key === 'title' && typeof value === 'string' ? value.trim() : value;
  }
  if (typeof next.thumbnail === 'string') {
    const cover = parseRelativePath(next.thumbnail, 'thumbnail');
    if (hasHiddenSegment(cover) || mediaKind(cover) === undefined) {
      throw invalidMetadata(['thumbnail must name a photo or video of the album or of a child album']);
    }
    next.thumbnail = cover;
  }
  return next;
}

/** A cover must exist: a typo would otherwise silently fall back to the first photo. `dir` is a real path. */
export async function checkThumbnail(dir: string, thumbnail: string): Promise<void> {
  try {
    const real = await fs.realpath(path.join(dir, ...thumbnail.split('/')));
    if (isInside(dir, real) && (await fs.stat(real)).isFile()) return;
  } catch (err) {
    if (!isMissing(err)) throw err;
  }
  throw invalidMetadata([`thumbnail "${thumbnail}" is not a file of the album or of a child album`]);
}

const FIELD_ORDER = [
  'title',
  'description',
  'date',
  'password',
  'thumbnail',
  'order',
  'hidden',
  'isCollection',
  'allowAnonymous',
  'style',
  'sort',
  'hideLocation',
  'token',
  'captions',
  'rotations',
];

/**
 * Known fields first, in the order docs/api.md#albumjson lists them, so hand-diffs of album.json stay readable. Built with
 * Object.fromEntries, which defines every key as a plain field: a `__proto__` or `constructor`
 * the owner wrote is kept as it is, and can neither set a prototype nor be mistaken for one.
 */
export function serializeRecord(record: AlbumRecord): string {
  const own = (key: string) => (Object.hasOwn(record, key) ? record[key] : undefined);
  const known = FIELD_ORDER.filter((key) => own(key) !== undefined).map((key) => [key, own(key)] as const);
  const others = Object.entries(record).filter(([key]) => !FIELD_ORDER.includes(key));
  return `${JSON.stringify(Object.fromEntries([...known, ...others]), null, 2)}\n`;
}
