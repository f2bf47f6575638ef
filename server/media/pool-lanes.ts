/**
 * The lanes of the media pool (server/media/pool.ts): which lane each task runs in, how large
 * each lane is, and how its worker threads start. Kept apart from the pool's submit logic
 * (queueing, deadlines, the heif hand-over, remembered failures), which sees a lane only as a
 * piscina behind its priority queue.
 */
import { Piscina } from 'piscina';
import type { HeifLaneWorkerData, MediaTaskInput, MediaTaskName } from '../../workers/tasks.js';
import { needsHeifDecoder } from '../core/media-catalogue.js';
import { PriorityLane } from './priority-lane.js';
import { WORKER_FILE, workerExecArgv } from './worker-file.js';

/**
 * The pool's lanes, each its own set of worker threads with its own bounded queue, so one kind
 * of work can neither starve nor crowd out another:
 * - `main`: everything quick (JPEG, PNG… thumbnails, headers, EXIF, video probes and posters).
 * - `heif`: decoding HEIC/HEIF photos, whose HEVC pixels libvips cannot decode: a WebAssembly
 *   decoder takes a second or two and a few hundred MB per photo, so a folder of iPhone photos
 *   goes through one (by default) at a time and never holds the grid's JPEG thumbnails back.
 *   A photo goes there by its name; one found to be a HEIC only by its bytes (a HEIC named
 *   `.jpg`) is handed there by the main lane's worker (needsHeifLaneError in workers/tasks.ts).
 *   Its threads end as soon as the lane has nothing to do (HEIF_IDLE_MS): a WebAssembly heap
 *   never shrinks, and ending its thread is the only way to give its memory back.
 * - `video`: making web-playable copies of videos (remux, H.264 transcode): minutes of
 *   ffmpeg in a child process of low priority, in the background.
 * Within a lane, tasks wait in a priority queue (server/media/priority-lane.ts).
 */
export type PoolLane = 'main' | 'heif' | 'video';

/** The size of one lane: its worker threads and the tasks allowed to wait for them. */
export interface LaneSize {
  readonly workers: number;
  /** Visitors' tasks (grid and view priority) allowed to wait; past it, PoolBusyError. */
  readonly maxQueue: number;
  /** Background tasks allowed to wait (default: maxQueue); past it they are refused and dropped by their callers. */
  readonly maxBackgroundQueue?: number;
  /** View tasks allowed to wait (default: maxQueue). */
  readonly maxViewQueue?: number;
}

/** What the pool's options say of its lanes (MediaPoolOptions): the main lane's size, and the others'. */
export interface LaneSizeOptions extends LaneSize {
  readonly lanes?: Partial<Record<Exclude<PoolLane, 'main'>, LaneSize>>;
}

/** Lanes other than main: one worker each. */
export const DEFAULT_LANES: Readonly<Record<Exclude<PoolLane, 'main'>, LaneSize>> = Object.freeze({
  heif: { workers: 1, maxQueue: 64 },
  video: { workers: 1, maxQueue: 1000 },
});

/** Which lane a task runs in: by the work, as for deadlines (task-deadlines.ts). */
export const LANE_OF: { readonly [N in MediaTaskName]: (task: MediaTaskInput<N>) => PoolLane } = {
  thumbnail: (task) => (task.kind === 'image' && needsHeifDecoder(task.src) ? 'heif' : 'main'),
  fullSize: (task) => (needsHeifDecoder(task.src) ? 'heif' : 'main'),
  // Uploads are checked by the admin's own pool, whose heif lane is its only busy one.
  decodeCheck: () => 'heif',
  exif: () => 'main',
  videoInfo: () => 'main',
  dimensions: () => 'main',
  webVideo: () => 'video',
  contentId: () => 'main',
  coverFocus: () => 'main',
  siteIcon: () => 'main',
  // A stretch of a file at a time (server/media/served-crc.ts): milliseconds each.
  checksum: () => 'main',
};

