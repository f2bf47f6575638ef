import type { CookieOptions, Request, Response } from 'express';
import { isWellFormedToken } from '../../core/albums/album-record.js';

export const ACCESS_COOKIE = 'album-access';
const COOKIE_MAX_AGE_MS = 86_400_000;
/** Bounds what one visitor can make us compare per request. */
const MAX_TOKENS = 64;

/** The rule album.json's tokens follow too: every token an album can have, a visitor can hold. */
const isToken = isWellFormedToken;

/** Tokens of the `album-access` cookie; anything malformed reads as none. */
export function cookieTokens(req: Request): string[] {
  const raw: unknown = req.cookies?.[ACCESS_COOKIE];
  if (typeof raw !== 'string') return [];
  try {
    const parsed: unknown = JSON.parse(raw);
    return Array.isArray(parsed) ? parsed.filter(isToken).slice(-MAX_TOKENS) : [];
  } catch {
    return [];
  }
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

/** Adds tokens to the visitor's cookie, keeping the ones held (newest last, bounded). */
export function grantTokens(req: Request, res: Response, production: boolean, tokens: readonly string[]): string[] {
  const merged = [...cookieTokens(req).filter((t) => !tokens.includes(t)), ...tokens].slice(-MAX_TOKENS);
  res.cookie(ACCESS_COOKIE, JSON.stringify(merged), cookieOptions(production));
  return merged;
}
