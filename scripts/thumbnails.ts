/**
 * `npm run thumbnails [album path ...]`: prepares every album now, so that a server started
 * afterwards finds each one prepared and decodes nothing, and its first visitors find it warm.
 * With album paths (such as `2024` or `2024/travel/lisbon`), only the albums at or below them.
 *
 * 1. The server's own preparation (server/media/preparer.ts), run in the foreground: the Live
 *    Photos paired, then per album the facts of every file (size, ThumbHash, date taken,
 *    playback plan), the thumbnails its layout shows first in both formats, its cover's card
 *    sizes and crop, and the note of what was prepared per file version. Where the server
 *    yields to every visitor and keeps a worker free for them, this asks at grid priority with
 *    nothing to wait for: every worker, one per core (WORKERS overrides).
 * 2. What a visitor may ask next: every other thumbnail size in both formats (one decode of
 *    the original for all those stale).
 * 3. The web copies of the videos that need one (a faststart remux, or an H.264 rendition of
 *    HEVC and the like: server/media/web-video.ts), one at a time in the pool's video lane, as
 *    the server would make them on first play.
 *
 * What is fresh is skipped at every step, so a second run makes nothing. An album another
 * process is preparing at that moment is left to it (and named in the summary). Progress goes
 * to stderr, and for the admin to CACHE_DIR/preparation/ as the server's does; the summary to
 * stdout.
 *
 * Exit code: 0 when the run went through, even if some files failed (they are listed at the
 * end: one broken photo must not hide the thousands that worked); 1 when nothing could be
 * done (the albums directory is unreadable, or every file failed); 2 for a bad argument
 * (an invalid path, or one with no album at or below it).
 */
import { createMediaLocator } from '../server/core/access/media-location.js';
import type { Album } from '../server/core/albums/album-tree.js';
import { filesOf } from '../server/core/albums/live-photos.js';
import { AlbumIndex } from '../server/core/albums/album-index.js';
import { loadConfig } from '../server/core/config.js';
import { createLogger } from '../server/core/logger.js';
import { thumbnailRoot, webVideoDir } from '../server/core/media-catalogue.js';
import { createCoverFocus } from '../server/media/cover-focus.js';
import { DimensionsCache } from '../server/media/dimensions.js';
import { createLivePhotoIds } from '../server/media/live-photo-ids.js';
import { createMetadataService } from '../server/media/metadata.js';
import { createMediaPool, MediaTaskError } from '../server/media/pool.js';
import { createPreparer } from '../server/media/preparer.js';
import { createServedCrcs, SERVED_CRCS_SUPPORTED } from '../server/media/served-crc.js';
import { createWebVideoService, type WebVideoSource } from '../server/media/web-video.js';
import { createThumbnailCache, type ThumbnailCache, type ThumbnailSource } from '../server/media/thumbnails.js';
import { parseRelativePath } from '../server/core/paths.js';
import { MediaStats } from '../server/public/pages/media-stats.js';
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
  const selected = (albumPath: string) => prefixes.length === 0 || prefixes.some((p) => albumPath === p || albumPath.startsWith(`${p}/`));

  // Warnings (an album.json that cannot be read, a cache file that cannot be written) join the
  // progress on stderr; stdout keeps the summary alone. Failed files are listed in the summary.
  const log = createLogger({ destination: process.stderr, level: 'warn' });
  let index: AlbumIndex;
  try {
    index = await AlbumIndex.open({ albumsDir: config.albumsDir, watch: false, log });
  } catch (err) {
    console.error(`cannot read the albums directory ${config.albumsDir}: ${(err as Error).message}`);
    return 1;
  }
  const albums = [...index.albums()].filter((a) => selected(a.path));
  const unmatched = prefixes.filter((p) => !albums.some((a) => a.path === p || a.path.startsWith(`${p}/`)));
  if (unmatched.length > 0) {
    index.close();
    console.error(`no album at or below: ${unmatched.join(', ')}\n${USAGE}`);
    return 2;
  }

  // One worker per core, each kept busy: twice as many tasks out as workers, so the queue is
  // never empty and never full.
  const inFlight = config.workers * 2;
  const pool = createMediaPool({
    workers: config.workers,
    maxQueue: inFlight * 2,
    // Nobody visits: the cover crops and the Live Photos' identifiers, background work of the
    // server, start at once.
    backgroundDelayMs: 0,
    log: createLogger({ level: 'silent' }),
  });
  // The gallery's symlink rule: a link it would not follow (to an album.json, a FIFO, outside
  // the tree...) is not read here either.
  const locate = createMediaLocator(index, config.albumsDir);
  const cache = createThumbnailCache({ cacheDir: config.cacheDir, pool });
  const webVideos = createWebVideoService({ cacheDir: config.cacheDir, pool, metadata: createMetadataService({ pool }), log });
  const stats = new MediaStats(locate);
  // The same parts as server/gallery.ts wires for its preparation, but the web copies of videos
  // are made in step 3, one at a time, not as their probes find them.
  const facts = new DimensionsCache({ locate: (node, item) => stats.of(node, item), cacheDir: config.cacheDir, reader: pool, concurrency: inFlight, log });
  const livePhotoIds = createLivePhotoIds({ index, albumsDir: config.albumsDir, facts, pool, log });
  const coverFocus = createCoverFocus({ cacheDir: config.cacheDir, pool, log });
  // The ZIP's CRCs, as the server's preparation computes them: a server started after finds them all.
  const crcs = SERVED_CRCS_SUPPORTED ? createServedCrcs({ records: facts.records, pool }) : undefined;

  const files = albums.flatMap((album) => [...filesOf(album.media)].map((item) => ({ album, item, relPath: `${album.path}/${item.name}`, kind: item.kind })));
  console.log(`Preparing ${files.length} media files in ${albums.length} albums → ${thumbnailRoot(config.cacheDir)} (${config.workers} workers)`);

  const madeWhilePreparing = new Set<string>();
  const failures: Failure[] = [];
  const skipped: string[] = [];
  const copies = { made: 0, fresh: 0, none: 0, failures: [] as Failure[] };
  let generated = 0;
  let fresh = 0;
  let notPrepared: string[] = [];
  let preparedFiles = 0;
  let prepareSeconds = 0;
  const started = Date.now();
  try {
    // Pairs first: a Live Photo's movie is prepared as a movie, not as a video with a tile of its own.
    await livePhotoIds.idle();
    const prepared = await prepare(albums, files.length, {
      index,
      albumsDir: config.albumsDir,
      cacheDir: config.cacheDir,
      dimensions: facts,
      thumbnails: recordingMade(cache, madeWhilePreparing),
      locate,
      coverFocus,
      crcs,
      log,
      concurrency: inFlight,
      priority: 'grid',
      albums: selected,
    });
    // The crops were asked as each album ended; they are kept once worked out.
    await coverFocus.settled();
    await facts.flush();
    notPrepared = prepared.notPrepared;
    preparedFiles = prepared.files;
    prepareSeconds = (Date.now() - started) / 1000;

    const rest = new Progress(files.length, 'other sizes ');
    const videos: WebVideoSource[] = [];
    const queue = files.slice();
    const feed = async () => {
      for (let file = queue.shift(); file; file = queue.shift()) {
        try {
          const where = await locate(file.album, file.item);
          const source: ThumbnailSource | undefined = where && { relPath: file.relPath, kind: file.kind, absPath: where.absPath, rotation: where.rotation };
          if (!source) skipped.push(file.relPath);
          else if ((await cache.refresh(source)) === 'generated' || madeWhilePreparing.has(file.relPath)) generated++;
          else fresh++;
          if (source?.kind === 'video') videos.push(source);
        } catch (err) {
          failures.push({ relPath: file.relPath, message: describe(err) });
        }
        rest.tick();
      }
    };
    await Promise.all(Array.from({ length: Math.min(inFlight, files.length) }, feed));
    rest.done();

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
    await coverFocus.close();
    await livePhotoIds.close();
    await facts.close();
    await pool.close();
    index.close();
  }

  const notPreparedNote = notPrepared.length > 0 ? `; ${notPrepared.length} left to another process preparing them` : '';
  console.log(
    `Albums prepared: ${albums.length - notPrepared.length} of ${albums.length} (${preparedFiles} files newly prepared${notPreparedNote}) in ${formatDuration(prepareSeconds)}`,
  );
  if (notPrepared.length > 0) console.log(`Not prepared:\n${notPrepared.map((p) => `  ${p}`).join('\n')}`);
  const skippedNote = skipped.length > 0 ? `, ${skipped.length} skipped (gone, or symlinks the gallery does not follow)` : '';
  console.log(
    `Thumbnails: ${generated} generated, ${fresh} already fresh, ${failures.length} failed${skippedNote} in ${formatDuration((Date.now() - started) / 1000)}`,
  );
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

