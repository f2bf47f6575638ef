/**
 * Real media files for the media pipeline tests, made on the fly in temp directories:
 * JPEGs with camera EXIF (and GPS, which must never reach a thumbnail), the eight EXIF
 * orientations (after sharp's Landscape_1..8 set), a PNG without EXIF, a truncated JPEG,
 * and short H.264 MP4s (one with a 90° rotation) made with the ffmpeg binary we ship;
 * and the media API on a bare app.
 */
import express, { type Express } from 'express';
import { errorHandler } from '../../server/http/error-handler.js';
import { notFound } from '../../server/core/errors.js';
import { createMetadataService, type MetadataService } from '../../server/media/metadata.js';
import { createMediaPool, type MediaPool } from '../../server/media/pool.js';
import { createThumbnailCache, type ThumbnailCache } from '../../server/media/thumbnails.js';
import { mediaKind } from '../../server/core/media-catalogue.js';
import { hasHiddenSegment, parseRelativePath, resolveInside } from '../../server/core/paths.js';
import type { MediaResolver } from '../../server/public/resolvers.js';
import { createMediaApiRouter } from '../../server/public/routes/media-api.js';

// The files themselves are made by the image fixtures the sample generator shares.
export { cornerColours, DISPLAY_HEIGHT, DISPLAY_WIDTH, writeOrientedJpeg } from '../../scripts/image-fixtures/orientation.js';
export { CAMERA, writeCameraJpeg, writeJpeg, writeNoisyJpeg, writePng, writeTruncatedJpeg } from '../../scripts/image-fixtures/stills.js';
export { type VideoSpec, writeVideo } from '../../scripts/image-fixtures/video.js';

// ---------------------------------------------------------------------------------------
// The media API on a bare app, as the lead's createApp will mount it.

/**
 * Resolves `path` the way the real resolver does for a public album (validation, real path
 * inside ALBUMS_DIR, media types only); albums listed in `protectedAlbums` are reported
 * protected. Access enforcement itself is not the media pipeline's job.
 */
export function directMediaResolver(albumsDir: string, protectedAlbums: readonly string[] = []): MediaResolver {
  return async (_req, raw) => {
    const relPath = parseRelativePath(raw);
    const kind = mediaKind(relPath);
    if (!kind || hasHiddenSegment(relPath)) throw notFound('File not found');
    const absPath = await resolveInside(albumsDir, relPath);
    const albumPath = relPath.slice(0, Math.max(0, relPath.lastIndexOf('/')));
    const isProtected = protectedAlbums.some((p) => albumPath === p || albumPath.startsWith(`${p}/`));
    return { relPath, absPath, kind, albumPath, protected: isProtected };
  };
}

export interface MediaTestApp {
  readonly app: Express;
  readonly pool: MediaPool;
  readonly thumbnails: ThumbnailCache;
  readonly metadata: MetadataService;
  /** What the pool and the error handler logged (kept out of the test output). */
  readonly logged: unknown[];
}

export function createMediaTestApp(opts: {
  albumsDir: string;
  cacheDir: string;
  workers?: number;
  maxQueue?: number;
  protectedAlbums?: readonly string[];
}): MediaTestApp {
  const logged: unknown[] = [];
  const log = (_message: string, err: unknown) => void logged.push(err);
  const pool = createMediaPool({ workers: opts.workers ?? 2, maxQueue: opts.maxQueue ?? 100, log });
  const thumbnails = createThumbnailCache({ cacheDir: opts.cacheDir, pool });
  const metadata = createMetadataService({ pool });
  const app = express();
  app.use(createMediaApiRouter({ thumbnails, metadata, resolveMedia: directMediaResolver(opts.albumsDir, opts.protectedAlbums), log }));
  app.use(errorHandler({ log }));
  return { app, pool, thumbnails, metadata, logged };
}
