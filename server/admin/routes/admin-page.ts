import path from 'node:path';
import express, { Router } from 'express';
import { MEDIA_EXTENSIONS, WEB_IMAGE_EXTENSIONS } from '../../core/media-catalogue.js';
import type { AdminContext } from '../admin-context.js';
import { LANGUAGES } from '../../core/languages.js';
import { translatorFor } from '../../http/i18n.js';

/** GET / (the admin UI, a page that drives the JSON API) and its script and stylesheet. */
export function adminPageRoutes(ctx: AdminContext, viewsDir: string): Router {
  const router = Router();

  router.use(
    '/assets/admin',
    express.static(path.join(viewsDir, 'assets', 'admin'), { index: false, fallthrough: false, setHeaders: (res) => res.set('Cache-Control', 'no-cache') }),
  );

  // The one module the admin's scripts share with the public site (dom.js imports it): how a
  // size is written, so a file shows the same size on both.
  router.get('/assets/byte-size.js', (_req, res) => {
    res.set('Cache-Control', 'no-cache').sendFile(path.join(viewsDir, 'assets', 'byte-size.js'));
  });
  // And how the scripts read their words, rendered into the page in the owner's language (views/assets/strings.js).
  router.get('/assets/strings.js', (_req, res) => {
    res.set('Cache-Control', 'no-cache').sendFile(path.join(viewsDir, 'assets', 'strings.js'));
  });

  router.get('/', (_req, res) => {
    res.set('Cache-Control', 'no-store');
    res.render('index', {
      // Where share links point while no public address is stored (CONTENT_DIR/site.json): the
      // gallery on this computer, which the page warns opens for nobody else.
      publicBaseUrl: `http://localhost:${ctx.config.port}`,
      albumsDir: ctx.config.albumsDir,
      contentDir: ctx.config.contentDir,
      // The page's file pickers and upload routing take the server's list (views/assets/admin/media-types.js).
      mediaExtensions: { ...MEDIA_EXTENSIONS, web: WEB_IMAGE_EXTENSIONS },
      // The languages a share link and the site may be shown in (server/core/languages.ts).
      languages: LANGUAGES.map(({ code, name }) => ({ code, name })),
      // The message that hands a link over, in every language: it is read by the person it is for (views/assets/admin/handover.js).
      handovers: Object.fromEntries(LANGUAGES.map((l) => [l.code, { locale: l.locale, strings: translatorFor(l.code).part('handover') }])),
    });
  });

  return router;
}