type PreparerOptions = Parameters<typeof createPreparer>[0];

/**
 * Step 1: the server's preparation of `albums`, with a bar over their files, until nothing
 * waits. Resolves with the albums it did not prepare (another process holds them) and how many
 * files it made ready.
 */
async function prepare(albums: readonly Album[], total: number, options: PreparerOptions): Promise<{ notPrepared: string[]; files: number }> {
  const preparer = createPreparer(options);
  const sizeOf = new Map(albums.map((a) => [a.path, [...filesOf(a.media)].length]));
  const bar = new Progress(total, 'prepare ');
  let finished = 0;
  const done = new Set<string>();
  preparer.onPrepared((albumPath) => {
    if (done.has(albumPath)) return;
    done.add(albumPath);
    finished += sizeOf.get(albumPath) ?? 0;
  });
  const redraw = setInterval(() => {
    const { current } = preparer.progress();
    bar.set(finished + (current && !done.has(current.path) ? current.done : 0));
  }, bar.interval);
  try {
    await preparer.idle();
    bar.set(finished);
    return { notPrepared: albums.filter((a) => !preparer.isPrepared(a.path)).map((a) => a.path), files: preparer.progress().filesPrepared };
  } finally {
    clearInterval(redraw);
    bar.done();
    await preparer.close();
  }
}

/** The cache the preparer is given, noting which files it made something for (counted as generated in the summary). */
function recordingMade(cache: ThumbnailCache, made: Set<string>): Pick<ThumbnailCache, 'prepare'> {
  return {
    async prepare(source, sizes, priority) {
      const outcome = await cache.prepare(source, sizes, priority);
      if (outcome === 'generated') made.add(source.relPath);
      return outcome;
    },
  };
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

  /** How often the bar is redrawn at most, in milliseconds. */
  get interval(): number {
    return this.#tty ? 100 : 2000;
  }

  tick(): void {
    this.set(this.#count + 1);
  }

  /** Moves the bar to `count` done. */
  set(count: number): void {
    if (count === this.#count) return;
    this.#count = count;
    const now = Date.now();
    if (now - this.#lastDraw >= this.interval || this.#count === this.#total) {
      this.#lastDraw = now;
      this.#draw();
    }
  }

  /** Ends the bar's line; once, however often it is called. */
  done(): void {
    if (this.#tty && this.#total > 0 && !this.#finished) process.stderr.write('\n');
    this.#finished = true;
  }

  #draw(): void {
    const elapsed = (Date.now() - this.#start) / 1000;
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
