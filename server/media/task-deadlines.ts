/**
 * How long each kind of media task may run, and which kind each task is, in one place. The
 * pool times a task from the moment a worker starts it (the clock protocol is part of the
 * task contract, workers/tasks.ts).
 *
 * Past its deadline a task's worker is ended and replaced: that is the only way to stop
 * JavaScript stuck in a loop or a read that never returns. The worker itself gives the
 * child processes and sharp pipelines of a task a budget that ends a little earlier, so they
 * are killed cleanly first and none outlives a worker that is ended.
 */
import type { MediaTaskInput, MediaTaskName } from '../../workers/tasks.js';

/** A task's deadline depends on the work, not only on the task's name. */
export type DeadlineKind =
  | 'exif'
  | 'imageDimensions'
  | 'videoDimensions'
  | 'videoInfo'
  | 'imageThumbnail'
  | 'videoThumbnail'
  | 'videoRemux'
  | 'videoTranscode'
  | 'checksum';

export type TaskDeadlines = Readonly<Record<DeadlineKind, number>>;

/**
 * Milliseconds of run time. Header reads take milliseconds; the slack is for a slow disk or a
 * small board. A thumbnail of a 100-megapixel panorama takes seconds on a slow core, and a
 * video poster runs ffprobe, then ffmpeg (perhaps twice), then the resize. The web copies of
 * videos run in the pool's video lane, one at a time, for minutes to hours.
 */
export const DEFAULT_TASK_DEADLINES: TaskDeadlines = Object.freeze({
  exif: 5_000,
  imageDimensions: 5_000,
  videoDimensions: 15_000,
  videoInfo: 15_000,
  imageThumbnail: 60_000,
  videoThumbnail: 90_000,
  // A remux copies the streams (and at most re-encodes the sound): the time of reading and
  // writing the file once, minutes even for gigabytes.
  videoRemux: 10 * 60_000,
  // A rendition re-encodes every frame on a couple of low-priority threads: about real time
  // for 1080p on a small machine, so a long 4K clip takes a while. Generous on purpose: past
  // it the work is lost, and the next request would only start it again.
  videoTranscode: 3 * 60 * 60_000,
  // Reading a stretch of a file of at most 64 MB (server/media/served-crc.ts): well under a
  // second from a disk, a few from a slow network mount.
  checksum: 30_000,
});

/**
 * Which deadline a task gets depends on the work, not only on its name. A deadline ends a
 * task with a failure, not a refusal: the time is spent on this file (hostile,
 * pathological or on a hung mount) and a retry would only spend it again.
 */
export const DEADLINE_OF: { readonly [N in MediaTaskName]: (task: MediaTaskInput<N>) => DeadlineKind } = {
  thumbnail: (task) => (task.kind === 'video' ? 'videoThumbnail' : 'imageThumbnail'),
  fullSize: () => 'imageThumbnail',
  decodeCheck: () => 'imageThumbnail',
  exif: () => 'exif',
  videoInfo: () => 'videoInfo',
  dimensions: (task) => (task.kind === 'video' ? 'videoDimensions' : 'imageDimensions'),
  webVideo: (task) => (task.plan === 'faststart' ? 'videoRemux' : 'videoTranscode'),
  // A header read like EXIF's, for a movie too (its metadata atom, never its frames).
  contentId: () => 'exif',
  // A decode shrunk on load, as a small thumbnail's.
  coverFocus: () => 'imageThumbnail',
  siteIcon: () => 'imageThumbnail',
  checksum: () => 'checksum',
};

/** The pool's deadlines: DEFAULT_TASK_DEADLINES with those `given` (MediaPoolOptions.deadlines), each checked. */
export function checkedDeadlines(given: Partial<TaskDeadlines> = {}): TaskDeadlines {
  for (const [kind, ms] of Object.entries(given)) {
    if (!(kind in DEFAULT_TASK_DEADLINES)) throw new RangeError(`deadlines.${kind} is not a kind of media task`);
    if (typeof ms !== 'number' || !Number.isFinite(ms) || ms <= 0) {
      throw new RangeError(`deadlines.${kind} must be a positive number of milliseconds, got ${String(ms)}`);
    }
  }
  return Object.freeze({ ...DEFAULT_TASK_DEADLINES, ...given });
}
