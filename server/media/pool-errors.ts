import type { MediaTaskName } from '../../workers/tasks.js';

/**
 * How the media pool fails, in its own terms. Only the error handler turns these into HTTP
 * answers (server/http/domain-errors.ts); everything else tests them with instanceof.
 */

/** Every worker is busy and the queue is full, or the pool is closing: nothing failed, try again later. */
export class PoolBusyError extends Error {
  /** How long a client should wait before asking again. */
  readonly retryAfterSeconds: number;
  constructor(retryAfterSeconds = 2) {
    super('The media pool is busy');
    this.name = 'PoolBusyError';
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/**
 * A task that failed in a worker, or ran past its deadline; the worker's error (or the
 * deadline's) is kept as `cause`.
 */
export class MediaTaskError extends Error {
  readonly task: MediaTaskName;
  readonly timedOut: boolean;
  constructor(task: MediaTaskName, cause: unknown, opts: { timedOut?: boolean } = {}) {
    super(opts.timedOut ? `Media task ${task} ran past its deadline` : `Media task ${task} failed`, { cause });
    this.name = 'MediaTaskError';
    this.task = task;
    this.timedOut = opts.timedOut ?? false;
  }
}

/**
 * Everyone waiting for a task went away (the browser aborted the request: scrolled past, page
 * closed) before a worker took it: it was dropped from the queue, nothing ran.
 */
export class TaskCancelledError extends Error {
  constructor() {
    super('The media task was cancelled before it started');
    this.name = 'TaskCancelledError';
  }
}
