import type { ThumbnailResult } from '../../workers/tasks.js';
import {
  DEFAULT_THUMBNAIL_FORMAT,
  isGridThumbnail,
  type MediaKind,
  THUMBNAIL_SIZE_NAMES,
  THUMBNAIL_SIZES,
  type ThumbnailFormat,
  type ThumbnailSize,
  thumbnailDir,
  thumbnailFile,
} from '../core/media-catalogue.js';
import { isInside } from '../core/paths.js';
import type { MediaPool, QueuedWork, TaskPriority } from './pool.js';
import { SharedJob } from './shared-job.js';
import { TASK_PRIORITIES } from './priority-lane.js';
import { MAX_ROUNDS, tryLock, untilUnlocked } from './cache-lock.js';
import type { Logger } from '../core/logger.js';
import { sourceTagOf } from '../core/media/source-tag.js';
import { closeQuietly, type OpenThumbnail, openIfPresent, release, statOriginal, UNTAGGED, WHOLE_READ_MAX } from './tagged-cache-file.js';
import { ALL_VARIANTS, decodesOnce, type Variant, variantKey } from './thumbnail-variants.js';

export { closeQuietly, WHOLE_READ_MAX };

/** What the cache needs to know about an original (the public app's ResolvedMedia fits). */
export interface ThumbnailSource {
  /** Album-relative path, '/'-separated: the cache file's place. */
  readonly relPath: string;
  /** Real absolute path of the original, already vetted by the access layer. */
  readonly absPath: string;
  readonly kind: MediaKind;
  /**
   * The owner's turn of a photo, degrees clockwise (docs/api.md#rotations): the thumbnails are
   * turned so, and it is part of their identity tag, so those made before a turn are stale.
   */
  readonly rotation?: number;
}

export type { OpenThumbnail };

export interface OpenOptions {
  /** Default: JPEG. */
  readonly format?: ThumbnailFormat;
  /** The request's: aborted (the browser went away) while the work waits, it is dropped (TaskCancelledError). */
  readonly signal?: AbortSignal;
}

export interface ThumbnailCache {
  /** `CACHE_DIR/thumbnails/{size}/{relPath}.jpg` (or `.webp`). */
  pathOf(relPath: string, size: ThumbnailSize, format?: ThumbnailFormat): string;
  /**
   * The cache file of one size and format, made first when it is missing or was made from
   * another version of the original; the other sizes are then made in the background.
   */
  open(source: ThumbnailSource, size: ThumbnailSize, options?: OpenOptions): Promise<OpenThumbnail>;
  /**
   * open() in its two halves, for a caller with something to do between them (the thumbnail
   * answer, server/public/routes/thumbnail-answer.ts, sends a hit at once and sets up the
   * abort signal only for a miss): the version of the original and the cache file when it is
   * fresh...
   */
  lookUp(source: ThumbnailSource, size: ThumbnailSize, format?: ThumbnailFormat): Promise<LookUp>;
  /** ...and, for a miss, the file made from that version (the other sizes follow in the background). */
  make(source: ThumbnailSource, size: ThumbnailSize, tag: string, options?: OpenOptions): Promise<OpenThumbnail>;
  /** Makes every size and format fresh (one task for all those stale), for the CLI. */
  refresh(source: ThumbnailSource): Promise<'fresh' | 'generated'>;
  /**
   * Makes `sizes`, in every format, fresh (one task for those stale): what an album's visitors
   * ask first, made before they come (server/media/preparer.ts). As background work of the
   * pool by default; `npm run thumbnails`, which nobody visits, asks for `grid` priority.
   */
  prepare(source: ThumbnailSource, sizes: readonly ThumbnailSize[], priority?: TaskPriority): Promise<'fresh' | 'generated'>;
}

/** What lookUp found: the original's version (source-tag.ts), and its cache file when fresh. */
export interface LookUp {
  readonly tag: string;
  readonly cached: OpenThumbnail | undefined;
}

export interface ThumbnailCacheOptions {
  readonly cacheDir: string;
  readonly pool: Pick<MediaPool, 'submit'>;
  /** Where a line goes for each task a visitor waited for ('thumbnail made'); none when absent. */
  readonly log?: Logger;
}

