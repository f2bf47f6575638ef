/**
 * Albums prepared as they arrive (issue 27, server/media/preparer.ts), through the real server
 * process as bench/ starts it, its preparation on (PREPARE=on), each figure against a
 * baseline measured in the same run:
 *
 * - a new album of 300 24 MP JPEGs arrives in ALBUMS_DIR (the corpus's photo with a camera's
 *   EXIF preview, hard-linked): the time until the server's progress file says no album waits,
 *   against sharp making the same grid files directly on as many cores as the server's pool
 *   has, with as many threads; then its first
 *   visitor, in Chromium on a tablet: the page's TTFB, and every first-screen tile against a
 *   warm visit (each visit from an empty HTTP cache: only the server's warmth differs);
 * - a second such album arrives, and meanwhile other visitors ask the page of an album
 *   prepared before (wrk, 10 connections): its p99 against the same load with nothing to prepare;
 * - a phone's camera roll of 30 iPhone HEICs arrives: every first-screen tile once it is
 *   prepared, against a warm visit;
 * - the server is stopped and started again on the library it prepared: the media tasks the
 *   new process runs (files decoded again), from the line it logs when it stops.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PREPARED_SIZES } from '../../server/core/media-catalogue.js';
import { launchBrowser } from '../../test/support/browser.js';
import { load } from '../http-load.js';
import { type BenchRow, exactRow, limitRow, maxRatioRow } from '../rows.js';
import { type ServerProcess, startGallery } from '../server-process.js';
import { type BenchContext, fetchOk } from './context.js';
import { firstAndWarm, TABLET, type Visit, visit } from './first-visit.js';
import {
  arrive,
  cacheFiles,
  cameraPhoto,
  changedFiles,
  gridFilesDirectly,
  mediaTasksOf,
  progressOf,
  stageCameraRoll,
  stageLinkedAlbum,
  untilPrepared,
} from './prepare-steps.js';

const HEIC = path.join(import.meta.dirname, '..', '..', 'test', 'fixtures', 'heic', 'IMG_5195.HEIC');
const CONNECTIONS = 10;
/** Warm visits whose median is the baseline of a first one. */
const WARM_VISITS = 3;

const seconds = (ms: number) => ms / 1000;
const fixed = (n: number, digits = 1) => n.toFixed(digits);

