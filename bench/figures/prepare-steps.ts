/**
 * The steps of the preparation figures (bench/figures/prepare.ts): albums arriving in a running
 * server's ALBUMS_DIR, the server's own word on its preparation (its progress file, its log),
 * and sharp making an album's grid files directly, the baseline.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { GRID_THUMBNAIL_MAX_WIDTH, PREPARED_SIZES, THUMBNAIL_SIZES } from '../../server/core/media-catalogue.js';
import { type ProcessProgress, readProgress } from '../../server/media/preparation-progress.js';

/**
 * Moves an album made beside ALBUMS_DIR into it in one rename, as a copy that ends with one
 * does (rsync, a file manager's move): the server sees the whole album at once, and the clock
 * starts at the rename. Resolves with when that was (ms since the epoch, the progress file's clock).
 */
export function arrive(staged: string, albumsDir: string, albumPath: string): number {
  const dest = path.join(albumsDir, ...albumPath.split('/'));
  fs.mkdirSync(path.dirname(dest), { recursive: true });
  const at = Date.now();
  fs.renameSync(staged, dest);
  return at;
}

/**
 * The corpus's photo as a camera or a phone writes it: with a small preview in its EXIF block
 * (IFD1, 160×120, the picture letterboxed in black as Canon's are), which is where the gallery
 * takes a photo's ThumbHash from when it can instead of decoding the photo (workers/photo-facts.ts).
 * Made once with ExifTool (Debian's libimage-exiftool-perl) beside the corpus's photo, and kept
 * with the corpus; undefined when ExifTool is not installed.
 */
export async function cameraPhoto(master: string): Promise<string | undefined> {
  const file = path.join(path.dirname(master), 'camera.jpg');
  if (fs.existsSync(file)) return file;
  const preview = path.join(path.dirname(master), `preview-${process.pid}.jpg`);
  const making = path.join(path.dirname(master), `camera-${process.pid}.jpg`);
  try {
    await sharp(master).resize(160, 120, { fit: 'contain', background: '#000000' }).jpeg({ quality: 80 }).toFile(preview);
    fs.copyFileSync(master, making);
    await promisify(execFile)('exiftool', ['-q', '-q', '-overwrite_original', `-ThumbnailImage<=${preview}`, making]);
    fs.renameSync(making, file);
    return file;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  } finally {
    fs.rmSync(preview, { force: true });
    fs.rmSync(making, { force: true });
  }
}

/** An album of `count` photos in `dir`, each a hard link of `photo`: distinct paths, so each a cold original for the gallery. Resolves with their names. */
export function stageLinkedAlbum(dir: string, title: string, photo: string, count: number): string[] {
  fs.mkdirSync(dir, { recursive: true });
  // An explicit token: without one the server writes one back into album.json, a change of its own.
  fs.writeFileSync(path.join(dir, 'album.json'), JSON.stringify({ title, token: `bench-${path.basename(dir)}` }));
  const names = Array.from({ length: count }, (_, i) => `IMG_${String(i + 1).padStart(4, '0')}.jpg`);
  for (const name of names) fs.linkSync(photo, path.join(dir, name));
  return names;
}

/**
 * A phone's camera roll: `count` copies of one real iPhone HEIC under a camera's names. Copies,
 * not links: each its own inode and modification time, as a copy from a phone makes, which is
 * all the gallery tells files apart by (it never compares their bytes), so each is decoded
 * for itself. Changing a few bytes of metadata in each would cost the same decodes.
 */
export function stageCameraRoll(dir: string, heic: string, count: number): void {
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'album.json'), JSON.stringify({ title: 'Camera roll', token: `bench-${path.basename(dir)}` }));
  for (let i = 0; i < count; i++) fs.copyFileSync(heic, path.join(dir, `IMG_${String(5195 + i).padStart(4, '0')}.HEIC`));
}

/** The progress the server process `pid` last wrote (server/media/preparation-progress.ts), if lately. */
export async function progressOf(cacheDir: string, pid: number): Promise<ProcessProgress | undefined> {
  return (await readProgress(cacheDir)).find((p) => p.pid === pid);
}

/** How the preparation of what arrived went, as the server wrote it. */
export interface Prepared {
  /** When the preparation ended (ms since the epoch): no album waited any more. */
  readonly at: number;
  /**
   * When a file was first seen done, none before (the facts of every file of an album are read
   * first, then its files are made one by one): within the 2 s the progress file is written
   * in, the end of the facts' reading.
   */
  readonly firstFileAt: number | undefined;
}

/**
 * Waits until the server `pid` says no album waits and at least `files` files were prepared
 * in all since it started (its progress file, written every 2 s while it works and once when
 * it is done).
 */
