import type { MediaKind } from '../../core/media-catalogue.js';
import { isTakenDate, type TakenDate } from '../../core/media/taken-date.js';

/**
 * Dates taken as the server-rendered pages write them: British English ("3 June 2024 at
 * 14:03"), spelt out here rather than left to the ICU data of whatever Node runs the
 * server, so the text of a page never changes with it. The viewer writes dates in the
 * visitor's own locale instead (views/assets/exif-format.js).
 */

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const SHORT_MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

interface Parts {
  readonly year: number;
  readonly month: number;
  readonly day: number;
  readonly time: string;
}

function partsOf(taken: TakenDate): Parts | undefined {
  if (!isTakenDate(taken)) return undefined;
  return { year: Number(taken.slice(0, 4)), month: Number(taken.slice(5, 7)) - 1, day: Number(taken.slice(8, 10)), time: taken.slice(11, 16) };
}

/** "3 June 2024 at 14:03". */
export function dateTimeText(taken: TakenDate): string | undefined {
  const p = partsOf(taken);
  return p && `${p.day} ${MONTHS[p.month]} ${p.year} at ${p.time}`;
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
 */
export function altText(facts: AltTextFacts): string {
  const what = facts.kind === 'video' ? 'Video' : facts.live ? 'Live Photo' : 'Photo';
  const when = facts.taken === null ? undefined : dateTimeText(facts.taken);
  if (when === undefined) {
    const place = `${what} ${facts.position} of ${facts.total}`;
    return facts.durationText ? `${place}, ${facts.durationText}` : place;
  }
  return facts.durationText ? `${what}, ${facts.durationText}, taken ${when}` : `${what} taken ${when}`;
}

/**
 * The span of an album's dates, as its header shows it, each part written once: "3 June 2024"
 * (one day), "3–9 June 2024", "28 June – 2 July 2024", "28 Dec 2024 – 2 Jan 2025" (months
 * shortened when the years differ, so the line stays short). `first` is not after `last`.
 */
export function dateRangeText(first: TakenDate, last: TakenDate): string | undefined {
  const a = partsOf(first);
  const b = partsOf(last);
  if (!a || !b) return undefined;
  const day = (p: Parts, months = MONTHS) => `${p.day} ${months[p.month]}`;
  if (a.year !== b.year) return `${day(a, SHORT_MONTHS)} ${a.year} – ${day(b, SHORT_MONTHS)} ${b.year}`;
  if (a.month !== b.month) return `${day(a)} – ${day(b)} ${b.year}`;
  if (a.day !== b.day) return `${a.day}–${b.day} ${MONTHS[b.month]} ${b.year}`;
  return `${day(a)} ${a.year}`;
}
