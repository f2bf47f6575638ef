import { HttpError } from '../core/errors.js';
import { MediaTaskError, PoolBusyError, TaskCancelledError } from '../media/pool-errors.js';

/**
 * The one place where errors of the domain become HTTP answers (docs/api.md, conventions):
 * the modules that throw them know nothing of statuses. A source missing at any point is
 * core's not-found error, an HttpError already.
 */
export function toHttpError(err: unknown): unknown {
  // Nothing failed: the client may ask again shortly.
  if (err instanceof PoolBusyError) {
    return new HttpError(503, 'Server busy, try again shortly', { headers: { 'Retry-After': String(err.retryAfterSeconds) } });
  }
  // Nobody is left to read the answer; 499 (nginx's "client closed request") keeps it out of
  // the error log and marks it in the request log.
  if (err instanceof TaskCancelledError) return new HttpError(499, 'The request was cancelled');
  // A deadline is a 500 too, not a 503: the time is spent on this file (hostile,
  // pathological or on a hung mount) and a retry would only spend it again. The worker's
  // own error stays in the log; the client gets a neutral sentence.
  if (err instanceof MediaTaskError) {
    return new HttpError(500, err.timedOut ? 'The media file took too long to process' : 'Could not process the media file');
  }
  return err;
}
