import compression from 'compression';
import type { Request, RequestHandler, Response } from 'express';

/**
 * What is worth compressing (docs/api.md#compression): pages, styles, scripts and JSON, which
 * shrink to a fifth or less (a 200-photo album page from 200 KB to about 20 KB). Never the
 * media: JPEG, WebP, video and ZIP are compressed already (a ZIP's entries are stored as the
 * photos are), a second pass only costs time, and a compressed body would lose the exact
 * `Content-Length` and byte ranges that originals, videos and the streaming ZIP promise.
 */
const TEXT_TYPES = /^(?:text\/(?:html|css|javascript|plain)|application\/(?:javascript|json|manifest\+json)|image\/svg\+xml)\s*(?:;|$)/i;

export function isCompressibleText(contentType: unknown): boolean {
  return typeof contentType === 'string' && TEXT_TYPES.test(contentType);
}

/**
 * The `compression` middleware limited to text: brotli when the browser offers it (quality 4,
 * the middleware's default, costs a page about what gzip's default does), else gzip, with
 * `Vary: Accept-Encoding` on everything it may compress. Bodies under 1 KB go as they are.
 * Responses without a text type pass through untouched (no Vary, no buffering): the middleware
 * decides when the headers are written, so a route's `Content-Length`, `Content-Range`, ETag
 * and 304 are exactly as the route set them.
 */
export function textCompression(): RequestHandler {
  return compression({
    filter: (_req: Request, res: Response) => isCompressibleText(res.getHeader('Content-Type')),
  });
}
