import fs from 'node:fs';
import type { ServerResponse } from 'node:http';
import querystring from 'node:querystring';
import { type Request, type RequestHandler, type Response, Router } from 'express';
import { ANONYMOUS } from '../../core/access/visitor.js';
import { badRequest, missingParameter } from '../../core/errors.js';
import type { MetadataService } from '../../media/metadata.js';
import {
  DEFAULT_THUMBNAIL_FORMAT,
  isThumbnailFormat,
  isThumbnailSize,
  THUMBNAIL_FORMAT_NAMES,
  THUMBNAIL_FORMATS,
  THUMBNAIL_SIZE_NAMES,
  type ThumbnailFormat,
  type ThumbnailSize,
} from '../../core/media-catalogue.js';
import { closeQuietly, type OpenThumbnail, type ThumbnailCache } from '../../media/thumbnails.js';
import type { EarlyAnswer } from '../front-door.js';
import type { MediaResolver, ResolvedMedia, VisitorMediaResolver } from '../resolvers.js';
import type { Logger } from '../../core/logger.js';
import type { VideoInfo } from '../../media/metadata.js';
import type { WebVideoService } from '../../media/web-video.js';
import { webVideoUrl } from '../../core/urls.js';

export interface MediaApiOptions {
  readonly thumbnails: ThumbnailCache;
  readonly metadata: MetadataService;
  /** Validates `path`, finds the file and enforces access (400/401/404). */
  readonly resolveMedia: MediaResolver;
  /** The web copies of videos, for the `webVideo` field of /api/video-info; absent, the field is left out. */
  readonly webVideos?: Pick<WebVideoService, 'request'>;
  readonly log: Logger;
}

const ONE_YEAR = 31_536_000;
/** EXIF and video info URLs carry no version, so they are cached for a short while only. */
const METADATA_MAX_AGE = 300;
/** Chunk size when streaming a thumbnail too large to be read at once. */
const STREAM_CHUNK = 512 * 1024;

/** `private` for anything of a protected album: a shared cache must never keep it. */
function cacheControl(isProtected: boolean, maxAge: number): string {
  return `${isProtected ? 'private' : 'public'}, max-age=${maxAge}`;
}

/**
 * GET /api/thumbnail?path=&size=&format=, GET /api/exif?path=, GET /api/video-info?path=
 * (docs/api.md#public-server). Mount with `app.use(router)`: the paths are absolute.
 */
export function createMediaApiRouter({ thumbnails, metadata, resolveMedia, webVideos, log }: MediaApiOptions): Router {
  const router = Router();

  router.get('/api/thumbnail', async function thumbnail(req, res) {
    // Making the tile failed in the front door's answer (createPublicThumbnailAnswer): the
    // same request, answered here as any error is.
    if (coldFailures.has(res)) throw coldFailures.get(res);
    // Express parses req.query again on every access: read it once.
    const query = req.query;
    // Parameter checks come before any file system or access work.
    if (query.path === undefined || query.path === '') throw missingParameter('path');
    const size = parseSize(query.size);
    const format = parseFormat(query.format);
    const media = await resolveMedia(req, query.path, 'view');
    const file = await thumbnails.open(media, size, { format, signal: abortedWithResponse(res) });
    sendThumbnail(req, res, file, format, media.protected, log);
  });

  /** A JSON record about one media file of the right kind, cached briefly (`private` when protected). */
  const metadataRoute = (kind: 'image' | 'video', read: (media: ResolvedMedia) => Promise<unknown>): RequestHandler =>
    async function metadataRecord(req, res) {
      const media = await resolveMedia(req, req.query.path, 'view');
      if (media.kind !== kind) throw badRequest(`Invalid parameter: path must name ${kind === 'image' ? 'an image' : 'a video'}`);
      const record = await read(media);
      res.set('Cache-Control', cacheControl(media.protected, METADATA_MAX_AGE));
      res.json(record);
    };

  router.get(
    '/api/exif',
    metadataRoute('image', async (m) => {
      const record = await metadata.exif(m.absPath);
      return m.hideLocation ? withoutLocation(record) : record;
    }),
  );
  router.get(
    '/api/video-info',
    metadataRoute('video', async (m) => {
      const info = publicVideoInfo(await metadata.videoInfo(m.absPath));
      if (!webVideos) return info;
      // Asking is what starts a copy: whoever looks at a video's details is about to play it.
      const [{ kind, state }, version] = await Promise.all([webVideos.request(m), fs.promises.stat(m.absPath)]);
      return { ...info, webVideo: { kind, state, url: kind === null ? null : webVideoUrl(m.relPath, version) } };
    }),
  );

  return router;
}