export async function untilPrepared(cacheDir: string, pid: number, files: number, timeoutMs = 20 * 60_000): Promise<Prepared> {
  const deadline = Date.now() + timeoutMs;
  let firstFileAt: number | undefined;
  for (;;) {
    const progress = await progressOf(cacheDir, pid);
    if (progress?.current && progress.current.done > 0) firstFileAt ??= progress.at;
    if (progress && progress.albumsWaiting === 0 && progress.filesPrepared >= files) return { at: progress.at, firstFileAt };
    if (Date.now() > deadline)
      throw new Error(`the server did not prepare ${files} files within ${timeoutMs / 1000} s (last progress: ${JSON.stringify(progress)})`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** How many media tasks the server ran in its life, from the line it logs when it stops (server/main.ts). */
export function mediaTasksOf(logFile: string): number {
  for (const line of fs.readFileSync(logFile, 'utf8').split('\n').reverse()) {
    if (!line.startsWith('{')) continue;
    const entry = JSON.parse(line) as { msg?: unknown; mediaTasks?: unknown };
    if (entry.msg === 'stopped' && typeof entry.mediaTasks === 'number') return entry.mediaTasks;
  }
  throw new Error(`no "stopped" line with mediaTasks in ${logFile}`);
}

/** Every file under `dir` but the progress files, with its size and modification time. */
export function cacheFiles(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const file = path.join(entry.parentPath, entry.name);
    if (!entry.isFile() || path.relative(dir, file).startsWith(`preparation${path.sep}`)) continue;
    const stat = fs.statSync(file);
    files.set(file, `${stat.size} ${stat.mtimeMs}`);
  }
  return files;
}

/** Files of `after` that are new or changed since `before`. */
export function changedFiles(before: ReadonlyMap<string, string>, after: ReadonlyMap<string, string>): string[] {
  return [...after].filter(([file, v]) => before.get(file) !== v).map(([file]) => file);
}

/**
 * The worker's WebP settings (workers/rendered-images.ts): quality 60 for the grid's sizes,
 * 78 above, effort 2.
 */
const webpOf = (width: number) => ({ quality: width <= GRID_THUMBNAIL_MAX_WIDTH ? 60 : 78, effort: 2 });

/**
 * What a grid album's preparation makes of one photo, with sharp directly, the way the worker
 * does it: one decode at the largest grid size (shrink-on-load), then each size as a JPEG
 * (quality 85) and a WebP from those pixels.
 */
async function gridFiles(src: string, destDir: string): Promise<void> {
  const widths = PREPARED_SIZES.grid.map((size) => THUMBNAIL_SIZES[size]).sort((a, b) => b - a);
  const decoded = await sharp(src)
    .autoOrient()
    .resize({ width: widths[0]!, withoutEnlargement: true })
    .flatten({ background: '#ffffff' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const base = path.join(destDir, path.basename(src));
  for (const width of widths) {
    const raw = { raw: { width: decoded.info.width, height: decoded.info.height, channels: decoded.info.channels } };
    const pixels = width < decoded.info.width ? await sharp(decoded.data, raw).resize({ width }).raw().toBuffer({ resolveWithObject: true }) : decoded;
    const input = () => sharp(pixels.data, { raw: { width: pixels.info.width, height: pixels.info.height, channels: pixels.info.channels } });
    await input().jpeg({ quality: 85 }).toFile(`${base}.${width}.jpg`);
    await input().webp(webpOf(width)).toFile(`${base}.${width}.webp`);
  }
}

/**
 * Seconds sharp takes to make the grid files of `photos`, `parallel` at a time, each on one
 * libvips thread: the threads the pool's workers run (one per core, sharp.concurrency(1) in
 * workers/media-worker.ts). On a shared machine a process gets the cores in proportion to
 * the threads it has running, so the same threads on both sides is what makes the two
 * comparable there; on a quiet one, more threads per photo gain nothing once every core is busy.
 */
export async function gridFilesDirectly(photos: readonly string[], destDir: string, parallel: number): Promise<number> {
  fs.rmSync(destDir, { recursive: true, force: true });
  fs.mkdirSync(destDir, { recursive: true });
  const threads = sharp.concurrency();
  sharp.concurrency(1);
  try {
    const started = performance.now();
    let next = 0;
    const lane = async () => {
      for (let i = next++; i < photos.length; i = next++) await gridFiles(photos[i]!, destDir);
    };
    await Promise.all(Array.from({ length: Math.min(parallel, photos.length) }, lane));
    return (performance.now() - started) / 1000;
  } finally {
    sharp.concurrency(threads);
    fs.rmSync(destDir, { recursive: true, force: true });
  }
}
