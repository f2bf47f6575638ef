import { expect } from 'chai';
import { collectWhenQuiet } from '../../server/idle-gc.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('collectWhenQuiet', () => {
  it('should collect once, a quiet time after the last request of a busy spell', async () => {
    let collections = 0;
    const quiet = collectWhenQuiet(200, () => collections++);
    for (let i = 0; i < 5; i++) {
      quiet.touch();
      await sleep(60);
    }
    expect(collections, 'never while requests keep coming').to.equal(0);
    await sleep(300);
    expect(collections).to.equal(1);
    await sleep(300);
    expect(collections, 'an idle server pays nothing more').to.equal(1);
  });

  it('should reach the full collection of V8 without --expose-gc on the command line', async () => {
    const quiet = collectWhenQuiet(10);
    quiet.touch();
    await sleep(50);
  });
});
