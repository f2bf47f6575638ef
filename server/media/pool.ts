import { stat } from 'node:fs/promises';
import {
  isChildProcessNotice,
  isNeedsHeifLaneError,
  isTaskStarted,
  type MediaTaskInput,
  type MediaTaskName,
  type MediaTaskResult,
  type TaskClock,
} from '../../workers/tasks.js';
import { notFound } from '../core/errors.js';
import { isMissing } from '../core/paths.js';
import { FailedDecodes } from './failed-decodes.js';
import { MediaTaskError, PoolBusyError, TaskCancelledError } from './pool-errors.js';
import { DEFAULT_LANES, LANE_OF, type Lane, type LaneSize, type LaneSizeOptions, laneSizesOf, type PoolLane, startLane } from './pool-lanes.js';
import { type QueuedWork, TASK_PRIORITIES, type TaskPriority } from './priority-lane.js';
import { checkedDeadlines, DEADLINE_OF, type TaskDeadlines } from './task-deadlines.js';
import type { Logger } from '../core/logger.js';

export { MediaTaskError, PoolBusyError, TaskCancelledError };
export type { QueuedWork };
export type { MediaTaskName };
export { DEFAULT_LANES };
export type { LaneSize, PoolLane };

/**
 * The main-thread side of the media pool: every image and video operation runs in a
 * worker thread, behind a bounded queue, so a burst of cold thumbnails can neither block
 * the event loop nor pile up without limit; and every task has a deadline, so a hostile or
 * unreadable file can hold a worker only that long before the worker is ended and replaced.
 * The lanes themselves (which task runs where, their sizes, their threads) are pool-lanes.ts;
 * the deadlines task-deadlines.ts.
 */

export type { TaskPriority };

export interface MediaPoolOptions extends LaneSizeOptions {
  /** Worker threads of the main lane, one per core is right: each runs one task at a time. */
  readonly workers: number;
  /** Visitors' tasks allowed to wait for a free worker of the main lane; past it a task is refused (PoolBusyError). */
  readonly maxQueue: number;
  /** Background tasks allowed to wait in the main lane (default: maxQueue). */
  readonly maxBackgroundQueue?: number;
  /** Of the visitors' tasks, those of view priority allowed to wait in the main lane (default: maxQueue; see PriorityLaneLimits). */
  readonly maxViewQueue?: number;
  /**
   * Milliseconds a lane must have been free of visitors' tasks before a background task
   * starts (default BACKGROUND_DELAY_MS): a page's burst of tiles comes first, whole.
   */
  readonly backgroundDelayMs?: number;
  /** How long a view task may wait behind grid work before it gets a worker (default VIEW_WAIT_LIMIT_MS, priority-lane.ts). */
  readonly maxViewWaitMs?: number;
  /** The other lanes' sizes; by default one worker each (see DEFAULT_LANES). */
  readonly lanes?: Partial<Record<Exclude<PoolLane, 'main'>, LaneSize>>;
  /** Where the detail of a failed task goes (the client only sees a neutral message). */
  readonly log: Logger;
  /**
   * Milliseconds a task may run, counted from the moment a worker starts it, per kind of
   * work; the rest keep DEFAULT_TASK_DEADLINES. Tests shorten them.
   */
  readonly deadlines?: Partial<TaskDeadlines>;
}

/** How a caller wants one task run. */
export interface RunOptions {
  /** Default: the task's own (DEFAULT_PRIORITY_OF). */
  readonly priority?: TaskPriority;
  /** Aborted while the task waits for a worker: it leaves the queue and fails with TaskCancelledError. */
  readonly signal?: AbortSignal;
}

/** One method per task of the map (workers/tasks.ts), for callers that need only some. */
export type MediaTaskMethods = {
  readonly [N in MediaTaskName]: (task: MediaTaskInput<N>, options?: RunOptions) => Promise<MediaTaskResult<N>>;
};

/**
 * Every task fails with a MediaTaskError (it failed or ran past its deadline), a
 * PoolBusyError (refused: the queue is full or the pool is closing), a TaskCancelledError
 * (its signal aborted before it started), or core's not-found error (its source was deleted
 * meanwhile).
 */
