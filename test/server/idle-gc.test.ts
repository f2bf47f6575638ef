import { expect } from 'chai';
import { collectWhenQuiet } from '../../server/core/idle-gc.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('collectWhenQuiet', () => {
  it('should collect a quiet time after the last request of a busy spell, and once more as long after', async () => {
    let collections = 0;
    const quiet = collectWhenQuiet(200, () => collections++);
    for (let i = 0; i < 5; i++) {
      quiet.touch();
      await sleep(60);
    }
    expect(collections, 'never while requests keep coming').to.equal(0);
    await sleep(250);
    expect(collections).to.equal(1);
    await sleep(200);
    expect(collections).to.equal(2);
    await sleep(500);
    expect(collections, 'an idle server pays nothing more').to.equal(2);
  });

  it('should start again from nothing when a request comes between the two collections', async () => {
    let collections = 0;
    const quiet = collectWhenQuiet(200, () => collections++);
    quiet.touch();
    await sleep(250);
    expect(collections).to.equal(1);
    quiet.touch();
    await sleep(100);
    expect(collections, 'the second waits for a new quiet time').to.equal(1);
    await sleep(150);
    expect(collections).to.equal(2);
    await sleep(250);
    expect(collections).to.equal(3);
  });

  it('should reach the full collection of V8 without --expose-gc on the command line', async () => {
    const quiet = collectWhenQuiet(10);
    quiet.touch();
    await sleep(50);
  });
});
