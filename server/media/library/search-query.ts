/**
 * A query as search uses it (search.ts): each term's alternatives with what they match among
 * the whole library's cameras, place lists, albums' own words and file names' word starts,
 * looked up once per query so that an album costs a few array reads.
 */
import type { Interners } from './album-slice.js';
import type { AlbumSummary } from './album-summary.js';
import { type DateTerm, type QueryTerm, rangeOf } from './date-phrases.js';
import { type StartBits, TokenIndex } from './token-index.js';
import { wordsOf } from './words.js';

/** What of the query matched cameras, place lists and albums' own words of the whole library, found once per query. */
export interface Alternative {
  readonly text?: string;
  readonly date?: DateTerm;
  readonly range?: { from: number; to: number };
  readonly cameras: Uint8Array;
  readonly places: Uint8Array;
  readonly anyCamera: boolean;
  readonly anyPlace: boolean;
  /** 1 for the directory's albums whose own words the text starts. */
  readonly albums?: Uint8Array;
  /** The bits of TokenIndex.starting the text's start sets (AlbumSummary.nameStarts). */
  readonly start?: StartBits;
  /** 1 for the lists of Interners.everywhere with a word the text starts. */
  readonly everywhere?: Uint8Array;
}

export type PreparedQuery = readonly (readonly Alternative[])[];

/** Looks up once what each term's text matches among the cameras, place lists and albums the library knows. */
export function prepareQuery(terms: readonly (readonly QueryTerm[])[], interners: Interners, summary: AlbumSummary): PreparedQuery {
  const { directory } = summary;
  const maskOf = <T>(values: readonly T[], words: (value: T) => readonly string[], text: string | undefined) => {
    const mask = new Uint8Array(values.length);
    let any = false;
    if (text !== undefined) {
      values.forEach((value, id) => {
        if (words(value).some((word) => word.startsWith(text))) {
          mask[id] = 1;
          any = true;
        }
      });
    }
    return { mask, any };
  };
  return terms.map((alternatives) =>
    alternatives.map((term) => {
      const cameras = maskOf(interners.cameras.values, wordsOf, term.text);
      const places = maskOf(interners.places.values, (list) => list.flatMap(wordsOf), term.text);
      const range = term.date && rangeOf(term.date);
      const text = term.text;
      let byText = {};
      if (text !== undefined) {
        const albums = new Uint8Array(directory.albums.length);
        directory.words.forEach(text, (n) => {
          albums[n] = 1;
        });
        const everywhere = maskOf(interners.everywhere.values, (words) => words, text).mask;
        byText = { albums, everywhere, start: TokenIndex.startOf(text) };
      }
      return {
        ...term,
        ...(range ? { range } : {}),
        ...byText,
        cameras: cameras.mask,
        places: places.mask,
        anyCamera: cameras.any,
        anyPlace: places.any,
      };
    }),
  );
}
