import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '../core/logger.js';

/** Query parameters whose values are secrets and never reach a log. */
const SECRET_PARAMS = new Set(['token', 'password']);

/**
 * The id of a share link's address, `/s/<id>` and anything below it: the id is the link's
 * whole secret (docs/api.md#share-links). Case-insensitive like Express's routing, which
 * answers `/S/<id>` too. Nothing of the id is kept, not even a prefix: a prefix narrows a
 * guess, and a keyed hash would only say which lines were the same link, which the log does
 * not need.
 */
const LINK_ADDRESS = /^\/s\/[^/?#]+/i;

/** The request URL with a share link's id and secret query values replaced by `***`. */
export function scrubUrl(url: string): string {
  const q = url.indexOf('?');
  const rawPath = q < 0 ? url : url.slice(0, q);
  const path = rawPath.replace(LINK_ADDRESS, (address) => `${address.slice(0, 3)}***`);
  if (q < 0) return path;
  const params = new URLSearchParams(url.slice(q + 1));
  let changed = false;
  for (const key of [...params.keys()]) {
    if (SECRET_PARAMS.has(key.toLowerCase())) {
      params.set(key, '***');
      changed = true;
    }
  }
  return changed ? `${path}?${params.toString()}` : `${path}${url.slice(q)}`;
}

/** The fields of a request's line; the logger adds `level` and `time`. */
export interface RequestLogFields {
  readonly method: string;
  readonly url: string;
  readonly status: number;
  readonly ms: number;
  readonly bytes?: number;
  /** True when the client went away before the response ended. */
  readonly aborted?: boolean;
}

/**
 * One JSON line per request at level info, written when the response ends; the clock starts
 * here, so call it first thing (server/public/front-door.ts). Never the cookie, headers or
 * body: passwords travel in bodies and tokens in cookies, headers and scrubbed queries.
 */
export function logRequest(req: IncomingMessage, res: ServerResponse, log: Logger): void {
  const start = process.hrtime.bigint();
  // Read before any router rewrites req.url for a mounted app.
  const url = scrubUrl(req.url ?? '/');
  let done = false;
  const finish = (aborted: boolean) => {
    if (done) return;
    done = true;
    const fields: RequestLogFields = {
      method: req.method ?? '',
      url,
      status: res.statusCode,
      ms: Math.round(Number(process.hrtime.bigint() - start) / 1e4) / 100,
      ...(res.getHeader('content-length') !== undefined ? { bytes: Number(res.getHeader('content-length')) } : {}),
      ...(aborted ? { aborted: true } : {}),
    };
    log.info({ ...fields });
  };
  res.once('finish', () => finish(false));
  res.once('close', () => finish(!res.writableFinished));
}
