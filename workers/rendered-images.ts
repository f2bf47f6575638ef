/**
 * The images the media worker renders into the cache (media-worker.ts): thumbnails, every
 * size asked from a single decode of the original or of a video's frame, as JPEG and WebP;
 * and full-size JPEGs of photos browsers cannot display. Both go upright (the file's own
 * orientation, then the owner's turn) and without EXIF, so no GPS position ever leaks, and
 * both fall back to ffmpeg for a JPEG libvips cannot get through.
 */
import fsSync from 'node:fs';
import sharp, { type Sharp, type SharpOptions } from 'sharp';
import { GRID_THUMBNAIL_MAX_WIDTH, lockFileOf } from '../server/core/media-catalogue.js';
import { holdsTag, writeAtomically } from './cache-files.js';
import { ffmpegFrame, grabVideoFrame } from './ffmpeg-frame.js';
import { identify, imageTaskDone, openImage, SHARP_INPUT } from './open-image.js';
import { type Budget, startTask } from './task-budget.js';
import type { Dimensions, FullSizeTask, TaskClock, ThumbnailOutput, ThumbnailResult, ThumbnailTask } from './tasks.js';

/**
 * Renders every requested size from a single decode of the original (or of a video frame),
 * each as a JPEG and, when asked, a WebP of the same pixels. A request for one size asks
 * for that size alone, so the decode is of that size (server/media/thumbnails.ts).
 */
export async function thumbnail(task: ThumbnailTask & TaskClock): Promise<ThumbnailResult[]> {
  const budget = startTask(task);
  const outputs = stillToMake(task).sort((a, b) => b.width - a.width);
  if (outputs.length === 0) return [];
  if (task.kind === 'video') return render(sharp(await grabVideoFrame(task.src, budget), SHARP_INPUT), outputs, task, budget);
  return withPhoto(task.src, budget, (image) => render(image, outputs, task, budget));
}

/**
 * Runs `work` on the photo `src`. A JPEG whose data libvips cannot get through (a corrupt
 * scan it stops at, even with failOn 'none', where browsers show what comes before) is
 * decoded again by ffmpeg, which conceals what it cannot read: the photo shows, its broken
 * part a flat colour, rather than not at all.
 */
async function withPhoto<T>(src: string, budget: Budget, work: (image: Sharp) => Promise<T>): Promise<T> {
  const file = await identify(src);
  const image = await openImage(file);
  try {
    return await work(image);
  } catch (err) {
    if (file.format !== 'jpeg') throw err;
    const frame = await ffmpegFrame(file.path, 0, budget).catch(() => Buffer.alloc(0));
    if (frame.length === 0) throw err;
    return await work(sharp(frame, SHARP_INPUT));
  } finally {
    imageTaskDone(image);
  }
}

/** The thumbnails of `image`, largest first. */
async function render(image: Sharp, outputs: ThumbnailOutput[], task: ThumbnailTask, budget: Budget): Promise<ThumbnailResult[]> {
  // The largest width goes into the decoding pipeline so libvips can shrink on load
  // (a JPEG is decoded straight at 1/2, 1/4 or 1/8 scale). JPEG has no alpha: flatten on white.
  const shrunk = turned(image.timeout({ seconds: budget.seconds() }).autoOrient(), task.rotate)
    .resize({ width: outputs[0]!.width, withoutEnlargement: true })
    .flatten({ background: '#ffffff' });

  // What a visitor waits for is one size in one format: encoded straight from the decode, as
  // sharp alone would do it, without keeping the pixels for other outputs.
  const only = outputs.length === 1 ? outputs[0]! : undefined;
  if (only && (only.dest === undefined) !== (only.webpDest === undefined)) {
    const written =
      only.dest !== undefined
        ? await writeAtomically(shrunk.jpeg({ quality: 85 }), only.dest, task.tag)
        : await writeAtomically(shrunk.webp(webpOutput(only.width)), only.webpDest!, task.tag);
    const { width, height, bytes } = written;
    return [{ size: only.size, width, height, bytes }];
  }

  // Several outputs: the oriented, shrunk pixels are kept raw and every output is encoded from them.
  const decoded = await shrunk.raw().toBuffer({ resolveWithObject: true });

  const results: ThumbnailResult[] = [];
  for (const out of outputs) {
    const pixels = out.width < decoded.info.width ? await resizeRaw(decoded, out.width, budget) : decoded;
    const encoder = () => sharp(pixels.data, rawInput(pixels.info)).timeout({ seconds: budget.seconds() });
    // No withMetadata/keepExif: sharp writes no EXIF, so no GPS position ever leaks.
    // The format a visitor waits for may come alone: the other is then made in the background.
    const jpeg = out.dest === undefined ? undefined : await writeAtomically(encoder().jpeg({ quality: 85 }), out.dest, task.tag);
    const webp = out.webpDest === undefined ? undefined : await writeAtomically(encoder().webp(webpOutput(out.width)), out.webpDest, task.tag);
    const written = jpeg ?? webp;
    if (written === undefined) throw new Error(`thumbnail output ${out.size} names no file to write`);
    results.push({ size: out.size, width: written.width, height: written.height });
  }
  return results;
}

