import crypto from 'node:crypto';
import { type Request, type Response, Router } from 'express';
import type { SiteIcons } from '../../media/site-icons.js';
import { ICON_SIZES, type IconSize, identityTag, manifestOf, type SiteIdentity, siteIconSvg, themeCss } from '../pages/site-identity.js';
import { PUBLIC_IMMUTABLE } from './originals.js';
import { setDocumentHeadersByType } from '../../http/security-headers.js';

/**
 * A versioned URL (the one the pages link, `?v=` the identity's tag) is cached for a year; any
 * other asks again each time, with an ETag, so an old link never keeps an old icon. The SVG
 * and the manifest are documents, the stylesheet is not (server/http/security-headers.ts).
 */
function sendText(req: Request, res: Response, tag: string, type: string, body: string): void {
  setDocumentHeadersByType(res, type);
  const etag = `"${crypto.createHash('sha1').update(body).digest('base64url')}"`;
  res.set({ 'Cache-Control': req.query.v === tag ? PUBLIC_IMMUTABLE : 'no-cache', ETag: etag });
  if (req.fresh) return void res.status(304).end();
  res.type(type).send(body);
}

/**
 * The site's identity as files (docs/api.md#site-identity): the favicon, the stylesheet of the
 * accent colour, the web app manifest and its PNG icons.
 */
export function createSiteIdentityRouter(deps: { readonly identity: SiteIdentity; readonly icons: SiteIcons }): Router {
  const router = Router();
  const tag = () => identityTag(deps.identity.view);

  router.get('/favicon.svg', (req, res) => sendText(req, res, tag(), 'image/svg+xml', siteIconSvg(deps.identity.view, { rounded: true })));
  router.get('/site-theme.css', (req, res) => sendText(req, res, tag(), 'text/css', themeCss(deps.identity.view)));
  router.get('/manifest.webmanifest', (req, res) =>
    sendText(req, res, tag(), 'application/manifest+json', `${JSON.stringify(manifestOf(deps.identity.view), null, 2)}\n`),
  );

  router.get('/icons/:file', async (req, res, next) => {
    const size = Number(/^icon-(\d+)\.png$/.exec(req.params.file)?.[1]);
    if (!(ICON_SIZES as readonly number[]).includes(size)) return next();
    const file = await deps.icons.png(siteIconSvg(deps.identity.view, { rounded: false }), size as IconSize);
    res.sendFile(file, {
      etag: true,
      lastModified: false,
      cacheControl: false,
      headers: { 'Cache-Control': req.query.v === tag() ? PUBLIC_IMMUTABLE : 'no-cache' },
    });
  });

  return router;
}
