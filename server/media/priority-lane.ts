import { PoolBusyError, TaskCancelledError } from './pool-errors.js';

/**
 * The queue in front of one lane of the media pool (server/media/pool.ts): tasks wait here,
 * ordered by priority, and go to a worker thread only when one is free, so the order of
 * this queue is the order of the work (piscina's own queue is first come, first served).
 * A waiting task is only an entry, which is what lets a grid wait in a long queue instead of
 * being refused (docs/api.md#get-apithumbnailpathsizeformat), and what lets a task whose
 * request went away be dropped before it costs anything.
 */

/**
 * What a task is for, most urgent first:
 * - `quick`: a header read that takes a few milliseconds and someone waits for (EXIF for the
 *   details panel): it goes ahead of the grid, which it delays by no more than its own time,
 *   rather than waiting behind a cold album's hundreds of tiles;
 * - `grid`: what an album page needs to show its tiles (grid-size thumbnails, page sizes);
 * - `view`: anything else a visitor is waiting for (the viewer's sizes, EXIF, full size);
 * - `background`: work nobody waits for (the sizes made after the one asked, the preparation
 *   of a new album): it starts only when the lane has had no visitor's work for a moment, and
 *   not on the last free worker while visitors have been about lately (ALL_WORKERS_QUIET_MS).
 */
export type TaskPriority = 'quick' | 'grid' | 'view' | 'background';
export const TASK_PRIORITIES: readonly TaskPriority[] = Object.freeze(['quick', 'grid', 'view', 'background']);

export interface PriorityLaneLimits {
  /** Tasks running at once: the lane's worker threads. */
  readonly workers: number;
  /** Visitors' tasks (grid and view) allowed to wait; past it a task is refused (PoolBusyError). */
  readonly maxQueue: number;
  /**
   * Of those, view tasks allowed to wait (default: maxQueue). A tile must wait rather than
   * fail (an `<img>` ignores Retry-After), but a viewer's large size, an EXIF record or a cold
   * medium thumbnail answered 503 with Retry-After soon is better than one that waits behind
   * hundreds of others until the client gives up.
   */
  readonly maxViewQueue?: number;
  /** Background tasks allowed to wait; past it one is refused, and its caller drops it. */
  readonly maxBackgroundQueue: number;
  /** How long the lane must have been free of visitors' work before a background task starts. */
  readonly backgroundDelayMs: number;
  /**
   * How long the lane must have been free of visitors' work before background work may take
   * its last free worker too (default ALL_WORKERS_QUIET_MS).
   */
  readonly allWorkersQuietMs?: number;
  /**
   * How long a view task may wait behind grid work before it takes every other free worker
   * (default VIEW_WAIT_LIMIT_MS). Grid work goes first, but under a sustained load of cold
   * tiles (a crowd on a new album) a strict order would hold an opened photo until the
   * client gave up.
   */
  readonly maxViewWaitMs?: number;
}

/**
 * Ten seconds without a visitor's task and background work takes every worker. While someone
 * browses (a tile or a viewer's size every few seconds) one worker stays free for them, so
 * their next task starts at once; in an unattended server (an album copied in at night, the
 * owner's upload with nobody looking) leaving a core idle would double the time an album takes
 * to prepare on two cores. A visitor arriving then waits at most for one background task to
 * end (a 24 MP photo's grid sizes: about 0.1 s), and from then on finds
 * a worker free.
 */
export const ALL_WORKERS_QUIET_MS = 10_000;

/** Half a second more than a cold 24 MP large size takes to make on this kind of machine. */
export const VIEW_WAIT_LIMIT_MS = 1500;

/** A task in the queue: its result, and a way to make it more urgent while it waits. */
export interface QueuedWork<T> {
  readonly result: Promise<T>;
  /** Moves the task up (never down) while it waits: someone now waits for what was background work. */
  raise(priority: TaskPriority): void;
}

interface Entry {
  priority: TaskPriority;
  /** When it entered its current queue (a raised task counts from its raise). */
  queuedAt: number;
  readonly start: () => Promise<unknown>;
  readonly refuse: (err: Error) => void;
}

const RANK: Readonly<Record<TaskPriority, number>> = { quick: -1, grid: 0, view: 1, background: 2 };

export class PriorityLane {
  readonly #limits: PriorityLaneLimits;
  readonly #waiting: Record<TaskPriority, Entry[]> = { quick: [], grid: [], view: [], background: [] };
  #running = 0;
  #backgroundRunning = 0;
  /** When the last visitor's task was queued or ended: background work waits for a quiet lane. */
  #lastVisitorWork = Number.NEGATIVE_INFINITY;
  #timer: NodeJS.Timeout | undefined;
  #closed = false;
  #started = 0;
  #cancelled = 0;
  /** The last task started was a view task taken ahead of grid work: the next free worker goes to the grid. */
  #tookOverdueView = false;

  constructor(limits: PriorityLaneLimits) {
    this.#limits = limits;
  }

  /** Tasks waiting for a worker. */
  get waiting(): number {
    return this.#waiting.quick.length + this.#waiting.grid.length + this.#waiting.view.length + this.#waiting.background.length;
  }

  /** Tasks waiting or running. */
  get active(): number {
    return this.waiting + this.#running;
  }

  /** Tasks handed to a worker since the lane was made. */
  get started(): number {
    return this.#started;
  }

  /** Tasks dropped from the queue because everyone waiting for them went away. */
  get cancelled(): number {
    return this.#cancelled;
  }

