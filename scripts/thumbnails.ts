/**
 * `npm run thumbnails [album path ...]`: pre-generates every thumbnail size of every media
 * file, so the first visitor of an album does not wait for them. With album paths (such as
 * `2024` or `2024/travel/lisbon`), only the albums at or below those paths.
 *
 * Fresh cache entries are skipped; a stale or missing one costs one decode of the original
 * for all three sizes, in the same worker pool the server uses, one worker per core
 * (WORKERS overrides). Then the web copies of the videos that need one (a faststart remux,
 * or an H.264 rendition of HEVC and the like: server/media/web-video.ts), one at a time in
 * the pool's video lane, as the server would make them on first play. Progress goes to
 * stderr, the summary to stdout.
 *
 * Exit code: 0 when the run went through, even if some files failed (they are listed at the
 * end: one broken photo must not hide the thousands that worked); 1 when nothing could be
 * done (the albums directory is unreadable, or every file failed); 2 for a bad argument
 * (an invalid path, or one with no album at or below it).
 */
import { createMediaLocator } from '../server/core/access/media-location.js';
import { filesOf } from '../server/core/albums/live-photos.js';
import { AlbumIndex } from '../server/core/albums/album-index.js';
import { loadConfig } from '../server/core/config.js';
import { createLogger } from '../server/core/logger.js';
import { thumbnailRoot, webVideoDir } from '../server/core/media-catalogue.js';
import { createMetadataService } from '../server/media/metadata.js';
import { createMediaPool, MediaTaskError } from '../server/media/pool.js';
import { createWebVideoService, type WebVideoSource } from '../server/media/web-video.js';
import { createThumbnailCache, type ThumbnailSource } from '../server/media/thumbnails.js';
import { parseRelativePath } from '../server/core/paths.js';
import { sizeThreadPool } from '../server/uv-threadpool.js';

const USAGE = 'usage: npm run thumbnails [-- <album path> ...]';

interface Failure {
  readonly relPath: string;
  readonly message: string;
}

async function main(argv: string[]): Promise<number> {
  if (argv.includes('-h') || argv.includes('--help')) {
    console.log(USAGE);
    return 0;
  }
  const config = loadConfig();
  sizeThreadPool(config.workers);

  let prefixes: string[];
  try {
    prefixes = argv.map((arg) => parseRelativePath(arg.replace(/\/+$/, ''), 'album path'));
  } catch (err) {
    console.error(`${(err as Error).message}\n${USAGE}`);
    return 2;
  }

  let index: AlbumIndex;
  try {
    // Album warnings join the progress on stderr; stdout keeps the summary alone.
    index = await AlbumIndex.open({ albumsDir: config.albumsDir, watch: false, log: createLogger({ destination: process.stderr }) });
  } catch (err) {
    console.error(`cannot read the albums directory ${config.albumsDir}: ${(err as Error).message}`);
    return 1;
  }
  const albums = [...index.albums()].filter((a) => prefixes.length === 0 || prefixes.some((p) => a.path === p || a.path.startsWith(`${p}/`)));
  index.close();
  const unmatched = prefixes.filter((p) => !albums.some((a) => a.path === p || a.path.startsWith(`${p}/`)));
  if (unmatched.length > 0) {
    console.error(`no album at or below: ${unmatched.join(', ')}\n${USAGE}`);
    return 2;
  }

  // Live Photos' movies too (filesOf): they are played, so they need their web copies.
  const files = albums.flatMap((album) => [...filesOf(album.media)].map((item) => ({ album, item, relPath: `${album.path}/${item.name}`, kind: item.kind })));
  // The gallery's symlink rule: a link it would not follow (to an album.json, a FIFO, outside
  // the tree...) is not read here either.
  const locate = createMediaLocator(index, config.albumsDir);
  console.log(`Thumbnails for ${files.length} media files in ${albums.length} albums → ${thumbnailRoot(config.cacheDir)} (${config.workers} workers)`);

  // The feed below never has more than `inFlight` tasks out, so the queue is never full.
  const inFlight = config.workers * 2;
  // Failures are listed in the summary instead.
  const pool = createMediaPool({ workers: config.workers, maxQueue: inFlight, log: createLogger({ level: 'silent' }) });
  const cache = createThumbnailCache({ cacheDir: config.cacheDir, pool });
  const webVideos = createWebVideoService({
    cacheDir: config.cacheDir,
    pool,
    metadata: createMetadataService({ pool }),
    log: createLogger({ level: 'silent' }),
  });
  const videos: WebVideoSource[] = [];
  const progress = new Progress(files.length);
  const failures: Failure[] = [];
  const skipped: string[] = [];
  let generated = 0;
  let fresh = 0;

  const queue = files.slice();
  const feed = async () => {
    for (let file = queue.shift(); file; file = queue.shift()) {
      try {
        const where = await locate(file.album, file.item);
        const source: ThumbnailSource | undefined = where && { relPath: file.relPath, kind: file.kind, absPath: where.absPath, rotation: where.rotation };
        if (!source) skipped.push(file.relPath);
        else if ((await cache.refresh(source)) === 'generated') generated++;
        else fresh++;
        if (source?.kind === 'video') videos.push(source);
      } catch (err) {
        failures.push({ relPath: file.relPath, message: describe(err) });
      }
      progress.tick();
    }
  };
  const copies = { made: 0, fresh: 0, none: 0, failures: [] as Failure[] };
  try {
    await Promise.all(Array.from({ length: Math.min(inFlight, files.length) }, feed));
    progress.done();
    // One at a time: the video lane has one worker, and a rendition keeps it busy for a while.
    const videoProgress = new Progress(videos.length, 'web videos ');
    for (const video of videos.sort((a, b) => a.relPath.localeCompare(b.relPath))) {
      try {
        const outcome = await webVideos.prepare(video);
        if (outcome === 'generated') copies.made++;
        else if (outcome === 'fresh') copies.fresh++;
        else copies.none++;
      } catch (err) {
        copies.failures.push({ relPath: video.relPath, message: describe(err) });
      }
      videoProgress.tick();
    }
    videoProgress.done();
  } finally {
    progress.done();
    await pool.close();
  }

  const skippedNote = skipped.length > 0 ? `, ${skipped.length} skipped (gone, or symlinks the gallery does not follow)` : '';
  console.log(`${generated} generated, ${fresh} already fresh, ${failures.length} failed${skippedNote} in ${formatDuration(progress.elapsedSeconds())}`);
  if (skipped.length > 0)
    console.log(
      `Skipped:\n${skipped
        .sort()
        .map((s) => `  ${s}`)
        .join('\n')}`,
    );
  if (failures.length > 0) {
    console.log('Failed:');
    for (const f of failures) console.log(`  ${f.relPath}: ${f.message}`);
  }
  console.log(
    `Web videos → ${webVideoDir(config.cacheDir)}: ${copies.made} made, ${copies.fresh} already fresh, ${copies.none} not needed, ${copies.failures.length} failed`,
  );
  if (copies.failures.length > 0) {
    console.log('Web videos failed:');
    for (const f of copies.failures) console.log(`  ${f.relPath}: ${f.message}`);
  }
  return failures.length > 0 && generated + fresh === 0 ? 1 : 0;
}

