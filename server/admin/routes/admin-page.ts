import path from 'node:path';
import express, { Router } from 'express';
import type { AdminContext } from '../admin-context.js';

/** GET / (the admin UI, a page that drives the JSON API) and its script and stylesheet. */
export function adminPageRoutes(ctx: AdminContext, viewsDir: string): Router {
  const router = Router();

  router.use(
    '/assets/admin',
    express.static(path.join(viewsDir, 'assets', 'admin'), { index: false, fallthrough: false, setHeaders: (res) => res.set('Cache-Control', 'no-cache') }),
  );

  router.get('/', (_req, res) => {
    res.set('Cache-Control', 'no-store');
    res.render('index', {
      // Share links point at the public server; the page lets the owner change this address.
      publicBaseUrl: `http://localhost:${ctx.config.port}`,
      albumsDir: ctx.config.albumsDir,
      contentDir: ctx.config.contentDir,
    });
  });

  return router;
}
