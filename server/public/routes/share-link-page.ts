import { type Request, type Response, Router } from 'express';
import { liveLink } from '../../core/access/secret-directory.js';
import type { AlbumIndex } from '../../core/albums/album-index.js';
import type { LinkVisits } from '../access/link-visits.js';
import type { PasswordLimiter, Standing } from '../access/password-limiter.js';
import { addressLinkId, grantLink } from '../access/tokens.js';
import type { AlbumPages } from '../pages/album-page.js';
import { lockoutEnd } from '../pages/lockout-notice.js';
import type { VisitorLanguage } from '../pages/visitor-language.js';
import type { Translator } from '../../http/i18n.js';

/** The one answer to an unknown, expired or revoked link: the same status and page for all three (its words: the catalogue's). */
export const LINK_GONE = {
  status: 404,
  heading: 'shareLink.goneTitle',
  message: 'shareLink.goneText',
} as const;

export interface ShareLinkPageDeps {
  readonly index: Pick<AlbumIndex, 'root'>;
  /** The password lockout: a link that opens nothing, asked for by a navigation, is a failed guess. */
  readonly limiter: Pick<PasswordLimiter, 'countGuess'>;
  readonly render: AlbumPages['render'];
  readonly linkVisits: LinkVisits;
  readonly production: boolean;
  /** The visitor's language (a lockout's end is written in it). */
  readonly language: VisitorLanguage;
  /** The photo frame of the link's album at `/s/<id>/frame` (server/public/pages/frame-page.ts); none without it. */
  readonly renderFrame?: AlbumPages['render'] | undefined;
}

/**
 * Whether the browser asks for the page itself, to show it in its tab: a top-level navigation
 * (`Sec-Fetch-Mode: navigate` to a document), or a client that sends no `Sec-Fetch-*` at all
 * (an older browser, curl). Another site's `<img>`, `fetch` or `<iframe>` pointing at /s/<id>
 * says otherwise, and is not a visitor typing or following a link.
 */
export function isTopLevelNavigation(req: Request): boolean {
  const mode = req.get('sec-fetch-mode');
  const dest = req.get('sec-fetch-dest');
  if (mode === undefined && dest === undefined && req.get('sec-fetch-site') === undefined && req.get('sec-fetch-user') === undefined) return true;
  return mode?.toLowerCase() === 'navigate' && (dest === undefined || dest.toLowerCase() === 'document');
}

/**
 * GET /s/{id} (docs/api.md#share-links): the album of a share link, rendered at the link's own
 * address (no redirect: a bookmark or a home-screen launch keeps `/s/<id>`, which opens the
 * album again whatever became of the cookie). The link joins the `album-links` cookie, which
 * lets the album's media, child albums and other pages open.
 *
 * A link that works always opens, even for an address locked out by wrong passwords: its id
 * is 144 random bits, a secret no one guesses, so the lockout has nothing to protect there.
 * A link that opens nothing, asked for by a top-level navigation, is a failed guess of the
 * password lockout; asked for any other way (an image or a frame on another site's page) it
 * is answered the same 404 uncounted, so no page can lock a household out by pointing at
 * `/s/` addresses. While locked out, a navigation to one gets the lockout page.
 */
export function createShareLinkRouter(deps: ShareLinkPageDeps): Router {
  const router = Router();
  const answer = (render: AlbumPages['render']) =>
    async function shareLinkPage(req: Request, res: Response) {
      const id = addressLinkId(req);
      const now = Date.now();
      const found = id === undefined ? undefined : liveLink(deps.index.root, id, now);
      if (found) {
        grantLink(req, res, deps.production, found.link.id, (held) => liveLink(deps.index.root, held, now) !== undefined);
        deps.linkVisits.record(req, found.link.id);
        return render(req, res, found.album);
      }
      const guess = isTopLevelNavigation(req) ? await deps.limiter.countGuess(req) : undefined;
      // Locked out before this guess: it was not looked at. (The guess that starts a lockout was, and failed.)
      if (guess && !guess.counted) return renderLockedOut(res, guess, deps.language(req));
      return renderPage(res, LINK_GONE);
    };
  router.get('/s/:id', answer(deps.render));
  // The link's photo frame (docs/api.md#photo-frame): the same answers, visits and cookie as its page.
  if (deps.renderFrame) router.get('/s/:id/frame', answer(deps.renderFrame));
  return router;
}

/** The page, its `heading` and `message` being keys of the catalogue (views/share-link.ejs writes them in the visitor's language). */
function renderPage(res: Response, page: { readonly status: number; readonly heading: string; readonly message: string }, locals = {}): void {
  res
    .status(page.status)
    .set('Cache-Control', 'no-store')
    // The switcher comes back to the albums: a link that opens nothing, asked for again, would be one more failed guess.
    .render('share-link', { heading: page.heading, message: page.message, pagePath: '/photos', ...locals });
}

/** 429 with the time left and the time it ends, as the limiter counted this attempt. */
function renderLockedOut(res: Response, standing: Standing, translator: Translator): void {
  res.set('Retry-After', String(Math.max(1, Math.ceil(standing.lockedOutMs / 1000))));
  renderPage(res, { status: 429, heading: 'shareLink.tooManyTitle', message: 'shareLink.tooManyText' }, { lockout: lockoutEnd(standing, translator) });
}
