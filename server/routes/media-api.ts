import fs from 'node:fs';
import { type Request, type Response, Router } from 'express';
import { badRequest, missingParameter } from '../http-error.js';
import type { MetadataService } from '../media/metadata.js';
import { isThumbnailSize, THUMBNAIL_SIZE_NAMES, type OpenThumbnail, type ThumbnailCache, type ThumbnailSize } from '../media/thumbnails.js';
import type { MediaResolver } from '../resolvers.js';

export interface MediaApiOptions {
  readonly thumbnails: ThumbnailCache;
  readonly metadata: MetadataService;
  /** Validates `path`, finds the file and enforces access (400/401/404). */
  readonly resolveMedia: MediaResolver;
  readonly log?: (message: string, err: unknown) => void;
}

const ONE_YEAR = 31_536_000;
/** EXIF and video info URLs carry no version, so they are cached for a short while only. */
const METADATA_MAX_AGE = 300;
/**
 * Thumbnails up to this size go out from one read into one buffer; larger ones are piped
 * in chunks of this size, so memory per response stays bounded.
 */
const ONE_READ_MAX = 512 * 1024;

/** `private` for anything of a protected album: a shared cache must never keep it. */
function cacheControl(isProtected: boolean, maxAge: number): string {
  return `${isProtected ? 'private' : 'public'}, max-age=${maxAge}`;
}

/**
 * GET /api/thumbnail?path=&size=, GET /api/exif?path=, GET /api/video-info?path=
 * (CONTRACT §4). Mount with `app.use(router)`: the paths are absolute.
 */
export function createMediaApiRouter({ thumbnails, metadata, resolveMedia, log = console.error }: MediaApiOptions): Router {
  const router = Router();

  router.get('/api/thumbnail', async function thumbnail(req, res) {
    // Express parses req.query again on every access: read it once.
    const query = req.query;
    // Parameter checks come before any file system or access work.
    if (query.path === undefined || query.path === '') throw missingParameter('path');
    const size = parseSize(query.size);
    const media = await resolveMedia(req, query.path);
    const file = await thumbnails.open(media, size);
    await sendThumbnail(req, res, file, media.protected, log);
  });

  router.get('/api/exif', async function exif(req, res) {
    const media = await resolveMedia(req, req.query.path);
    if (media.kind !== 'image') throw badRequest('Invalid parameter: path must name an image');
    const record = await metadata.exif(media.absPath);
    res.set('Cache-Control', cacheControl(media.protected, METADATA_MAX_AGE));
    res.json(record);
  });

  router.get('/api/video-info', async function videoInfo(req, res) {
    const media = await resolveMedia(req, req.query.path);
    if (media.kind !== 'video') throw badRequest('Invalid parameter: path must name a video');
    const info = await metadata.videoInfo(media.absPath);
    res.set('Cache-Control', cacheControl(media.protected, METADATA_MAX_AGE));
    res.json(info);
  });

  return router;
}

function parseSize(raw: unknown): ThumbnailSize {
  if (raw === undefined || raw === '') throw missingParameter('size');
  if (!isThumbnailSize(raw)) throw badRequest(`Invalid parameter: size must be one of ${THUMBNAIL_SIZE_NAMES.join(', ')}`);
  return raw;
}

/**
 * The hot path of every album page: headers set directly, then the already-open file sent
 * with as few steps as possible. URLs carry `&v=<mtime of the original>`, so a year of
 * `immutable` is safe. Owns `file.fd` from here on.
 */
async function sendThumbnail(req: Request, res: Response, file: OpenThumbnail, isProtected: boolean, log: (message: string, err: unknown) => void): Promise<void> {
  res.setHeader('Content-Type', 'image/jpeg');
  res.setHeader('Cache-Control', `${cacheControl(isProtected, ONE_YEAR)}, immutable`);
  res.setHeader('ETag', `W/"${file.size.toString(16)}-${Math.floor(file.mtimeMs).toString(16)}"`);
  if (req.fresh) {
    closeQuietly(file.fd);
    res.statusCode = 304;
    res.end();
    return;
  }
  res.setHeader('Content-Length', file.size);
  if (req.method === 'HEAD') {
    closeQuietly(file.fd);
    res.end();
    return;
  }

  if (file.size <= ONE_READ_MAX) {
    // Nearly every thumbnail: one read, then headers and body leave in one write. A read
    // error still reaches the error handler, as nothing has been sent yet.
    res.end(await readWhole(file));
    return;
  }

  // Bounded by the size seen at open. pipe() rather than pipeline(): pipeline allocates an
  // AbortController per call. The stream closes the descriptor when it ends or is destroyed;
  // a visitor scrolling away closes the connection, which is not worth a log line.
  const stream = fs.createReadStream(file.path, { fd: file.fd, start: 0, end: file.size - 1, highWaterMark: ONE_READ_MAX });
  stream.on('error', (err) => {
    log(`streaming ${file.path} failed`, err);
    res.destroy(err);
  });
  res.on('close', () => stream.destroy());
  stream.pipe(res);
}

/** The whole file at `fd` (closed afterwards), exactly `size` bytes or an error. */
function readWhole(file: OpenThumbnail): Promise<Buffer> {
  const body = Buffer.allocUnsafe(file.size);
  return new Promise((resolve, reject) => {
    fs.read(file.fd, body, 0, file.size, 0, (err, bytesRead) => {
      // Closing a descriptor that was only read does no I/O: done in place, it costs a
      // syscall instead of a round trip through the thread pool on every cache hit.
      closeQuietly(file.fd);
      if (err) reject(err);
      else if (bytesRead !== file.size) reject(new Error(`${file.path} shrank while being read`));
      else resolve(body);
    });
  });
}

function closeQuietly(fd: number): void {
  try {
    fs.closeSync(fd);
  } catch {
    // Already closed: nothing is leaked.
  }
}
