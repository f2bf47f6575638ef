// The time left of a password lockout as the form shows it: '14 min 5 s', '14 min', '42 s',
// in the page's language. server/public/pages/lockout-notice.ts renders the first value with
// this module too, and views/assets/locked.js counts it down.

/**
 * @param {number} seconds
 * @param {(key: string, vars?: Record<string, unknown>) => string} t the catalogue's `client`
 *   strings (views/assets/strings.js in the browser)
 * @returns {string}
 */
export function formatWait(seconds, t) {
  const s = Math.max(0, Math.ceil(seconds));
  const minutes = Math.floor(s / 60);
  const rest = s % 60;
  if (minutes === 0) return t('wait.seconds', { seconds: rest });
  return rest === 0 ? t('wait.minutes', { minutes }) : t('wait.minutesSeconds', { minutes, seconds: rest });
}
