/**
 * Dates as people write them in a search box, in the gallery's languages: "2023",
 * "December 2023", "dec 2023", "Dezember 2023", "24 December 2023", "December 24, 2023",
 * "24 de diciembre de 2023", "24.12.2023", "24/12/2023", "2023-12", "2023-12-24". What is
 * understood as a date is taken out of the query; what is left is searched as words.
 */
import { LANGUAGES } from '../../core/languages.js';
import { fold, wordsOf } from './words.js';

/** A day, a month or a year, or a month (and day) of any year: the parts written. */
export interface DateTerm {
  readonly year?: number;
  readonly month?: number;
  readonly day?: number;
}

/** One word of a query: it matches when its text does, or (when it has one) its date. */
export interface QueryTerm {
  /** A folded word, matched as the start of a word ("lisb" finds Lisbon); absent: a date only. */
  readonly text?: string;
  readonly date?: DateTerm;
}

/** Month names in each language, long and short, as written alone and inside a date (Polish "grudnia"), folded. */
const MONTHS: ReadonlyMap<string, number> = (() => {
  const names = new Map<string, number>();
  const add = (name: string, month: number) => {
    const folded = fold(name).replace(/\.$/, '');
    if (folded.length > 0 && !/\d/.test(folded) && !names.has(folded)) names.set(folded, month);
  };
  for (const language of LANGUAGES.map((l) => l.locale)) {
    for (let month = 1; month <= 12; month++) {
      const date = new Date(Date.UTC(2023, month - 1, 24, 12));
      for (const style of ['long', 'short'] as const) {
        add(new Intl.DateTimeFormat(language, { month: style, timeZone: 'UTC' }).format(date), month);
        const inDate = new Intl.DateTimeFormat(language, { day: 'numeric', month: style, year: 'numeric', timeZone: 'UTC' }).formatToParts(date);
        for (const part of inDate) if (part.type === 'month') add(part.value, month);
      }
    }
  }
  // English's usual short forms that Intl does not give ("sept").
  add('sept', 9);
  return names;
})();

/** Small words that sit between a date's parts: "24 de diciembre de 2023", "the 24th of December". */
const FILLERS = new Set(['de', 'del', 'of', 'the', 'le', 'el', 'den', 'der', 'di', 'do', 'da', 'van', 'w']);

const YEAR = /^(1[89]\d\d|2[01]\d\d)$/;
const DAY = /^(0?[1-9]|[12]\d|3[01])(st|nd|rd|th|er|e|o|a)?$/;

/** Numeric dates, read before the query is split into words (their separators would split them). */
const NUMERIC: readonly { readonly pattern: RegExp; readonly parts: (m: RegExpExecArray) => DateTerm[] }[] = [
  // 2023-12-24, 2023-12, 2023/12/24
  {
    pattern: /(?<![\d./-])(\d{4})[-/](\d{1,2})(?:[-/](\d{1,2}))?(?![\d./-])/g,
    parts: (m) => [{ year: +m[1]!, month: +m[2]!, ...(m[3] ? { day: +m[3] } : {}) }],
  },
  // 24.12.2023 (day first, as every language of the gallery writes it with dots)
  { pattern: /(?<![\d./-])(\d{1,2})\.(\d{1,2})\.(\d{4})(?![\d./-])/g, parts: (m) => [{ year: +m[3]!, month: +m[2]!, day: +m[1]! }] },
  // 24/12/2023 or 12/24/2023: either order where both could be meant
  {
    pattern: /(?<![\d./-])(\d{1,2})[/-](\d{1,2})[/-](\d{4})(?![\d./-])/g,
    parts: (m) => {
      const [a, b, year] = [+m[1]!, +m[2]!, +m[3]!];
      const dayFirst = { year, month: b, day: a };
      const monthFirst = { year, month: a, day: b };
      return a === b ? [dayFirst] : [dayFirst, monthFirst];
    },
  },
];

function isReal(date: DateTerm): boolean {
  if (date.month !== undefined && (date.month < 1 || date.month > 12)) return false;
  if (date.day === undefined) return true;
  // Day 29 of February is real in some year; a year given must have it.
  const daysIn = new Date(Date.UTC(date.year ?? 2024, date.month ?? 1, 0)).getUTCDate();
  return date.day >= 1 && date.day <= daysIn;
}

