// The time left of a password lockout as the form shows it: '14 min 5 s', '14 min', '42 s'.
// server/public/pages/lockout-notice.ts renders the first value with the same rule (a test
// holds both to it).

/**
 * @param {number} seconds
 * @returns {string}
 */
export function formatWait(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  const m = Math.floor(s / 60);
  const rest = s % 60;
  if (m === 0) return `${rest} s`;
  return rest === 0 ? `${m} min` : `${m} min ${rest} s`;
}
