/** The album metadata record (docs/api.md#albumjson), as read from `album.json`. */

import { isRotationMap, type Rotation, ROTATIONS_RULE, rotationsOf } from './rotations.js';
import { parseShareLinks, SHARE_LINKS_RULE, type ShareLink } from './share-links.js';

export const ALBUM_STYLES = ['grid', 'masonry', 'single'] as const;
export type AlbumStyle = (typeof ALBUM_STYLES)[number];

/** The order of an album's media: natural file-name order (the default), or by date taken (docs/api.md#albumjson). */
export const ALBUM_SORTS = ['name', 'date'] as const;
export type AlbumSort = (typeof ALBUM_SORTS)[number];

export interface AlbumMeta {
  readonly title: string;
  /** Undefined when absent or empty: an empty password protects nothing (docs/api.md#albumjson). */
  readonly password: string | undefined;
  readonly thumbnail: string | undefined;
  readonly order: number | undefined;
  readonly hidden: boolean;
  readonly isCollection: boolean;
  readonly allowAnonymous: boolean;
  readonly style: AlbumStyle;
  readonly sort: AlbumSort;
  /** Undefined only before the index has generated one. */
  readonly token: string | undefined;
  /**
   * Served files carry no location (docs/api.md#location-privacy). Undefined when album.json
   * does not say: the nearest album above that says decides (album-tree.ts `hidesLocation`).
   */
  readonly hideLocation: boolean | undefined;
  /** Text shown under the album's title on its page. */
  readonly description: string | undefined;
  /** When the album happened, as precisely as known: `YYYY-MM-DD`, `YYYY-MM` or `YYYY` (isAlbumDate); shown in its header. */
  readonly date: string | undefined;
  /** Captions by file name (shown in the viewer and as alt text); a Map, so no name reaches Object.prototype. */
  readonly captions: ReadonlyMap<string, string>;
  /** The owner's turns of photos by file name (server/core/albums/rotations.ts), zeros left out. */
  readonly rotations: ReadonlyMap<string, Rotation>;
  /** Share links per recipient (server/core/albums/share-links.ts); empty when none. */
  readonly shareLinks: readonly ShareLink[];
}

export class AlbumRecordError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AlbumRecordError';
  }
}

type FieldCheck = (value: unknown) => boolean;
const isString: FieldCheck = (v) => typeof v === 'string';
const isBoolean: FieldCheck = (v) => typeof v === 'boolean';
const isNumber: FieldCheck = (v) => typeof v === 'number' && Number.isFinite(v);

/** `YYYY-MM-DD` naming a day that exists (no 2023-02-29). */
export function isIsoDate(v: unknown): v is string {
  if (typeof v !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(v)) return false;
  const day = new Date(`${v}T00:00:00Z`);
  return !Number.isNaN(day.getTime()) && day.toISOString().slice(0, 10) === v;
}

/**
 * An album's date as precisely as the owner knows it: a day (`2019-07-14`), a month
 * (`2019-07`, as an adopted folder named `2019-07 Lisbon` says) or a year (`2019`).
 */
export function isAlbumDate(v: unknown): v is string {
  if (typeof v !== 'string') return false;
  if (/^\d{4}$/.test(v)) return true;
  if (/^\d{4}-(0[1-9]|1[0-2])$/.test(v)) return true;
  return isIsoDate(v);
}

/** `{"IMG_1.jpg": "Grandma's 90th"}`: file names (no folder) to strings. */
const isCaptionMap: FieldCheck = (v) =>
  isPlainObject(v) && Object.entries(v).every(([name, text]) => name !== '' && !/[/\\]/.test(name) && typeof text === 'string');

/** Longest token a visitor's cookie, `X-Album-Token` header or share link may carry. */
export const MAX_TOKEN_LENGTH = 256;
export const TOKEN_RULE = `1 to ${MAX_TOKEN_LENGTH} characters, not all spaces, without control characters`;

/**
 * The one rule for tokens, applied to album.json and to what visitors present alike: a token
 * the record accepts can always be held, so an unlock never reports a success the cookie then
 * drops. Lone surrogates are refused too: they cannot be put in a URL.
 */
export function isWellFormedToken(v: unknown): v is string {
  return typeof v === 'string' && v.length <= MAX_TOKEN_LENGTH && v.trim() !== '' && !/[\p{Cc}\p{Cs}]/u.test(v);
}

