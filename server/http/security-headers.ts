import type { ServerResponse } from 'node:http';
import type { ErrorRequestHandler, RequestHandler } from 'express';

/**
 * Scripts, styles, images and media from this site only; no inline script, no framing.
 * `data:`/`blob:` images are for the lightbox's placeholders.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "media-src 'self'",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * What every response of the public server carries, set by the front door
 * (server/public/front-door.ts): `nosniff` keeps a file from being read as anything but its
 * type (an image as a page, a JSON answer as a script), and no page tells another site which
 * of ours it came from.
 */
export const EVERY_RESPONSE_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'same-origin',
});

/**
 * What only a document reads (helmet's essentials, without the dependency): what its scripts
 * may do, who may frame it, its window's opener. Set where documents are made: pages, JSON,
 * SVG, redirects and error answers (server/public/app.ts mounts `documentHeaders` in front
 * of the routes that make them). Raster images, video, audio, ZIPs and the page's own scripts
 * and styles go without them: a module script or stylesheet takes the policy of the page that
 * loads it, and `nosniff` keeps each from being read as anything else, so on a desktop's first
 * screen (54 tiles, 20 scripts and styles) they would be 22 KB of nothing.
 */
export const DOCUMENT_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Frame-Options': 'DENY',
  'Cross-Origin-Opener-Policy': 'same-origin',
});

const EVERY_RESPONSE = Object.entries(EVERY_RESPONSE_HEADERS);
const DOCUMENT = Object.entries(DOCUMENT_HEADERS);

export function setEveryResponseHeaders(res: ServerResponse): void {
  for (const [name, value] of EVERY_RESPONSE) res.setHeader(name, value);
}

/** Sets DOCUMENT_HEADERS on `res`, unless its head has gone already (an error met while a file streamed). */
export function setDocumentHeaders(res: ServerResponse): void {
  if (res.headersSent) return;
  for (const [name, value] of DOCUMENT) res.setHeader(name, value);
}

/** Mounted in front of the routes that make documents: whatever they answer is one. */
export const documentHeaders: RequestHandler = function documentHeaders(_req, res, next) {
  setDocumentHeaders(res);
  next();
};

/** Mounted before the error handler: an error is answered with a document (JSON or a page), whichever route met it. */
export const documentHeadersOfErrors: ErrorRequestHandler = function documentHeadersOfErrors(err, _req, res, next) {
  setDocumentHeaders(res);
  next(err);
};

/**
 * Types no document is made of: raster images, video, audio, ZIP, and the page's own styles
 * and scripts. HTML, SVG, JSON and text are documents.
 */
const INERT_TYPE =
  /^(?:image\/(?:jpeg|png|gif|webp|avif|heic|heif|tiff)|video\/[\w.+-]+|audio\/[\w.+-]+|application\/zip|text\/css|(?:text|application)\/javascript)\s*(?:;|$)/i;

export function isInertMediaType(contentType: unknown): boolean {
  return typeof contentType === 'string' && INERT_TYPE.test(contentType);
}

/**
 * For a route that serves files of any type from a folder (the site's scripts and styles,
 * the content's images): the document headers when `contentType` is a document's (an SVG, an
 * HTML or JSON file placed there), none for the inert types.
 */
export function setDocumentHeadersByType(res: ServerResponse, contentType: unknown): void {
  if (!isInertMediaType(contentType)) setDocumentHeaders(res);
}
