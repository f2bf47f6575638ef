import type { MediaKind } from '../../core/media-catalogue.js';
import { isTakenDate, type TakenDate } from '../../core/media/taken-date.js';
import type { Translator } from '../../http/i18n.js';

/**
 * Dates taken as the server-rendered pages write them, in the page's language: Intl.DateTimeFormat
 * with the language's locale ("3 June 2024 at 14:03" in English, "3. Juni 2024 um 14:03" in
 * German), as the viewer writes its caption (views/assets/exif-format.js). A date taken is a
 * wall-clock time without a zone (docs/api.md#dates): it is built and written in UTC, so no
 * zone moves it.
 */

function instantOf(taken: TakenDate): Date | undefined {
  if (!isTakenDate(taken)) return undefined;
  const [y, mo, d, h, mi] = [taken.slice(0, 4), taken.slice(5, 7), taken.slice(8, 10), taken.slice(11, 13), taken.slice(14, 16)].map(Number);
  return new Date(Date.UTC(y!, mo! - 1, d!, h!, mi!));
}

/** Formats made once per locale and style: a 200-photo page writes 200 alt texts. */
const formats = new Map<string, Intl.DateTimeFormat>();
function formatOf(locale: string, style: 'dateTime' | 'days' | 'shortDays'): Intl.DateTimeFormat {
  const id = `${locale}\0${style}`;
  let format = formats.get(id);
  if (!format) {
    const options: Intl.DateTimeFormatOptions =
      style === 'dateTime'
        ? { dateStyle: 'long', timeStyle: 'short', hourCycle: 'h23' }
        : { day: 'numeric', month: style === 'days' ? 'long' : 'short', year: 'numeric' };
    format = new Intl.DateTimeFormat(locale, { ...options, timeZone: 'UTC' });
    formats.set(id, format);
  }
  return format;
}

/** "3 June 2024 at 14:03", in `locale`. */
export function dateTimeText(taken: TakenDate, locale: string): string | undefined {
  const at = instantOf(taken);
  return at && formatOf(locale, 'dateTime').format(at);
}

export interface AltTextFacts {
  readonly kind: MediaKind;
  /** A Live Photo: a photo that moves. */
  readonly live: boolean;
  readonly taken: TakenDate | null;
  /** A video's length as its badge shows it ('0:42'). */
  readonly durationText: string | null;
  /** 1-based place in the album, and the album's count: said when the date is not known. */
  readonly position: number;
  readonly total: number;
}

/**
 * A tile's alt text: what it is and when, never the camera's file name (`DSCF4102.jpg` tells a
 * screen-reader user nothing). "Photo taken 3 June 2024 at 14:03", "Video, 0:42, taken
 * 3 June 2024 at 14:03"; without a date, its place: "Photo 12 of 48", "Video 12 of 48, 0:42".
 * Each is a whole sentence of the catalogue (`alt.*`), as each language words it.
 */
export function altText(facts: AltTextFacts, { t, language }: Pick<Translator, 't' | 'language'>): string {
  const what = facts.kind === 'video' ? 'video' : facts.live ? 'live' : 'photo';
  const when = facts.taken === null ? undefined : dateTimeText(facts.taken, language.locale);
  const length = facts.kind === 'video' && facts.durationText ? 'Length' : '';
  const vars = { when, length: facts.durationText, position: facts.position, total: facts.total };
  return t(`alt.${what}${length}${when === undefined ? 'Place' : 'Taken'}`, vars);
}

/**
 * The span of an album's dates, as its header shows it in `locale`, each part written once:
 * "3 June 2024" (one day), "3–9 June 2024", "28 June – 2 July 2024", "28 Dec 2024 – 2 Jan 2025"
 * (months shortened when the years differ, so the line stays short): Intl's formatRange, as
 * each language writes a range. `first` is not after `last`.
 */
export function dateRangeText(first: TakenDate, last: TakenDate, locale: string): string | undefined {
  const a = instantOf(first);
  const b = instantOf(last);
  if (!a || !b) return undefined;
  const days = (date: Date) => date.toISOString().slice(0, 10);
  const format = formatOf(locale, first.slice(0, 4) === last.slice(0, 4) ? 'days' : 'shortDays');
  return days(a) === days(b) ? format.format(a) : format.formatRange(a, b);
}
