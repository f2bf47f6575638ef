// A file's size as the gallery writes it, everywhere: the album page's download button
// (rendered by server/public/pages/download-offer.ts) and the admin (its scripts, and the
// admin server's messages) import this one module, so one file never shows two sizes.

const UNITS = ['kilobyte', 'megabyte', 'gigabyte', 'terabyte'];

/**
 * A size as people read it, in their language: '312 MB', '1.2 GB', '850 kB', '999 bytes'
 * ('1,2 Go' in French). Decimal units (1 MB = 1,000,000 bytes), as phones, macOS and
 * browsers' download lists show file sizes, so the figure matches what the visitor's device
 * says of the file; one decimal below 10. Intl.NumberFormat writes the number and the unit
 * as the language does.
 * @param {number} bytes
 * @param {string} [locale] a BCP 47 tag (server/core/languages.ts `locale`); British English without one
 * @returns {string}
 */
export function formatBytes(bytes, locale = 'en-GB') {
  if (bytes < 1000) return new Intl.NumberFormat(locale, { style: 'unit', unit: 'byte', unitDisplay: 'long' }).format(bytes);
  let value = bytes / 1000;
  let unit = 0;
  while (value >= 999.5 && unit < UNITS.length - 1) {
    value /= 1000;
    unit++;
  }
  return new Intl.NumberFormat(locale, { style: 'unit', unit: UNITS[unit], maximumFractionDigits: value < 9.95 ? 1 : 0 }).format(value);
}
