import type { Request, RequestHandler, Response } from 'express';
import { liveLink } from '../../core/access/secret-directory.js';
import type { AlbumIndex } from '../../core/albums/album-index.js';
import { LANGUAGE_CODES, LANGUAGES } from '../../core/languages.js';
import { acceptedLanguage, chosenLanguage, type Translator, translatorFor } from '../../http/i18n.js';
import { addressLinkId, cookieLinkIds } from '../access/tokens.js';

/**
 * Which language a visitor reads the gallery in (README "Languages"), first that applies:
 * 1. their choice from the header's switcher (the `lang` cookie);
 * 2. the language of the share link they came with: the `/s/<id>` being opened, else the
 *    newest link of their `album-links` cookie that still works and names one (the owner
 *    picks it for Grandma, whose phone may say English);
 * 3. their browser's `Accept-Language`;
 * 4. the site's default language (site.json `language`).
 * Pages therefore depend on the Cookie and Accept-Language headers, and say so in `Vary`;
 * the page cache keeps one copy per language (page-cache.ts `pageKey`).
 */
export type VisitorLanguage = (req: Request) => Translator;

export interface VisitorLanguageDeps {
  readonly index: Pick<AlbumIndex, 'root'>;
  /** site.json's `language`, as the content store has it now. */
  readonly siteLanguage: () => string;
}

/** A share link's language: the link being opened first, then the cookie's newest first. */
function linkLanguage(req: Request, root: AlbumIndex['root']): string | undefined {
  const address = addressLinkId(req);
  const ids = cookieLinkIds(req).reverse();
  const now = Date.now();
  for (const id of address === undefined ? ids : [address, ...ids]) {
    const language = liveLink(root, id, now)?.link.language;
    if (language !== undefined) return language;
  }
  return undefined;
}

export function createVisitorLanguage(deps: VisitorLanguageDeps): VisitorLanguage {
  // Once per request: the page, its error page and the album-media API all ask.
  const decided = new WeakMap<Request, Translator>();
  return (req) => {
    let translator = decided.get(req);
    if (!translator) {
      const code = chosenLanguage(req, LANGUAGE_CODES) ?? linkLanguage(req, deps.index.root) ?? acceptedLanguage(req, LANGUAGE_CODES) ?? deps.siteLanguage();
      translator = translatorFor(code);
      decided.set(req, translator);
    }
    return translator;
  };
}

/** Says that the answer depends on the visitor's language: their cookies and their browser's. */
export function varyByLanguage(res: Response): void {
  res.vary('Accept-Language');
  res.vary('Cookie');
}

/** What every page's templates use of the language (views/partials/head.ejs and the others). */
export function languageLocals(translator: Translator): Record<string, unknown> {
  return {
    lang: translator.language.code,
    dir: translator.language.dir,
    t: translator.t,
    tHtml: translator.html,
    clientStrings: translator.clientStrings,
    languages: LANGUAGES,
  };
}

/**
 * Before the pages: the visitor's language in `res.locals` for every view rendered through
 * `res.render` (the error page included), and `Vary` saying what it depends on.
 */
export function languageMiddleware(language: VisitorLanguage): RequestHandler {
  return (req, res, next) => {
    Object.assign(res.locals, languageLocals(language(req)));
    varyByLanguage(res);
    next();
  };
}
