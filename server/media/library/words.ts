/**
 * How the library compares text: as people type it, without accents or case ("Québec",
 * "quebec" and "QUEBEC" are one word). NFKD splits a letter from its marks, which are dropped;
 * letters that do not decompose (ß, ø, ı) stay as they are.
 */

const MARKS = /\p{M}+/gu;
const SEPARATORS = /[^\p{L}\p{N}]+/u;

/** `text` without accents, in lower case. */
export function fold(text: string): string {
  return text.normalize('NFKD').replace(MARKS, '').toLowerCase();
}

/** The words of `text`, folded: runs of letters and digits ("IMG_0042.JPG" → img, 0042, jpg). */
export function wordsOf(text: string): string[] {
  return fold(text)
    .split(SEPARATORS)
    .filter((word) => word.length > 0);
}
