import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { createMediaPool, type MediaPool, PoolBusyError, TaskCancelledError } from '../../server/media/pool.js';
import { quietLogger } from '../support/capture-logger.js';
import { eventually } from '../support/gallery-fixture.js';
import { writeJpeg } from '../support/media-fixtures.js';
import { makeTempDir, removeTempDir } from '../support/temp-dir.js';

/**
 * The queue in front of each lane of the pool (server/media/priority-lane.ts). The only
 * worker is held by a video probe of a FIFO nobody writes to yet (image tasks refuse FIFOs,
 * so only a video task can wait on one); what queues behind it then runs in the queue's
 * order once the FIFO is written and closed.
 */
describe('media pool priorities and cancellation', function () {
  this.timeout(30_000);
  let dir: string;
  let jpeg: string;
  let fifo: string;
  let pool: MediaPool;
  let blocker: Promise<unknown> | undefined;

  before(async function () {
    dir = makeTempDir('pool-priority-');
    jpeg = path.join(dir, 'photo.jpg');
    await writeJpeg(jpeg, 300, 200);
  });
  after(() => removeTempDir(dir));

  /** A pool of one worker, held until release(). */
  async function heldPool(opts: { maxQueue?: number; maxBackgroundQueue?: number; backgroundDelayMs?: number } = {}): Promise<MediaPool> {
    pool = createMediaPool({
      workers: 1,
      maxQueue: opts.maxQueue ?? 100,
      maxBackgroundQueue: opts.maxBackgroundQueue,
      backgroundDelayMs: opts.backgroundDelayMs ?? 0,
      // A view task that waited past the limit behind grid work gets a worker (tested in
      // priority-lane.test.ts): holding and releasing the worker took longer than that on a
      // loaded machine, and the order of these tests is not about it.
      maxViewWaitMs: 600_000,
      log: quietLogger,
    });
    fifo = path.join(dir, `hold-${Date.now()}.fifo`);
    execFileSync('mkfifo', [fifo]);
    blocker = pool.videoInfo({ src: fifo }, { priority: 'grid' }).catch(() => undefined);
    await eventually(() => pool.tasksRun === 1, 5000, 'the worker to take the holding task');
    return pool;
  }

  /** Lets the holding probe read end-of-file: it fails, and the worker takes the next task. */
  async function release(): Promise<void> {
    if (!fs.existsSync(fifo)) return;
    // This open waits for ffprobe to open the read end; the path is gone before anything else can open it.
    const writer = fs.openSync(fifo, 'w');
    fs.rmSync(fifo);
    fs.closeSync(writer);
    await blocker;
  }

  afterEach(async function () {
    await release();
    await pool?.close();
  });

  it('should run grid work first, then view work, then background work, each in arrival order', async function () {
    await heldPool();
    const order: string[] = [];
    const task = (name: string, priority: 'grid' | 'view' | 'background') =>
      pool.dimensions({ src: jpeg, kind: 'image' }, { priority }).then(() => order.push(name));
    const all = [
      task('background 1', 'background'),
      task('background 2', 'background'),
      task('view 1', 'view'),
      task('grid 1', 'grid'),
      task('view 2', 'view'),
      task('grid 2', 'grid'),
    ];
    expect(pool.queueSize).to.equal(6);
    await release();
    await Promise.all(all);
    expect(order).to.deep.equal(['grid 1', 'grid 2', 'view 1', 'view 2', 'background 1', 'background 2']);
  });

  it("should run an EXIF read (quick) before the grid's queue, which it delays by a few milliseconds only", async function () {
    await heldPool();
    const order: string[] = [];
    const grid = [1, 2, 3].map((i) => pool.dimensions({ src: jpeg, kind: 'image' }, { priority: 'grid' }).then(() => order.push(`grid ${i}`)));
    const exif = pool.exif({ src: jpeg }).then(() => order.push('exif'));
    await release();
    await Promise.all([...grid, exif]);
    expect(order).to.deep.equal(['exif', 'grid 1', 'grid 2', 'grid 3']);
  });

  it('should move a waiting background task up when someone now waits for it', async function () {
    await heldPool();
    const order: string[] = [];
    const later = pool.submit('dimensions', { src: jpeg, kind: 'image' }, { priority: 'background' });
    const view = pool.dimensions({ src: jpeg, kind: 'image' }, { priority: 'view' }).then(() => order.push('view'));
    later.raise('grid');
    later.raise('background'); // never down
    const raised = later.result.then(() => order.push('raised'));
    await release();
    await Promise.all([view, raised]);
    expect(order).to.deep.equal(['raised', 'view']);
  });

  it('should drop a waiting task whose signal aborts, and never run it', async function () {
    await heldPool();
    const abort = new AbortController();
    const dropped = pool.exif({ src: jpeg }, { signal: abort.signal }).then(
      () => 'ran',
      (err: unknown) => err,
    );
    const kept = pool.exif({ src: jpeg });
    expect(pool.queueSize).to.equal(2);
    abort.abort();
    expect(await dropped).to.be.instanceOf(TaskCancelledError);
    expect(pool.queueSize).to.equal(1);
    expect(pool.tasksCancelled).to.equal(1);
    await release();
    expect((await kept).ImageWidth).to.equal(300);
    // The holding task and the kept one: the dropped one never reached a worker.
    expect(pool.tasksRun).to.equal(2);
  });

  it('should let a started task finish whatever its signal says', async function () {
    pool = createMediaPool({ workers: 1, maxQueue: 1, log: quietLogger });
    const abort = new AbortController();
    const running = pool.dimensions({ src: jpeg, kind: 'image' }, { signal: abort.signal });
    await eventually(() => pool.tasksRun === 1, 5000, 'the task to start');
    abort.abort();
    expect(await running).to.deep.include({ width: 300, height: 200 });
    expect(pool.tasksCancelled).to.equal(0);
  });

  it('should refuse a task already cancelled without queueing it', async function () {
    pool = createMediaPool({ workers: 1, maxQueue: 1, log: quietLogger });
    const err = await pool.exif({ src: jpeg }, { signal: AbortSignal.abort() }).catch((e: unknown) => e);
    expect(err).to.be.instanceOf(TaskCancelledError);
    expect(pool.tasksRun).to.equal(0);
  });

  it("should bound visitors' and background work apart, refusing past each bound", async function () {
    await heldPool({ maxQueue: 2, maxBackgroundQueue: 1 });
    const outcome = (p: Promise<unknown>) =>
      p.then(
        () => 'ok',
        (err: unknown) => (err instanceof PoolBusyError ? 'busy' : String(err)),
      );
    const grid = [1, 2, 3].map(() => outcome(pool.dimensions({ src: jpeg, kind: 'image' }, { priority: 'grid' })));
    const background = [1, 2].map(() => outcome(pool.dimensions({ src: jpeg, kind: 'image' }, { priority: 'background' })));
    // The refused ones fail at once; the full background queue refuses nothing of the visitors'.
    expect(await grid[2]).to.equal('busy');
    expect(await background[1]).to.equal('busy');
    expect(pool.queueSize).to.equal(3);
    await release();
    expect(await Promise.all([grid[0], grid[1], background[0]])).to.deep.equal(['ok', 'ok', 'ok']);
  });

  it('should start background work only after the lane has been quiet for a moment', async function () {
    pool = createMediaPool({ workers: 1, maxQueue: 10, backgroundDelayMs: 400, log: quietLogger });
    await pool.dimensions({ src: jpeg, kind: 'image' }, { priority: 'grid' });
    const visitorDone = Date.now();
    const started = pool.tasksRun;
    let doneAt = 0;
    const background = pool.dimensions({ src: jpeg, kind: 'image' }, { priority: 'background' }).then(() => {
      doneAt = Date.now();
    });
    await new Promise((r) => setTimeout(r, 150));
    expect(pool.tasksRun, 'still waiting for quiet').to.equal(started);
    await background;
    expect(doneAt - visitorDone).to.be.at.least(350);
  });

  it('should refuse what waits when the pool closes', async function () {
    await heldPool();
    const waiting = pool.exif({ src: jpeg }).catch((e: unknown) => e);
    const closed = pool.close();
    expect(await waiting).to.be.instanceOf(PoolBusyError);
    await release();
    await closed;
  });
});