/** Names of fields that would tell where a photo was taken. */
const LOCATION_FIELD = /gps|location|latitude|longitude|altitude|city|country/i;

/**
 * The EXIF record of a photo whose album hides locations (docs/api.md#location-privacy):
 * the record has no such field today; this keeps one added later from reaching those visitors.
 */
function withoutLocation<T extends object>(record: T): Partial<T> {
  return Object.fromEntries(Object.entries(record).filter(([name]) => !LOCATION_FIELD.test(name))) as Partial<T>;
}

/** The fields of docs/api.md#get-apivideo-infopath: the probe's other facts are the server's business. */
function publicVideoInfo({ duration, width, height, codec, fps }: VideoInfo) {
  return { duration, width, height, codec, fps };
}

/** Errors met making a public tile in the front door's answer, by its response, for the route to throw. */
const coldFailures = new WeakMap<ServerResponse, unknown>();

/**
 * The hot path of an album page, outside Express. Express costs a cache hit more than the
 * work itself (it swaps the prototypes of req and res, which slows every later property
 * access, builds a final handler, then walks the middleware stack). Measured on two shared
 * cores with wrk: a cached small thumbnail (47 KB) went out through Express at 0.3-0.45x the
 * rate of a bare `http` + `fs.createReadStream` server, and at 0.75x to 1.3x of it this way
 * (`npm run bench`; the spread is the machine's other load). A public tile not made yet is
 * made here too: on a cold album page, two decodes fill both cores, and whatever the main
 * thread spends on a request (Express's walk, the access and cache look-ups done a second
 * time) comes out of theirs. Everything else takes the full path: protected
 * albums (access depends on the visitor), conditional requests (304), HEAD, anything unusual
 * in the URL, large files and every error (one met while making the tile is handed to the
 * full path's route, which throws it: see coldFailures), so each answer given here is one
 * the full path would give as well, headers and bytes. Asked by the front door
 * (server/public/front-door.ts), which has already started the request log and set the
 * security headers, as the app's first middleware did.
 */
export function createPublicThumbnailAnswer(thumbnails: ThumbnailCache, mediaFor: VisitorMediaResolver): EarlyAnswer {
  async function answer(res: ServerResponse, rawPath: string, size: ThumbnailSize, format: ThumbnailFormat): Promise<boolean> {
    let media: ResolvedMedia;
    try {
      // Asked as a visitor holding nothing: granted exactly the files of public albums, so
      // whatever it resolves for this request anyone may see.
      media = await mediaFor(ANONYMOUS, rawPath, 'view');
    } catch {
      // 400, 401 (this visitor may hold access), 404: the full path answers it properly.
      return false;
    }
    if (media.protected) return false;
    let file: OpenThumbnail;
    try {
      // A hit is sent at once; only a miss sets up the abort signal (a cached tile's cost is counted in microseconds).
      const { tag, cached } = await thumbnails.lookUp(media, size, format);
      file = cached ?? (await thumbnails.make(media, size, tag, { format, signal: abortedWithResponse(res) }));
    } catch (err) {
      // A photo that cannot be decoded, a busy pool, a file gone meanwhile: the full path's route throws it.
      coldFailures.set(res, err);
      return false;
    }
    if (file.body === undefined) {
      // Too large for one read: streamed by the full path.
      closeQuietly(file.fd);
      return false;
    }
    // Gone while the file was read: nothing left to send (the request log marks it aborted).
    if (res.destroyed) return true;
    res.setHeader('Content-Type', THUMBNAIL_FORMATS[format].contentType);
    res.setHeader('Cache-Control', `${cacheControl(false, ONE_YEAR)}, immutable`);
    res.setHeader('ETag', etagOf(file, format));
    res.setHeader('Content-Length', file.size);
    res.end(file.body);
    return true;
  }

  return function answerPublicThumbnail(req, res) {
    if (req.method !== 'GET') return false;
    const url = req.url ?? '';
    const q = url.indexOf('?');
    if (q < 0 || url.slice(0, q) !== '/api/thumbnail') return false;
    if (req.headers['if-none-match'] !== undefined || req.headers['if-modified-since'] !== undefined) return false;
    // The parser Express uses for req.query (its 'simple' query parser).
    const query = querystring.parse(url.slice(q + 1));
    const { size, format = DEFAULT_THUMBNAIL_FORMAT } = query;
    if (typeof query.path !== 'string' || query.path === '' || !isThumbnailSize(size) || !isThumbnailFormat(format)) return false;
    return answer(res, query.path, size, format);
  };
}

