import express, { type Request, type RequestHandler, type Response, Router } from 'express';
import { isCrossSite } from '../access/cross-site.js';
import { attemptState, type PasswordLimiter, remainingAttempts } from '../access/password-limiter.js';
import { resolveAccess } from '../../core/access/resolve-access.js';
import { safeEqual } from '../../core/access/safe-equal.js';
import { secretsOf } from '../../core/access/secret-directory.js';
import type { Visitor } from '../../core/access/visitor.js';
import { cookieTokens, grantTokens } from '../access/tokens.js';
import { visitorOf, visitorWith } from '../access/visitor.js';
import type { AlbumIndex } from '../../core/albums/album-index.js';
import type { Album } from '../../core/albums/album-tree.js';
import { badRequest, forbidden, missingParameter, notFound } from '../../core/errors.js';
import { parseRelativePath } from '../../core/paths.js';
import { albumPageUrl } from '../../core/urls.js';
import { hasControlCharacter } from '../../core/control-characters.js';

export const BODY_LIMIT = '100kb';
const RATE_LIMITED_MESSAGE = 'Too many failed attempts. Please retry in 15 minutes.';

export interface PasswordRoutesDeps {
  readonly index: AlbumIndex;
  readonly limiter: PasswordLimiter;
  readonly production: boolean;
}

function requireType(type: 'json' | 'urlencoded'): RequestHandler {
  const mime = type === 'json' ? 'application/json' : 'application/x-www-form-urlencoded';
  return (req, _res, next) => next(req.is(mime) ? undefined : badRequest(`Content-Type must be ${mime}`));
}

function stringField(body: Record<string, unknown> | undefined, name: string, required: boolean): string | undefined {
  const v = body?.[name];
  if (v === undefined || v === '') {
    if (required) throw missingParameter(name);
    return undefined;
  }
  if (typeof v !== 'string') throw badRequest(`Invalid parameter: ${name} must be a string`);
  return v;
}

/**
 * Any web page can post a form to /api/unlock: were its wrong guesses counted, a page the
 * visitor happens to open could lock the whole household (one IP) out. A password attempt
 * from another site is refused before the limiter sees it; the album's own page is same-origin.
 */
const refuseCrossSite: RequestHandler = (req, _res, next) =>
  next(isCrossSite(req) ? forbidden('Password attempts from another site are refused: unlock the album from its own page') : undefined);

/** The album named by `albumPath`, or a 400/404. */
function albumFrom(index: AlbumIndex, body: Record<string, unknown> | undefined): Album {
  const albumPath = parseRelativePath(stringField(body, 'albumPath', true), 'albumPath');
  const album = index.album(albumPath);
  if (!album) throw notFound('Album not found');
  return album;
}

/**
 * Only a path on this site is a safe place to send a visitor after unlocking: one leading
 * slash, no backslash or control character, and the same origin once resolved.
 */
export function isSafeReturnUrl(url: string | undefined): url is string {
  if (!url?.startsWith('/') || url.startsWith('//')) return false;
  if (url.includes('\\') || hasControlCharacter(url)) return false;
  try {
    return new URL(url, 'http://gallery.invalid').origin === 'http://gallery.invalid';
  } catch {
    return false;
  }
}

type Outcome = { kind: 'open' } | { kind: 'unlocked'; tokens: string[] } | { kind: 'wrong'; blocking: Album } | { kind: 'rate-limited' };

/**
 * The password check shared by the three endpoints (docs/api.md#password-endpoints): the password is compared
 * with the album that blocks access; an attempt counts only when it is wrong. Only the tokens
 * `visitor` holds say whether something blocks (a share link's visitor may still want the
 * full access of the password), and a token written by hand opens nothing here while the
 * address is locked out, as everywhere.
 */
function checkPassword(req: Request, res: Response, deps: PasswordRoutesDeps, album: Album, password: string, visitor: Visitor): Outcome {
  const tokensOnly: Visitor = {
    held: visitor.held,
    urlToken: undefined,
    get handWrittenTokensOpen() {
      return visitor.handWrittenTokensOpen;
    },
  };
  const access = resolveAccess(album, tokensOnly);
  if (access.granted) return { kind: 'open' };
  const state = attemptState(res);
  if (state.rateLimited) return { kind: 'rate-limited' };
  if (!safeEqual(password, access.blocking.meta.password ?? '')) {
    state.failed = true;
    return { kind: 'wrong', blocking: access.blocking };
  }
  void deps.limiter.clear(req);
  return { kind: 'unlocked', tokens: [access.blocking.meta.token] };
}

