import { type Response, Router } from 'express';
import { badRequest, notFound } from '../../core/errors.js';
import { mediaKind } from '../../core/media-catalogue.js';
import { hasHiddenSegment, parseRelativePath } from '../../core/paths.js';
import { resolveExistingInside } from '../existing-file.js';
import type { AdminContext } from '../admin-context.js';
import { ASSET_KINDS, type AssetKind, assetsDir } from './site-assets.js';

/**
 * GET /media/{album path}/{file} and /content-assets/{hero|cards|landing}/{file}: the
 * originals, for the admin's own previews. Only media files inside their root are served,
 * never album.json (it holds the password) nor anything hidden.
 */
export function filePreviewRoutes(ctx: AdminContext): Router {
  const router = Router();

  async function sendMedia(res: Response, root: string, rawPath: unknown): Promise<void> {
    const joined = Array.isArray(rawPath) ? rawPath.join('/') : rawPath;
    const rel = parseRelativePath(joined, 'path');
    if (hasHiddenSegment(rel) || mediaKind(rel) === undefined) throw notFound('File not found');
    const file = await resolveExistingInside(root, rel);
    // Revalidated on every view (ETag/Last-Modified): a replaced photo shows at once.
    res.set('Cache-Control', 'no-cache');
    await new Promise<void>((resolve, reject) => {
      // The path was checked above; 'allow' only stops send from refusing a root that itself sits under a dot-folder.
      res.sendFile(file, { dotfiles: 'allow', lastModified: true }, (err) => {
        if (!err) return resolve();
        if (!res.headersSent) return reject(err);
        // Mid-stream: most often the page moved on and the browser dropped a preview. Nothing to answer.
        res.destroy();
        resolve();
      });
    });
  }

  router.get('/media/*filePath', async (req, res) => {
    await sendMedia(res, ctx.config.albumsDir, req.params.filePath);
  });

  router.get('/content-assets/:kind/*filePath', async (req, res) => {
    const kind = req.params.kind;
    if (!(ASSET_KINDS as readonly string[]).includes(kind)) throw badRequest('Invalid parameter: unknown asset folder');
    await sendMedia(res, assetsDir(ctx.config.contentDir, kind as AssetKind), req.params.filePath);
  });

  return router;
}
