import fs from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Visitor } from '../../core/access/visitor.js';
import { badRequest, missingParameter } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
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
import type { ResolvedMedia, VisitorMediaResolver } from '../resolvers.js';

/**
 * GET /api/thumbnail?path=&size=&format= (docs/api.md#get-apithumbnailpathsizeformat): the one
 * answer, whoever routes a request to it. The Express route asks it for every request the
 * front door leaves, and the front door for a plain GET of a public tile, without Express
 * (both in server/public/routes/media-api.ts): the same checks, bytes, headers, ETag and 304,
 * and every error thrown to the caller, which hands it to the one error handler. As send
 * answers a file for serve-static and for a bare server alike: the answer is shared, only
 * the routing differs. It works on Node's own request and response, which Express's extend.
 */
export interface ThumbnailAnswer {
  /**
   * The checks, in order: the parameters (400, before any disk or access work), then the path
   * and the visitor's access to the file (400, 401, 404: the resolver's).
   */
  ask(query: ThumbnailQuery, visitor: Visitor): Promise<AskedThumbnail>;
  /**
   * The answer to a thumbnail asked and allowed: the cache file, made first when it is missing
   * or stale; `ETag` and year-long caching, `private` for a protected album; 304 for a
   * matching If-None-Match; HEAD without a body. Rejects with what it meets before the head
   * goes out (a file gone, a photo that cannot be decoded, a busy pool); after that, a failure
   * destroys the response.
   */
  send(req: IncomingMessage, res: ServerResponse, asked: AskedThumbnail): Promise<void>;
}

/** The query as Express's simple parser (`querystring`) reads it. */
export type ThumbnailQuery = Readonly<Record<string, unknown>>;

/** A thumbnail asked for: its parameters checked, its file resolved for the visitor. */
export interface AskedThumbnail {
  readonly media: ResolvedMedia;
  readonly size: ThumbnailSize;
  readonly format: ThumbnailFormat;
}

export interface ThumbnailAnswerOptions {
  readonly thumbnails: Pick<ThumbnailCache, 'lookUp' | 'make'>;
  /** Validates `path`, finds the file and enforces the visitor's access (server/public/access/gallery-access.ts). */
  readonly mediaFor: VisitorMediaResolver;
  readonly log: Logger;
}

/** URLs carry `&v=` the original's version (server/core/urls.ts), so a year of `immutable` is safe. */
const ONE_YEAR = 31_536_000;
/** Chunk size when streaming a thumbnail too large to be read at once. */
const STREAM_CHUNK = 512 * 1024;

export function createThumbnailAnswer({ thumbnails, mediaFor, log }: ThumbnailAnswerOptions): ThumbnailAnswer {
  return {
    async ask(query, visitor) {
      if (query.path === undefined || query.path === '') throw missingParameter('path');
      const size = parseSize(query.size);
      const format = parseFormat(query.format);
      return { media: await mediaFor(visitor, query.path, 'view'), size, format };
    },

    async send(req, res, { media, size, format }) {
      // A hit is sent at once; only a miss sets up the abort signal (a cached tile's cost is counted in microseconds).
      const { tag, cached } = await thumbnails.lookUp(media, size, format);
      const file = cached ?? (await thumbnails.make(media, size, tag, { format, signal: abortedWithResponse(res) }));
      write(req, res, file, format, media.protected, log);
    },
  };
}

/**
 * The hot path of every album page: headers set directly, then the already-read file sent
 * with as few steps as possible. Owns `file.fd` from here on.
 */
function write(req: IncomingMessage, res: ServerResponse, file: OpenThumbnail, format: ThumbnailFormat, isProtected: boolean, log: Logger): void {
  // Gone while the file was read or made: nothing left to send (the request log marks it aborted).
  if (res.destroyed) {
    release(file);
    return;
  }
  // The format is in the URL, so no Vary: each URL has one representation.
  const etag = etagOf(file, format);
  res.setHeader('Content-Type', THUMBNAIL_FORMATS[format].contentType);
  res.setHeader('Cache-Control', `${isProtected ? 'private' : 'public'}, max-age=${ONE_YEAR}, immutable`);
  res.setHeader('ETag', etag);
  if (isNotModified(req, etag)) {
    release(file);
    res.statusCode = 304;
    res.end();
    return;
  }
  res.setHeader('Content-Length', file.size);
  if (req.method === 'HEAD') {
    release(file);
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

function release(file: OpenThumbnail): void {
  if (file.fd !== undefined) closeQuietly(file.fd);
}

/** Changes with the original's identity (the tag), the format and the thumbnail's own bytes. */
function etagOf(file: OpenThumbnail, format: ThumbnailFormat): string {
  const kind = format === DEFAULT_THUMBNAIL_FORMAT ? '' : `-${format}`;
  return `W/"${file.tag}-${file.size.toString(36)}${kind}"`;
}

/** A request's `Cache-Control: no-cache` asks for the body whatever the validators say. */
const NO_CACHE = /(?:^|,)\s*?no-cache\s*?(?:,|$)/;

/**
 * Whether a GET or HEAD answered with `etag` (and no Last-Modified) may be a 304: exactly as
 * Express's `req.fresh` decides it (the `fresh` package), which this answer cannot use outside
 * Express. If-None-Match decides, by weak comparison; an If-Modified-Since alone never matches
 * a response without Last-Modified.
 */
export function isNotModified(req: IncomingMessage, etag: string): boolean {
  const noneMatch = req.headers['if-none-match'];
  if (!noneMatch) return false;
  const cacheControl = req.headers['cache-control'];
  if (cacheControl && NO_CACHE.test(cacheControl)) return false;
  if (noneMatch === '*') return true;
  // Tokens split at commas, spaces around them dropped (fresh's parseTokenList).
  return noneMatch.split(',').some((raw) => {
    const token = raw.replace(/^ +| +$/g, '');
    return token === etag || `W/${token}` === etag || token === `W/${etag}`;
  });
}

/** `format` is optional: absent, JPEG (the CONTRACT's thumbnails); anything but a known format is refused. */
function parseFormat(raw: unknown): ThumbnailFormat {
  if (raw === undefined) return DEFAULT_THUMBNAIL_FORMAT;
  if (!isThumbnailFormat(raw)) throw badRequest(`Invalid parameter: format must be one of ${THUMBNAIL_FORMAT_NAMES.join(', ')}`);
  return raw;
}

function parseSize(raw: unknown): ThumbnailSize {
  if (raw === undefined || raw === '') throw missingParameter('size');
  if (!isThumbnailSize(raw)) throw badRequest(`Invalid parameter: size must be one of ${THUMBNAIL_SIZE_NAMES.join(', ')}`);
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
