/**
 * The contract between the media pool (server/media/pool.ts) and its worker
 * (workers/media-worker.ts): one map from task name to input and result, and the clock
 * protocol by which the pool times a task from the moment a worker starts it. The pool's
 * `run` and the worker's exports are both typed from this map, so a task name or shape the
 * other side does not know is a compile error. Everything here is plain cloneable data.
 *
 * Like the rest of workers/, this file imports nothing from server/ but server/core/.
 */
import type { MediaKind } from '../server/core/media-catalogue.js';
import type { ExifFields } from './exif-reader.js';

export type { MediaKind };

export interface MediaTasks {
  /** Renders every requested size (JPEG, and WebP when asked) from a single decode of the original (or of a video frame). */
  thumbnail: { input: ThumbnailTask; result: ThumbnailResult[] };
  /** A full-size JPEG of a photo browsers cannot display (HEIC, TIFF). */
  fullSize: { input: FullSizeTask; result: Dimensions };
  /** Decodes a photo whole to prove it can be shown (uploads). */
  decodeCheck: { input: PathTask; result: DecodedImage };
  /** The EXIF record, from the head of the file. */
  exif: { input: PathTask; result: ExifRecord };
  /** Duration, displayed size, codec and frame rate of the first video stream. */
  videoInfo: { input: PathTask; result: VideoInfo };
  /** Size as displayed (EXIF orientation or video rotation applied), from headers only; for a photo also its placeholder. */
  dimensions: { input: DimensionsTask; result: TileDimensions };
  /** A copy of a video every browser plays: a faststart remux or an H.264 rendition (workers/web-video.ts). */
  webVideo: { input: WebVideoTask; result: WebVideoResult };
  /** Apple's content identifier of a Live Photo's still or movie, from headers only (workers/content-id.ts). */
  contentId: { input: ContentIdTask; result: ContentIdResult };
  /** Where to crop a photo shown as an album card's cover (workers/site-images.ts). */
  coverFocus: { input: CoverFocusTask; result: CoverFocusResult };
  /** A PNG of the site's SVG icon (workers/site-images.ts). */
  siteIcon: { input: SiteIconTask; result: { bytes: number } };
  /** The CRC-32 of a stretch of a file as served, for the ZIP (workers/checksum.ts). */
  checksum: { input: ChecksumTask; result: ChecksumResult };
}

export type MediaTaskName = keyof MediaTasks;
export type MediaTaskInput<N extends MediaTaskName> = MediaTasks[N]['input'];
export type MediaTaskResult<N extends MediaTaskName> = MediaTasks[N]['result'];

/** What the worker exports, one function per task: each gets its input plus the pool's clock. */
export type MediaTaskHandlers = {
  readonly [N in MediaTaskName]: (task: MediaTaskInput<N> & TaskClock) => Promise<MediaTaskResult<N>>;
};

// ---------------------------------------------------------------------------------------
// Inputs and results

export interface ThumbnailOutput {
  /** Preset name, echoed back in the result ('small'). */
  size: string;
  /** Maximum width in pixels; smaller originals are never enlarged. */
  width: number;
  /** Absolute path of the JPEG to write (atomically); absent, no JPEG (at least one of the two is given). */
  dest?: string;
  /** Absolute path of the WebP of the same pixels to write (atomically); absent, none. */
  webpDest?: string;
}

export interface ThumbnailTask {
  src: string;
  kind: MediaKind;
  outputs: ThumbnailOutput[];
  /**
   * Identity of the original as the cache saw it before asking (server/core/media/source-tag.ts),
   * written into every output: an original replaced during generation still reads as stale.
   */
  tag?: string;
  /** The owner's turn, degrees clockwise, applied after the file's own orientation (docs/api.md#rotations); absent: none. */
  rotate?: number;
  /**
   * Files the worker leaves out as the task starts (a task may wait long in the queue):
   * `fresh`, one that holds `tag` already (another process made it meanwhile); `freshOrLocked`,
   * one beside which a lock file stands too (another process is making it). Absent: all are written.
   */
  leaveOut?: 'fresh' | 'freshOrLocked';
}

/** One per output the task wrote (an output left out whole, `leaveOut`, has none). */
export interface ThumbnailResult {
  size: string;
  width: number;
  height: number;
  /**
   * The file's bytes as written, when the task made one size in one format (what a visitor
   * waits for): the cache sends them without reading back the file it has just written.
   */
  bytes?: Uint8Array;
}

export interface FullSizeTask {
  src: string;
  /** Absolute path of the JPEG to write (atomically). */
  dest: string;
  /** As ThumbnailTask's: the original's identity, written into the JPEG. */
  tag?: string;
  /** The owner's turn, degrees clockwise, applied after the file's own orientation (docs/api.md#rotations); absent: none. */
  rotate?: number;
}

export interface DecodedImage {
  /** sharp's name of the format ('jpeg', 'heif'). */
  format: string;
  width: number;
  height: number;
}

export interface PathTask {
  src: string;
}

export interface DimensionsTask {
  src: string;
  kind: MediaKind;
  /** As ThumbnailTask's: the size comes out turned (sides swapped for 90 and 270), and so does the placeholder. */
  rotate?: number;
}

/** The EXIF record of docs/api.md (`GET /api/exif`); a field the file lacks is null. */
export interface ExifRecord extends ExifFields {
  /** Stored pixel size, before any EXIF orientation. */
  ImageWidth: number | null;
  ImageHeight: number | null;
}

