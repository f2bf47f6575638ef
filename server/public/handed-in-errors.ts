import type { ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import type { ErrorAnswer, RequestListener } from './front-door.js';

/**
 * The way into an Express app for an error met before it: the front door answers public
 * thumbnails itself (server/public/front-door.ts), and an error it meets there must be
 * answered exactly as the app answers the same error thrown by its route (status, JSON body,
 * Retry-After, the compression middleware's Vary, the log line), which only the app's own
 * middleware and error handler can do. `raise` is mounted where a route's error would arise,
 * after what every request goes through; `answerWith(app)` gives the front door its
 * `answerError`, which runs the app for the request with its error raised there. An Express
 * app takes no argument but the request and response, so the error waits for `raise` in
 * here, for that one response, and only from `answerError` to `raise`.
 */
export interface HandedInErrors {
  readonly raise: RequestHandler;
  answerWith(app: RequestListener): ErrorAnswer;
}

export function createHandedInErrors(): HandedInErrors {
  const waiting = new WeakMap<ServerResponse, unknown>();
  return {
    raise: function raiseHandedInError(_req, res, next) {
      if (!waiting.has(res)) return next();
      const err = waiting.get(res);
      waiting.delete(res);
      next(err);
    },
    answerWith: (app) =>
      function answerError(req, res, err) {
        waiting.set(res, err);
        app(req, res);
      },
  };
}
