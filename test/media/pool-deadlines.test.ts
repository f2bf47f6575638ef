import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { createMediaPool, type MediaPool, MediaTaskError } from '../../server/media/pool.js';
import { eventually } from '../support/gallery-fixture.js';
import { writeJpeg } from '../support/media-fixtures.js';
import { makeTempDir, removeTempDir } from '../support/temp-dir.js';
import { quietLogger } from '../support/capture-logger.js';

/** Processes whose command line mentions `needle`, among this process's children. */
function childrenMentioning(needle: string): number[] {
  const pids: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === process.pid && fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(needle)) pids.push(Number(entry));
    } catch {
      // Gone while we looked.
    }
  }
  return pids;
}

/**
 * A reader of a FIFO blocks in open() until a writer comes: the stand-in for a hung network
 * mount. Opening the write end releases whatever is still blocked on it.
 */
function releaseFifo(fifo: string): void {
  try {
    fs.closeSync(fs.openSync(fifo, fs.constants.O_WRONLY | fs.constants.O_NONBLOCK));
  } catch {
    // No reader left (ENXIO): nothing to release.
  }
}

describe('media pool deadlines', function () {
  this.timeout(30_000);
  const DEADLINE_MS = 800;
  let dir: string;
  let fifo: string;
  let jpeg: string;
  let pool: MediaPool;

  before(async function () {
    dir = makeTempDir('pool-deadlines-');
    fifo = path.join(dir, 'stuck.jpg');
    execFileSync('mkfifo', [fifo]);
    jpeg = path.join(dir, 'plain.jpg');
    await writeJpeg(jpeg, 300, 200);
  });

  beforeEach(function () {
    pool = createMediaPool({
      workers: 1,
      maxQueue: 4,
      log: quietLogger,
      deadlines: { exif: DEADLINE_MS, imageDimensions: DEADLINE_MS, videoInfo: DEADLINE_MS, videoDimensions: DEADLINE_MS },
    });
  });

  afterEach(async function () {
    releaseFifo(fifo);
    await pool.close();
  });

  after(function () {
    removeTempDir(dir);
  });

  it('should refuse a deadline that is not a positive number', function () {
    expect(() => createMediaPool({ workers: 1, maxQueue: 1, deadlines: { exif: 0 }, log: quietLogger })).to.throw(RangeError, /deadlines\.exif/);
  });

  it('should end a task past its deadline with a MediaTaskError and replace the worker', async function () {
    const started = Date.now();
    const err = await pool.videoInfo({ src: fifo }).then(
      () => expect.fail('a probe of a FIFO nobody writes cannot succeed'),
      (e: unknown) => e,
    );
    expect(Date.now() - started).to.be.within(DEADLINE_MS, DEADLINE_MS + 5000);
    expect(err).to.be.instanceOf(MediaTaskError);
    // ffprobe's own time limit (a little inside the deadline) or the deadline itself ends it.
    expect((err as MediaTaskError).task).to.equal('videoInfo');
    // The only worker was ended; a new one takes the next task.
    expect((await pool.exif({ src: jpeg })).ImageWidth).to.equal(300);
    expect(await pool.dimensions({ src: jpeg, kind: 'image' })).to.include({ width: 300, height: 200 });
  });

  it('should not count the time a task waits for a worker', async function () {
    const stuck = pool.dimensions({ src: fifo, kind: 'video' }).catch((e: unknown) => e);
    // Queued behind the stuck task for about its whole deadline: still given a full one of its own.
    const record = pool.exif({ src: jpeg });
    const size = pool.dimensions({ src: jpeg, kind: 'image' });
    expect(await stuck).to.be.instanceOf(MediaTaskError);
    expect((await record).ImageWidth).to.equal(300);
    expect(await size).to.include({ width: 300, height: 200 });
  });

  it('should refuse an image task on a FIFO at once, never opening it', async function () {
    for (const task of [pool.exif({ src: fifo }), pool.dimensions({ src: fifo, kind: 'image' })]) {
      const err = await task.catch((e: unknown) => e);
      expect(err).to.be.instanceOf(MediaTaskError);
      // Refused by the worker itself, not ended by the deadline (a busy machine makes time a poor witness).
      expect((err as MediaTaskError).timedOut).to.equal(false);
    }
  });

  it('should kill the ffprobe of a video task at its deadline', async function () {
    const err = await pool.videoInfo({ src: fifo }).catch((e: unknown) => e);
    expect(err).to.be.instanceOf(MediaTaskError);
    expect(await eventually(() => childrenMentioning(fifo).length === 0, 3000, 'no ffprobe left on the FIFO')).to.equal(undefined);
    expect((await pool.exif({ src: jpeg })).ImageHeight).to.equal(200);
  });
});