export interface VideoInfo {
  /** Seconds. */
  duration: number;
  /** As displayed: swapped for a ±90° rotation. */
  width: number;
  height: number;
  /** ffprobe's codec_name ('h264'). */
  codec: string;
  fps: number;
  /** The container's fourcc of the video ('hvc1', 'hev1', 'avc1'); null where the container has none. */
  codecTag: string | null;
  /** 'yuv420p', 'yuv420p10le'; null when unknown. */
  pixelFormat: string | null;
  /** The first audio stream's codec_name ('aac', 'pcm_s16le'); null without sound. */
  audioCodec: string | null;
  /** ffprobe's format_name ('mov,mp4,m4a,3gp,3g2,mj2'). */
  container: string;
  /** MP4/MOV: whether the index (moov) comes after the media data (server/core/media/mp4-atoms.ts); null for other containers or when not found. */
  indexAtEnd: boolean | null;
  /** When it was recorded, from the container's tags (server/core/media/taken-date.ts); null when it carries none. */
  taken: string | null;
}

export interface WebVideoTask {
  src: string;
  /** Absolute path of the MP4 to write (to a temp name, then renamed). */
  dest: string;
  /** 'faststart': remux with the index first; 'transcode': H.264/AAC rendition (server/core/media/playback-plan.ts). */
  plan: 'faststart' | 'transcode';
}

export interface WebVideoResult {
  /** Bytes of the file written. */
  bytes: number;
}

export interface ContentIdTask {
  src: string;
  /** 'image': a HEIC/HEIF/JPEG still (its Apple MakerNote); 'video': a QuickTime movie (its `moov` metadata). */
  kind: MediaKind;
}

export interface ContentIdResult {
  /** The identifier, upper case; null when the file carries none. */
  contentId: string | null;
}

export interface CoverFocusTask {
  src: string;
  /** The shape of the card's cover box, in pixels (a small one: only the crop's place is wanted). */
  box: Dimensions;
  /** The owner's turn, degrees clockwise, applied after the file's own orientation (docs/api.md#rotations); absent: none. */
  rotate?: number;
}

/** The CSS `object-position` of the crop, in percent (50 on an axis nothing is cut from). */
export interface CoverFocusResult {
  x: number;
  y: number;
}

export interface SiteIconTask {
  /** The SVG file. */
  src: string;
  /** Absolute path of the PNG to write (atomically). */
  dest: string;
  /** Width and height in pixels. */
  size: number;
}

export interface ChecksumTask {
  src: string;
  /** The version of the file the CRC is for, as the caller stat'ed it. */
  version: { size: number; mtimeMs: number; ino: number };
  /** The stretch of the file, from `start` up to (not including) `end`. */
  start: number;
  end: number;
  /** The CRC of the bytes before `start` (0 from the file's start). */
  crc: number;
  /** The bytes as served without their location (docs/api.md#location-privacy). */
  withoutLocation: boolean;
}

export interface ChecksumResult {
  /** The CRC of the file up to `end`; null when the file is not that version any more. */
  crc32: number | null;
}

export interface Dimensions {
  width: number;
  height: number;
}

/** What an album page lays a tile out with. */
export interface TileDimensions extends Dimensions {
  /**
   * The photo's ThumbHash, base64 (workers/thumb-hash.ts). Absent for videos, for HEIC/HEIF
   * (decoding one takes 0.5–1 s, too long for a page to wait on) and for files that cannot
   * be decoded.
   */
  thumbHash?: string;
  /** Photos: EXIF DateTimeOriginal as `YYYY-MM-DDTHH:MM:SS` (server/core/media/taken-date.ts); absent when the file has none. */
  taken?: string;
}

// ---------------------------------------------------------------------------------------
// The task clock: time spent waiting in the queue is the pool's business, not the file's,
// so a task's deadline runs from the moment its worker says it started.

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
 * How a worker of a lane without the HEIF decoder fails a task whose photo turned out to be a
 * HEIC (by its bytes, whatever its name): the pool runs the task again in the heif lane
 * (server/media/pool.ts). The error's message says so, as it is all that crosses the thread
 * boundary with the error (a class does not survive the copy).
 */
const NEEDS_HEIF_LANE = 'needs the heif lane: ';

export function needsHeifLaneError(what: string): Error {
  return new Error(`${NEEDS_HEIF_LANE}${what}`);
}

export function isNeedsHeifLaneError(err: unknown): boolean {
  return err instanceof Error && err.message.startsWith(NEEDS_HEIF_LANE);
}

/** What the pool gives the threads of its heif lane (piscina's workerData): they may run libheif. */
export interface HeifLaneWorkerData {
  readonly heifDecoder: true;
}

/**
 * The part of a deadline the worker's own timeouts (child processes, sharp pipelines) may
 * use: they must fire before the pool ends the worker, or a child process would be left
 * running with nobody to reap it.
 */
export function workerBudgetMs(deadlineMs: number): number {
  return Math.max(1, deadlineMs - Math.max(200, deadlineMs * 0.1));
}

/**
 * The messages a worker posts around a long-running child process (ffmpeg making a web copy):
 * the pool kills those still running when it closes, so a shutdown does not wait for a
 * rendition of minutes (a thread's children are the process's, and outlive the thread).
 */
export interface ChildProcessNotice {
  readonly mediaChild: number;
  readonly running: boolean;
}

export function childProcessNotice(pid: number, running: boolean): ChildProcessNotice {
  return { mediaChild: pid, running };
}

export function isChildProcessNotice(message: unknown): message is ChildProcessNotice {
  return typeof message === 'object' && message !== null && typeof (message as Partial<ChildProcessNotice>).mediaChild === 'number';
}