export interface MediaPool extends MediaTaskMethods {
  run<N extends MediaTaskName>(name: N, task: MediaTaskInput<N>, options?: RunOptions): Promise<MediaTaskResult<N>>;
  /** As run, and the task can be made more urgent while it waits. */
  submit<N extends MediaTaskName>(name: N, task: MediaTaskInput<N>, options?: RunOptions): QueuedWork<MediaTaskResult<N>>;
  /** Tasks handed to the workers since the pool started (refused and cancelled ones not counted). */
  readonly tasksRun: number;
  /** Tasks dropped from a queue before they started, their requests gone. */
  readonly tasksCancelled: number;
  /** Tasks waiting for a worker right now, in every lane. */
  readonly queueSize: number;
  /** Tasks waiting for or running in one lane right now. */
  inFlight(lane: PoolLane): number;
  /** PIDs of the ffmpeg processes of running tasks that report theirs (web copies of videos). */
  readonly childProcesses: readonly number[];
  close(): Promise<void>;
}

/**
 * Without a priority given: page sizes are what a grid waits for; the rest is for someone
 * looking at one photo or video. Thumbnails get theirs from the cache, by size.
 */
const DEFAULT_PRIORITY_OF: { readonly [N in MediaTaskName]: TaskPriority } = {
  thumbnail: 'view',
  fullSize: 'view',
  decodeCheck: 'view',
  // A bounded header read of a few milliseconds (workers/exif-reader.ts).
  exif: 'quick',
  videoInfo: 'view',
  dimensions: 'grid',
  webVideo: 'view',
  // Read after each scan to pair Live Photos whose names differ: nobody waits for it.
  contentId: 'background',
  // No page waits for a cover's crop (server/media/cover-focus.ts): it is centred meanwhile.
  coverFocus: 'background',
  siteIcon: 'view',
  // Files' CRCs for the ZIP, made while an album is prepared (server/media/served-crc.ts).
  checksum: 'background',
};

/**
 * A second of quiet before background work: the tiles of one album page arrive within a
 * few hundred milliseconds of each other (docs/api.md#get-apithumbnailpathsizeformat).
 */
export const BACKGROUND_DELAY_MS = 1000;

