/**
 * Real media files for the media pipeline tests, made on the fly in temp directories:
 * JPEGs with camera EXIF (and GPS, which must never reach a thumbnail), the eight EXIF
 * orientations (after sharp's Landscape_1..8 set), a PNG without EXIF, a truncated JPEG,
 * and short H.264 MP4s (one with a 90° rotation) made with the ffmpeg binary we ship;
 * and the media API on a bare app, behind the real resolver over an index of the temp tree.
 */
import fs from 'node:fs';
import path from 'node:path';
import express, { type Express } from 'express';
import { AlbumIndex } from '../../server/core/albums/album-index.js';
import { ALBUM_FILE } from '../../server/core/albums/scan.js';
import { mediaKind } from '../../server/core/media-catalogue.js';
import { errorHandler } from '../../server/http/error-handler.js';
import { createMetadataService, type MetadataService } from '../../server/media/metadata.js';
import { createMediaPool, type MediaPool } from '../../server/media/pool.js';
import { createThumbnailCache, type ThumbnailCache } from '../../server/media/thumbnails.js';
import { createResolvers } from '../../server/public/access/gallery-access.js';
import { createFrontDoor, type RequestListener } from '../../server/public/front-door.js';
import { createMediaApiRouter, createPublicThumbnailRoute, createThumbnailRouter } from '../../server/public/routes/media-api.js';
import { createThumbnailAnswer } from '../../server/public/routes/thumbnail-answer.js';
import { createHandedInErrors } from '../../server/public/handed-in-errors.js';
import { captureLogger, type LogLine } from './capture-logger.js';

// The files themselves are made by the image fixtures the sample generator shares.
export { cornerColours, DISPLAY_HEIGHT, DISPLAY_WIDTH, writeOrientedJpeg } from '../../scripts/image-fixtures/orientation.js';
export {
  CAMERA,
  writeCameraJpeg,
  writeDatedJpeg,
  writeJpeg,
  writeNoisyJpeg,
  writePng,
  writeTruncatedJpeg,
  writeUnreadableJpeg,
} from '../../scripts/image-fixtures/stills.js';
export { type VideoSpec, writeVideo } from '../../scripts/image-fixtures/video.js';

// ---------------------------------------------------------------------------------------
// The media API on a bare app, behind the real access layer.

/** Token of every album listed in `protectedAlbums`: send it as X-Album-Token. */
export const PROTECTED_TOKEN = 'media-fixture-token';
/** The header that lets a request into the protected albums. */
export const UNLOCKED = { 'X-Album-Token': PROTECTED_TOKEN } as const;

/**
 * Makes every directory under `albumsDir` that holds media an album (an `album.json` where
 * there is none), with a password and PROTECTED_TOKEN for those in `protectedAlbums`: the
 * media tests write bare files, the real index only lists media of albums.
 */
export function writeAlbumRecords(albumsDir: string, protectedAlbums: readonly string[] = []): void {
  const walk = (dir: string, rel: string) => {
    const entries = fs.readdirSync(dir, { withFileTypes: true });
    const hasMedia = entries.some((e) => !e.isDirectory() && mediaKind(e.name) !== undefined);
    const record = path.join(dir, ALBUM_FILE);
    if (rel !== '' && hasMedia && !fs.existsSync(record)) {
      const meta = protectedAlbums.includes(rel) ? { title: rel, password: 'pw', token: PROTECTED_TOKEN } : { title: rel };
      fs.writeFileSync(record, JSON.stringify(meta));
    }
    for (const e of entries) if (e.isDirectory() && !e.name.startsWith('.')) walk(path.join(dir, e.name), rel ? `${rel}/${e.name}` : e.name);
  };
  walk(albumsDir, '');
}

export interface MediaTestApp {
  readonly app: Express;
  /** The app behind the front door, as production serves it: public tiles answered before Express. */
  readonly handler: RequestListener;
  readonly pool: MediaPool;
  readonly thumbnails: ThumbnailCache;
  readonly metadata: MetadataService;
  /** The index of the temp tree (not watched): call `rescan()` after adding files. */
  readonly index: AlbumIndex;
  /** What the pool and the error handler logged (kept out of the test output). */
  readonly logged: LogLine[];
  /** Stops the pool's workers and the index. */
  close(): Promise<void>;
}

/**
 * The media API as the public app mounts it, with the real resolver over an index of the
 * temp tree (see `writeAlbumRecords` for which directories become albums).
 */
export async function createMediaTestApp(opts: {
  albumsDir: string;
  cacheDir: string;
  workers?: number;
  maxQueue?: number;
  /** Background tasks allowed to wait (default: maxQueue). */
  maxBackgroundQueue?: number;
  /** Quiet time before background work starts; default an hour, so tests that count tasks see none unless they ask. */
  backgroundDelayMs?: number;
  protectedAlbums?: readonly string[];
}): Promise<MediaTestApp> {
  writeAlbumRecords(opts.albumsDir, opts.protectedAlbums);
  const { logger: log, lines: logged } = captureLogger();
  const index = await AlbumIndex.open({ albumsDir: opts.albumsDir, watch: false, log });
  const pool = createMediaPool({
    workers: opts.workers ?? 2,
    maxQueue: opts.maxQueue ?? 100,
    maxBackgroundQueue: opts.maxBackgroundQueue,
    backgroundDelayMs: opts.backgroundDelayMs ?? 3_600_000,
    log,
  });
  const thumbnails = createThumbnailCache({ cacheDir: opts.cacheDir, pool });
  const metadata = createMetadataService({ pool });
  const { resolveMedia, mediaFor } = createResolvers(index, opts.albumsDir);
  const thumbnailAnswer = createThumbnailAnswer({ thumbnails, mediaFor, log });
  const handedIn = createHandedInErrors();
  const app = express();
  app.use(handedIn.raise);
  app.use(createThumbnailRouter(thumbnailAnswer));
  app.use(createMediaApiRouter({ metadata, resolveMedia }));
  app.use(errorHandler({ log }));
  const close = async () => {
    index.close();
    await pool.close();
  };
  const handler = createFrontDoor({ app, answerError: handedIn.answerWith(app), earlyAnswers: [createPublicThumbnailRoute(thumbnailAnswer)] });
  return { app, handler, pool, thumbnails, metadata, index, logged, close };
}
