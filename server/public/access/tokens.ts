import type { CookieOptions, Request, Response } from 'express';
import { isWellFormedToken } from '../../core/albums/album-record.js';
import { isShareLinkId } from '../../core/albums/share-links.js';

export const ACCESS_COOKIE = 'album-access';
const COOKIE_MAX_AGE_MS = 86_400_000;
/** Bounds what one visitor can make us compare per request. */
const MAX_TOKENS = 64;

/** The rule album.json's tokens follow too: every token an album can have, a visitor can hold. */
const isToken = isWellFormedToken;

/** Tokens this request's answer took out of its cookie (dropTokens). */
const dropped = new WeakMap<Request, ReadonlySet<string>>();

/** Tokens of the `album-access` cookie (less those the answer dropped); anything malformed reads as none. */
export function cookieTokens(req: Request): string[] {
  const raw: unknown = req.cookies?.[ACCESS_COOKIE];
  if (typeof raw !== 'string') return [];
  let tokens: string[];
  try {
    const parsed: unknown = JSON.parse(raw);
    tokens = Array.isArray(parsed) ? parsed.filter(isToken).slice(-MAX_TOKENS) : [];
  } catch {
    return [];
  }
  const gone = dropped.get(req);
  return gone ? tokens.filter((t) => !gone.has(t)) : tokens;
}

/** Tokens a request holds: the cookie plus the `X-Album-Token` header. */
export function heldTokens(req: Request): string[] {
  const header = req.get('x-album-token');
  const tokens = cookieTokens(req);
  return isToken(header) ? [...tokens, header] : tokens;
}

/** The `token` query parameter (a share link), when it is a single plausible string. */
export function urlToken(req: Request): string | undefined {
  const t = req.query.token;
  return isToken(t) ? t : undefined;
}

export function cookieOptions(production: boolean): CookieOptions {
  return { httpOnly: true, secure: production, sameSite: 'strict', maxAge: COOKIE_MAX_AGE_MS, path: '/' };
}

/** Sets the `album-access` cookie to `tokens`, in place of one set earlier in this answer; an empty list removes it. */
function writeAccessCookie(res: Response, production: boolean, tokens: readonly string[]): void {
  const earlier = res.getHeader('Set-Cookie');
  if (Array.isArray(earlier))
    res.setHeader(
      'Set-Cookie',
      earlier.filter((c) => !c.startsWith(`${ACCESS_COOKIE}=`)),
    );
  else if (typeof earlier === 'string' && earlier.startsWith(`${ACCESS_COOKIE}=`)) res.removeHeader('Set-Cookie');
  const { maxAge: _session, ...path } = cookieOptions(production);
  if (tokens.length === 0) res.clearCookie(ACCESS_COOKIE, path);
  else res.cookie(ACCESS_COOKIE, JSON.stringify(tokens), cookieOptions(production));
}

/** Adds tokens to the visitor's cookie, keeping the ones held (newest last, bounded). */
export function grantTokens(req: Request, res: Response, production: boolean, tokens: readonly string[]): string[] {
  const merged = [...cookieTokens(req).filter((t) => !tokens.includes(t)), ...tokens].slice(-MAX_TOKENS);
  writeAccessCookie(res, production, merged);
  return merged;
}

/**
 * Takes `tokens` out of the visitor's cookie in this answer (tokens that open nothing: of a
 * cookie older than a rotation, or guesses), so they are neither sent nor counted again. A
 * grant later in the same answer keeps them out.
 */
export function dropTokens(req: Request, res: Response, production: boolean, tokens: readonly string[]): void {
  const held = cookieTokens(req);
  const gone = new Set(tokens);
  if (!held.some((t) => gone.has(t))) return;
  dropped.set(req, new Set([...(dropped.get(req) ?? []), ...gone]));
  if (!res.headersSent) writeAccessCookie(res, production, cookieTokens(req));
}

// Share links per recipient (docs/api.md#share-links).

export const LINKS_COOKIE = 'album-links';
/**
 * Long: the cookie only saves typing the address again; every request is checked against the
 * album's links, so a revoked or expired link stops working whatever the cookie says.
 * 400 days is the longest a browser keeps a cookie.
 */
const LINKS_COOKIE_MAX_AGE_MS = 400 * 86_400_000;
/** Links one visitor holds at most (the newest kept). */
export const MAX_LINKS = 32;

/** Ids of the `album-links` cookie; anything malformed reads as none. */
export function cookieLinkIds(req: Request): string[] {
  const raw: unknown = req.cookies?.[LINKS_COOKIE];
  if (typeof raw !== 'string') return [];
  try {
    const parsed: unknown = JSON.parse(raw);
    return Array.isArray(parsed) ? parsed.filter(isShareLinkId).slice(-MAX_LINKS) : [];
  } catch {
    return [];
  }
}

/** `/s/<id>`, with a query or a trailing slash (some apps add one), or an address below it (`/s/<id>/frame`), which acts with that link too. */
const LINK_ADDRESS = /^\/s\/([^/?#]*)(?:[/?#]|$)/;

/** The id of the `/s/<id>` address a request asks for, when it has the shape of one. */
export function addressLinkId(req: Request): string | undefined {
  const id = LINK_ADDRESS.exec(req.originalUrl)?.[1];
  return isShareLinkId(id) ? id : undefined;
}

/** Link ids a request holds: the cookie's, plus the one of the `/s/<id>` address it asks for. */
export function heldLinkIds(req: Request): string[] {
  const ids = cookieLinkIds(req);
  const addressed = addressLinkId(req);
  return addressed === undefined || ids.includes(addressed) ? ids : [...ids, addressed];
}

/**
 * Adds link `id` to the visitor's cookie, keeping the held links `stillWorks` accepts (newest
 * last, bounded): the cookie drops revoked and expired links as the visitor uses another.
 */
export function grantLink(req: Request, res: Response, production: boolean, id: string, stillWorks: (id: string) => boolean): void {
  const kept = cookieLinkIds(req).filter((held) => held !== id && stillWorks(held));
  const ids = [...kept, id].slice(-MAX_LINKS);
  res.cookie(LINKS_COOKIE, JSON.stringify(ids), { ...cookieOptions(production), maxAge: LINKS_COOKIE_MAX_AGE_MS });
}
