import crypto from 'node:crypto';
import { hasControlCharacter } from '../control-characters.js';
import { isLanguageCode, LANGUAGE_CODES } from '../languages.js';

/**
 * The share links of an album (docs/api.md#share-links): `"shareLinks"` in its `album.json`,
 * each opening the album (and its children without a password of their own) for whoever holds
 * its id, until it expires or is removed.
 */
export interface ShareLink {
  /** At least 128 random bits, base64url: the secret of the link's address `/s/<id>`. */
  readonly id: string;
  /** Who it was made for ("Grandma"): shown in the admin only. */
  readonly name: string;
  /** ISO 8601 time it was made. */
  readonly created: string;
  /** As written in album.json; undefined for a link that never expires. */
  readonly expires: string | undefined;
  /** When it stops working, in ms since the epoch (from `expires`). */
  readonly expiresAt: number | undefined;
  /** Whether originals of photos, their full-size JPEGs and the ZIP may be downloaded through it. */
  readonly downloads: boolean;
  /**
   * ISO 8601 time the album's token was rotated, revoking it with every unlock (undefined while
   * it works): kept in the list so the owner sees what the rotation closed, never opens again.
   */
  readonly revoked: string | undefined;
  /**
   * The language its pages are shown in (server/core/languages.ts), chosen by the owner for the
   * person it is for; undefined: their browser's. A visitor's own choice in the header wins.
   */
  readonly language: string | undefined;
}

/** 16 bytes are 22 base64url characters: shorter ids cannot hold 128 random bits. */
const ID_SHAPE = /^[A-Za-z0-9_-]{22,64}$/;
export const MAX_SHARE_LINK_NAME = 100;
/** `2025-06-01T18:00:00Z`, `2025-06-01T18:00:00.000+02:00`, or a day alone: `2025-06-01`. */
const TIME_SHAPE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?(?:Z|[+-]\d{2}:\d{2})$/;
const DAY_SHAPE = /^\d{4}-\d{2}-\d{2}$/;
const DAY_MS = 86_400_000;

export const SHARE_LINKS_RULE = `a list of share links {id (22 to 64 base64url characters, each id once), name (1 to 100 characters), created (an ISO 8601 time), expires (optional ISO 8601 time or day), downloads (a boolean), revoked (optional ISO 8601 time), language (optional: ${LANGUAGE_CODES.join(', ')})}`;

/** An id of the shape every link id has: what a `/s/<id>` address or the `album-links` cookie may carry. */
export function isShareLinkId(v: unknown): v is string {
  return typeof v === 'string' && ID_SHAPE.test(v);
}

/** A new link id: 144 random bits, 24 base64url characters. */
export function newShareLinkId(): string {
  return crypto.randomBytes(18).toString('base64url');
}

export function isShareLinkName(v: unknown): v is string {
  return typeof v === 'string' && v.trim() !== '' && v.length <= MAX_SHARE_LINK_NAME && !hasControlCharacter(v);
}

/**
 * The instant an `expires` value stands for, or undefined when it is not one. A day alone
 * means the link works through that day (UTC), the way a date on a ticket is read.
 */
export function expiryTime(v: unknown): number | undefined {
  if (typeof v !== 'string') return undefined;
  if (DAY_SHAPE.test(v)) {
    const start = Date.parse(`${v}T00:00:00Z`);
    return Number.isFinite(start) ? start + DAY_MS : undefined;
  }
  return timeOf(v);
}

/** The instant of an ISO 8601 time with its zone (`created`), or undefined. */
export function timeOf(v: unknown): number | undefined {
  if (typeof v !== 'string' || !TIME_SHAPE.test(v)) return undefined;
  const t = Date.parse(v);
  return Number.isFinite(t) ? t : undefined;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function toShareLink(v: unknown): ShareLink | undefined {
  if (!isObject(v)) return undefined;
  const field = (key: string) => (Object.hasOwn(v, key) ? v[key] : undefined);
  const [id, name, created, expires, downloads, revoked, language] = ['id', 'name', 'created', 'expires', 'downloads', 'revoked', 'language'].map(field);
  if (!isShareLinkId(id) || !isShareLinkName(name) || timeOf(created) === undefined || typeof downloads !== 'boolean') return undefined;
  if (expires !== undefined && expires !== null && expiryTime(expires) === undefined) return undefined;
  if (revoked !== undefined && revoked !== null && timeOf(revoked) === undefined) return undefined;
  if (language !== undefined && language !== null && !isLanguageCode(language)) return undefined;
  const expiresAt = expires === undefined || expires === null ? undefined : expiryTime(expires);
  return Object.freeze({
    id,
    name,
    created: created as string,
    expires: expiresAt === undefined ? undefined : (expires as string),
    expiresAt,
    downloads,
    revoked: revoked === undefined || revoked === null ? undefined : (revoked as string),
    language: language === undefined || language === null ? undefined : (language as string),
  });
}

/** The links of an album.json's `shareLinks`, or undefined when it is not a valid list (the album is then refused, as for any bad field). */
export function parseShareLinks(v: unknown): readonly ShareLink[] | undefined {
  if (v === undefined || v === null) return Object.freeze([]);
  if (!Array.isArray(v)) return undefined;
  const links: ShareLink[] = [];
  const ids = new Set<string>();
  for (const raw of v) {
    const link = toShareLink(raw);
    if (!link || ids.has(link.id)) return undefined;
    ids.add(link.id);
    links.push(link);
  }
  return Object.freeze(links);
}

/**
 * A link works until its expiry, unless a rotation of its album's token revoked it. (Revoking
 * one link alone removes it from album.json: then it is not found at all.)
 */
export function isLive(link: ShareLink, now: number): boolean {
  return link.revoked === undefined && (link.expiresAt === undefined || now < link.expiresAt);
}

/** The link as album.json stores it (no derived fields). */
export function shareLinkRecord(
  link: Pick<ShareLink, 'id' | 'name' | 'created' | 'expires' | 'downloads'> & {
    readonly revoked?: string | undefined;
    readonly language?: string | undefined;
  },
): Record<string, unknown> {
  return {
    id: link.id,
    name: link.name,
    created: link.created,
    ...(link.expires === undefined ? {} : { expires: link.expires }),
    downloads: link.downloads,
    ...(link.revoked === undefined ? {} : { revoked: link.revoked }),
    ...(link.language === undefined ? {} : { language: link.language }),
  };
}

/**
 * The `shareLinks` of an album.json record being edited, with every link not revoked yet
 * marked revoked at `at` (the token's rotation), the other fields of each kept as written; and
 * how many of them worked until then (expired ones did not). A list that does not read is
 * left as it is (the album is refused by its validation anyway).
 */
export function revokeAllLinks(raw: unknown, at: Date): { readonly links: unknown; readonly revoked: number } {
  const parsed = Array.isArray(raw) ? parseShareLinks(raw) : undefined;
  if (!Array.isArray(raw) || !parsed) return { links: raw, revoked: 0 };
  let revoked = 0;
  const links = raw.map((link: Record<string, unknown>, i) => {
    const read = parsed[i]!;
    if (read.revoked !== undefined) return link;
    if (isLive(read, at.getTime())) revoked++;
    return { ...link, revoked: at.toISOString() };
  });
  return { links, revoked };
}
