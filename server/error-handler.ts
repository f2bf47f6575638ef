import type { ErrorRequestHandler, RequestHandler } from 'express';
import { HttpError, notFound } from './http-error.js';

/** Status of any error: ours carry one; body-parser's carry `status`/`type`. */
function statusOf(err: unknown): number {
  if (err instanceof HttpError) return err.status;
  const s = (err as { status?: unknown; statusCode?: unknown } | null)?.status ?? (err as { statusCode?: unknown } | null)?.statusCode;
  return typeof s === 'number' && s >= 400 && s < 600 ? s : 500;
}

/** A client-facing message: never a stack or an internal detail for 5xx. */
function messageOf(err: unknown, status: number): string {
  if (err instanceof HttpError) return err.message;
  const type = (err as { type?: unknown } | null)?.type;
  if (status === 413) return 'Request body too large';
  if (type === 'entity.parse.failed') return 'Malformed request body';
  if (status >= 500) return 'Internal server error';
  return (err as Error)?.message || 'Bad request';
}

/** APIs and media URLs answer errors in JSON (CONTRACT §3–4); pages get the HTML error page. */
function wantsJson(p: string): boolean {
  return p === '/api' || p.startsWith('/api/') || p.startsWith('/albums/');
}

/** Unknown `/api/*` routes answer JSON, never the HTML 404 page. */
export const apiNotFound: RequestHandler = (_req, _res, next) => next(notFound('Unknown API endpoint'));

/** The one place errors become responses: JSON for /api, the error page otherwise. */
export function errorHandler(opts: { log?: (msg: string, err: unknown) => void } = {}): ErrorRequestHandler {
  const log = opts.log ?? ((msg, err) => console.error(msg, err));
  return (err, req, res, next) => {
    if (res.headersSent) {
      // Too late to answer: drop the connection so the client sees a failure, not a truncated success.
      log(`error after headers were sent on ${req.method} ${req.path}`, err);
      res.destroy();
      return;
    }
    const status = statusOf(err);
    if (status >= 500) log(`${req.method} ${req.path} failed`, err);
    const message = messageOf(err, status);
    if (err instanceof HttpError && err.headers) res.set(err.headers);
    res.status(status);
    if (wantsJson(req.path) || !req.accepts('html')) {
      res.json({ error: message, ...(err instanceof HttpError ? err.body : undefined) });
      return;
    }
    res.render('error', { status, message, title: status === 404 ? 'Not found' : 'Error' }, (renderErr, html) => {
      if (renderErr) {
        log('error page failed to render', renderErr);
        res.type('text/plain').send(`${status} ${message}`);
        return;
      }
      res.type('html').send(html);
    });
    void next;
  };
}