/**
 * The outputs of `task` to write, those `leaveOut` names left out. Looked at here, as the task
 * starts, rather than on the main thread when it was queued: the main thread then spends
 * nothing on work that waits for a quiet pool (a cold tile queues every other size and
 * format of its photo), and what it spends on a visitor's tile is all the tile needs.
 * Synchronous calls: this thread runs one task at a time, and the head of a small cache file
 * is read in microseconds.
 */
function stillToMake({ outputs, leaveOut, tag }: ThumbnailTask): ThumbnailOutput[] {
  if (leaveOut === undefined || tag === undefined) return [...outputs];
  const wanted = (file: string | undefined) =>
    file !== undefined && !holdsTag(file, tag) && !(leaveOut === 'freshOrLocked' && fsSync.existsSync(lockFileOf(file)));
  return outputs.flatMap(({ dest, webpDest, ...out }) => {
    const jpeg = wanted(dest) ? { dest } : {};
    const webp = wanted(webpDest) ? { webpDest } : {};
    return 'dest' in jpeg || 'webpDest' in webp ? [{ ...out, ...jpeg, ...webp }] : [];
  });
}

/**
 * Quality 78 looks like the JPEG at 85 in fewer bytes. Effort 2 (of 0-6): measured on the
 * bench's 24 MP photo at 400 px, the encode took 13 ms against 29 ms at sharp's default of 4,
 * for 3 % more bytes; the grid's tiles wait for it, so it must stay a fraction of the decode
 * (about 100 ms with shrink-on-load).
 */
const WEBP_OUTPUT = { quality: 78, effort: 2 } as const;

/**
 * The grid's tiles (up to GRID_THUMBNAIL_MAX_WIDTH) are seen small, many at once, on phones
 * too: quality 60 takes a fifth to a quarter off their bytes (measured on the sample and bench photos),
 * which is what keeps a 2× desktop's first screen of 54 tiles within 2 MB. What the viewer
 * shows keeps quality 78.
 */
const TILE_WEBP_OUTPUT = { quality: 60, effort: 2 } as const;

const webpOutput = (width: number) => (width <= GRID_THUMBNAIL_MAX_WIDTH ? TILE_WEBP_OUTPUT : WEBP_OUTPUT);

type RawPixels = { data: Buffer; info: { width: number; height: number; channels: 1 | 2 | 3 | 4 } };

const rawInput = (info: RawPixels['info']): SharpOptions => ({ raw: { width: info.width, height: info.height, channels: info.channels } });

/** Raw pixels scaled down to `width`, for the smaller sizes of a task that makes several. */
async function resizeRaw(pixels: RawPixels, width: number, budget: Budget): Promise<RawPixels> {
  return sharp(pixels.data, rawInput(pixels.info)).timeout({ seconds: budget.seconds() }).resize({ width }).raw().toBuffer({ resolveWithObject: true });
}

/**
 * A full-size JPEG of a photo browsers cannot display (HEIC, TIFF): what the viewer's "full
 * resolution" opens for it (docs/api.md#get-apifull-sizepath). Upright, no EXIF (no GPS).
 * Without optimised Huffman tables: libjpeg makes them in a second pass over every
 * coefficient of the photo, all held at once (some 72 MB for 24 MP, on top of a HEIC's
 * decode), for a file a few per cent smaller.
 */
export async function fullSize(task: FullSizeTask & TaskClock): Promise<Dimensions> {
  const budget = startTask(task);
  return withPhoto(task.src, budget, async (image) => {
    const pipeline = turned(image.timeout({ seconds: budget.seconds() }).autoOrient(), task.rotate)
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: 90, optimiseCoding: false });
    const { width, height } = await writeAtomically(pipeline, task.dest, task.tag);
    return { width, height };
  });
}

/** `image` (already upright by its own orientation) turned by the owner's rotation (docs/api.md#rotations). */
function turned(image: Sharp, rotate: number | undefined): Sharp {
  return rotate ? image.rotate(rotate) : image;
}
