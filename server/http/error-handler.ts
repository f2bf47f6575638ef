import { STATUS_CODES } from 'node:http';
import type { ErrorRequestHandler, Request, RequestHandler, Response } from 'express';
import { HttpError, notFound } from '../core/errors.js';
import { toHttpError } from './domain-errors.js';
import type { Logger } from '../core/logger.js';
import { scrubUrl } from './request-log.js';

/**
 * A Node system error (fs, net): its message names the path or address it failed on
 * ("ENOENT: no such file or directory, stat '/srv/albums/…'"), so it is never shown.
 */
function isSystemError(err: unknown): err is NodeJS.ErrnoException {
  const e = err as { code?: unknown; syscall?: unknown } | null;
  return typeof e?.code === 'string' && typeof e.syscall === 'string';
}

/**
 * Status of any error: ours carry one; body-parser's and send's carry `status`/`type` (send
 * answers a file missing at open with 404). Any other error, fs errors included, is a 500.
 */
function statusOf(err: unknown): number {
  if (err instanceof HttpError) return err.status;
  const s = (err as { status?: unknown; statusCode?: unknown } | null)?.status ?? (err as { statusCode?: unknown } | null)?.statusCode;
  return typeof s === 'number' && s >= 400 && s < 600 ? s : 500;
}

/** The status's own words in sentence case: "Not found", "Range not satisfiable". */
function neutralMessage(status: number): string {
  if (status >= 500) return 'Internal server error';
  const text = STATUS_CODES[status] ?? 'Bad request';
  return text[0] + text.slice(1).toLowerCase();
}

/**
 * A client-facing message: never a stack, a filesystem path or an internal detail. Our own
 * errors are worded for the client; of the others (body-parser, send) only those marked
 * `expose` (http-errors) say something safe, and never a system error's message.
 */
function messageOf(err: unknown, status: number): string {
  if (err instanceof HttpError) return err.message;
  const e = err as { type?: unknown; expose?: unknown; message?: unknown } | null;
  if (status === 413) return 'Request body too large';
  if (e?.type === 'entity.parse.failed') return 'Malformed request body';
  if (status >= 500 || isSystemError(err) || e?.expose !== true || typeof e.message !== 'string' || e.message === '') return neutralMessage(status);
  return e.message;
}

/** Headers an error asks for (`Retry-After`, send's `Content-Range` of a 416), as http-errors carries them. */
function headersOf(err: unknown): Record<string, string> {
  const headers = (err as { headers?: unknown } | null)?.headers;
  if (typeof headers !== 'object' || headers === null) return {};
  return Object.fromEntries(Object.entries(headers).filter((e): e is [string, string] => typeof e[1] === 'string'));
}

/**
 * Headers a file route may have set for the file before it failed (send sets them once the
 * file is found, then can still fail to open or range it): the error is not that file, so
 * it must not be labelled as one, nor cached (a year, `immutable`) in its place.
 */
const FILE_HEADERS = ['Content-Type', 'Content-Length', 'Content-Range', 'Content-Disposition', 'Content-Encoding', 'Accept-Ranges', 'ETag', 'Last-Modified'];

function resetFileHeaders(res: Response): void {
  for (const name of FILE_HEADERS) res.removeHeader(name);
  res.setHeader('Cache-Control', 'no-store');
}

/** APIs and media URLs answer errors in JSON (docs/api.md, conventions); pages get the HTML error page. */
function wantsJson(p: string): boolean {
  return p === '/api' || p.startsWith('/api/') || p.startsWith('/albums/');
}

/**
 * A request a browser makes to show its answer as a page (a link opened in a tab, a download
 * link followed): its Accept puts `text/html` first. `fetch`, `<img>`, `<video>`, curl and
 * supertest send `*\/*` or an image type (or nothing), which reads as JSON: their answer is
 * unchanged. A form a page of this site submits (the chosen photos' ZIP, posted when its
 * address would be too long) is a navigation too, as its `Sec-Fetch-*` headers say; one
 * from another site keeps the JSON error.
 */