/** Changes with the original's identity (the tag), the format and the thumbnail's own bytes. */
function etagOf(file: OpenThumbnail, format: ThumbnailFormat): string {
  const kind = format === DEFAULT_THUMBNAIL_FORMAT ? '' : `-${format}`;
  return `W/"${file.tag}-${file.size.toString(36)}${kind}"`;
}

/** `format` is optional: absent, JPEG (the CONTRACT's thumbnails); anything but a known format is refused. */
function parseFormat(raw: unknown): ThumbnailFormat {
  if (raw === undefined) return DEFAULT_THUMBNAIL_FORMAT;
  if (!isThumbnailFormat(raw)) throw badRequest(`Invalid parameter: format must be one of ${THUMBNAIL_FORMAT_NAMES.join(', ')}`);
  return raw;
}

/**
 * A signal that aborts when the connection closes before the answer was sent (a tile
 * scrolled past, a page closed): the thumbnail's task then leaves the pool's queue unless
 * another request waits for it too (docs/api.md#get-apithumbnailpathsizeformat). The
 * response's 'close', not the request's: a request without a body may be "complete" long
 * before its answer.
 */
function abortedWithResponse(res: ServerResponse): AbortSignal {
  const controller = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) controller.abort();
  });
  return controller.signal;
}

function parseSize(raw: unknown): ThumbnailSize {
  if (raw === undefined || raw === '') throw missingParameter('size');
  if (!isThumbnailSize(raw)) throw badRequest(`Invalid parameter: size must be one of ${THUMBNAIL_SIZE_NAMES.join(', ')}`);
  return raw;
}

/**
 * The hot path of every album page: headers set directly, then the already-read file sent
 * with as few steps as possible. URLs carry `&v=` the original's version (server/core/urls.ts),
 * so a year of `immutable` is safe. Owns `file.fd` from here on.
 */
function sendThumbnail(req: Request, res: Response, file: OpenThumbnail, format: ThumbnailFormat, isProtected: boolean, log: Logger): void {
  // The format is in the URL, so no Vary: each URL has one representation.
  res.setHeader('Content-Type', THUMBNAIL_FORMATS[format].contentType);
  res.setHeader('Cache-Control', `${cacheControl(isProtected, ONE_YEAR)}, immutable`);
  res.setHeader('ETag', etagOf(file, format));
  if (req.fresh) {
    if (file.fd !== undefined) closeQuietly(file.fd);
    res.statusCode = 304;
    res.end();
    return;
  }
  res.setHeader('Content-Length', file.size);
  if (req.method === 'HEAD') {
    if (file.fd !== undefined) closeQuietly(file.fd);
    res.end();
    return;
  }

  if (file.body !== undefined) {
    // Nearly every thumbnail: read whole by the cache, headers and body leave in one write.
    res.end(file.body);
    return;
  }

  // Bounded by the size seen at open. pipe() rather than pipeline(): pipeline allocates an
  // AbortController per call. The stream closes the descriptor when it ends or is destroyed;
  // a visitor scrolling away closes the connection, which is not worth a log line.
  const stream = fs.createReadStream(file.path, { fd: file.fd, start: 0, end: file.size - 1, highWaterMark: STREAM_CHUNK });
  stream.on('error', (err) => {
    log.error({ err }, `streaming ${file.path} failed`);
    res.destroy(err);
  });
  res.on('close', () => stream.destroy());
  stream.pipe(res);
}
