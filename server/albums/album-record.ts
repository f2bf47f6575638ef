/** The album metadata record of SPEC "Album metadata record", as read from `album.json`. */

export const ALBUM_STYLES = ['grid', 'masonry', 'single'] as const;
export type AlbumStyle = (typeof ALBUM_STYLES)[number];

export interface AlbumMeta {
  readonly title: string;
  /** Undefined when absent or empty: an empty password protects nothing (CONTRACT §3). */
  readonly password: string | undefined;
  readonly thumbnail: string | undefined;
  readonly order: number | undefined;
  readonly hidden: boolean;
  readonly isCollection: boolean;
  readonly allowAnonymous: boolean;
  readonly style: AlbumStyle;
  /** Undefined only before the index has generated one. */
  readonly token: string | undefined;
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

const FIELD_CHECKS: Readonly<Record<string, [FieldCheck, string]>> = {
  title: [(v) => typeof v === 'string' && v.trim() !== '', 'a non-empty string'],
  password: [isString, 'a string'],
  thumbnail: [isString, 'a string'],
  order: [isNumber, 'a finite number'],
  hidden: [isBoolean, 'a boolean'],
  isCollection: [isBoolean, 'a boolean'],
  allowAnonymous: [isBoolean, 'a boolean'],
  style: [(v) => (ALBUM_STYLES as readonly unknown[]).includes(v), `one of ${ALBUM_STYLES.join(', ')}`],
  token: [(v) => typeof v === 'string' && v.trim() !== '', 'a non-empty string'],
};

export const ALBUM_FIELDS = Object.keys(FIELD_CHECKS);

/**
 * Checks the fields present in `input` (all optional here) and returns a list of problems,
 * each naming the field: "style must be one of grid, masonry, single".
 * Unknown fields are reported too, so a typo ("passwrod") is not silently ignored.
 */
export function checkAlbumFields(input: Record<string, unknown>): string[] {
  const problems: string[] = [];
  for (const [key, value] of Object.entries(input)) {
    const check = FIELD_CHECKS[key];
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

/** Parses and validates the text of an `album.json`, applying the SPEC defaults. */
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
  if (raw.title === undefined) throw new AlbumRecordError('title is required');
  const problems = checkAlbumFields(raw).filter((p) => !p.startsWith('unknown field'));
  if (problems.length > 0) throw new AlbumRecordError(problems.join('; '));
  const opt = <T>(v: unknown) => (v === null || v === undefined ? undefined : (v as T));
  const password = opt<string>(raw.password);
  return Object.freeze({
    title: (raw.title as string).trim(),
    password: password === '' ? undefined : password,
    thumbnail: opt<string>(raw.thumbnail),
    order: opt<number>(raw.order),
    hidden: opt<boolean>(raw.hidden) ?? false,
    isCollection: opt<boolean>(raw.isCollection) ?? false,
    allowAnonymous: opt<boolean>(raw.allowAnonymous) ?? false,
    style: opt<AlbumStyle>(raw.style) ?? 'grid',
    token: opt<string>(raw.token),
  });
}