/**
 * A Map, not an object literal: a key of album.json or of an admin body such as
 * `constructor` or `__proto__` must not find a member of Object.prototype.
 */
const FIELD_CHECKS: ReadonlyMap<string, [FieldCheck, string]> = new Map(
  Object.entries({
    title: [(v) => typeof v === 'string' && v.trim() !== '', 'a non-empty string'],
    password: [isString, 'a string'],
    thumbnail: [isString, 'a string'],
    order: [isNumber, 'a finite number'],
    hidden: [isBoolean, 'a boolean'],
    isCollection: [isBoolean, 'a boolean'],
    allowAnonymous: [isBoolean, 'a boolean'],
    style: [(v) => (ALBUM_STYLES as readonly unknown[]).includes(v), `one of ${ALBUM_STYLES.join(', ')}`],
    sort: [(v) => (ALBUM_SORTS as readonly unknown[]).includes(v), `one of ${ALBUM_SORTS.join(', ')}`],
    token: [isWellFormedToken, TOKEN_RULE],
    hideLocation: [isBoolean, 'a boolean'],
    description: [isString, 'a string'],
    date: [isAlbumDate, 'a date written YYYY-MM-DD, YYYY-MM or YYYY'],
    captions: [isCaptionMap, 'an object of file names to caption strings'],
    rotations: [isRotationMap, ROTATIONS_RULE],
    shareLinks: [(v) => parseShareLinks(v) !== undefined, SHARE_LINKS_RULE],
  } satisfies Record<string, [FieldCheck, string]>),
);

export const ALBUM_FIELDS = [...FIELD_CHECKS.keys()];

/**
 * Checks the fields present in `input` (all optional here) and returns a list of problems,
 * each naming the field: "style must be one of grid, masonry, single".
 * Unknown fields are reported too, so a typo ("passwrod") is not silently ignored.
 */
export function checkAlbumFields(input: Record<string, unknown>): string[] {
  const problems: string[] = [];
  for (const [key, value] of Object.entries(input)) {
    const check = FIELD_CHECKS.get(key);
    if (!check) {
      problems.push(`unknown field "${key}"`);
      continue;
    }
    if (value === null || value === undefined) continue;
    if (!check[0](value)) problems.push(`${key} must be ${check[1]}`);
  }
  return problems;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Parses and validates the text of an `album.json`, applying the documented defaults. */
export function parseAlbumRecord(text: string): AlbumMeta {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new AlbumRecordError(`not valid JSON (${(err as Error).message})`);
  }
  return toAlbumMeta(raw);
}

export function toAlbumMeta(raw: unknown): AlbumMeta {
  if (!isPlainObject(raw)) throw new AlbumRecordError('must be a JSON object');
  // Own fields only: an absent field must read as absent, never as a member of Object.prototype.
  const opt = <T>(key: string) => {
    const v = Object.hasOwn(raw, key) ? raw[key] : undefined;
    return v === null || v === undefined ? undefined : (v as T);
  };
  const title = opt<string>('title');
  if (title === undefined) throw new AlbumRecordError('title is required');
  const problems = checkAlbumFields(raw).filter((p) => !p.startsWith('unknown field'));
  if (problems.length > 0) throw new AlbumRecordError(problems.join('; '));
  const password = opt<string>('password');
  return Object.freeze({
    title: title.trim(),
    password: password === '' ? undefined : password,
    thumbnail: opt<string>('thumbnail'),
    order: opt<number>('order'),
    hidden: opt<boolean>('hidden') ?? false,
    isCollection: opt<boolean>('isCollection') ?? false,
    allowAnonymous: opt<boolean>('allowAnonymous') ?? false,
    style: opt<AlbumStyle>('style') ?? 'grid',
    sort: opt<AlbumSort>('sort') ?? 'name',
    token: opt<string>('token'),
    hideLocation: opt<boolean>('hideLocation'),
    description: opt<string>('description') || undefined,
    date: opt<string>('date'),
    captions: new Map(Object.entries(opt<Record<string, string>>('captions') ?? {})),
    rotations: rotationsOf(opt<Record<string, Rotation>>('rotations')),
    // Checked above: a list that does not parse has already been refused.
    shareLinks: parseShareLinks(opt('shareLinks')) ?? [],
  });
}
