/**
 * The worker side of the media pool: one file, one named export per task (piscina's
 * "multiple workers one file" style). Task data and results are plain cloneable objects;
 * a failing task throws a real Error, which piscina hands back to the caller, and the
 * worker stays up for the next task. Each task first tells the pool it has started (its
 * deadline runs from then) and keeps its own timeouts within that deadline. Task names,
 * inputs and results are the map in workers/tasks.ts.
 */
import { spawn } from 'node:child_process';
import fsSync from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { parentPort } from 'node:worker_threads';
import ffmpegInstaller from '@ffmpeg-installer/ffmpeg';
import sharp, { type Sharp, type SharpOptions } from 'sharp';
import { tempNameFor } from '../server/core/fs-atomic.js';
import { ffprobe, type ProbeStream, streamRotation } from '../server/core/media/ffprobe.js';
import { SOURCE_TAG_HEAD_BYTES, sourceTagIn, withSourceTag } from '../server/core/media/source-tag.js';
import { GRID_THUMBNAIL_MAX_WIDTH, lockFileOf } from '../server/core/media-catalogue.js';
import { identify, imageHeader, imageTaskDone, openImage, regularFile, SHARP_INPUT } from './open-image.js';
import { thumbHashOf, thumbHashOfPreview } from './thumb-hash.js';
import { type ExifFields, exifPreview, readExifFields, readJpegHead } from './exif-reader.js';
import { playbackFactsOf, webVideo } from './web-video.js';
import { contentId } from './content-id.js';
import { takenFromExif, takenFromVideoTags } from '../server/core/media/taken-date.js';
import { turnedSize } from '../server/core/albums/rotations.js';
import { collectWhenQuiet } from '../server/core/idle-gc.js';
import { coverFocus, siteIcon } from './site-images.js';
import {
  type DecodedImage,
  type Dimensions,
  type DimensionsTask,
  type ExifRecord,
  type FullSizeTask,
  type MediaTaskHandlers,
  type PathTask,
  type TaskClock,
  taskStarted,
  type TileDimensions,
  type ThumbnailOutput,
  type ThumbnailResult,
  type ThumbnailTask,
  type VideoInfo,
  workerBudgetMs,
} from './tasks.js';

// Both settings are process-wide libvips state, so the main thread must not do image work
// of its own. The operation cache keeps decoded inputs for reuse, but each original is
// decoded once per task and never again (the result lands in the thumbnail cache): caching
// would only hold memory. Parallelism comes from the pool (one worker per core); letting
// libvips also spread each image over every core would oversubscribe the CPU.
sharp.cache(false);
sharp.concurrency(1);

// ---------------------------------------------------------------------------------------
// Tasks

/**
 * Renders every requested size from a single decode of the original (or of a video frame),
 * each as a JPEG and, when asked, a WebP of the same pixels. A request for one size asks
 * for that size alone, so the decode is of that size (server/media/thumbnails.ts).
 */
export async function thumbnail(task: ThumbnailTask & TaskClock): Promise<ThumbnailResult[]> {
  const budget = start(task);
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

/** Whether the cache file `file` was made from the version `tag` of its original (its head only). */
function holdsTag(file: string, tag: string): boolean {
  let fd: number;
  try {
    fd = fsSync.openSync(file, 'r');
  } catch {
    return false;
  }
  try {
    const head = Buffer.alloc(SOURCE_TAG_HEAD_BYTES);
    return sourceTagIn(head.subarray(0, fsSync.readSync(fd, head, 0, head.length, 0))) === tag;
  } catch {
    return false;
  } finally {
    fsSync.closeSync(fd);
  }
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
  const budget = start(task);
  return withPhoto(task.src, budget, async (image) => {
    const pipeline = turned(image.timeout({ seconds: budget.seconds() }).autoOrient(), task.rotate)
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: 90, optimiseCoding: false });
    const { width, height } = await writeAtomically(pipeline, task.dest, task.tag);
    return { width, height };
  });
}

/**
 * Proves a file is a photo the gallery can show by decoding it whole (an upload, before it
 * reaches an album): header, format and size as sharp reads them.
 */
