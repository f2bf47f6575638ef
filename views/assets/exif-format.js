// EXIF and video figures as people write them: 1/250 s, f/2.8, 35 mm, ISO 200.
// Pure functions: each takes the raw value (null when the file has none) and gives text or null.
// Dates are written in the page's language (its `locale`, views/assets/strings.js), the rows'
// labels are its words (`t`).

/** A figure with at most `digits` decimals, as the page's language writes it (2.8, 2,8). */
const trim = (n, digits = 1, locale = undefined) =>
  new Intl.NumberFormat(locale, { maximumFractionDigits: digits, useGrouping: false }).format(Number(n.toFixed(digits)));

export function camera(make, model) {
  if (!make && !model) return null;
  if (!make) return model;
  if (!model) return make;
  // Many cameras repeat the maker in the model ("Canon" + "Canon EOS R5").
  const brand = make.split(/\s+/)[0];
  return model.toLowerCase().startsWith(brand.toLowerCase()) ? model : `${make} ${model}`;
}

export const focalLength = (mm, locale = undefined) => (mm > 0 ? `${trim(mm, 1, locale)} mm` : null);

export const aperture = (f, locale = undefined) => (f > 0 ? `f/${trim(f, 1, locale)}` : null);

export function shutter(seconds, locale = undefined) {
  if (!(seconds > 0)) return null;
  // Cameras store fast speeds as 1/n (0.004 is 1/250); slow ones read better as decimals.
  const inverse = 1 / seconds;
  if (seconds < 1 && Math.abs(inverse - Math.round(inverse)) < 0.02 * inverse) return `1/${Math.round(inverse)} s`;
  return `${trim(seconds, seconds < 1 ? 2 : 1, locale)} s`;
}

export const iso = (n) => (n > 0 ? `ISO ${Math.round(n)}` : null);

/**
 * 'YYYY:MM:DD HH:MM:SS', the camera's wall clock: shown as such, in the page's language.
 * @param {string | null | undefined} raw
 * @param {string} [locale]
 */
export function dateTaken(raw, locale) {
  const m = /^(\d{4}):(\d{2}):(\d{2}) (\d{2}):(\d{2}):(\d{2})$/.exec(raw ?? '');
  return m ? wallClockText(m.slice(1).map(Number), locale) : null;
}

/**
 * A tile's date taken, 'YYYY-MM-DDTHH:MM:SS' (data-taken, docs/api.md#dates), in the page's
 * language: the viewer's caption.
 * @param {string | null | undefined} raw
 * @param {string} [locale]
 */
export function takenAt(raw, locale) {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})$/.exec(raw ?? '');
  return m ? wallClockText(m.slice(1).map(Number), locale) : null;
}

/**
 * A wall-clock time without a zone, written as the clock showed it: built and formatted in
 * the browser's own zone, so no zone shifts it.
 * @param {number[]} parts year, month, day, hours, minutes, seconds
 * @param {string} [locale]
 */
function wallClockText([y, mo, d, h, mi, s], locale) {
  const date = new Date(y, mo - 1, d, h, mi, s);
  if (Number.isNaN(date.getTime())) return null;
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(date);
}

export function pixelSize(width, height, locale = undefined) {
  if (!(width > 0 && height > 0)) return null;
  const mp = (width * height) / 1e6;
  return `${width} × ${height}${mp >= 1 ? ` (${trim(mp, 1, locale)} MP)` : ''}`;
}

/**
 * The length of a video exactly as its tile badge shows it (formatDuration in
 * server/public/pages/media-items.ts): never '0:00', a clip under half a second reads 0:01.
 */
export function duration(seconds) {
  if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds < 0) return null;
  const s = Math.max(1, Math.round(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

const CODECS = { h264: 'H.264', hevc: 'HEVC (H.265)', vp8: 'VP8', vp9: 'VP9', av1: 'AV1', mpeg4: 'MPEG-4' };

/**
 * Rows of the details panel for a photo: [label, text] where the text is known.
 * @param {Record<string, any>} exif
 * @param {import('./strings.js').Translate} t
 * @param {string} [locale]
 */
export function photoRows(exif, t, locale) {
  return [
    [t('details.camera'), camera(exif.Make, exif.Model)],
    [t('details.lens'), exif.LensModel || null],
    [t('details.focalLength'), focalLength(exif.FocalLength, locale)],
    [t('details.aperture'), aperture(exif.FNumber, locale)],
    [t('details.shutter'), shutter(exif.ExposureTime, locale)],
    [t('details.iso'), iso(exif.ISO)],
    [t('details.taken'), dateTaken(exif.DateTimeOriginal, locale)],
    [t('details.size'), pixelSize(exif.ImageWidth, exif.ImageHeight, locale)],
  ].filter(([, text]) => text);
}

/**
 * @param {Record<string, any>} info
 * @param {import('./strings.js').Translate} t
 * @param {string} [locale]
 */
export function videoRows(info, t, locale) {
  return [
    [t('details.length'), duration(info.duration)],
    [t('details.size'), pixelSize(info.width, info.height, locale)],
    [t('details.codec'), info.codec ? (CODECS[info.codec] ?? info.codec) : null],
    [t('details.frameRate'), info.fps > 0 ? `${trim(info.fps, 2, locale)} fps` : null],
  ].filter(([, text]) => text);
}
