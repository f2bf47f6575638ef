import { expect } from 'chai';
import { PriorityLane, type PriorityLaneLimits, type TaskPriority } from '../../server/media/priority-lane.js';

/**
 * The lane's order when view work has waited too long behind grid work
 * (server/media/priority-lane.ts). Tasks here are plain promises the test settles one by
 * one, so the order the lane starts them in is the whole observation.
 */
/** A lane of plain tasks the test ends itself, and the order it started them in. */
function laneWith(limits: Partial<PriorityLaneLimits>) {
  const lane = new PriorityLane({ workers: 1, maxQueue: 100, maxBackgroundQueue: 10, backgroundDelayMs: 0, ...limits });
  const started: string[] = [];
  const finishers: (() => void)[] = [];
  const submit = (name: string, priority: TaskPriority) =>
    lane.submit(priority, () => {
      started.push(name);
      return new Promise<void>((resolve) => finishers.push(resolve));
    }).result;
  /** Ends the first running task (or every one) and lets the lane start the next. */
  const finish = async (all = false) => {
    for (const done of all ? finishers.splice(0) : finishers.splice(0, 1)) done();
    await new Promise((r) => setImmediate(r));
  };
  return { started, submit, finishOne: () => finish(), finishAll: () => finish(true), lane };
}

describe('priority lane: a viewer is not starved by a crowd of tiles', function () {
  async function runAll(t: ReturnType<typeof laneWith>, count: number) {
    for (let i = 0; i < count; i++) await t.finishOne();
  }

  it('keeps grid work first while view work has not waited past the limit', async function () {
    const t = laneWith({ maxViewWaitMs: 60_000 });
    const all = [t.submit('holder', 'grid'), t.submit('grid 1', 'grid'), t.submit('view 1', 'view'), t.submit('grid 2', 'grid'), t.submit('grid 3', 'grid')];
    await runAll(t, 5);
    await Promise.all(all);
    expect(t.started).to.deep.equal(['holder', 'grid 1', 'grid 2', 'grid 3', 'view 1']);
  });

  it('gives overdue view work every other worker, never two in a row while grid work waits', async function () {
    const t = laneWith({ maxViewWaitMs: 0 });
    const all = [
      t.submit('holder', 'grid'),
      t.submit('grid 1', 'grid'),
      t.submit('grid 2', 'grid'),
      t.submit('grid 3', 'grid'),
      t.submit('view 1', 'view'),
      t.submit('view 2', 'view'),
      t.submit('view 3', 'view'),
    ];
    await runAll(t, 7);
    await Promise.all(all);
    expect(t.started).to.deep.equal(['holder', 'view 1', 'grid 1', 'view 2', 'grid 2', 'view 3', 'grid 3']);
  });

  it('still puts quick work ahead of everything', async function () {
    const t = laneWith({ maxViewWaitMs: 0 });
    const all = [t.submit('holder', 'grid'), t.submit('grid 1', 'grid'), t.submit('view 1', 'view'), t.submit('quick 1', 'quick')];
    await runAll(t, 4);
    await Promise.all(all);
    expect(t.started).to.deep.equal(['holder', 'quick 1', 'view 1', 'grid 1']);
  });

  it('counts a raised task from its raise, not from when it was queued as background work', async function () {
    const t = laneWith({ maxViewWaitMs: 200 });
    const holder = t.submit('holder', 'grid');
    const bg = t.lane.submit('background', () => {
      t.started.push('raised');
      return Promise.resolve();
    });
    await new Promise((r) => setTimeout(r, 300));
    bg.raise('view');
    const grids = [t.submit('grid 1', 'grid'), t.submit('grid 2', 'grid')];
    await t.finishOne();
    // Raised just now: not overdue, so the grid goes first.
    expect(t.started).to.deep.equal(['holder', 'grid 1']);
    await runAll(t, 2);
    await Promise.all([holder, bg.result, ...grids]);
    expect(t.started).to.deep.equal(['holder', 'grid 1', 'grid 2', 'raised']);
  });
});

describe('priority lane: background work and the last free worker', function () {
  const twoWorkers = () => laneWith({ workers: 2, allWorkersQuietMs: 300 });
  const tick = () => new Promise((r) => setImmediate(r));

  it('takes every worker when no visitor ever came', async function () {
    const t = twoWorkers();
    const all = [t.submit('bg 1', 'background'), t.submit('bg 2', 'background')];
    await tick();
    expect(t.started).to.deep.equal(['bg 1', 'bg 2']);
    await t.finishAll();
    await Promise.all(all);
  });

  it('keeps a worker free while a visitor came lately, and takes it after the quiet span', async function () {
    const t = twoWorkers();
    const visitor = t.submit('visitor', 'grid');
    await t.finishAll();
    await visitor;
    const all = [t.submit('bg 1', 'background'), t.submit('bg 2', 'background')];
    await tick();
    expect(t.started, 'one worker left free').to.deep.equal(['visitor', 'bg 1']);
    // A visitor arriving now starts at once, on the worker kept free.
    const second = t.submit('visitor 2', 'grid');
    await tick();
    expect(t.started).to.deep.equal(['visitor', 'bg 1', 'visitor 2']);
    const secondEnded = performance.now();
    await t.finishAll();
    await second;
    // bg 1 ended with it; bg 2 starts on one worker, and nothing else may take the other.
    expect(t.started).to.deep.equal(['visitor', 'bg 1', 'visitor 2', 'bg 2']);
    const third = t.submit('bg 3', 'background');
    await tick();
    expect(t.started, 'still within the quiet span').to.have.length(4);
    while (t.started.length < 5) await new Promise((r) => setTimeout(r, 10));
    expect(performance.now() - secondEnded, 'the last worker taken after the quiet span').to.be.at.least(290);
    await t.finishAll();
    await Promise.all([...all, third]);
  });
});
