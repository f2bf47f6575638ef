import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '../core/logger.js';
import { logRequest } from '../http/request-log.js';
import { setEveryResponseHeaders } from '../http/security-headers.js';

export type RequestListener = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * Answers a request before the app when it can: `false` at once for a request it does not
 * even look at, else a promise of whether it answered. When it did not, nothing was sent and
 * the app answers as usual, so whatever it answers must be what the app would answer. A
 * rejection is an error met while answering: the app's error handler answers it, as it
 * would answer the same error thrown by the app's route.
 */
export type EarlyAnswer = (req: IncomingMessage, res: ServerResponse) => false | Promise<boolean>;

/** Answers `err` for a request the app has not seen, as the app answers an error its routes throw. */
export type ErrorAnswer = (req: IncomingMessage, res: ServerResponse, err: unknown) => void;

export interface FrontDoorOptions {
  /** The public Express app: everything no early answer takes. */
  readonly app: RequestListener;
  /** The app's answer to an error an early answer met (server/public/app.ts, `answerError`). */
  readonly answerError: ErrorAnswer;
  /** Where each request's line goes (server/http/request-log.ts); none when absent. */
  readonly requestLog?: Logger;
  /** Asked in order; the first that answers decides. */
  readonly earlyAnswers?: readonly EarlyAnswer[];
}

/**
 * The request listener of the public server (`http.createServer(handler)`, supertest): what
 * every response gets (the request log line, its clock started on arrival, and the headers
 * every response carries), then the early answers (public thumbnails, cheaper outside
 * Express: see server/public/routes/media-api.ts), then the Express app for everything
 * else. The headers only a document reads are the app's to set, where it makes documents.
 */
export function createFrontDoor({ app, answerError, requestLog, earlyAnswers = [] }: FrontDoorOptions): RequestListener {
  const ask = (i: number, req: IncomingMessage, res: ServerResponse): false | Promise<boolean> => {
    for (; i < earlyAnswers.length; i++) {
      const pending = earlyAnswers[i]!(req, res);
      if (pending !== false) return pending.then((answered) => answered || Promise.resolve(ask(i + 1, req, res)));
    }
    return false;
  };

  return function frontDoor(req, res) {
    if (requestLog) logRequest(req, res, requestLog);
    setEveryResponseHeaders(res);
    const pending = ask(0, req, res);
    if (pending === false) return app(req, res);
    pending.then(
      (answered) => {
        if (!answered) app(req, res);
      },
      (err: unknown) => {
        // Too late for an answer once the head went out: the client sees a failure, not a truncated success.
        if (!res.headersSent) answerError(req, res, err);
        else res.destroy(err instanceof Error ? err : undefined);
      },
    );
  };
}
