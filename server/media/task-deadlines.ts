/**
 * How long each kind of media task may run, in one place, and the small protocol by which
 * the pool times a task from the moment a worker starts it (time spent waiting in the queue
 * is the pool's business, not the file's). Shared by the pool and the worker.
 *
 * Past its deadline a task's worker is ended and replaced: that is the only way to stop
 * JavaScript stuck in a loop or a read that never returns. The worker itself gives the
 * child processes and sharp pipelines of a task a budget that ends a little earlier, so they
 * are killed cleanly first and none outlives a worker that is ended.
 */

/** A task's deadline depends on the work, not only on the task's name. */
export type DeadlineKind = 'exif' | 'imageDimensions' | 'videoDimensions' | 'videoInfo' | 'imageThumbnail' | 'videoThumbnail';

export type TaskDeadlines = Readonly<Record<DeadlineKind, number>>;

/**
 * Milliseconds of run time. Header reads take milliseconds; the slack is for a slow disk or a
 * small board. A thumbnail of a 100-megapixel panorama takes seconds on a slow core, and a
 * video poster runs ffprobe, then ffmpeg (perhaps twice), then the resize.
 */
export const DEFAULT_TASK_DEADLINES: TaskDeadlines = Object.freeze({
  exif: 5_000,
  imageDimensions: 5_000,
  videoDimensions: 15_000,
  videoInfo: 15_000,
  imageThumbnail: 60_000,
  videoThumbnail: 90_000,
});

/** What the pool adds to every task it hands to a worker. */
export interface TaskClock {
  /** Names the run in the worker's "started" message. */
  readonly runId: number;
  readonly deadlineMs: number;
}

/** The message a worker posts (on its parentPort) as it starts a task. */
export interface TaskStarted {
  readonly mediaTaskStarted: number;
}

export function taskStarted(runId: number): TaskStarted {
  return { mediaTaskStarted: runId };
}

export function isTaskStarted(message: unknown): message is TaskStarted {
  return typeof message === 'object' && message !== null && typeof (message as Partial<TaskStarted>).mediaTaskStarted === 'number';
}

/**
 * The part of a deadline the worker's own timeouts may use: they must fire before the pool
 * ends the worker, or a child process would be left running with nobody to reap it.
 */
export function workerBudgetMs(deadlineMs: number): number {
  return Math.max(1, deadlineMs - Math.max(200, deadlineMs * 0.1));
}
