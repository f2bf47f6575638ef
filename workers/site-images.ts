/**
 * Two small image tasks for the site's look: where to crop an album card's cover (sharp's
 * attention strategy) and the site's app icons (PNGs of its SVG icon). Both run in the pool,
 * as all image work does: libvips settings are process-wide (see media-worker.ts).
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { parentPort } from 'node:worker_threads';
import sharp from 'sharp';
import { tempNameFor } from '../server/core/fs-atomic.js';
import { turnedSize } from '../server/core/albums/rotations.js';
import { type CoverFocusResult, type CoverFocusTask, type SiteIconTask, type TaskClock, taskStarted, workerBudgetMs } from './tasks.js';

/** Whole seconds left of the task's deadline, for sharp's timeout (at least 1: 0 means none). */
function startSeconds(task: TaskClock): number {
  parentPort?.postMessage(taskStarted(task.runId));
  return Math.max(1, Math.floor(workerBudgetMs(task.deadlineMs) / 1000));
}

/** A FIFO or device would block libvips' open for good (see regularFile in open-image.ts). */
async function regularFile(file: string): Promise<string> {
  if (!(await fs.stat(file)).isFile()) throw new Error(`${path.basename(file)} is not a regular file`);
  return file;
}

/**
 * The `object-position` (percentages) that shows, in a box of the card's shape, the part of
 * the photo libvips' attention strategy picks (skin tones, saturated colour, detail): the
 * crop sharp would make, expressed so that the page can keep using the shared thumbnails.
 * The photo is shrunk while it is decoded (a JPEG at 1/8), so this costs about what a
 * small thumbnail does.
 */
export async function coverFocus(task: CoverFocusTask & TaskClock): Promise<CoverFocusResult> {
  const seconds = startSeconds(task);
  const src = await regularFile(task.src);
  const { box } = task;
  const upright = sharp(src, { failOn: 'error' }).timeout({ seconds }).autoOrient();
  const { info } = await (task.rotate ? upright.rotate(task.rotate) : upright)
    .resize(box.width, box.height, { fit: 'cover', position: 'attention' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const meta = await sharp(src).metadata();
  const { width, height } = turnedSize(meta.autoOrient, task.rotate ?? 0);
  // The photo as `object-fit: cover` scales it into the box; the crop offsets are in that scale.
  const scale = Math.max(box.width / width, box.height / height);
  const spareX = Math.round(width * scale) - box.width;
  const spareY = Math.round(height * scale) - box.height;
  const percent = (offset: number | undefined, spare: number) => (spare > 0 ? Math.min(100, Math.max(0, Math.round((-(offset ?? 0) / spare) * 100))) : 50);
  return { x: percent(info.cropOffsetLeft, spareX), y: percent(info.cropOffsetTop, spareY) };
}

/** A square PNG of the site's SVG icon, written atomically. */
export async function siteIcon(task: SiteIconTask & TaskClock): Promise<{ bytes: number }> {
  const seconds = startSeconds(task);
  const svg = await fs.readFile(await regularFile(task.src));
  // The SVG is drawn at the icon's size, not scaled up from its 64 px viewBox.
  const density = Math.ceil((72 * task.size) / 64);
  const png = await sharp(svg, { density }).timeout({ seconds }).resize(task.size, task.size).png({ compressionLevel: 9 }).toBuffer();
  await fs.mkdir(path.dirname(task.dest), { recursive: true });
  const tmp = tempNameFor(task.dest);
  try {
    await fs.writeFile(tmp, png, { flag: 'wx' });
    await fs.rename(tmp, task.dest);
  } catch (err) {
    await fs.rm(tmp, { force: true });
    throw err;
  }
  return { bytes: png.length };
}