/**
 * The terms of a query: all must match (words in any order). A numeric date or a phrase
 * around a month name is one date term; a lone year or month name matches as a date or as a
 * word; anything else as a word. A numeric date that is no real day (31.02.2023) gives a term
 * that matches nothing.
 */
export function parseQuery(query: string): QueryTerm[][] {
  let rest = fold(query);
  const terms: QueryTerm[][] = [];
  for (const { pattern, parts } of NUMERIC) {
    rest = rest.replace(pattern, (...args: unknown[]) => {
      const match = args.slice(0, -2) as unknown as RegExpExecArray;
      const dates = parts(match).filter(isReal);
      terms.push(dates.length > 0 ? dates.map((date) => ({ date })) : [{ date: { year: -1 } }]);
      return ' ';
    });
  }
  const words = wordsOf(rest);
  const used = new Set<number>();
  words.forEach((word, at) => {
    const month = MONTHS.get(word);
    if (month === undefined || used.has(at)) return;
    const phrase = monthPhrase(words, at, month, used);
    if (!phrase) return;
    terms.push(phrase.alone ? [{ text: word, date: phrase.date }] : [{ date: phrase.date }]);
  });
  words.forEach((word, at) => {
    if (used.has(at)) return;
    terms.push([YEAR.test(word) ? { text: word, date: { year: +word } } : { text: word }]);
  });
  return terms;
}

/** The date around the month name at `at`: a day before or after it, a year after it. Marks the words it takes. */
function monthPhrase(words: readonly string[], at: number, month: number, used: Set<number>): { date: DateTerm; alone: boolean } | undefined {
  const taken = [at];
  const skipFillers = (from: number, step: 1 | -1) => {
    let i = from;
    while (i >= 0 && i < words.length && FILLERS.has(words[i]!) && !used.has(i)) i += step;
    return i;
  };
  let day: number | undefined;
  let year: number | undefined;
  const before = skipFillers(at - 1, -1);
  if (before >= 0 && !used.has(before) && DAY.test(words[before]!)) {
    day = Number.parseInt(words[before]!, 10);
    for (let i = before; i < at; i++) taken.push(i);
  }
  let after = skipFillers(at + 1, 1);
  if (day === undefined && after < words.length && !used.has(after) && DAY.test(words[after]!)) {
    day = Number.parseInt(words[after]!, 10);
    for (let i = at + 1; i <= after; i++) taken.push(i);
    after = skipFillers(after + 1, 1);
  }
  if (after < words.length && !used.has(after) && YEAR.test(words[after]!)) {
    year = Number.parseInt(words[after]!, 10);
    for (let i = Math.max(...taken) + 1; i <= after; i++) taken.push(i);
  }
  const date: DateTerm = { month, ...(day !== undefined ? { day } : {}), ...(year !== undefined ? { year } : {}) };
  if (!isReal(date)) return undefined;
  for (const i of taken) used.add(i);
  return { date, alone: taken.length === 1 };
}

/** The range of wall-clock times (UTC ms) a date term with a year covers; undefined for a month or day of any year. */
export function rangeOf(date: DateTerm): { from: number; to: number } | undefined {
  if (date.year === undefined) return undefined;
  if (date.year < 0) return { from: 0, to: 0 };
  if (date.month === undefined) return { from: Date.UTC(date.year, 0, 1), to: Date.UTC(date.year + 1, 0, 1) };
  if (date.day === undefined) return { from: Date.UTC(date.year, date.month - 1, 1), to: Date.UTC(date.year, date.month, 1) };
  const from = Date.UTC(date.year, date.month - 1, date.day);
  return { from, to: from + 24 * 3600 * 1000 };
}

/** Whether a wall-clock time (UTC ms) falls on a month (and day) of any year. */
export function onMonthDay(time: number, date: DateTerm): boolean {
  const t = new Date(time);
  return (date.month === undefined || t.getUTCMonth() + 1 === date.month) && (date.day === undefined || t.getUTCDate() === date.day);
}