export function createMediaPool(options: MediaPoolOptions): MediaPool {
  const sizes = laneSizesOf(options);
  const backgroundDelayMs = options.backgroundDelayMs ?? BACKGROUND_DELAY_MS;
  if (!Number.isFinite(backgroundDelayMs) || backgroundDelayMs < 0) throw new RangeError(`backgroundDelayMs must be a number >= 0, got ${backgroundDelayMs}`);
  const { log } = options;
  const deadlines = checkedDeadlines(options.deadlines);

  let lastRunId = 0;
  let closing = false;
  /** Runs handed to piscina, by id: each starts its deadline when its worker says it began. */
  const startClocks = new Map<number, () => void>();
  const failed = new FailedDecodes();
  /** ffmpeg processes making web copies right now: killed at close (see ChildProcessNotice). */
  const children = new Set<number>();
  const onMessage = (message: unknown) => {
    if (isTaskStarted(message)) startClocks.get(message.mediaTaskStarted)?.();
    else if (isChildProcessNotice(message)) {
      if (message.running) children.add(message.mediaChild);
      else children.delete(message.mediaChild);
    }
  };

  const settings = { backgroundDelayMs, onMessage, ...(options.maxViewWaitMs === undefined ? {} : { maxViewWaitMs: options.maxViewWaitMs }) };
  // The main lane's threads start now (the first page should not wait for them); the others on first use.
  const lanes = new Map<PoolLane, Lane>([['main', startLane('main', sizes.main, settings)]]);
  const laneFor = (name: PoolLane): Lane => {
    let lane = lanes.get(name);
    if (!lane) {
      lane = startLane(name, sizes[name], settings);
      lanes.set(name, lane);
    }
    return lane;
  };

  /** Runs one task on a free worker of its lane, within its deadline. */
  async function runNow<N extends MediaTaskName>(lane: Lane, name: N, task: MediaTaskInput<N>): Promise<MediaTaskResult<N>> {
    const runId = ++lastRunId;
    const deadlineMs = deadlines[DEADLINE_OF[name](task)];
    const abort = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    startClocks.set(runId, () => {
      timer = setTimeout(() => abort.abort(new Error(`${name} ran past its deadline of ${deadlineMs} ms`)), deadlineMs);
    });
    const clocked: MediaTaskInput<N> & TaskClock = { ...task, runId, deadlineMs };
    try {
      // The one unchecked step: piscina's results are untyped. The worker's export of this
      // name is checked against the same map (workers/media-worker.ts).
      return (await lane.piscina.run(clocked, { name, signal: abort.signal })) as MediaTaskResult<N>;
    } catch (err) {
      if (abort.signal.aborted) {
        // piscina has terminated the worker (and started another): nothing of the task is left.
        log.error({ err: abort.signal.reason }, `media task ${name} ended at its deadline for ${task.src}`);
        throw new MediaTaskError(name, abort.signal.reason, { timedOut: true });
      }
      if (isClosing(err)) throw new PoolBusyError();
      // A HEIC found by its bytes in the main lane: not a failure, it goes again in the heif lane.
      if (isNeedsHeifLaneError(err)) throw new NeedsHeifLane();
      // Deleted after the request looked at it, while the task waited or ran: answered as if
      // it had never been there, and not worth a log line.
      if (await isGone(task.src)) throw notFound('File not found');
      log.error({ err }, `media task ${name} failed for ${task.src}`);
      throw new MediaTaskError(name, err);
    } finally {
      startClocks.delete(runId);
      clearTimeout(timer);
    }
  }

  function submit<N extends MediaTaskName>(name: N, task: MediaTaskInput<N>, opts: RunOptions = {}): QueuedWork<MediaTaskResult<N>> {
    if (closing) return { result: Promise.reject(new PoolBusyError()), raise: () => undefined };
    const tag = 'tag' in task ? task.tag : undefined;
    const failedBefore = failed.get(task.src, tag);
    if (failedBefore) return { result: Promise.reject(failedBefore), raise: () => undefined };
    let priority = opts.priority ?? DEFAULT_PRIORITY_OF[name];
    const enqueue = (laneName: PoolLane) => {
      const lane = laneFor(laneName);
      return lane.queue.submit(priority, () => runNow(lane, name, task), opts.signal);
    };
    let work = enqueue(LANE_OF[name](task));
    const result = work.result.catch((err: unknown) => {
      if (!(err instanceof NeedsHeifLane)) throw err;
      work = enqueue('heif');
      return work.result;
    });
    // A version that failed (a crafted HEIC refused, a file nothing reads) fails at once next time.
    result.catch((err: unknown) => {
      if (err instanceof MediaTaskError) failed.remember(task.src, tag, err);
    });
    return {
      result,
      raise(to) {
        if (TASK_PRIORITIES.indexOf(to) < TASK_PRIORITIES.indexOf(priority)) priority = to;
        work.raise(to);
      },
    };
  }
  const run = <N extends MediaTaskName>(name: N, task: MediaTaskInput<N>, opts?: RunOptions) => submit(name, task, opts).result;
  const sum = (of: (lane: Lane) => number) => [...lanes.values()].reduce((n, lane) => n + of(lane), 0);

  return {
    run,
    submit,
    thumbnail: (task, opts) => run('thumbnail', task, opts),
    fullSize: (task, opts) => run('fullSize', task, opts),
    decodeCheck: (task, opts) => run('decodeCheck', task, opts),
    exif: (task, opts) => run('exif', task, opts),
    videoInfo: (task, opts) => run('videoInfo', task, opts),
    dimensions: (task, opts) => run('dimensions', task, opts),
    webVideo: (task, opts) => run('webVideo', task, opts),
    contentId: (task, opts) => run('contentId', task, opts),
    coverFocus: (task, opts) => run('coverFocus', task, opts),
    siteIcon: (task, opts) => run('siteIcon', task, opts),
    checksum: (task, opts) => run('checksum', task, opts),
    get tasksRun() {
      return sum((lane) => lane.queue.started);
    },
    get tasksCancelled() {
      return sum((lane) => lane.queue.cancelled);
    },
    get queueSize() {
      return sum((lane) => lane.queue.waiting);
    },
    inFlight: (lane) => lanes.get(lane)?.queue.active ?? 0,
    get childProcesses() {
      return [...children];
    },
    close: async () => {
      closing = true;
      for (const lane of lanes.values()) lane.queue.close();
      // A rendition may have hours to go: its task fails at once instead, and is made again
      // on the next request after a restart.
      for (const pid of children) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // Already gone.
        }
      }
      await Promise.all([...lanes.values()].map((lane) => lane.piscina.close()));
    },
  };
}

/** A main-lane worker found the task's photo to be a HEIC (needsHeifLaneError in workers/tasks.ts): it goes again in the heif lane. */
class NeedsHeifLane extends Error {}

/** The pool closing during shutdown refused the task: try again later, nothing failed. */
function isClosing(err: unknown): boolean {
  return err instanceof Error && err.name === 'AbortError';
}

async function isGone(file: string): Promise<boolean> {
  try {
    await stat(file);
    return false;
  } catch (err) {
    return isMissing(err);
  }
}
