/**
 * The worker side of the media pool: one file, one named export per task (piscina's
 * "multiple workers one file" style), checked here against the task map of workers/tasks.ts.
 * The tasks themselves live with their kind: thumbnails and full-size JPEGs in
 * rendered-images.ts, photo facts (upload check, EXIF, tile size) in photo-facts.ts, video
 * facts in video-probe.ts, web copies in web-video.ts, Live Photo identifiers in
 * content-id.ts, covers and icons in site-images.ts, files' CRCs in checksum.ts. Task data
 * and results are plain cloneable objects; a failing task throws a real Error, which piscina hands back to the
 * caller, and the worker stays up for the next task. Each task first tells the pool it has
 * started (its deadline runs from then, task-budget.ts) and keeps its own timeouts within
 * that deadline.
 */
import sharp from 'sharp';
import { checksum } from './checksum.js';
import { contentId } from './content-id.js';
import { decodeCheck, exif, photoDimensions } from './photo-facts.js';
import { fullSize, thumbnail } from './rendered-images.js';
import { coverFocus, siteIcon } from './site-images.js';
import { startTask } from './task-budget.js';
import type { DimensionsTask, MediaTaskHandlers, TaskClock, TileDimensions } from './tasks.js';
import { videoDimensions, videoInfo } from './video-probe.js';
import { webVideo } from './web-video.js';

// Both settings are process-wide libvips state, so the main thread must not do image work
// of its own. The operation cache keeps decoded inputs for reuse, but each original is
// decoded once per task and never again (the result lands in the thumbnail cache): caching
// would only hold memory. Parallelism comes from the pool (one worker per core); letting
// libvips also spread each image over every core would oversubscribe the CPU.
sharp.cache(false);
sharp.concurrency(1);

/**
 * Size as displayed (EXIF orientation or video rotation applied), from headers only, and for
 * a photo its ThumbHash placeholder (workers/thumb-hash.ts). Videos have none: their frame
 * would cost an ffmpeg run per video.
 */
export async function dimensions(task: DimensionsTask & TaskClock): Promise<TileDimensions> {
  const budget = startTask(task);
  return task.kind === 'video' ? videoDimensions(task.src, budget) : photoDimensions(task, budget);
}

// The exports of this file are the task map's handlers (workers/tasks.ts): a task missing
// here, or taking or returning another shape than the map says, does not compile.
export { checksum, contentId, coverFocus, decodeCheck, exif, fullSize, siteIcon, thumbnail, videoInfo, webVideo };
const handlers = {
  thumbnail,
  fullSize,
  decodeCheck,
  exif,
  videoInfo,
  dimensions,
  webVideo,
  contentId,
  coverFocus,
  siteIcon,
  checksum,
} satisfies MediaTaskHandlers;
void handlers;
