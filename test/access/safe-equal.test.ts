import crypto from 'node:crypto';
import { expect } from 'chai';
import { safeEqual } from '../../server/core/access/safe-equal.js';

describe('safeEqual', () => {
  it('should accept equal strings, including non-ASCII ones', () => {
    expect(safeEqual('open-sesame', 'open-sesame')).to.equal(true);
    expect(safeEqual('pässwörd', 'pässwörd')).to.equal(true);
    expect(safeEqual('', '')).to.equal(true);
  });

  it('should be case-sensitive', () => {
    expect(safeEqual('Secret', 'secret')).to.equal(false);
  });

  it('should reject strings of different lengths without throwing', () => {
    expect(safeEqual('abc', 'abcd')).to.equal(false);
    expect(safeEqual('abcd', 'abc')).to.equal(false);
    expect(safeEqual('', 'x')).to.equal(false);
    expect(safeEqual('a'.repeat(10_000), 'a')).to.equal(false);
  });

  it('should compare through crypto.timingSafeEqual', () => {
    const original = crypto.timingSafeEqual;
    let calls = 0;
    // Observe (not replace) the comparison: the real function still decides.
    (crypto as { timingSafeEqual: typeof original }).timingSafeEqual = (a, b) => {
      calls++;
      return original(a, b);
    };
    try {
      safeEqual('short', 'a much longer string');
      safeEqual('same', 'same');
    } finally {
      (crypto as { timingSafeEqual: typeof original }).timingSafeEqual = original;
    }
    expect(calls).to.equal(2);
  });
});