export async function preparation(ctx: BenchContext): Promise<BenchRow[]> {
  const photos = ctx.smoke ? 6 : 300;
  const visitedPhotos = ctx.smoke ? 4 : 40;
  const heics = ctx.smoke ? 3 : 30;
  const workers = Number(ctx.serverEnv.WORKERS ?? os.availableParallelism());
  const { spec } = ctx.corpus;
  const mp = (spec.photo.width * spec.photo.height) / 1e6;
  const camera = await cameraPhoto(ctx.corpus.master);
  const master = camera ?? ctx.corpus.master;

  const root = path.join(ctx.runDir, 'prepare');
  const albumsDir = path.join(root, 'albums');
  const cacheDir = path.join(root, 'cache');
  const contentDir = path.join(root, 'content');
  const staging = path.join(root, 'staging');
  fs.mkdirSync(contentDir, { recursive: true });
  // The album other visitors look at, there from the start.
  stageLinkedAlbum(path.join(albumsDir, 'bench', 'visited'), 'Visited', master, visitedPhotos);

  const env = { ...ctx.serverEnv, PREPARE: 'on' };
  const start = (log: string) => startGallery({ albumsDir, cacheDir, contentDir, env, logFile: path.join(ctx.runDir, 'logs', log) });
  let server: ServerProcess | undefined = await start('prepare.log');
  const browser = await launchBrowser();
  try {
    let prepared = visitedPhotos;
    await untilPrepared(cacheDir, server.pid, prepared);
    const visitedUrl = `${server.url}/photos/bench/visited`;
    // Its page made and kept, the template compiled.
    for (let i = 0; i < 5; i++) await (await fetchOk(visitedUrl)).text();
    const loadSeconds = Math.max(ctx.loadSeconds, ctx.smoke ? 1 : 10);
    ctx.log(`prepare: album page of other visitors, ${loadSeconds} s with nothing to prepare`);
    const quiet = await load(visitedUrl, { seconds: loadSeconds, connections: CONNECTIONS });

    // A new album, then its first visitor.
    const names = stageLinkedAlbum(path.join(staging, 'new'), `${photos} new photos`, master, photos);
    ctx.log(`prepare: sharp making the grid files of ${photos} photos directly, ${workers} at a time`);
    const directBefore = await gridFilesDirectly(
      names.map((n) => path.join(staging, 'new', n)),
      path.join(root, 'direct'),
      workers,
    );
    ctx.log(`prepare: ${photos} photos arrive; waiting for the server to prepare them`);
    const arrivedAt = arrive(path.join(staging, 'new'), albumsDir, 'bench/new');
    prepared += photos;
    const newPrepared = await untilPrepared(cacheDir, server.pid, prepared);
    const prepareSeconds = seconds(newPrepared.at - arrivedAt);
    const factsSeconds = newPrepared.firstFileAt === undefined ? undefined : seconds(newPrepared.firstFileAt - arrivedAt);
    const directAfter = await gridFilesDirectly(
      names.map((n) => path.join(albumsDir, 'bench', 'new', n)),
      path.join(root, 'direct'),
      workers,
    );
    ctx.log(`prepare: ${fixed(prepareSeconds)} s; sharp directly ${fixed(directBefore)} s before, ${fixed(directAfter)} s after`);
    // The browser's own first time (its network stack, the page's scripts compiled) on a page measured by nobody.
    await visit(browser, visitedUrl);
    const newAlbum = await firstAndWarm(browser, `${server.url}/photos/bench/new`, WARM_VISITS);

    // Another new album, and other visitors meanwhile.
    stageLinkedAlbum(path.join(staging, 'more'), `${photos} more photos`, master, photos);
    arrive(path.join(staging, 'more'), albumsDir, 'bench/more');
    ctx.log(`prepare: ${photos} more photos arrive; album page of other visitors, ${loadSeconds} s meanwhile`);
    const busy = await load(visitedUrl, { seconds: loadSeconds, connections: CONNECTIONS });
    const stillPreparing = ((await progressOf(cacheDir, server.pid))?.albumsWaiting ?? 0) > 0;
    prepared += photos;
    await untilPrepared(cacheDir, server.pid, prepared);

    // A phone's camera roll.
    stageCameraRoll(path.join(staging, 'roll'), HEIC, heics);
    ctx.log(`prepare: ${heics} HEICs arrive`);
    const rollArrived = arrive(path.join(staging, 'roll'), albumsDir, 'bench/roll');
    prepared += heics;
    const rollSeconds = seconds((await untilPrepared(cacheDir, server.pid, prepared)).at - rollArrived);
    const roll = await firstAndWarm(browser, `${server.url}/photos/bench/roll`, WARM_VISITS);

    // A restart on the library now prepared.
    await server.stop();
    server = undefined;
    const firstLife = mediaTasksOf(path.join(ctx.runDir, 'logs', 'prepare.log'));
    const before = cacheFiles(cacheDir);
    ctx.log('prepare: restart on the prepared library');
    const again: ServerProcess = await start('prepare-restart.log');
    server = again;
    await untilPrepared(cacheDir, again.pid, 0);
    // What would follow the look at every album (a cover's crop, a Live Photo's identifier) has a moment to start.
    await new Promise((r) => setTimeout(r, 2000));
    await again.stop();
    server = undefined;
    const restartTasks = mediaTasksOf(path.join(ctx.runDir, 'logs', 'prepare-restart.log'));
    const written = changedFiles(before, cacheFiles(cacheDir));

    const albumName = `new ${photos}-photo album (${mp} MP camera JPEGs) copied in`;
    const visitNote = (v: { first: Visit; warm: Visit }) =>
      `${v.first.tiles} first-screen tiles at ${TABLET.name}; first visit's page TTFB ${fixed(v.first.ttfbMs)} ms, warm ${fixed(v.warm.ttfbMs)} ms; baseline: median of ${WARM_VISITS} warm visits, each from an empty HTTP cache${v.first.broken + v.warm.broken > 0 ? `; ${v.first.broken + v.warm.broken} tiles broken` : ''}`;
    const judged = (row: BenchRow, v: { first: Visit; warm: Visit }) => (v.first.broken + v.warm.broken > 0 ? { ...row, pass: false } : row);
    return [
      maxRatioRow(
        `${albumName}: time until prepared vs sharp making its grid files directly`,
        prepareSeconds,
        's',
        (directBefore + directAfter) / 2,
        1.2,
        `until the server's progress file said no album waits; ${camera ? "each photo with its camera's EXIF preview, the ThumbHash's source" : 'no EXIF preview (ExifTool not installed): every ThumbHash is decoded from the photo'}; sharp: ${fixed(directBefore)} s before, ${fixed(directAfter)} s after, ${workers} photos at a time (the worker's recipe: one decode, ${PREPARED_SIZES.grid.join(' and ')} as JPEG and WebP); the preparation also reads each photo's size and ThumbHash${factsSeconds === undefined ? '' : ` (the first file was done ${fixed(factsSeconds)} s after the arrival, ±2 s)`}, and makes the cover's card sizes`,
      ),
      limitRow(
        `${albumName}, after its preparation: first visitor's page TTFB`,
        newAlbum.first.ttfbMs,
        'ms',
        { max: 100 },
        newAlbum.warm.ttfbMs,
        'Chromium, Navigation Timing (responseStart − requestStart); baseline: warm visits',
      ),
      judged(
        maxRatioRow(
          `${albumName}, after its preparation: all first-screen tiles (Chromium, tablet), first visit vs warm`,
          newAlbum.first.tilesMs,
          'ms',
          newAlbum.warm.tilesMs,
          1.2,
          visitNote(newAlbum),
        ),
        newAlbum,
      ),
      judged(
        maxRatioRow(
          `${heics}-HEIC camera roll copied in, after its preparation: all first-screen tiles, first visit vs warm`,
          roll.first.tilesMs,
          'ms',
          roll.warm.tilesMs,
          1.2,
          `prepared in ${fixed(rollSeconds)} s (real iPhone HEIC, copied ${heics} times); ${visitNote(roll)}`,
        ),
        roll,
      ),
      {
        ...limitRow(
          `album page p99 of other visitors while a ${photos}-photo album is prepared (${CONNECTIONS} connections)`,
          busy.p99Ms,
          'ms',
          { max: 300 },
          quiet.p99Ms,
          `${busy.tool}, ${loadSeconds} s from the album's arrival${stillPreparing ? ', its preparation still under way at the end' : ', its preparation over before the load was'}; p50 ${fixed(busy.p50Ms)} ms, ${Math.round(busy.rps)} req/s; baseline: the same load with nothing to prepare (p50 ${fixed(quiet.p50Ms)} ms, ${Math.round(quiet.rps)} req/s)${busy.errors + quiet.errors > 0 ? `; ${busy.errors + quiet.errors} errors` : ''}`,
        ),
        ...(busy.errors + quiet.errors > 0 ? { pass: false } : {}),
      },
      exactRow(
        'a restart on a prepared library: files decoded again (media tasks run)',
        restartTasks,
        'tasks',
        0,
        `the restarted server's own count, logged as it stopped 2 s after its preparation said no album waits; ${written.length} cache files written; its first life ran ${firstLife} tasks`,
      ),
    ];
  } finally {
    await browser.close();
    await server?.stop();
  }
}