  /**
   * Queues `start` (which hands the task to a worker and settles when it is done). Refused at
   * once, with a PoolBusyError, past the bound of its priority or once the lane is closing.
   * When `signal` aborts while the task waits, it leaves the queue and fails with a
   * TaskCancelledError; once started it runs to its end whatever the signal says.
   */
  submit<T>(priority: TaskPriority, start: () => Promise<T>, signal?: AbortSignal): QueuedWork<T> {
    if (signal?.aborted) return { result: Promise.reject(new TaskCancelledError()), raise: () => undefined };
    if (this.#closed || this.#isFull(priority)) return { result: Promise.reject(new PoolBusyError()), raise: () => undefined };

    let entry!: Entry;
    const result = new Promise<T>((resolve, reject) => {
      const onAbort = () => {
        if (this.#remove(entry)) {
          this.#cancelled++;
          reject(new TaskCancelledError());
        }
      };
      entry = {
        priority,
        queuedAt: performance.now(),
        start: () => {
          signal?.removeEventListener('abort', onAbort);
          const running = start();
          running.then(resolve, reject);
          return running;
        },
        refuse: (err) => {
          signal?.removeEventListener('abort', onAbort);
          reject(err);
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
    });
    if (priority !== 'background') this.#lastVisitorWork = performance.now();
    this.#waiting[priority].push(entry);
    this.#pump();
    return {
      result,
      raise: (to) => {
        if (RANK[to] >= RANK[entry.priority] || !this.#remove(entry)) return;
        entry.priority = to;
        entry.queuedAt = performance.now();
        this.#lastVisitorWork = performance.now();
        this.#waiting[to].push(entry);
        this.#pump();
      },
    };
  }

  /** Refuses every waiting task and any new one (the pool is closing); running ones finish. */
  close(): void {
    this.#closed = true;
    clearTimeout(this.#timer);
    for (const priority of TASK_PRIORITIES) {
      for (const entry of this.#waiting[priority].splice(0)) entry.refuse(new PoolBusyError());
    }
  }

  #isFull(priority: TaskPriority): boolean {
    const { workers, maxQueue, maxBackgroundQueue, maxViewQueue = maxQueue } = this.#limits;
    // A task a free worker takes at once never waits, so it counts against no bound.
    if (this.#running < workers && priority !== 'background') return false;
    if (priority === 'background') return this.#waiting.background.length >= maxBackgroundQueue;
    // Quick tasks share the view tasks' short queue: a burst of them past it gets a 503 soon.
    if ((priority === 'view' || priority === 'quick') && this.#waiting.view.length + this.#waiting.quick.length >= maxViewQueue) return true;
    return this.#waiting.quick.length + this.#waiting.grid.length + this.#waiting.view.length >= maxQueue;
  }

  #remove(entry: Entry): boolean {
    const queue = this.#waiting[entry.priority];
    const at = queue.indexOf(entry);
    if (at < 0) return false;
    queue.splice(at, 1);
    return true;
  }

  /** Starts waiting tasks, most urgent first, while workers are free. */
  #pump(): void {
    while (this.#running < this.#limits.workers) {
      const entry = this.#waiting.quick.shift() ?? this.#overdueView() ?? this.#waiting.grid.shift() ?? this.#waiting.view.shift() ?? this.#nextBackground();
      if (!entry) return;
      this.#run(entry);
    }
  }

  /**
   * The oldest view task when it has waited past the limit behind grid work, but never twice
   * in a row while grid work waits: an overdue viewer gets every other worker, the grid keeps
   * the rest.
   */
  #overdueView(): Entry | undefined {
    const oldest = this.#waiting.view[0];
    if (!oldest || this.#waiting.grid.length === 0) return undefined;
    if (this.#tookOverdueView || performance.now() - oldest.queuedAt < (this.#limits.maxViewWaitMs ?? VIEW_WAIT_LIMIT_MS)) {
      this.#tookOverdueView = false;
      return undefined;
    }
    this.#tookOverdueView = true;
    return this.#waiting.view.shift();
  }

  /**
   * A background task when the lane is quiet: no visitor's task running, none queued or ended
   * within the delay, and a worker left free for the next visitor unless none came for
   * allWorkersQuietMs. Else a timer looks again when the wait is over (a task ending looks
   * again anyway).
   */
  #nextBackground(): Entry | undefined {
    if (this.#waiting.background.length === 0 || this.#running > this.#backgroundRunning) return undefined;
    const { workers, backgroundDelayMs, allWorkersQuietMs = ALL_WORKERS_QUIET_MS } = this.#limits;
    const quietFor = performance.now() - this.#lastVisitorWork;
    const allowed = quietFor >= allWorkersQuietMs ? workers : Math.max(1, workers - 1);
    const wait = quietFor < backgroundDelayMs ? backgroundDelayMs - quietFor : this.#backgroundRunning >= allowed ? allWorkersQuietMs - quietFor : 0;
    if (wait > 0) {
      if (!this.#timer) {
        this.#timer = setTimeout(() => {
          this.#timer = undefined;
          this.#pump();
        }, wait);
        // Background work never keeps the process alive on its own.
        this.#timer.unref();
      }
      return undefined;
    }
    if (this.#backgroundRunning >= allowed) return undefined;
    return this.#waiting.background.shift();
  }

  #run(entry: Entry): void {
    const background = entry.priority === 'background';
    this.#running++;
    if (background) this.#backgroundRunning++;
    this.#started++;
    const done = () => {
      this.#running--;
      if (background) this.#backgroundRunning--;
      else this.#lastVisitorWork = performance.now();
      this.#pump();
    };
    entry.start().then(done, done);
  }
}
