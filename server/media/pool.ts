import { readFileSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Piscina } from 'piscina';
import { isChildProcessNotice, isTaskStarted, type MediaTaskInput, type MediaTaskName, type MediaTaskResult, type TaskClock } from '../../workers/tasks.js';
import { notFound } from '../core/errors.js';
import { needsHeifDecoder } from '../core/media-catalogue.js';
import { isMissing } from '../core/paths.js';
import { MediaTaskError, PoolBusyError } from './pool-errors.js';
import { DEFAULT_TASK_DEADLINES, type DeadlineKind, type TaskDeadlines } from './task-deadlines.js';
import type { Logger } from '../core/logger.js';

export { MediaTaskError, PoolBusyError };
export type { MediaTaskName };

/**
 * The main-thread side of the media pool: every image and video operation runs in a
 * worker thread, behind a bounded queue, so a burst of cold thumbnails can neither block
 * the event loop nor pile up without limit; and every task has a deadline, so a hostile or
 * unreadable file can hold a worker only that long before the worker is ended and replaced.
 */

/** The size of one lane: its worker threads and the tasks allowed to wait for them. */
export interface LaneSize {
  readonly workers: number;
  readonly maxQueue: number;
}

/**
 * The pool's lanes, each its own set of worker threads with its own bounded queue, so one kind
 * of work can neither starve nor crowd out another:
 * - `main`: everything quick (JPEG, PNG… thumbnails, headers, EXIF, video probes and posters).
 * - `heif`: decoding HEIC/HEIF photos, whose HEVC pixels libvips cannot decode: a WebAssembly
 *   decoder takes a second or two and a few hundred MB per photo, so a folder of iPhone photos
 *   goes through one (by default) at a time and never holds the grid's JPEG thumbnails back.
 *   Its threads end when idle, which is how the decoder's memory goes back to the system.
 * - `video`: making web-playable copies of videos (remux, H.264 transcode): minutes of
 *   ffmpeg in a child process of low priority, in the background.
 */
export type PoolLane = 'main' | 'heif' | 'video';

