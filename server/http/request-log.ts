import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '../core/logger.js';

/** Query parameters whose values are secrets and never reach a log. */
const SECRET_PARAMS = new Set(['token', 'password']);

/** The request URL with secret query values replaced by `***`. */
export function scrubUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const params = new URLSearchParams(url.slice(q + 1));
  let changed = false;
  for (const key of [...params.keys()]) {
    if (SECRET_PARAMS.has(key.toLowerCase())) {
      params.set(key, '***');
      changed = true;
    }
  }
  return changed ? `${url.slice(0, q)}?${params.toString()}` : url;
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
