import fs from 'node:fs/promises';
import type { VideoInfo } from '../../workers/tasks.js';
import { HttpError, notFound } from '../core/errors.js';
import { writeFileAtomic } from '../core/fs-atomic.js';
import type { Logger } from '../core/logger.js';
import { webVideoDir, webVideoFile, webVideoRecordOf } from '../core/media-catalogue.js';
import { type PlaybackPlan, playbackPlan } from '../core/media/playback-plan.js';
import { sourceTagOf } from '../core/media/source-tag.js';
import { isInside, isMissing } from '../core/paths.js';
import type { MediaPool } from './pool.js';
import { PoolBusyError } from './pool-errors.js';
import { makeOnce } from './cache-lock.js';

/**
 * The web copies of videos (docs/api.md#get-apiweb-videopath): which one a video needs (its
 * playback plan, from the probe, remembered per file version by the metadata service), whether
 * it is made, and making it in the pool's video lane on demand, once per version of the original.
 *
 * A copy is fresh when the small record beside it, written after it, names the original's
 * identity now (size, mtime and inode: server/core/media/source-tag.ts) and the copy's size:
 * a replaced original, or a copy replaced by another run meanwhile, reads as stale.
 * The record is dot-named (`.{file}.mp4.json`): no album can have that name, nothing serves it.
 */

/** What the gallery offers besides the original: the remux, the H.264 rendition, or nothing. */
export type WebVideoKind = 'faststart' | 'h264';
/** 'none': no copy is needed; 'failed': making it failed for this version of the original. */
export type WebVideoState = 'none' | 'ready' | 'preparing' | 'failed';

export interface WebVideoStatus {
  readonly kind: WebVideoKind | null;
  readonly state: WebVideoState;
}

/** What the service needs to know of a video (the public app's ResolvedMedia fits). */
export interface WebVideoSource {
  /** Album-relative path, '/'-separated: the copy's place in the cache. */
  readonly relPath: string;
  /** Real absolute path of the original, already vetted by the access layer. */
  readonly absPath: string;
}

export interface WebVideoService {
  /** The copy's state, starting to make it when it is needed and neither there nor under way. */
  request(source: WebVideoSource): Promise<WebVideoStatus & { readonly file?: string }>;
  /** Makes the copy now when it is needed and stale, and waits for it (the thumbnails CLI). */
  prepare(source: WebVideoSource): Promise<'none' | 'fresh' | 'generated'>;
  /** Resolves when every copy under way has been made or has failed (tests, shutdown). */
  settled(): Promise<void>;
}

export interface WebVideoServiceOptions {
  readonly cacheDir: string;
  readonly pool: Pick<MediaPool, 'webVideo'>;
  /** The probe, cached per file version (server/media/metadata.ts). */
  readonly metadata: { videoInfo(absPath: string): Promise<VideoInfo> };
  readonly log: Logger;
  /** Failures remembered (per original version), so a broken file is not re-encoded on every view. */
  readonly maxFailures?: number;
}

export const kindOfPlan = (plan: PlaybackPlan): WebVideoKind | null => (plan === 'direct' ? null : plan === 'faststart' ? 'faststart' : 'h264');

interface CopyRecord {
  readonly version: 1;
  /** The original's identity when the copy was started. */
  readonly source: string;
  readonly plan: PlaybackPlan;
  readonly bytes: number;
}

/** How long a failed copy stays failed before a request tries again. */
const RETRY_FAILED_AFTER_MS = 15 * 60 * 1000;

export function createWebVideoService({ cacheDir, pool, metadata, log, maxFailures = 1000 }: WebVideoServiceOptions): WebVideoService {
  /** Copies being made, by original path and version: one at a time each. */
  const jobs = new Map<string, Promise<void>>();
  /**
   * Versions whose copy failed, with when they may be tried again: a broken file is not
   * re-encoded on every view, while a passing failure (a full disk, the cache cleared during
   * the job) heals by itself. A Map keeps insertion order, so the first key is the oldest.
   */
  const failed = new Map<string, number>();
  const hasFailed = (key: string): boolean => {
    const until = failed.get(key);
    if (until === undefined) return false;
    if (Date.now() < until) return true;
    failed.delete(key);
    return false;
  };

  function fileOf(relPath: string): string {
    const file = webVideoFile(cacheDir, relPath);
    // relPath comes validated from the resolver; this only guards against misuse.
    if (!isInside(webVideoDir(cacheDir), file)) throw new TypeError(`relPath escapes the cache: ${relPath}`);
    return file;
  }
  const recordOf = webVideoRecordOf;

  /** The original's version and what it needs; core's not-found error when it is gone. */
  async function planOf(source: WebVideoSource): Promise<{ tag: string; plan: PlaybackPlan }> {
    let tag: string;
    try {
      tag = sourceTagOf(await fs.stat(source.absPath));
    } catch (err) {
      if (isMissing(err)) throw notFound('File not found');
      throw err;
    }
    return { tag, plan: playbackPlan(await metadata.videoInfo(source.absPath)) };
  }

  async function isFresh(file: string, tag: string, plan: PlaybackPlan): Promise<boolean> {
    try {
      const record = JSON.parse(await fs.readFile(recordOf(file), 'utf8')) as Partial<CopyRecord>;
      if (record.version !== 1 || record.source !== tag || record.plan !== plan) return false;
      return (await fs.stat(file)).size === record.bytes;
    } catch {
      // No record, a torn one, or no copy: not fresh, it is made again.
      return false;
    }
  }

  function start(source: WebVideoSource, file: string, tag: string, plan: 'faststart' | 'transcode'): Promise<void> {
    const key = `${source.relPath}\0${tag}`;
    let job = jobs.get(key);
    if (!job) {
      // Minutes of ffmpeg: made by one process of however many ask (cache-lock.ts).
      const make = async () => {
        const { bytes } = await pool.webVideo({ src: source.absPath, dest: file, plan });
        const record: CopyRecord = { version: 1, source: tag, plan, bytes };
        await writeFileAtomic(recordOf(file), JSON.stringify(record));
      };
      job = makeOnce(file, make, () => isFresh(file, tag, plan));
      jobs.set(key, job);
      job.then(
        () => jobs.delete(key),
        (err: unknown) => {
          jobs.delete(key);
          // A full queue or a closing pool refused it: nothing failed, the next request asks
          // again. A deleted original is no failure either. The pool logged its own failures.
          if (err instanceof PoolBusyError || err instanceof HttpError) return;
          failed.set(key, Date.now() + RETRY_FAILED_AFTER_MS);
          if (failed.size > maxFailures) failed.delete(failed.keys().next().value as string);
          log.warn({ err }, `no web copy of ${source.relPath}`);
        },
      );
    }
    return job;
  }

  return {
    async request(source) {
      const { tag, plan } = await planOf(source);
      const kind = kindOfPlan(plan);
      if (plan === 'direct') return { kind, state: 'none' };
      const file = fileOf(source.relPath);
      if (await isFresh(file, tag, plan)) return { kind, state: 'ready', file };
      if (hasFailed(`${source.relPath}\0${tag}`)) return { kind, state: 'failed' };
      void start(source, file, tag, plan).catch(() => undefined);
      return { kind, state: 'preparing' };
    },

    async prepare(source) {
      const { tag, plan } = await planOf(source);
      if (plan === 'direct') return 'none';
      const file = fileOf(source.relPath);
      if (await isFresh(file, tag, plan)) return 'fresh';
      await start(source, file, tag, plan);
      return 'generated';
    },

    async settled() {
      while (jobs.size > 0) await Promise.allSettled([...jobs.values()]);
    },
  };
}
