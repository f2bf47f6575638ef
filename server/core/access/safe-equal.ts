import crypto from 'node:crypto';

/**
 * Compares two secrets in time that depends on neither their content nor the position of the
 * first difference. Both are hashed first so `timingSafeEqual` always sees equal lengths;
 * a length difference is still a mismatch (passwords and tokens are compared in constant time).
 */
export function safeEqual(a: string, b: string): boolean {
  const ha = crypto.createHash('sha256').update(a, 'utf8').digest();
  const hb = crypto.createHash('sha256').update(b, 'utf8').digest();
  const sameHash = crypto.timingSafeEqual(ha, hb);
  return sameHash && Buffer.byteLength(a) === Buffer.byteLength(b);
}
