import { readFileSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Piscina } from 'piscina';
import type {
  Dimensions,
  DimensionsTask,
  ExifRecord,
  PathTask,
  ThumbnailResult,
  ThumbnailTask,
  VideoInfo,
} from '../../workers/media-worker.js';
import { HttpError, notFound, serviceBusy } from '../http-error.js';
import { isMissing } from '../paths.js';

/**
 * The main-thread side of the media pool: every image and video operation runs in a
 * worker thread, behind a bounded queue, so a burst of cold thumbnails can neither block
 * the event loop nor pile up without limit.
 */

export type MediaTaskName = 'thumbnail' | 'exif' | 'videoInfo' | 'dimensions';

export interface MediaPoolOptions {
  /** Worker threads, one per core is right: each runs one task at a time. */
  readonly workers: number;
  /** Tasks allowed to wait for a free worker; past it a request is answered 503. */
  readonly maxQueue: number;
  /** Where the detail of a failed task goes (the client only sees a neutral 500). */
  readonly log?: (message: string, err: unknown) => void;
}

export interface MediaPool {
  thumbnail(task: ThumbnailTask): Promise<ThumbnailResult[]>;
  exif(task: PathTask): Promise<ExifRecord>;
  videoInfo(task: PathTask): Promise<VideoInfo>;
  dimensions(task: DimensionsTask): Promise<Dimensions>;
  /** Tasks handed to the workers since the pool started (refused ones not counted). */
  readonly tasksRun: number;
  /** Tasks waiting for a worker right now. */
  readonly queueSize: number;
  close(): Promise<void>;
}

/** A task that failed in a worker: a 500 for clients, the worker's error kept as `cause`. */
export class MediaTaskError extends HttpError {
  readonly task: MediaTaskName;
  constructor(task: MediaTaskName, cause: unknown) {
    super(500, 'Could not process the media file');
    this.name = 'MediaTaskError';
    this.task = task;
    this.cause = cause;
  }
}

export function createMediaPool(options: MediaPoolOptions): MediaPool {
  const { workers, maxQueue } = options;
  if (!Number.isInteger(workers) || workers < 1) throw new RangeError(`workers must be an integer >= 1, got ${workers}`);
  if (!Number.isInteger(maxQueue) || maxQueue < 0) throw new RangeError(`maxQueue must be an integer >= 0, got ${maxQueue}`);
  const log = options.log ?? ((message, err) => console.error(message, err));

  const piscina = new Piscina({
    filename: WORKER_FILE,
    minThreads: workers,
    maxThreads: workers,
    maxQueue,
    execArgv: workerExecArgv(),
    // Tasks last tens of milliseconds to seconds, so the latency Atomics.wait saves is
    // nothing, while waiting that way would freeze whatever async work (a child process being
    // reaped, a file handle closing) a task left behind.
    atomics: 'disabled',
  });

  let submitted = 0;
  let refused = 0;

  async function run<T extends { src: string }, R>(name: MediaTaskName, task: T): Promise<R> {
    submitted++;
    try {
      return (await piscina.run(task, { name })) as R;
    } catch (err) {
      if (isRefusal(err)) {
        refused++;
        throw serviceBusy();
      }
      // Deleted after the request looked at it, while the task waited or ran: answered as if
      // it had never been there, and not worth a log line.
      if (await isGone(task.src)) throw notFound('File not found');
      log(`media task ${name} failed for ${task.src}`, err);
      throw new MediaTaskError(name, err);
    }
  }

  return {
    thumbnail: (task) => run('thumbnail', task),
    exif: (task) => run('exif', task),
    videoInfo: (task) => run('videoInfo', task),
    dimensions: (task) => run('dimensions', task),
    get tasksRun() {
      return submitted - refused;
    },
    get queueSize() {
      return piscina.queueSize;
    },
    close: () => piscina.close(),
  };
}

/** Queue full, or the pool closing during shutdown: try again later, nothing failed. */
function isRefusal(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  return err.name === 'AbortError' || err.message === 'Task queue is at limit' || err.message === 'No task queue available and all Workers are busy';
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
