import type { ServerResponse } from 'node:http';

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

/** Headers every response carries (helmet's essentials, without the dependency). */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'same-origin',
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Frame-Options': 'DENY',
  'Cross-Origin-Opener-Policy': 'same-origin',
});

/** The headers that only a document reads: what its scripts may do, who may frame it, its window's opener. */
const DOCUMENT_ONLY_HEADERS = ['Content-Security-Policy', 'X-Frame-Options', 'Cross-Origin-Opener-Policy'] as const;

/**
 * Types no document is made of: raster images, video, audio, ZIP, and the page's own styles
 * and scripts (a module script or stylesheet takes the policy of the page that loads it, and
 * one opened on its own shows as text). `nosniff` keeps each from being read as anything else,
 * so the document-only headers are 300 bytes of nothing on each: 54 tiles and 20 scripts and
 * styles on a desktop's first screen, 22 KB. HTML, SVG, JSON and text keep them.
 */
const INERT_TYPE =
  /^(?:image\/(?:jpeg|png|gif|webp|avif|heic|heif|tiff)|video\/[\w.+-]+|audio\/[\w.+-]+|application\/zip|text\/css|(?:text|application)\/javascript)\s*(?:;|$)/i;

export function isInertMediaType(contentType: unknown): boolean {
  return typeof contentType === 'string' && INERT_TYPE.test(contentType);
}

/**
 * Sets SECURITY_HEADERS on `res`, and drops the document-only ones when it turns out, as its
 * head is written, to be an inert media type (the type is known only then).
 */
export function setSecurityHeaders(res: ServerResponse): void {
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) res.setHeader(name, value);
  const writeHead = res.writeHead;
  res.writeHead = function writeHeadOfMedia(this: ServerResponse, ...args: Parameters<ServerResponse['writeHead']>) {
    if (isInertMediaType(this.getHeader('Content-Type'))) for (const name of DOCUMENT_ONLY_HEADERS) this.removeHeader(name);
    return writeHead.apply(this, args);
  } as ServerResponse['writeHead'];
}
