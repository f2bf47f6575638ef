import express, { Router } from 'express';
import { isLanguageCode } from '../../core/languages.js';
import { badRequest } from '../../core/errors.js';
import { LANGUAGE_COOKIE } from '../../http/i18n.js';
import { BODY_LIMIT, isSafeReturnUrl } from './password-routes.js';

/** A year: the choice is the visitor's until they make another (the switcher is on every page). */
const LANGUAGE_COOKIE_MAX_AGE_MS = 365 * 86_400_000;

export interface LanguageChoiceDeps {
  readonly production: boolean;
}

/**
 * POST /language (docs/api.md#languages): the header's switcher (views/partials/language.ejs)
 * posts `lang` and `back`, the page it was on. The choice is kept in the `lang` cookie, which
 * wins over everything else (server/public/pages/visitor-language.ts), and the browser goes
 * back to that page (303), or to /photos when `back` is not a path on this site. A language
 * the gallery does not have is a 400. Any site could post this form: all it can do is change
 * the language the visitor reads, so it is not refused as password attempts are.
 */
export function createLanguageChoiceRouter({ production }: LanguageChoiceDeps): Router {
  const router = Router();
  router.post('/language', express.urlencoded({ limit: BODY_LIMIT, extended: false }), (req, res) => {
    const body = req.body as Record<string, unknown> | undefined;
    const lang = body?.lang;
    if (!isLanguageCode(lang)) throw badRequest('Invalid parameter: lang must be a language of the gallery');
    const back = typeof body?.back === 'string' ? body.back : undefined;
    res.cookie(LANGUAGE_COOKIE, lang, { httpOnly: true, sameSite: 'lax', secure: production, path: '/', maxAge: LANGUAGE_COOKIE_MAX_AGE_MS });
    res.set('Cache-Control', 'no-store');
    res.redirect(303, isSafeReturnUrl(back) ? back : '/photos');
  });
  return router;
}
