// A file's size as the gallery writes it, everywhere: the album page's download button
// (rendered by server/public/pages/download-offer.ts) and the admin (its scripts, and the
// admin server's messages) import this one module, so one file never shows two sizes.

const UNITS = ['KB', 'MB', 'GB', 'TB'];

/**
 * A size as people read it: '312 MB', '1.2 GB', '850 KB', '999 bytes'. Decimal units
 * (1 MB = 1,000,000 bytes), as phones, macOS and browsers' download lists show file sizes, so
 * the figure matches what the visitor's device says of the file; one decimal below 10.
 * @param {number} bytes
 * @returns {string}
 */
export function formatBytes(bytes) {
  if (bytes < 1000) return `${bytes} byte${bytes === 1 ? '' : 's'}`;
  let value = bytes / 1000;
  let unit = 0;
  while (value >= 999.5 && unit < UNITS.length - 1) {
    value /= 1000;
    unit++;
  }
  const text = value < 9.95 ? value.toFixed(1).replace(/\.0$/, '') : String(Math.round(value));
  return `${text} ${UNITS[unit]}`;
}
