import { expect } from 'chai';
import { KeyedQueue } from '../../server/admin/keyed-queue.js';

const tick = () => new Promise((resolve) => setTimeout(resolve, 1));

describe('KeyedQueue', () => {
  it('should run tasks of one key one after another, in order', async () => {
    const queue = new KeyedQueue();
    const log: string[] = [];
    const task = (name: string) => async () => {
      log.push(`start ${name}`);
      await tick();
      log.push(`end ${name}`);
      return name;
    };
    const results = await Promise.all([queue.run('k', task('a')), queue.run('k', task('b')), queue.run('k', task('c'))]);
    expect(results).to.deep.equal(['a', 'b', 'c']);
    expect(log).to.deep.equal(['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
  });

  it('should run tasks of different keys side by side', async () => {
    const queue = new KeyedQueue();
    const log: string[] = [];
    const task = (name: string) => async () => {
      log.push(`start ${name}`);
      await tick();
      log.push(`end ${name}`);
    };
    await Promise.all([queue.run('x', task('x')), queue.run('y', task('y'))]);
    expect(log.slice(0, 2)).to.deep.equal(['start x', 'start y']);
  });

  it('should go on after a failed task, and forget idle keys', async () => {
    const queue = new KeyedQueue();
    const failed = queue.run('k', async () => {
      throw new Error('boom');
    });
    const next = queue.run('k', async () => 'ok');
    let caught: unknown;
    try {
      await failed;
    } catch (err) {
      caught = err;
    }
    expect((caught as Error).message).to.equal('boom');
    expect(await next).to.equal('ok');
    await tick();
    expect(queue.size).to.equal(0);
  });
});
