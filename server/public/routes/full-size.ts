import { Router } from 'express';
import { badRequest, notFound } from '../../core/errors.js';
import { isViewableImage } from '../../core/media-catalogue.js';
import type { FullSizeCache } from '../../media/full-size.js';
import type { MediaResolver } from '../resolvers.js';
import { PRIVATE_IMMUTABLE, PUBLIC_IMMUTABLE } from './originals.js';

/**
 * GET /api/full-size?path= (docs/api.md#get-apifull-sizepath): the full-size JPEG of a photo
 * browsers cannot display (HEIC, TIFF), or of one the owner turned in album.json
 * (docs/api.md#rotations), for the viewer's "full resolution". Other photos have none: their
 * original is the full resolution. Page URLs carry `&v=` the
 * original's version, as thumbnails' do, so the answer is immutable.
 */
export function createFullSizeRouter({ fullSize, resolveMedia }: { fullSize: FullSizeCache; resolveMedia: MediaResolver }): Router {
  const router = Router();
  router.get('/api/full-size', async function fullSizeJpeg(req, res, next) {
    const media = await resolveMedia(req, req.query.path, 'original');
    if (media.kind !== 'image') throw badRequest('Invalid parameter: path must name an image');
    if (isViewableImage(media.relPath) && media.rotation === 0) throw notFound('This photo has no full-size JPEG: browsers show its original');
    const file = await fullSize.open(media);
    res.sendFile(
      file.path,
      {
        dotfiles: 'allow',
        etag: true,
        lastModified: false,
        cacheControl: false,
        headers: { 'Content-Type': 'image/jpeg', 'Cache-Control': media.protected ? PRIVATE_IMMUTABLE : PUBLIC_IMMUTABLE },
      },
      (err: (Error & { code?: string }) | undefined) => {
        if (!err || err.code === 'ECONNABORTED' || req.aborted || res.destroyed) return;
        if (!res.headersSent) next(err);
      },
    );
  });
  return router;
}
