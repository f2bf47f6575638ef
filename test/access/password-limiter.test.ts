import { expect } from 'chai';
import { LOCKOUT_MS, LockoutStore, MAX_FAILED_ATTEMPTS } from '../../server/public/access/password-limiter.js';

describe('LockoutStore', () => {
  let clock: number;
  const now = () => clock;
  beforeEach(() => {
    clock = 1_000_000;
  });

  describe('with clients that never come back', () => {
    it('should sweep their expired failures as other attempts come in', async () => {
      const store = new LockoutStore(now);
      for (let i = 0; i < 100; i++) await store.increment(`10.0.0.${i}`);
      expect(store.size).to.equal(100);
      clock += LOCKOUT_MS;
      await store.increment('192.0.2.1');
      expect(store.size).to.equal(1);
    });

    it('should sweep their ended lockouts', async () => {
      const store = new LockoutStore(now);
      for (let i = 0; i < MAX_FAILED_ATTEMPTS; i++) await store.increment('10.0.0.1');
      expect((await store.get('10.0.0.1'))?.totalHits).to.equal(MAX_FAILED_ATTEMPTS);
      clock += LOCKOUT_MS + 1;
      await store.increment('192.0.2.1');
      expect(store.size).to.equal(1);
    });

    it('should keep what has not expired yet', async () => {
      const store = new LockoutStore(now);
      await store.increment('10.0.0.1');
      clock += LOCKOUT_MS - 1;
      await store.increment('10.0.0.2');
      expect(store.size).to.equal(2);
      expect((await store.get('10.0.0.1'))?.totalHits).to.equal(1);
    });
  });

  describe('when full', () => {
    it('should forget the client seen least recently, keeping the others', async () => {
      const store = new LockoutStore(now, 3);
      await store.increment('a');
      await store.increment('b');
      await store.increment('c');
      await store.increment('a');
      await store.increment('d');
      expect(store.size).to.equal(3);
      expect(await store.get('b')).to.equal(undefined);
      expect((await store.get('a'))?.totalHits).to.equal(2);
      expect((await store.get('c'))?.totalHits).to.equal(1);
      expect((await store.get('d'))?.totalHits).to.equal(1);
    });

    it('should never hold more than its bound under a flood of new clients', async () => {
      const store = new LockoutStore(now, 1000);
      for (let i = 0; i < 5000; i++) await store.increment(`2001:db8:${i.toString(16)}::`);
      expect(store.size).to.equal(1000);
    });
  });
});
