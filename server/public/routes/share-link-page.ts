import { type Request, type Response, Router } from 'express';
import { liveLink } from '../../core/access/secret-directory.js';
import type { AlbumIndex } from '../../core/albums/album-index.js';
import type { LinkVisits } from '../access/link-visits.js';
import { attemptState, LOCKOUT_MS, type PasswordLimiter } from '../access/password-limiter.js';
import { addressLinkId, grantLink } from '../access/tokens.js';
import type { AlbumPages } from '../pages/album-page.js';

/** The one answer to an unknown, expired or revoked link: the same status and page for all three. */
export const LINK_GONE = {
  status: 404,
  heading: 'This link no longer works',
  message: 'This link has expired or was revoked: ask the person who sent it.',
} as const;

export interface ShareLinkPageDeps {
  readonly index: Pick<AlbumIndex, 'root'>;
  /** The password lockout: a link that opens nothing counts as a failed attempt. */
  readonly limiter: Pick<PasswordLimiter, 'middleware'>;
  readonly render: AlbumPages['render'];
  readonly linkVisits: LinkVisits;
  readonly production: boolean;
}

/**
 * GET /s/{id} (docs/api.md#share-links): the album of a share link, rendered at the link's own
 * address (no redirect: a bookmark or a home-screen launch keeps `/s/<id>`, which opens the
 * album again whatever became of the cookie). The link joins the `album-links` cookie, which
 * lets the album's media, child albums and other pages open. Guessing is limited like
 * passwords: a link that opens nothing is a failed attempt of the password lockout, and a
 * client locked out gets the lockout page without the link being looked at.
 */
export function createShareLinkRouter(deps: ShareLinkPageDeps): Router {
  const router = Router();
  router.get('/s/:id', deps.limiter.middleware, async function shareLinkPage(req, res) {
    const attempt = attemptState(res);
    if (attempt.rateLimited) return renderLockedOut(req, res);
    const id = addressLinkId(req);
    const found = id === undefined ? undefined : liveLink(deps.index.root, id);
    if (!found) {
      attempt.failed = true;
      return renderPage(res, LINK_GONE);
    }
    const now = Date.now();
    grantLink(req, res, deps.production, found.link.id, (held) => liveLink(deps.index.root, held, now) !== undefined);
    deps.linkVisits.record(req, found.link.id);
    await deps.render(req, res, found.album);
  });
  return router;
}

function renderPage(res: Response, page: { readonly status: number; readonly heading: string; readonly message: string }): void {
  res.status(page.status).set('Cache-Control', 'no-store').render('share-link', { heading: page.heading, message: page.message });
}

/** 429 with the time left, as the limiter computed it for this attempt. */
function renderLockedOut(req: Request, res: Response): void {
  const resetTime = (req as Request & { rateLimit?: { resetTime?: Date } }).rateLimit?.resetTime;
  const ms = resetTime ? resetTime.getTime() - Date.now() : LOCKOUT_MS;
  const minutes = Math.min(LOCKOUT_MS / 60_000, Math.max(1, Math.ceil(ms / 60_000)));
  res.set('Retry-After', String(Math.max(1, Math.ceil(ms / 1000))));
  renderPage(res, {
    status: 429,
    heading: 'Too many attempts',
    message: `Too many wrong links or passwords were tried from your network. Please retry in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
  });
}