/** The worker's own message (not the neutral one a client gets), on one line. */
function describe(err: unknown): string {
  const inner = err instanceof MediaTaskError ? err.cause : err;
  const message = inner instanceof Error ? inner.message : String(inner);
  return message.split('\n')[0] ?? message;
}

/** A bar redrawn in place on a terminal; on a pipe or a log file, a plain line now and then. */
class Progress {
  readonly #total: number;
  readonly #start = Date.now();
  readonly #tty = process.stderr.isTTY === true;
  readonly #label: string;
  #count = 0;
  #lastDraw = 0;
  #finished = false;

  constructor(total: number, label = '') {
    this.#total = total;
    this.#label = label;
  }

  tick(): void {
    this.#count++;
    const now = Date.now();
    const interval = this.#tty ? 100 : 2000;
    if (now - this.#lastDraw >= interval || this.#count === this.#total) {
      this.#lastDraw = now;
      this.#draw();
    }
  }

  /** Ends the bar's line; once, however often it is called. */
  done(): void {
    if (this.#tty && this.#total > 0 && !this.#finished) process.stderr.write('\n');
    this.#finished = true;
  }

  elapsedSeconds(): number {
    return (Date.now() - this.#start) / 1000;
  }

  #draw(): void {
    const elapsed = this.elapsedSeconds();
    const rate = elapsed > 0 ? this.#count / elapsed : 0;
    const eta = rate > 0 ? (this.#total - this.#count) / rate : 0;
    const stats = `${this.#label}${this.#count}/${this.#total}  ${rate.toFixed(1)}/s  ETA ${formatDuration(eta)}`;
    if (!this.#tty) {
      process.stderr.write(`${stats}\n`);
      return;
    }
    const width = 30;
    const filled = this.#total === 0 ? width : Math.round((this.#count / this.#total) * width);
    process.stderr.write(`\r\x1b[K[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${stats}`);
  }
}

function formatDuration(seconds: number): string {
  const s = Math.round(seconds);
  const m = Math.floor(s / 60);
  return m > 0 ? `${m}m${String(s % 60).padStart(2, '0')}s` : `${s}s`;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    console.error(err);
    process.exitCode = 1;
  },
);