/** Every lane's size, checked, each error naming its option (`lanes.heif.workers`). */
export function laneSizesOf(options: LaneSizeOptions): Record<PoolLane, LaneSize> {
  const sizes: Record<PoolLane, LaneSize> = {
    main: {
      workers: options.workers,
      maxQueue: options.maxQueue,
      maxBackgroundQueue: options.maxBackgroundQueue ?? options.maxQueue,
      ...(options.maxViewQueue === undefined ? {} : { maxViewQueue: options.maxViewQueue }),
    },
    heif: options.lanes?.heif ?? DEFAULT_LANES.heif,
    video: options.lanes?.video ?? DEFAULT_LANES.video,
  };
  for (const [name, { workers, maxQueue, maxBackgroundQueue = maxQueue }] of Object.entries(sizes)) {
    const prefix = name === 'main' ? '' : `lanes.${name}.`;
    if (!Number.isInteger(workers) || workers < 1) throw new RangeError(`${prefix}workers must be an integer >= 1, got ${workers}`);
    if (!Number.isInteger(maxQueue) || maxQueue < 0) throw new RangeError(`${prefix}maxQueue must be an integer >= 0, got ${maxQueue}`);
    if (!Number.isInteger(maxBackgroundQueue) || maxBackgroundQueue < 0) {
      throw new RangeError(`${prefix}maxBackgroundQueue must be an integer >= 0, got ${maxBackgroundQueue}`);
    }
  }
  return sizes;
}

/**
 * How long the heif lane's thread outlives its last task. Its WebAssembly heap keeps the
 * high-water mark of every photo it decoded (some 250 MB after a 24 MP HEIC, more after each
 * larger one) until the thread ends; a new thread costs about 0.1 s to compile the decoder.
 * Two seconds keep the thread through a page of HEIC tiles or a viewer's next photo, and give
 * the memory back soon after (README, "Phone photos and videos").
 */
const HEIF_IDLE_MS = 2_000;
const HEIF_LANE_DATA: HeifLaneWorkerData = Object.freeze({ heifDecoder: true });

/** One lane: its worker threads, and the priority queue that hands them a task only when one is free. */
export interface Lane {
  readonly piscina: Piscina;
  readonly queue: PriorityLane;
}

/** What every lane of one pool shares. */
export interface LaneSettings {
  readonly backgroundDelayMs: number;
  readonly maxViewWaitMs?: number;
  /** Hears the messages of the lane's workers (a task started, a child process started or ended). */
  readonly onMessage: (message: unknown) => void;
}

/**
 * Starts the lane `name` of `size`. The heif lane's threads may run libheif, start when work
 * comes and end after HEIF_IDLE_MS; the other lanes' start with the lane and are kept.
 */
export function startLane(name: PoolLane, size: LaneSize, { backgroundDelayMs, maxViewWaitMs, onMessage }: LaneSettings): Lane {
  const idleTimeout = name === 'heif' ? HEIF_IDLE_MS : undefined;
  const workerData = name === 'heif' ? HEIF_LANE_DATA : undefined;
  const piscina = new Piscina({
    filename: WORKER_FILE,
    // A lane with an idle timeout starts its threads when work comes and ends them after.
    minThreads: idleTimeout === undefined ? size.workers : 0,
    maxThreads: size.workers,
    ...(idleTimeout === undefined ? {} : { idleTimeout }),
    ...(workerData === undefined ? {} : { workerData }),
    // No maxQueue: the lane's own queue hands piscina a task only when a worker is free.
    execArgv: workerExecArgv(),
    // Tasks last tens of milliseconds to minutes, so the latency Atomics.wait saves is
    // nothing, while waiting that way would freeze whatever async work (a child process being
    // reaped, a file handle closing) a task left behind.
    atomics: 'disabled',
  });
  piscina.on('message', onMessage);
  const queue = new PriorityLane({
    workers: size.workers,
    maxQueue: size.maxQueue,
    maxBackgroundQueue: size.maxBackgroundQueue ?? size.maxQueue,
    ...(size.maxViewQueue === undefined ? {} : { maxViewQueue: size.maxViewQueue }),
    backgroundDelayMs,
    ...(maxViewWaitMs === undefined ? {} : { maxViewWaitMs }),
  });
  return { piscina, queue };
}
