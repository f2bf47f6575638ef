/** An error that carries the HTTP status it should be answered with. */
export class HttpError extends Error {
  readonly status: number;
  /** Extra JSON fields for API answers (e.g. `rateLimited`). */
  readonly body: Record<string, unknown> | undefined;
  /** Extra headers (e.g. `Retry-After`). */
  readonly headers: Record<string, string> | undefined;

  constructor(status: number, message: string, opts: { body?: Record<string, unknown>; headers?: Record<string, string> } = {}) {
    super(message);
    this.name = 'HttpError';
    this.status = status;
    this.body = opts.body;
    this.headers = opts.headers;
  }
}

export const badRequest = (message: string) => new HttpError(400, message);
export const missingParameter = (name: string) => new HttpError(400, `Missing required parameter: ${name}`);
export const unauthorized = (message = 'Access denied') => new HttpError(401, message);
export const forbidden = (message = 'Forbidden') => new HttpError(403, message);
export const notFound = (message = 'Not found') => new HttpError(404, message);
