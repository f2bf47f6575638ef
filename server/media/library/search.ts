/**
 * A search over the files of some albums (README "Finding photos"): every term of the query
 * must match (words in any order), each by the album (its title, description, folder names),
 * or by the file (its name, caption, camera, places where its album shows them, its date).
 */
import { type Album, hidesLocation, isAlbum, titleOf, type TreeNode } from '../../core/albums/album-tree.js';
import type { AlbumSlice, Interners } from './album-slice.js';
import { type DateTerm, onMonthDay, type QueryTerm, rangeOf } from './date-phrases.js';
import { hasPrefixed } from './token-index.js';
import { wordsOf } from './words.js';

/** An album's files that match, newest first (numbers into its slice). */
export interface AlbumMatches {
  readonly album: Album;
  readonly slice: AlbumSlice;
  readonly files: Int32Array;
}

/** What of the query matched cameras and place lists of the whole library (few), found once per query. */
interface Alternative {
  readonly text?: string;
  readonly date?: DateTerm;
  readonly range?: { from: number; to: number };
  readonly cameras: Uint8Array;
  readonly places: Uint8Array;
  readonly anyCamera: boolean;
  readonly anyPlace: boolean;
}

export type PreparedQuery = readonly (readonly Alternative[])[];

/** Looks up once what each term's text matches among the cameras and place lists the library knows. */
export function prepareQuery(terms: readonly (readonly QueryTerm[])[], interners: Interners): PreparedQuery {
  const maskOf = <T>(values: readonly T[], words: (value: T) => string[], text: string | undefined) => {
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
      return { ...term, ...(range ? { range } : {}), cameras: cameras.mask, places: places.mask, anyCamera: cameras.any, anyPlace: places.any };
    }),
  );
}

/** The words an album is found by: its title and description, and the names and titles of the folders on its path. */
const ownWords = new WeakMap<Album, readonly string[]>();

function wordsOfAlbum(album: Album): readonly string[] {
  let words = ownWords.get(album);
  if (!words) {
    const all = [...wordsOf(album.meta.title), ...wordsOf(album.meta.description ?? '')];
    // Folder names are in the album's address; a plain folder's title is shown to all. An
    // album above it is another matter (albumWords): its title may be locked.
    for (let n: TreeNode | undefined = album; n?.parent; n = n.parent) {
      all.push(...wordsOf(n.name));
      if (!isAlbum(n)) all.push(...wordsOf(titleOf(n)));
    }
    words = [...new Set(all)].sort();
    ownWords.set(album, words);
  }
  return words;
}

/** An album's words, with the titles of the albums above it that this visitor may see too. */
function albumWords(album: Album, visible: ReadonlySet<Album>): (text: string) => boolean {
  const own = wordsOfAlbum(album);
  const above: (readonly string[])[] = [];
  for (let n = album.parent; n; n = n.parent) if (isAlbum(n) && visible.has(n)) above.push(wordsOfAlbum(n));
  return (text) => hasPrefixed(own, text) || above.some((words) => hasPrefixed(words, text));
}

/** Scratch space for marking an album's files: grown to the largest album, reused by every query. */
let levels = new Int32Array(1024);

/**
 * The matches of the query in each album (albums without any left out), and the albums the
 * query matches by their own words alone (the cards above the results).
 */
export function findMatches(
  entries: readonly { album: Album; slice: AlbumSlice }[],
  query: PreparedQuery,
  visible: ReadonlySet<Album>,
): { matches: AlbumMatches[]; albums: Album[] } {
  const matches: AlbumMatches[] = [];
  const albums: Album[] = [];
  const hasText = query.some((alternatives) => alternatives.some((a) => a.text !== undefined));
  for (const { album, slice } of entries) {
    const byAlbum = albumWords(album, visible);
    const showsPlaces = !hidesLocation(album);
    // Terms the album's own words satisfy match every file; the others are looked for file by file.
    const open = query.filter((alternatives) => !alternatives.some((a) => a.text !== undefined && byAlbum(a.text)));
    if (open.length === 0 && hasText) albums.push(album);
    if (slice.count === 0) continue;
    if (open.length === 0) {
      matches.push({ album, slice, files: everyFile(slice.count) });
      continue;
    }
    const captions = slice.captions(album.meta.captions);
    const possible = open.every((alternatives) =>
      alternatives.some(
        (a) =>
          (a.text !== undefined &&
            (slice.names.has(a.text) ||
              captions.has(a.text) ||
              (a.anyCamera && someOf(slice.cameraIds, a.cameras)) ||
              (showsPlaces && a.anyPlace && someOf(slice.placeIds, a.places)))) ||
          (a.date !== undefined && (!a.range || slice.firstAtOrBefore(a.range.to - 1) < slice.firstAtOrBefore(a.range.from - 1))),
      ),
    );
    if (!possible) continue;
    if (levels.length < slice.count) levels = new Int32Array(slice.count);
    levels.fill(0, 0, slice.count);
    open.forEach((alternatives, k) => {
      const mark = (i: number) => {
        if (levels[i] === k) levels[i] = k + 1;
      };
      for (const a of alternatives) markAlternative(slice, a, captions, showsPlaces, mark);
    });
    let found = 0;
    for (let i = 0; i < slice.count; i++) if (levels[i] === open.length) found++;
    if (found === 0) continue;
    const files = new Int32Array(found);
    for (let i = 0, j = 0; i < slice.count; i++) if (levels[i] === open.length) files[j++] = i;
    matches.push({ album, slice, files });
  }
  return { matches, albums };
}

function markAlternative(
  slice: AlbumSlice,
  a: Alternative,
  captions: ReturnType<AlbumSlice['captions']>,
  showsPlaces: boolean,
  mark: (i: number) => void,
): void {
  if (a.text !== undefined) {
    slice.names.forEach(a.text, mark);
    captions.forEach(a.text, mark);
    // A file without a camera or places is -1: looked at first, as a typed array read out of its bounds is slow.
    if (a.anyCamera) {
      for (let i = 0; i < slice.count; i++) {
        const id = slice.camera[i] as number;
        if (id >= 0 && a.cameras[id] === 1) mark(i);
      }
    }
    if (showsPlaces && a.anyPlace) {
      for (let i = 0; i < slice.count; i++) {
        const id = slice.places[i] as number;
        if (id >= 0 && a.places[id] === 1) mark(i);
      }
    }
  }
  if (a.date === undefined) return;
  if (a.range) {
    const end = slice.firstAtOrBefore(a.range.from - 1);
    for (let i = slice.firstAtOrBefore(a.range.to - 1); i < end; i++) mark(i);
  } else {
    for (let i = 0; i < slice.count; i++) if (onMonthDay(slice.sortTime[i] as number, a.date)) mark(i);
  }
}

/** Whether one of `ids` is marked in `mask`. */
function someOf(ids: ReadonlySet<number>, mask: Uint8Array): boolean {
  for (const id of ids) if (mask[id] === 1) return true;
  return false;
}

/** 0, 1, … count - 1. */
function everyFile(count: number): Int32Array {
  const files = new Int32Array(count);
  for (let i = 0; i < count; i++) files[i] = i;
  return files;
}