export async function decodeCheck(task: PathTask & TaskClock): Promise<DecodedImage> {
  const budget = start(task);
  // An upload's temp file has no telling name: its bytes say what it is.
  const file = await identify(task.src);
  const { width, height } = await imageHeader(file);
  // Strict, unlike what the gallery shows: an upload cut short is a transfer that failed, and the owner is told.
  const image = await openImage(file, UPLOAD_INPUT);
  try {
    // A small resize still decodes every pixel (cheaply for a JPEG, with shrink-on-load).
    await image.timeout({ seconds: budget.seconds() }).resize(32, 32, { fit: 'inside' }).raw().toBuffer();
  } finally {
    imageTaskDone(image);
  }
  const format =
    file.format === 'heif' || file.format === 'other'
      ? ((
          await sharp(file.path, UPLOAD_INPUT)
            .metadata()
            .catch(() => undefined)
        )?.format ?? file.format)
      : file.format;
  return { format, width, height };
}

/**
 * The EXIF record of docs/api.md, reading only the head of the file. The EXIF block comes from
 * untrusted files, so it is read by a parser whose work is bounded by the block's size.
 */
export async function exif(task: PathTask & TaskClock): Promise<ExifRecord> {
  start(task);
  const src = regularFile(task.src);
  const head = await readHead(src, EXIF_HEAD_BYTES);
  let fields: ExifFields | undefined;
  let size: Dimensions | undefined;

  if (isJpeg(head)) {
    const jpeg = readJpegHead(head);
    if (jpeg.exif) fields = readExifFields(jpeg.exif);
    size = jpeg.size;
  }
  if (!isJpeg(head) || size === undefined) {
    // Headers only: libvips finds EXIF in PNG, WebP and TIFF containers, our reader in a
    // HEIF's. A JPEG whose frame header lies past the head lands here too: its pixels may be fine.
    const header = await imageHeader(await identify(src));
    if (header.exif && fields === undefined) fields = readExifFields(header.exif);
    size = { width: header.width, height: header.height };
  }

  return {
    Make: fields?.Make ?? null,
    Model: fields?.Model ?? null,
    LensModel: fields?.LensModel ?? null,
    FocalLength: fields?.FocalLength ?? null,
    FNumber: fields?.FNumber ?? null,
    ExposureTime: fields?.ExposureTime ?? null,
    ISO: fields?.ISO ?? null,
    DateTimeOriginal: exifDate(fields?.DateTimeOriginal ?? null),
    ImageWidth: size?.width ?? null,
    ImageHeight: size?.height ?? null,
  };
}

/** Duration, displayed size, codec and frame rate of the first video stream. */
export async function videoInfo(task: PathTask & TaskClock): Promise<VideoInfo> {
  return probeVideo(task.src, start(task));
}

/**
 * Size as displayed (EXIF orientation or video rotation applied), from headers only, and for
 * a photo its ThumbHash placeholder (workers/thumb-hash.ts). Videos have none: their frame
 * would cost an ffmpeg run per video.
 */
export async function dimensions(task: DimensionsTask & TaskClock): Promise<TileDimensions> {
  const budget = start(task);
  if (task.kind === 'video') {
    const { width, height, taken } = await probeVideo(task.src, budget);
    return taken === null ? { width, height } : { width, height, taken };
  }
  const file = await identify(task.src);
  const src = file.path;
  const header = await imageHeader(file);
  // The date comes with the header just read (its EXIF block, in any container).
  const taken = header.exif ? takenFromExif(readExifFields(header.exif).DateTimeOriginal) : undefined;
  const rotate = task.rotate ?? 0;
  const size = { ...turnedSize({ width: header.width, height: header.height }, rotate), ...(taken ? { taken } : {}) };
  // A HEIC takes libheif 0.5–1 s to decode: its tile goes without a placeholder.
  if (header.hevc) return size;
  // The size stands on the header alone; a photo whose pixels fail to decode (cut short) still
  // has one, and its tile shows the designed "cannot show" state once its thumbnail fails. A
  // placeholder is not worth holding a worker for long (a huge PNG or TIFF, which libvips
  // cannot shrink while decoding): past PLACEHOLDER_SECONDS the tile goes without.
  const seconds = Math.min(PLACEHOLDER_SECONDS, budget.seconds());
  const preview = file.format === 'jpeg' ? await cameraPreview(src) : undefined;
  const fromPreview = preview && (await thumbHashOfPreview(preview, header.stored, rotate).catch(() => undefined));
  const thumbHash = fromPreview ?? (await thumbHashOf(sharp(src, SHARP_INPUT).timeout({ seconds }), rotate).catch(() => undefined));
  return thumbHash === undefined ? size : { ...size, thumbHash };
}

