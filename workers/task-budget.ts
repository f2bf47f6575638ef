/**
 * What every task of the media worker (media-worker.ts) does as it begins: tell the pool it has
 * started, so its deadline runs from now rather than from when it was queued (the clock
 * protocol of workers/tasks.ts), and get the budget its own timeouts must keep within. Kept
 * apart from the tasks so that photo and video tasks share one clock and one idle collection.
 */
import { parentPort } from 'node:worker_threads';
import { collectWhenQuiet } from '../server/core/idle-gc.js';
import { type TaskClock, taskStarted, workerBudgetMs } from './tasks.js';

/**
 * The pixels of a burst's last tasks (decoded 24 MP photos held as Buffers, tens of MB each)
 * are freed only when this thread's heap is collected, which nothing triggers once the tasks
 * stop coming: one full collection a few seconds after the last task started gives them back.
 */
const WORKER_QUIET_MS = 3000;
const quiet = collectWhenQuiet(WORKER_QUIET_MS);

/** Tells the pool the task starts now, and gives the task's own timeouts their budget. */
export function startTask(task: TaskClock): Budget {
  quiet.touch();
  parentPort?.postMessage(taskStarted(task.runId));
  return new Budget(task.deadlineMs);
}

/** What is left of a task's deadline for the timeouts of its child processes and pipelines. */
export class Budget {
  readonly #endsAt: number;

  constructor(deadlineMs: number) {
    this.#endsAt = Date.now() + workerBudgetMs(deadlineMs);
  }

  /** At least 1: a timeout of 0 means none. */
  ms(): number {
    return Math.max(1, this.#endsAt - Date.now());
  }

  /** sharp takes whole seconds. */
  seconds(): number {
    return Math.max(1, Math.floor(this.ms() / 1000));
  }
}
