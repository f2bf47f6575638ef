import { TaskCancelledError } from './pool-errors.js';
import type { QueuedWork, TaskPriority } from './priority-lane.js';

/**
 * One media task that several callers wait for (single flight: however many visitors ask for
 * a thumbnail at the same moment, it is made once). Each caller joins with its own priority
 * and, when it is a request, its own AbortSignal. The task waits in the pool at the most
 * urgent priority any caller gave, and is dropped from the queue only when every caller that
 * can go away has gone (docs/api.md#get-apithumbnailpathsizeformat): a caller without a
 * signal (background work, the CLI) keeps it for good.
 */
export class SharedJob {
  readonly #controller = new AbortController();
  readonly #work: QueuedWork<unknown>;
  readonly #done: Promise<void>;
  #waiters = 0;
  #kept = false;
  #settled = false;

  /** `submit` queues the task in the pool, with the signal that drops it from the queue. */
  constructor(submit: (signal: AbortSignal) => QueuedWork<unknown>) {
    this.#work = submit(this.#controller.signal);
    this.#done = this.#work.result.then(
      () => {
        this.#settled = true;
      },
      (err: unknown) => {
        this.#settled = true;
        throw err;
      },
    );
    // Every caller gets the outcome through join(); this copy is nobody's to report.
    this.#done.catch(() => undefined);
  }

  /** Settles with the task; fails alone with a TaskCancelledError when `signal` aborts first. */
  join(priority: TaskPriority, signal?: AbortSignal): Promise<void> {
    this.#work.raise(priority);
    if (!signal) {
      this.#kept = true;
      return this.#done;
    }
    if (signal.aborted) return Promise.reject(new TaskCancelledError());
    this.#waiters++;
    return new Promise<void>((resolve, reject) => {
      const leave = () => {
        this.#waiters--;
        reject(new TaskCancelledError());
        if (this.#waiters === 0 && !this.#kept && !this.#settled) this.#controller.abort();
      };
      signal.addEventListener('abort', leave, { once: true });
      this.#done.then(resolve, reject).finally(() => signal.removeEventListener('abort', leave));
    });
  }

  /** Resolves or rejects as the task does. */
  get done(): Promise<void> {
    return this.#done;
  }
}