// The exports above are the task map's handlers (workers/tasks.ts): a task missing here, or
// taking or returning another shape than the map says, does not compile.
export { contentId, coverFocus, siteIcon, webVideo };
const handlers = { thumbnail, fullSize, decodeCheck, exif, videoInfo, dimensions, webVideo, contentId, coverFocus, siteIcon } satisfies MediaTaskHandlers;
void handlers;

// ---------------------------------------------------------------------------------------
// Helpers

/** `image` (already upright by its own orientation) turned by the owner's rotation (docs/api.md#rotations). */
function turned(image: Sharp, rotate: number | undefined): Sharp {
  return rotate ? image.rotate(rotate) : image;
}

/**
 * The pixels of a burst's last tasks (decoded 24 MP photos held as Buffers, tens of MB each)
 * are freed only when this thread's heap is collected, which nothing triggers once the tasks
 * stop coming: one full collection a few seconds after the last task started gives them back.
 */
const WORKER_QUIET_MS = 3000;
const quiet = collectWhenQuiet(WORKER_QUIET_MS);

/** Tells the pool the task starts now, and gives the task's own timeouts their budget. */
function start(task: TaskClock): Budget {
  quiet.touch();
  parentPort?.postMessage(taskStarted(task.runId));
  return new Budget(task.deadlineMs);
}

/** What is left of a task's deadline for the timeouts of its child processes and pipelines. */
class Budget {
  readonly #endsAt: number;

  constructor(deadlineMs: number) {
    this.#endsAt = Date.now() + workerBudgetMs(deadlineMs);
  }