export interface MediaPoolOptions {
  /** Worker threads of the main lane, one per core is right: each runs one task at a time. */
  readonly workers: number;
  /** Tasks allowed to wait for a free worker of the main lane; past it a task is refused (PoolBusyError). */
  readonly maxQueue: number;
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

/** One method per task of the map (workers/tasks.ts), for callers that need only some. */
export type MediaTaskMethods = {
  readonly [N in MediaTaskName]: (task: MediaTaskInput<N>) => Promise<MediaTaskResult<N>>;
};

/**
 * Every task fails with a MediaTaskError (it failed or ran past its deadline), a
 * PoolBusyError (refused: the queue is full or the pool is closing), or core's not-found
 * error (its source was deleted meanwhile).
 */
export interface MediaPool extends MediaTaskMethods {
  run<N extends MediaTaskName>(name: N, task: MediaTaskInput<N>): Promise<MediaTaskResult<N>>;
  /** Tasks handed to the workers since the pool started (refused ones not counted). */
  readonly tasksRun: number;
  /** Tasks waiting for a worker right now, in every lane. */
  readonly queueSize: number;
  /** Tasks waiting for or running in one lane right now. */
  inFlight(lane: PoolLane): number;
  /** PIDs of the ffmpeg processes of running tasks that report theirs (web copies of videos). */
  readonly childProcesses: readonly number[];
  close(): Promise<void>;
}

/**
 * Which deadline a task gets depends on the work, not only on its name. A deadline ends a
 * task with a failure, not a refusal: the time is spent on this file (hostile,
 * pathological or on a hung mount) and a retry would only spend it again.
 */
const DEADLINE_OF: { readonly [N in MediaTaskName]: (task: MediaTaskInput<N>) => DeadlineKind } = {
  thumbnail: (task) => (task.kind === 'video' ? 'videoThumbnail' : 'imageThumbnail'),
  fullSize: () => 'imageThumbnail',
  decodeCheck: () => 'imageThumbnail',
  exif: () => 'exif',
  videoInfo: () => 'videoInfo',
  dimensions: (task) => (task.kind === 'video' ? 'videoDimensions' : 'imageDimensions'),
  webVideo: (task) => (task.plan === 'faststart' ? 'videoRemux' : 'videoTranscode'),
  // A header read like EXIF's, for a movie too (its metadata atom, never its frames).
  contentId: () => 'exif',
};

/** Which lane a task runs in: by the work, as for deadlines. */
const LANE_OF: { readonly [N in MediaTaskName]: (task: MediaTaskInput<N>) => PoolLane } = {
  thumbnail: (task) => (task.kind === 'image' && needsHeifDecoder(task.src) ? 'heif' : 'main'),
  fullSize: (task) => (needsHeifDecoder(task.src) ? 'heif' : 'main'),
  // Uploads are checked by the admin's own pool, whose heif lane is its only busy one.
  decodeCheck: () => 'heif',
  exif: () => 'main',
  videoInfo: () => 'main',
  dimensions: () => 'main',
  webVideo: () => 'video',
  contentId: () => 'main',
};

/** Lanes other than main: one worker each; the heif lane's threads end after this long idle. */
export const DEFAULT_LANES: Readonly<Record<Exclude<PoolLane, 'main'>, LaneSize>> = Object.freeze({
  heif: { workers: 1, maxQueue: 64 },
  video: { workers: 1, maxQueue: 1000 },
});
const HEIF_IDLE_MS = 30_000;

interface Lane {
  readonly size: LaneSize;
  readonly piscina: Piscina;
  inFlight: number;
}

export function createMediaPool(options: MediaPoolOptions): MediaPool {
  const sizes: Record<PoolLane, LaneSize> = {
    main: { workers: options.workers, maxQueue: options.maxQueue },
    heif: options.lanes?.heif ?? DEFAULT_LANES.heif,
    video: options.lanes?.video ?? DEFAULT_LANES.video,
  };
  for (const [name, { workers, maxQueue }] of Object.entries(sizes)) {
    const prefix = name === 'main' ? '' : `lanes.${name}.`;
    if (!Number.isInteger(workers) || workers < 1) throw new RangeError(`${prefix}workers must be an integer >= 1, got ${workers}`);
    if (!Number.isInteger(maxQueue) || maxQueue < 0) throw new RangeError(`${prefix}maxQueue must be an integer >= 0, got ${maxQueue}`);
  }
  const { log } = options;
  const deadlines = checkedDeadlines(options.deadlines);

  let submitted = 0;
  let refused = 0;
  let lastRunId = 0;
  /** Runs handed to piscina, by id: each starts its deadline when its worker says it began. */
  const startClocks = new Map<number, () => void>();
  /** ffmpeg processes making web copies right now: killed at close (see ChildProcessNotice). */
  const children = new Set<number>();
  const onMessage = (message: unknown) => {
    if (isTaskStarted(message)) startClocks.get(message.mediaTaskStarted)?.();
    else if (isChildProcessNotice(message)) {
      if (message.running) children.add(message.mediaChild);
      else children.delete(message.mediaChild);
    }
  };

  function createLane(size: LaneSize, idleTimeout?: number): Lane {
    const piscina = new Piscina({
      filename: WORKER_FILE,
      // A lane with an idle timeout starts its threads when work comes and ends them after.
      minThreads: idleTimeout === undefined ? size.workers : 0,
      maxThreads: size.workers,
      ...(idleTimeout === undefined ? {} : { idleTimeout }),
      // No maxQueue: piscina does not count tasks that carry an AbortSignal against it, so
      // the pool admits tasks itself (see run()).
      execArgv: workerExecArgv(),
      // Tasks last tens of milliseconds to minutes, so the latency Atomics.wait saves is
      // nothing, while waiting that way would freeze whatever async work (a child process being
      // reaped, a file handle closing) a task left behind.
      atomics: 'disabled',
    });
    piscina.on('message', onMessage);
    return { size, piscina, inFlight: 0 };
  }
  // The main lane's threads start now (the first page should not wait for them); the others on first use.
  const lanes = new Map<PoolLane, Lane>([['main', createLane(sizes.main)]]);
  const laneFor = (name: PoolLane): Lane => {
    let lane = lanes.get(name);
    if (!lane) {
      lane = createLane(sizes[name], name === 'heif' ? HEIF_IDLE_MS : undefined);
      lanes.set(name, lane);
    }
    return lane;
  };

  async function run<N extends MediaTaskName>(name: N, task: MediaTaskInput<N>): Promise<MediaTaskResult<N>> {
    submitted++;
    const lane = laneFor(LANE_OF[name](task));
    if (lane.inFlight >= lane.size.workers + lane.size.maxQueue) {
      refused++;
      throw new PoolBusyError();
    }
    lane.inFlight++;
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
      if (isClosing(err)) {
        refused++;
        throw new PoolBusyError();
      }
      // Deleted after the request looked at it, while the task waited or ran: answered as if
      // it had never been there, and not worth a log line.
      if (await isGone(task.src)) throw notFound('File not found');
      log.error({ err }, `media task ${name} failed for ${task.src}`);
      throw new MediaTaskError(name, err);
    } finally {
      lane.inFlight--;
      startClocks.delete(runId);
      clearTimeout(timer);
    }
  }

