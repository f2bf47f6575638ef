import type { RequestHandler } from 'express';
import { contentTypeOf } from '../../core/media-catalogue.js';
import { decodeUrlPath } from '../../core/paths.js';
import { createLocationPatcher, type LocationPatcher } from '../../media/location-patcher.js';
import type { MediaResolver } from '../resolvers.js';
import { sendLocationFree } from './location-free-file.js';

export const PUBLIC_IMMUTABLE = 'public, max-age=31536000, immutable';
export const PRIVATE_IMMUTABLE = 'private, max-age=31536000, immutable';

/**
 * GET /albums/{path}: an original photo or video. `res.sendFile` (send) answers Range,
 * If-None-Match and If-Modified-Since; the resolver has already checked path and access.
 * In an album that hides locations, the file goes out with its location patched out, with
 * the same length and the same answers to Range (docs/api.md#location-privacy).
 */
export function originalsHandler(resolveMedia: MediaResolver, locationPatcher: LocationPatcher = createLocationPatcher()): RequestHandler {
  return async function serveOriginal(req, res, next) {
    const media = await resolveMedia(req, decodeUrlPath(req.path.replace(/^\/albums\//, '')), 'original');
    const contentType = contentTypeOf(media.relPath) ?? 'application/octet-stream';
    const cacheControl = media.protected ? PRIVATE_IMMUTABLE : PUBLIC_IMMUTABLE;
    if (media.hideLocation) {
      await sendLocationFree(req, res, { absPath: media.absPath, contentType, cacheControl }, locationPatcher);
      return;
    }
    res.sendFile(
      media.absPath,
      {
        dotfiles: 'allow',
        etag: true,
        lastModified: true,
        cacheControl: false,
        headers: { 'Content-Type': contentType, 'Cache-Control': cacheControl },
      },
      (err: (Error & { code?: string }) | undefined) => {
        // A visitor who stops a video or leaves the page is not a server error.
        if (!err || err.code === 'ECONNABORTED' || req.aborted || res.destroyed) return;
        if (!res.headersSent) next(err);
      },
    );
  };
}