  /** At least 1: a timeout of 0 means none. */
  ms(): number {
    return Math.max(1, this.#endsAt - Date.now());
  }

  /** sharp takes whole seconds. */
  seconds(): number {
    return Math.max(1, Math.floor(this.ms() / 1000));
  }
}

async function probeVideo(src: string, budget: Budget): Promise<VideoInfo> {
  const data = await ffprobe(src, budget.ms());
  const stream = data.streams.find((s) => s.codec_type === 'video');
  if (!stream?.width || !stream.height) throw new Error(`No video stream in ${path.basename(src)}`);
  const { width, height } = displayedSize(stream);
  const duration = finite(Number(data.format.duration)) ?? finite(Number(stream.duration)) ?? 0;
  const fps = frameRate(stream.avg_frame_rate) ?? frameRate(stream.r_frame_rate) ?? 0;
  const codec = stream.codec_name ?? 'unknown';
  const taken = takenFromVideoTags(data.format.tags) ?? takenFromVideoTags(stream.tags) ?? null;
  return { duration, width, height, codec, fps: Math.round(fps * 1000) / 1000, taken, ...(await playbackFactsOf(src, data, stream)) };
}

/**
 * Uploads are held to 'error' rather than the 'none' of what the gallery shows: real cameras
 * write files with harmless warnings (extraneous bytes before a marker), while a file cut
 * short in transfer fails, and the owner is told.
 */
const UPLOAD_INPUT: SharpOptions = { failOn: 'error' };
/** The most a photo's ThumbHash may take (a 24 MP JPEG takes some 65 ms). */
const PLACEHOLDER_SECONDS = 2;
/** EXIF lives in APP1, at most 64 KB, near the start; 256 KB leaves room for other segments. */
const EXIF_HEAD_BYTES = 256 * 1024;

/**
 * Encodes `pipeline` and writes the result to a temp name, renamed to `dest`. The file calls
 * are synchronous: this thread runs one task at a time and has nothing else to do meanwhile,
 * while each asynchronous call is a round trip through libuv's four threads, two of which the
 * running decodes hold (measured: 2 ms of a cold tile's 78 ms in the worker, two tiles at a time).
 */
async function writeAtomically(pipeline: Sharp, dest: string, tag: string | undefined): Promise<Dimensions & { bytes: Buffer }> {
  ensureDir(path.dirname(dest));
  const tmp = tempNameFor(dest);
  try {
    const { data, info } = await pipeline.toBuffer({ resolveWithObject: true });
    const bytes = tag === undefined ? data : withSourceTag(data, tag);
    writeNew(tmp, bytes);
    fsSync.renameSync(tmp, dest);
    return { width: info.width, height: info.height, bytes };
  } catch (err) {
    fsSync.rmSync(tmp, { force: true });
    throw err;
  }
}

/**
 * Directories of the cache this worker has made: a cold tile is a mkdir less. One deleted
 * since (the admin clearing the cache) is made again when the write into it finds it gone.
 */
const knownDirs = new Set<string>();

function ensureDir(dir: string): void {
  if (knownDirs.has(dir)) return;
  fsSync.mkdirSync(dir, { recursive: true });
  knownDirs.add(dir);
}

/** Writes `bytes` to the new file `tmp`, making its directory again if it went since ensureDir saw it. */
function writeNew(tmp: string, bytes: Buffer): void {
  try {
    fsSync.writeFileSync(tmp, bytes, { flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    knownDirs.delete(path.dirname(tmp));
    ensureDir(path.dirname(tmp));
    fsSync.writeFileSync(tmp, bytes, { flag: 'wx' });
  }
}

/** The preview JPEG a camera wrote into the EXIF block, when the head of the file holds it. */
async function cameraPreview(src: string): Promise<Buffer | undefined> {
  const { exif } = readJpegHead(await readHead(src, EXIF_HEAD_BYTES));
  return exif ? exifPreview(exif) : undefined;
}

async function readHead(file: string, bytes: number): Promise<Buffer> {
  const handle = await fs.open(file, 'r');
  try {
    // Unsafe is fine: only the bytes read are kept.
    const buffer = Buffer.allocUnsafe(bytes);
    const { bytesRead } = await handle.read(buffer, 0, bytes, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

function isJpeg(head: Buffer): boolean {
  return head.length > 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff;
}

/** 'YYYY:MM:DD HH:MM:SS'; also accepts the ISO-like variant some tools write; null when unset. */
function exifDate(value: string | null): string | null {
  if (typeof value !== 'string') return null;
  const m = /^(\d{4})[:-](\d{2})[:-](\d{2})[ T](\d{2}):(\d{2}):(\d{2})/.exec(value.trim());
  if (!m || m[1] === '0000') return null;
  return `${m[1]}:${m[2]}:${m[3]} ${m[4]}:${m[5]}:${m[6]}`;
}

function finite(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** '30000/1001' → 29.97…; '0/0' (unknown) → undefined. */
function frameRate(ratio: string | undefined): number | undefined {
  if (!ratio) return undefined;
  const [num, den] = ratio.split('/').map(Number);
  if (den === undefined) return finite(num);
  return num && den ? num / den : undefined;
}

/**
 * Phones store portrait video as landscape frames plus a rotation: older files carry a
 * `rotate` tag, newer ffprobe reports the display matrix's rotation.
 */
function displayedSize(stream: ProbeStream): Dimensions {
  const width = stream.width ?? 0;
  const height = stream.height ?? 0;
  const rotation = streamRotation(stream);
  return Math.abs(rotation) % 180 === 90 ? { width: height, height: width } : { width, height };
}

/**
 * One frame near the start, as PNG bytes: at 1 s or 10 % of the duration, whichever comes
 * first, so a fade-in or a black first frame is skipped but a short clip still has a frame.
 * ffmpeg applies the rotation itself, so the frame comes out as displayed.
 */
async function grabVideoFrame(src: string, budget: Budget): Promise<Buffer> {
  const { duration } = await probeVideo(src, budget);
  const at = Math.min(1, duration * 0.1);
  const frame = await ffmpegFrame(src, at, budget);
  // A duration the container got wrong can put the seek past the end: fall back to frame 0.
  return frame.length > 0 || at === 0 ? frame : ffmpegFrame(src, 0, budget);
}

function ffmpegFrame(src: string, atSeconds: number, budget: Budget): Promise<Buffer> {
  const args = [
    '-hide_banner',
    '-loglevel',
    'error',
    '-nostdin',
    // Input seeking (before -i) jumps to the nearest keyframe instead of decoding up to it.
    ...(atSeconds > 0 ? ['-ss', atSeconds.toFixed(3)] : []),
    '-i',
    src,
    '-frames:v',
    '1',
    '-an',
    '-sn',
    '-dn',
    // PNG keeps the frame lossless; level 1 is quick and keeps the pipe small.
    '-f',
    'image2pipe',
    '-c:v',
    'png',
    '-compression_level',
    '1',
    'pipe:1',
  ];
  return new Promise((resolve, reject) => {
    // SIGKILL: a process blocked opening its input does not always act on SIGTERM.
    const child = spawn(ffmpegInstaller.path, args, { stdio: ['ignore', 'pipe', 'pipe'], timeout: budget.ms(), killSignal: 'SIGKILL' });
    const chunks: Buffer[] = [];
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < 4096) stderr += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (code === 0) resolve(Buffer.concat(chunks));
      else reject(new Error(`ffmpeg could not extract a frame of ${path.basename(src)} (${signal ?? `exit ${code}`}): ${stderr.trim()}`));
    });
  });
}