  return {
    run,
    thumbnail: (task) => run('thumbnail', task),
    fullSize: (task) => run('fullSize', task),
    decodeCheck: (task) => run('decodeCheck', task),
    exif: (task) => run('exif', task),
    videoInfo: (task) => run('videoInfo', task),
    dimensions: (task) => run('dimensions', task),
    webVideo: (task) => run('webVideo', task),
    contentId: (task) => run('contentId', task),
    get tasksRun() {
      return submitted - refused;
    },
    get queueSize() {
      let waiting = 0;
      for (const lane of lanes.values()) waiting += lane.piscina.queueSize;
      return waiting;
    },
    inFlight: (lane) => lanes.get(lane)?.inFlight ?? 0,
    get childProcesses() {
      return [...children];
    },
    close: async () => {
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

/** The pool closing during shutdown refused the task: try again later, nothing failed. */
function isClosing(err: unknown): boolean {
  return err instanceof Error && err.name === 'AbortError';
}

function checkedDeadlines(given: Partial<TaskDeadlines> = {}): TaskDeadlines {
  for (const [kind, ms] of Object.entries(given)) {
    if (!(kind in DEFAULT_TASK_DEADLINES)) throw new RangeError(`deadlines.${kind} is not a kind of media task`);
    if (typeof ms !== 'number' || !Number.isFinite(ms) || ms <= 0) {
      throw new RangeError(`deadlines.${kind} must be a positive number of milliseconds, got ${String(ms)}`);
    }
  }
  return Object.freeze({ ...DEFAULT_TASK_DEADLINES, ...given });
}

async function isGone(file: string): Promise<boolean> {
  try {
    await stat(file);
    return false;
  } catch (err) {
    return isMissing(err);
  }
}

/** `.ts` when running from sources (tests, tsx), `.js` when running the build in dist/. */
const OWN_EXTENSION = path.extname(fileURLToPath(import.meta.url));
const WORKER_FILE = fileURLToPath(new URL(`../../workers/media-worker${OWN_EXTENSION}`, import.meta.url));

/**
 * From sources the worker is TypeScript. Worker threads inherit `--import tsx`, but tsx
 * (on Node 20) installs its loader hooks in the main thread only, so each worker registers
 * them itself before piscina imports the worker file. (Where a newer Node lets tsx hook
 * workers too, the second registration only transpiles twice.) Built code needs nothing.
 */
function workerExecArgv(): string[] | undefined {
  if (OWN_EXTENSION !== '.ts') return undefined;
  const register = `import { register } from ${JSON.stringify(tsxEsmApiUrl())}; register();`;
  return [...process.execArgv, '--import', `data:text/javascript,${encodeURIComponent(register)}`];
}

/**
 * The ESM build of `tsx/esm/api`, found through tsx's package.json exports. Neither
 * import.meta.resolve (tsx may load this very file as CommonJS, without it) nor
 * require.resolve (it picks the CommonJS build, which cannot register hooks from here) do.
 */
function tsxEsmApiUrl(): string {
  const manifestPath = createRequire(import.meta.url).resolve('tsx/package.json');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { exports: Record<string, { import: { default: string } }> };
  const entry = manifest.exports['./esm/api']?.import.default;
  if (!entry) throw new Error('tsx has no ESM entry for tsx/esm/api: cannot run the TypeScript media worker');
  return pathToFileURL(path.join(path.dirname(manifestPath), entry)).href;
}