/**
 * Thumbnails live in files keyed by the original's path, the size and the format. A cache file is fresh
 * when the identity of the original written into it (size, mtime and inode, and the owner's
 * turn of the photo: see source-tag.ts) is the original's identity now: a photo replaced by an older file, or an
 * album deleted and made again at the same path, never shows the thumbnail of what was there.
 * The identity is the one seen before generation, so an original replaced while its
 * thumbnails were being made still reads as stale.
 *
 * A request makes only the size it asks for, decoded at that size: a JPEG is then decoded
 * at 1/2 to 1/8 of its pixels (shrink-on-load), so the grid never waits for a 1920 px
 * decode. The other sizes follow as background work of the pool, once the grid's requests
 * are done. A HEIC (no shrink-on-load: libheif decodes it whole) and a video (one frame
 * grabbed) are decoded once for all their sizes and formats. A request waits only for the
 * format it asked for (a JPEG or a WebP encode after the decode, like sharp alone would
 * take); the other format of its size follows in the background with the other sizes.
 * Concurrent requests share one task in a process (SharedJob), and processes sharing the
 * cache directory make each file once between them (makeAcrossProcesses, cache-lock.ts).
 */
export function createThumbnailCache({ cacheDir, pool, log }: ThumbnailCacheOptions): ThumbnailCache {
  // One task per (version of an original, size, format) at a time: concurrent requests share
  // it. A task that makes several is listed under each.
  const inFlight = new Map<string, SharedJob>();
  /** Versions of originals (relPath, tag) whose other sizes were queued as background work, oldest first. */
  const restQueued = new Set<string>();
  const jobKey = (source: ThumbnailSource, tag: string, v: Variant) => `${source.relPath}\0${tag}\0${v.size}\0${v.format}`;

  function pathOf(relPath: string, size: ThumbnailSize, format: ThumbnailFormat = DEFAULT_THUMBNAIL_FORMAT): string {
    const file = thumbnailFile(cacheDir, size, relPath, format);
    // relPath comes validated from the resolver; this only guards against misuse.
    if (!isInside(thumbnailDir(cacheDir, size), file)) throw new TypeError(`relPath escapes the cache: ${relPath}`);
    return file;
  }

  /** Whether each job's variants were all made by another process (this one only waited). */
  const outcomes = new WeakMap<SharedJob, Outcome>();

  /**
   * Makes `variants` of the original at version `tag`: joins the tasks under way, one new task
   * for the rest. Resolves with whether another process made them all (this one only waited),
   * and the bytes of those a worker here wrote and gave back.
   */
  async function generate(
    source: ThumbnailSource,
    tag: string,
    variants: readonly Variant[],
    priority: TaskPriority,
    signal?: AbortSignal,
  ): Promise<{ elsewhere: boolean; bytes: ReadonlyMap<string, Buffer> }> {
    const waits: Promise<void>[] = [];
    const jobs: SharedJob[] = [];
    const missing = variants.filter((v) => {
      const job = inFlight.get(jobKey(source, tag, v));
      if (job) {
        waits.push(job.join(priority, signal));
        jobs.push(job);
      }
      return !job;
    });
    if (missing.length > 0) {
      const outcome: Outcome = { elsewhere: false, bytes: new Map() };
      const job = new SharedJob((jobSignal) => makeAcrossProcesses(source, tag, missing, priority, jobSignal, outcome));
      outcomes.set(job, outcome);
      jobs.push(job);
      const keys = missing.map((v) => jobKey(source, tag, v));
      for (const key of keys) inFlight.set(key, job);
      const forget = () => {
        for (const key of keys) if (inFlight.get(key) === job) inFlight.delete(key);
      };
      job.done.then(forget, forget);
      waits.push(job.join(priority, signal));
    }
    await Promise.all(waits);
    const bytes = new Map<string, Buffer>();
    for (const job of jobs) for (const [key, b] of outcomes.get(job)?.bytes ?? []) bytes.set(key, b);
    return { elsewhere: jobs.every((job) => outcomes.get(job)?.elsewhere === true), bytes };
  }

  /**
   * The pool task that makes `variants` of the original at version `tag`, from one decode per
   * size, leaving out as it starts those made meanwhile (and for background work, those
   * another process is making: server/media/cache-lock.ts).
   */
  function taskFor(source: ThumbnailSource, tag: string, variants: readonly Variant[], priority: TaskPriority) {
    // One output per size, with the formats asked of it: both come from the same pixels.
    const sizes = THUMBNAIL_SIZE_NAMES.filter((size) => variants.some((v) => v.size === size));
    const wants = (size: ThumbnailSize, format: ThumbnailFormat) => variants.some((v) => v.size === size && v.format === format);
    return {
      src: source.absPath,
      kind: source.kind,
      outputs: sizes.map((size) => ({
        size,
        width: THUMBNAIL_SIZES[size],
        ...(wants(size, 'jpeg') ? { dest: pathOf(source.relPath, size, 'jpeg') } : {}),
        ...(wants(size, 'webp') ? { webpDest: pathOf(source.relPath, size, 'webp') } : {}),
      })),
      tag,
      ...(source.rotation ? { rotate: source.rotation } : {}),
      leaveOut: priority === 'background' ? ('freshOrLocked' as const) : ('fresh' as const),
    };
  }

  const fileOf = (source: ThumbnailSource, v: Variant) => pathOf(source.relPath, v.size, v.format);

  /**
   * Makes `variants` once across processes (server/media/cache-lock.ts): one pool task for
   * those whose lock this process takes, held until the task settles; for those another
   * process is making, a wait for its lock to go, after which whatever it did not make after
   * all (it failed, or went away) goes round again. One made by another process between the
   * look of the request and its lock is left out by the worker (taskFor). Background work
   * takes no lock (it would hold one for as long as it waits for a quiet pool, and a visitor
   * elsewhere would wait with it): its worker leaves out what another process is making.
   */
  function makeAcrossProcesses(
    source: ThumbnailSource,
    tag: string,
    variants: readonly Variant[],
    priority: TaskPriority,
    signal: AbortSignal,
    outcome: Outcome,
  ): QueuedWork<unknown> {
    let urgency = priority;
    let task: QueuedWork<unknown> | undefined;
    /** Resolves with how many sizes the worker wrote (none: all were made elsewhere meanwhile). */
    const make = async (vs: readonly Variant[]): Promise<number> => {
      const started = performance.now();
      task = pool.submit('thumbnail', taskFor(source, tag, vs, priority), { priority: urgency, signal });
      const results = (await task.result) as ThumbnailResult[];
      // One size in one format comes back with its bytes (workers/tasks.ts): kept for the requests waiting for it.
      const only = vs.length === 1 ? vs[0]! : undefined;
      const written = only && results.find((r) => r.size === only.size)?.bytes;
      if (only && written) outcome.bytes.set(variantKey(only), Buffer.from(written.buffer, written.byteOffset, written.byteLength));
      if (urgency !== 'background' && results.length > 0) {
        const made = { path: source.relPath, made: vs.map((v) => `${v.size}.${v.format}`), ms: Math.round(performance.now() - started) };
        // Written once the tile has gone out (afterTheAnswer).
        afterTheAnswer(() => log?.info(made, 'thumbnail made'));
      }
      return results.length;
    };
    const result = (async () => {
      if (priority === 'background') {
        await make(variants);
        return;
      }
      let todo = variants;
      for (let round = 1; todo.length > 0; round++) {
        if (round > MAX_ROUNDS) {
          await make(todo);
          return;
        }
        const locks = await Promise.all(todo.map((v) => tryLock(fileOf(source, v))));
        const theirs = todo.filter((_, i) => !locks[i]);
        const mine = todo.filter((_, i) => locks[i]);
        let madeHere = 0;
        try {
          const [made] = await Promise.all([mine.length > 0 ? make(mine) : 0, ...theirs.map((v) => untilUnlocked(fileOf(source, v), signal))]);
          madeHere = made;
        } finally {
          await Promise.all(locks.map((lock) => lock?.release()));
        }
        todo = theirs.length > 0 ? await staleOf(source, theirs, tag) : [];
        if (round === 1 && madeHere === 0 && todo.length === 0) outcome.elsewhere = true;
      }
    })();
    return {
      result,
      raise(to) {
        if (TASK_PRIORITIES.indexOf(to) < TASK_PRIORITIES.indexOf(urgency)) urgency = to;
        task?.raise(to);
      },
    };
  }

  /** What one request makes: its own size and format, or everything where one decode serves every size. */
  const variantsFor = (source: ThumbnailSource, asked: Variant): readonly Variant[] => (decodesOnce(source) ? ALL_VARIANTS : [asked]);

  /** Whether this size and format was made from this version of the original (its head only). */
  async function isFresh(source: ThumbnailSource, v: Variant, tag: string): Promise<boolean> {
    const file = await openIfPresent(pathOf(source.relPath, v.size, v.format), 0);
    release(file);
    return file?.tag === tag;
  }

  /** The stale ones of `variants`, at version `tag`. */
  async function staleOf(source: ThumbnailSource, variants: readonly Variant[], tag: string): Promise<Variant[]> {
    const fresh = await Promise.all(variants.map((v) => isFresh(source, v, tag)));
    return variants.filter((_, i) => !fresh[i]);
  }

  /**
   * What was not asked for yet, queued as background work: the other format of this size and
   * every format of the other sizes, so the viewer's large size is likely ready when a tile is
   * opened. Refused (a full background queue), failed or gone, it is simply not made now: the
   * request for it will make it.
   */
  function makeTheRestLater(source: ThumbnailSource, tag: string, asked: Variant): void {
    // Once per version of an original: the worker leaves out what is fresh, but a task that
    // finds everything made still takes a turn of the pool.
    const version = `${source.relPath}\0${tag}`;
    if (restQueued.has(version)) return;
    const others = ALL_VARIANTS.filter((v) => !(v.size === asked.size && v.format === asked.format) && !inFlight.has(jobKey(source, tag, v)));
    if (others.length === 0) return;
    restQueued.add(version);
    if (restQueued.size > REST_QUEUED_MAX) restQueued.delete(restQueued.values().next().value!);
    // Those already fresh are left out by the worker, when the pool is quiet (taskFor).
    generate(source, tag, others, 'background').catch(() => {
      // Refused (a full background queue) or failed: a later request may queue it again.
      restQueued.delete(version);
    });
  }

  /** The original's current tag, and the cache file when it was made from that version (else released). */
  async function lookUp(source: ThumbnailSource, size: ThumbnailSize, format: ThumbnailFormat = DEFAULT_THUMBNAIL_FORMAT): Promise<LookUp> {
    // Both lookups at once: a cache hit waits for the stat, and for the open and read of the
    // cache file it would need anyway, not for one after the other.
    const [original, cached] = await Promise.allSettled([statOriginal(source.absPath), openIfPresent(pathOf(source.relPath, size, format), WHOLE_READ_MAX)]);
    if (original.status === 'rejected') {
      if (cached.status === 'fulfilled') release(cached.value);
      throw original.reason;
    }
    if (cached.status === 'rejected') throw cached.reason;
    const tag = sourceTagOf(original.value, source.rotation);
    if (cached.value?.tag === tag) return { tag, cached: cached.value };
    release(cached.value);
    return { tag, cached: undefined };
  }

  async function make(
    source: ThumbnailSource,
    size: ThumbnailSize,
    tag: string,
    { format = DEFAULT_THUMBNAIL_FORMAT, signal }: OpenOptions = {},
  ): Promise<OpenThumbnail> {
    const asked = { size, format };
    const made = await generate(source, tag, variantsFor(source, asked), isGridThumbnail(size) ? 'grid' : 'view', signal);
    // The process that made the size asked queues the others: not every process that waited for it too.
    if (!decodesOnce(source) && !made.elsewhere) afterTheAnswer(() => makeTheRestLater(source, tag, asked));
    const file = pathOf(source.relPath, size, format);
    // Made here, as written into the file at this version: sent without reading it back.
    const body = made.bytes.get(variantKey(asked));
    if (body) return { path: file, size: body.length, tag, body };
    // Whatever version the file holds now (a later generation may have replaced it): its
    // tag, and so its ETag, always describes its own bytes.
    const opened = await openIfPresent(file, WHOLE_READ_MAX);
    if (!opened || opened.tag === UNTAGGED) {
      release(opened);
      throw new Error(`thumbnail ${file} is missing or untagged right after its generation`);
    }
    return opened;
  }

  return {
    pathOf,
    lookUp,
    make,

    async open(source, size, options = {}) {
      const { tag, cached } = await lookUp(source, size, options.format);
      return cached ?? make(source, size, tag, options);
    },

    async refresh(source) {
      const tag = sourceTagOf(await statOriginal(source.absPath), source.rotation);
      const stale = await staleOf(source, ALL_VARIANTS, tag);
      if (stale.length === 0) return 'fresh';
      // The CLI makes every stale size and format from one decode: nobody waits for one first.
      await generate(source, tag, decodesOnce(source) ? ALL_VARIANTS : stale, 'view');
      return 'generated';
    },

    async prepare(source, sizes, priority = 'background') {
      const tag = sourceTagOf(await statOriginal(source.absPath), source.rotation);
      const wanted = ALL_VARIANTS.filter((v) => sizes.includes(v.size));
      const stale = await staleOf(source, wanted, tag);
      if (stale.length === 0) return 'fresh';
      // A HEIC or a video is decoded whole anyway: every size comes from that one decode.
      await generate(source, tag, decodesOnce(source) ? await staleOf(source, ALL_VARIANTS, tag) : stale, priority);
      return 'generated';
    },
  };
}

/** What became of a job's variants: all made by another process, or not. */
interface Outcome {
  elsewhere: boolean;
  /** The bytes of the variants this process wrote where the worker gave them back, by variantKey. */
  readonly bytes: Map<string, Buffer>;
}

/**
 * Runs `work` once the request waiting for a tile has been answered: its bytes are in hand
 * when a task settles, and the answer is sent in the same turn of the event loop, so
 * bookkeeping nobody waits for (a log line, queuing the other sizes) comes after it. Measured
 * on a cold album page, two decodes filling both cores: the two took 0.35 ms of the main
 * thread's 0.6 ms between a task's result and its answer (cold code, in caches the decodes evict).
 */
function afterTheAnswer(work: () => void): void {
  setImmediate(work);
}

/** The versions makeTheRestLater remembers: a few hundred bytes each, about a megabyte in all. */
const REST_QUEUED_MAX = 4096;