function rateLimitedBody() {
  return { success: false, error: RATE_LIMITED_MESSAGE, rateLimited: true };
}

export function createPasswordRouter(deps: PasswordRoutesDeps): Router {
  const router = Router();
  const json = [refuseCrossSite, requireType('json'), express.json({ limit: BODY_LIMIT })];
  const form = [refuseCrossSite, requireType('urlencoded'), express.urlencoded({ limit: BODY_LIMIT, extended: false })];
  const limit = deps.limiter.middleware;

  router.post('/api/unlock', ...form, limit, (req, res) => {
    const body = req.body as Record<string, unknown> | undefined;
    const album = albumFrom(deps.index, body);
    const password = stringField(body, 'password', true)!;
    const returnUrl = stringField(body, 'returnUrl', false);
    const target = albumPageUrl(album.path);
    const outcome = checkPassword(req, res, deps, album, password, visitorOf(req));
    switch (outcome.kind) {
      case 'rate-limited':
        return res.redirect(302, `${target}?error=rate-limited`);
      case 'wrong':
        return res.redirect(302, `${target}?error=wrong-password`);
      case 'unlocked':
        grantTokens(req, res, deps.production, outcome.tokens);
        break;
      case 'open':
        break;
    }
    return res.redirect(302, isSafeReturnUrl(returnUrl) ? returnUrl : target);
  });

  router.post('/api/check-password', ...json, limit, (req, res) => {
    const body = req.body as Record<string, unknown> | undefined;
    const album = albumFrom(deps.index, body);
    const password = stringField(body, 'password', true)!;
    const outcome = checkPassword(req, res, deps, album, password, visitorOf(req));
    if (outcome.kind === 'rate-limited') return res.status(429).json(rateLimitedBody());
    if (outcome.kind === 'wrong') return res.status(401).json({ success: false, error: 'Wrong password', remainingAttempts: remainingAttempts(req) });
    if (outcome.kind === 'unlocked') grantTokens(req, res, deps.production, outcome.tokens);
    return res.json({ success: true });
  });

  // Only requests that carry a password go through the limiter: asking is never an attempt.
  const limitWithPassword: RequestHandler = (req, res, next) =>
    (req.body as Record<string, unknown> | undefined)?.password !== undefined ? limit(req, res, next) : next();

  router.post('/api/check-access', ...json, limitWithPassword, (req, res) => {
    const body = req.body as Record<string, unknown> | undefined;
    const album = albumFrom(deps.index, body);
    const password = stringField(body, 'password', false);
    const provided = stringField(body, 'providedToken', false);
    const listed = body?.unlockedTokens ?? [];
    if (!Array.isArray(listed) || !listed.every((t) => typeof t === 'string'))
      throw badRequest('Invalid parameter: unlockedTokens must be an array of strings');
    const bodyTokens = (listed as string[]).slice(0, 64);
    // The listed tokens and the provided one are guesses like the cookie's: one that opens
    // nothing counts once for the request (visitor.ts), and leaves the list answered.
    const visitor = visitorWith(req, { held: bodyTokens, urlToken: provided });

    const respondGranted = (granted: string[]) => {
      const fresh = granted.filter((t) => !cookieTokens(req).includes(t));
      if (fresh.length > 0) grantTokens(req, res, deps.production, fresh);
      const secrets = secretsOf(deps.index.root);
      const kept = bodyTokens.filter((t) => secrets.albumsWithToken(t).length > 0);
      return res.json({ success: true, unlockedTokens: [...new Set([...kept, ...granted])] });
    };

    const access = resolveAccess(album, visitor);
    if (access.granted) return respondGranted(access.viaUrlToken ? [access.viaUrlToken] : []);
    const blocked = { success: false, requiresPassword: true, blockingAlbum: { path: access.blocking.path, title: access.blocking.meta.title } };
    if (password === undefined) return res.status(401).json(blocked);
    const outcome = checkPassword(req, res, deps, album, password, visitor);
    if (outcome.kind === 'rate-limited') return res.status(429).json(rateLimitedBody());
    if (outcome.kind === 'wrong') {
      return res
        .status(401)
        .json({ ...blocked, blockingAlbum: { path: outcome.blocking.path, title: outcome.blocking.meta.title }, remainingAttempts: remainingAttempts(req) });
    }
    // Holding the blocking album's token opens the chain: nearer albums have no password.
    return respondGranted(outcome.kind === 'unlocked' ? outcome.tokens : []);
  });

  return router;
}
