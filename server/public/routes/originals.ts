import type { RequestHandler } from 'express';
import { contentTypeOf } from '../../core/media-catalogue.js';
import { decodeUrlPath } from '../../core/paths.js';
import type { MediaResolver } from '../resolvers.js';

export const PUBLIC_IMMUTABLE = 'public, max-age=31536000, immutable';
export const PRIVATE_IMMUTABLE = 'private, max-age=31536000, immutable';

/**
 * GET /albums/{path}: an original photo or video. `res.sendFile` (send) answers Range,
 * If-None-Match and If-Modified-Since; the resolver has already checked path and access.
 */
export function originalsHandler(resolveMedia: MediaResolver): RequestHandler {
  return async function serveOriginal(req, res, next) {
    const media = await resolveMedia(req, decodeUrlPath(req.path.replace(/^\/albums\//, '')), 'original');
    res.sendFile(
      media.absPath,
      {
        dotfiles: 'allow',
        etag: true,
        lastModified: true,
        cacheControl: false,
        headers: {
          'Content-Type': contentTypeOf(media.relPath) ?? 'application/octet-stream',
          'Cache-Control': media.protected ? PRIVATE_IMMUTABLE : PUBLIC_IMMUTABLE,
        },
      },
      (err: (Error & { code?: string }) | undefined) => {
        // A visitor who stops a video or leaves the page is not a server error.
        if (!err || err.code === 'ECONNABORTED' || req.aborted || res.destroyed) return;
        if (!res.headersSent) next(err);
      },
    );
  };
}