function isBrowserNavigation(req: Request): boolean {
  const sameSiteForm = req.method === 'POST' && req.get('sec-fetch-mode') === 'navigate' && req.get('sec-fetch-site') !== 'cross-site';
  return (req.method === 'GET' || req.method === 'HEAD' || sameSiteForm) && req.accepts(['application/json', 'text/html']) === 'text/html';
}

/** A view and its locals: the page a browser gets instead of the JSON error. */
export interface ErrorPage {
  readonly view: string;
  readonly locals: Record<string, unknown>;
}

/**
 * The page for a browser refused a file, a ZIP or an API answer (401 locked, 403 not allowed),
 * or undefined to answer JSON as usual. The app knows where such a visitor can unlock it.
 */
export type RefusedPage = (req: Request, res: Response, status: 401 | 403, message: string) => ErrorPage | undefined;

/** Unknown `/api/*` routes answer JSON, never the HTML 404 page. */
export const apiNotFound: RequestHandler = (_req, _res, next) => next(notFound('Unknown API endpoint'));

export interface ErrorHandlerOptions {
  readonly log: Logger;
  /** Errors whose detail was logged where they arose (a failed media task): not logged twice. */
  readonly alreadyLogged?: (err: unknown) => boolean;
  /**
   * A styled page for a browser navigation refused with 401 or 403 on a JSON path
   * (docs/api.md, conventions): the public app's link to unlock the album. API clients keep
   * the JSON error.
   */
  readonly refusedPage?: RefusedPage;
}

/** The one place errors become responses: JSON for /api, the error page otherwise. */
export function errorHandler({ log, alreadyLogged = () => false, refusedPage }: ErrorHandlerOptions): ErrorRequestHandler {
  const logError = (message: string, err: unknown) => {
    if (!alreadyLogged(err)) log.error({ err }, message);
  };
  const sendPage = (res: Response, status: number, message: string, { view, locals }: ErrorPage) =>
    res.render(view, locals, (renderErr, html) => {
      if (renderErr) {
        logError('error page failed to render', renderErr);
        res.type('text/plain').send(`${status} ${message}`);
        return;
      }
      res.type('html').send(html);
    });
  return (thrown, req, res, next) => {
    // As the request log writes it: a share link's id is a secret.
    const logged = scrubUrl(req.path);
    if (res.headersSent) {
      // Too late to answer: drop the connection so the client sees a failure, not a truncated success.
      logError(`error after headers were sent on ${req.method} ${logged}`, thrown);
      res.destroy();
      return;
    }
    const err = toHttpError(thrown);
    const status = statusOf(err);
    // A 503 with Retry-After is the server saying "busy, ask again" by design (a full media
    // queue under a crowd): one line, not an error with its stack per request.
    const busy = status === 503 && 'Retry-After' in headersOf(err);
    if (busy) log.warn({ path: logged, retryAfter: headersOf(err)['Retry-After'] }, `${req.method} ${logged}: busy, answered 503 with Retry-After`);
    // The error as thrown: its cause and kind are what the log is for.
    else if (status >= 500) logError(`${req.method} ${logged} failed`, thrown);
    const message = messageOf(err, status);
    resetFileHeaders(res);
    res.set(headersOf(err));
    res.status(status);
    if (wantsJson(req.path)) {
      // The answer depends on Accept here: a browser opening a refused file gets a page.
      const refused = refusedPage && (status === 401 || status === 403) ? refusedPage : undefined;
      if (refused) res.vary('Accept');
      const page = refused && isBrowserNavigation(req) ? refused(req, res, status as 401 | 403, message) : undefined;
      if (page) return void sendPage(res, status, message, page);
    }
    if (wantsJson(req.path) || !req.accepts('html')) {
      res.json({ error: message, ...(err instanceof HttpError ? err.body : undefined) });
      return;
    }
    sendPage(res, status, message, { view: 'error', locals: { status, message, title: status === 404 ? 'Not found' : 'Error' } });
    void next;
  };
}
