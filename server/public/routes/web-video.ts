import { type Response, Router } from 'express';
import { HttpError, badRequest } from '../../core/errors.js';
import { createLocationPatcher, type LocationPatcher } from '../../media/location-patcher.js';
import type { WebVideoService } from '../../media/web-video.js';
import type { MediaResolver } from '../resolvers.js';
import { sendLocationFree } from './location-free-file.js';
import { PRIVATE_IMMUTABLE, PUBLIC_IMMUTABLE } from './originals.js';

export interface WebVideoRouterOptions {
  readonly webVideos: Pick<WebVideoService, 'request'>;
  /** Validates `path`, finds the file and enforces access (400/401/404). */
  readonly resolveMedia: MediaResolver;
  /** Patches the location out of the copies of videos of albums that hide it (one of its own when absent). */
  readonly locationPatcher?: LocationPatcher;
}

/** Seconds a browser is told to wait before asking again for a copy being made. */
export const PREPARING_RETRY_AFTER = 5;

/**
 * GET /api/web-video?path= (docs/api.md#get-apiweb-videopath): the copy of a video every
 * browser plays (a faststart remux or an H.264 rendition), served like an original (Range,
 * ETag, `private` for protected albums). Asking for one that is not made yet starts it and
 * answers 503 with Retry-After: the page lists the original as a source too, so a browser
 * moves on to what it can play meanwhile.
 */
export function createWebVideoRouter({ webVideos, resolveMedia, locationPatcher = createLocationPatcher() }: WebVideoRouterOptions): Router {
  const router = Router();
  router.get('/api/web-video', async function webVideo(req, res, next) {
    const media = await resolveMedia(req, req.query.path, 'view');
    if (media.kind !== 'video') throw badRequest('Invalid parameter: path must name a video');
    const status = await webVideos.request(media);
    if (status.state === 'none') throw new HttpError(404, 'This video plays as it is: it has no web copy');
    if (status.state === 'failed') throw new HttpError(500, 'The video could not be prepared');
    if (status.state === 'preparing' || status.file === undefined) {
      throw new HttpError(503, 'The video is being prepared', { headers: { 'Retry-After': String(PREPARING_RETRY_AFTER) } });
    }
    if (media.hideLocation) {
      // ffmpeg carries the original's location over into the copy (docs/api.md#location-privacy).
      const cacheControl = media.protected ? PRIVATE_IMMUTABLE : PUBLIC_IMMUTABLE;
      await sendLocationFree(req, res, { absPath: status.file, contentType: 'video/mp4', cacheControl }, locationPatcher);
      return;
    }
    sendCopy(res, status.file, media.protected, (err) => {
      // A visitor who stops a video or leaves the page is not a server error.
      if (!err || err.code === 'ECONNABORTED' || req.aborted || res.destroyed) return;
      if (!res.headersSent) next(err);
    });
  });
  return router;
}

function sendCopy(res: Response, file: string, isProtected: boolean, done: (err: (Error & { code?: string }) | undefined) => void): void {
  res.sendFile(
    file,
    {
      // The cache's files are dot-free, but CACHE_DIR itself may sit under a dot-directory.
      dotfiles: 'allow',
      etag: true,
      lastModified: true,
      cacheControl: false,
      headers: { 'Content-Type': 'video/mp4', 'Cache-Control': isProtected ? PRIVATE_IMMUTABLE : PUBLIC_IMMUTABLE },
    },
    done,
  );
}
