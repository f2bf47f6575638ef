/**
 * The library's search (which decides most albums without looking at their files) against a
 * plain filter over every file, written here as README "Finding photos" says it: random
 * libraries (nested albums, locked parents left out of the albums asked about, albums hiding
 * locations, captions, cameras, places, files without a date, long and short albums) and
 * random queries (words and their starts, years, months, days, numeric dates, cameras,
 * places, mixed), comparing `total`, every page's results in order, and `albums`.
 */
import { expect } from 'chai';
import { type Album, hidesLocation, isAlbum, titleOf, type TreeNode } from '../../server/core/albums/album-tree.js';
import { isTakenDate, wallClockOf } from '../../server/core/media/taken-date.js';
import type { Stored } from '../../server/media/dimensions-file.js';
import { wallClockMs } from '../../server/media/library/album-slice.js';
import { onMonthDay, parseQuery, rangeOf } from '../../server/media/library/date-phrases.js';
import { createLibrary, SEARCH_PAGE_SIZE, type SearchAnswer } from '../../server/media/library/library.js';
import { wordsOf } from '../../server/media/library/words.js';
import { quietLogger } from '../support/capture-logger.js';
import { node, TreeIndex } from './library-fixture.js';

const WORDS = ['lisbon', 'lisboa', 'beach', 'Bäckerei', 'snow', 'sea', 'season', 'grandma', 'party', 'tram', 'école', 'kraków', 'istanbul', 'porto'];
const CAMERAS = ['Leica Q2', 'Canon EOS R6', 'Canon PowerShot', 'Apple iPhone 15 Pro', 'Nikon Z6', 'Fujifilm X100V'];
const PLACES = [['Lisbon', 'Portugal'], ['Porto', 'Portugal'], ['Kraków', 'Poland'], ['Sea Point', 'South Africa'], ['Beach Town']];

/** A seeded sequence: a failure is the same library and queries every run. */
function randomOf(seed: number) {
  let s = seed;
  const next = () => {
    s = (Math.imul(s, 1_103_515_245) + 12_345) & 0x7fffffff;
    return s / 0x7fffffff;
  };
  return {
    next,
    int: (n: number) => Math.floor(next() * n),
    pick: <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T,
    chance: (p: number) => next() < p,
  };
}
type Random = ReturnType<typeof randomOf>;

interface Built {
  root: TreeNode;
  albums: Album[];
  records: Map<string, Map<string, Stored>>;
}

function pad(n: number, width: number): string {
  return String(n).padStart(width, '0');
}

/** A random wall-clock time in 2018–2021, or in the `hours` after `around` (an album of a day or a few weeks). */
function wallClock(r: Random, around?: { start: number; hours: number }): string {
  const time = around ? around.start + r.int(around.hours * 60) * 60_000 : Date.UTC(2018, 0, 1) + r.int(4 * 365) * 86_400_000 + r.int(86_400) * 1000;
  return new Date(time).toISOString().slice(0, 19);
}

function randomLibrary(r: Random): Built {
  const root = node('', undefined);
  const albums: Album[] = [];
  const records = new Map<string, Map<string, Stored>>();
  let made = 0;
  const grow = (parent: TreeNode, depth: number) => {
    const children = depth === 0 ? 4 + r.int(4) : 1 + r.int(3);
    for (let c = 0; c < children; c++) {
      const name = `${r.pick(WORDS).toLowerCase()}-${made++}`;
      if (depth < 2 && r.chance(0.3)) {
        // A plain folder, sometimes with a title of its own.
        const folder = node(name, parent);
        if (r.chance(0.5)) Object.assign(folder, { folderTitle: `${r.pick(WORDS)} ${r.pick(WORDS)}` });
        grow(folder, depth + 1);
        continue;
      }
      const files = Array.from({ length: r.int(40) }, (_, i) =>
        r.chance(0.7) ? `IMG_${pad(made * 100 + i, 4)}.JPG` : `${r.pick(WORDS)}_${i}.${r.chance(0.2) ? 'mp4' : 'jpg'}`,
      );
      const captions = Object.fromEntries(files.filter(() => r.chance(0.1)).map((f) => [f, `${r.pick(WORDS)} ${r.pick(WORDS)}`]));
      const meta = {
        title: `${r.pick(WORDS)} ${r.chance(0.5) ? r.pick(WORDS) : ''}`.trim(),
        ...(r.chance(0.3) ? { description: `${r.pick(WORDS)} and ${r.pick(WORDS)}` } : {}),
        ...(r.chance(0.3) ? { hideLocation: r.chance(0.7) } : {}),
        ...(Object.keys(captions).length > 0 ? { captions } : {}),
      };
      const album = node(name, parent, meta, files) as Album;
      albums.push(album);
      // Short albums start near a month's end now and then, so they cross into the next.
      const short = r.chance(0.6)
        ? { start: Date.UTC(2018 + r.int(4), r.int(12), r.chance(0.3) ? 28 : 1 + r.int(28), r.int(24)), hours: r.pick([6, 36, 500]) }
        : undefined;
      // Files without a date (their time is their mtime's) in some albums only: the others keep a short span.
      const undated = r.pick([0, 0, 0.15]);
      const record = new Map<string, Stored>();
      for (const file of files) {
        if (r.chance(0.05)) continue; // not prepared yet: no facts
        const mtimeMs = Date.UTC(2019, 0, 1) + r.int(3) * 86_400_000;
        record.set(file, {
          mtimeMs,
          size: 1000,
          width: 640,
          height: 480,
          ...(r.chance(undated) ? {} : { taken: wallClock(r, short) }),
          ...(r.chance(0.6) ? { camera: r.pick(CAMERAS) } : {}),
          ...(r.chance(0.4) ? { places: r.pick(PLACES) } : {}),
          ...(r.chance(0.03) ? { elsewhere: 'other/album' } : {}),
        } as Stored);
      }
      records.set(album.path, record);
      if (depth < 2 && r.chance(0.3)) grow(album, depth + 1);
    }
  };
  grow(root, 0);
  return { root, albums, records };
}

/** The dates the library's files carry: a query often names one, so days and months at an album's edge are asked. */
function datesOf(built: Built): string[] {
  return [...built.records.values()].flatMap((record) => [...record.values()].flatMap((s) => (s.taken ? [s.taken] : [])));
}

function randomQuery(r: Random, dates: readonly string[]): string {
  const parts = () => {
    const date = r.pick(dates);
    const [year, month, day] = [date.slice(0, 4), Number(date.slice(5, 7)), Number(date.slice(8, 10))];
    const monthName = ['jan', 'feb', 'märz', 'abril', 'may', 'june', 'july', 'aug', 'sept', 'oct', 'nov', 'dec'][month - 1] as string;
    switch (r.int(13)) {
      case 12:
        return monthName;
      case 9:
        return `${day}.${month}.${year}`;
      case 10:
        return `${year}-${pad(month, 2)}`;
      case 11:
        return `${day} ${monthName}${r.chance(0.5) ? ` ${year}` : ''}`;
      case 0:
        return r.pick(WORDS);
      case 1: {
        const word = wordsOf(r.pick(WORDS))[0] as string;
        return word.slice(0, 1 + r.int(word.length));
      }
      case 2:
        return String(2018 + r.int(4));
      case 3:
        return `${r.pick(['january', 'mar', 'Juli', 'december', 'octobre'])} ${r.chance(0.7) ? 2018 + r.int(4) : ''}`;
      case 4:
        return `${1 + r.int(28)}.${1 + r.int(12)}.${2018 + r.int(4)}`;
      case 5:
        return `${2018 + r.int(4)}-${pad(1 + r.int(12), 2)}`;
      case 6:
        return r.pick(CAMERAS).split(' ')[r.int(2)] as string;
      case 7:
        return r.pick(PLACES)[0] as string;
      default:
        return r.pick(['img', 'IMG_0', 'jpg', 'mp4', String(r.int(10))]);
    }
  };
  return Array.from({ length: 1 + r.int(3) }, parts).join(' ');
}

/** The plain filter: every file of every album asked about, each term tried on it. */
function reference(built: Built, albums: readonly Album[], query: string, page: number): { total: number; results: string[]; albums: string[] } {
  const terms = parseQuery(query);
  if (terms.length === 0) return { total: 0, results: [], albums: [] };
  const asked = new Set(albums);
  const ownWords = (album: Album) => {
    const words = [...wordsOf(album.meta.title), ...wordsOf(album.meta.description ?? '')];
    for (let n: TreeNode | undefined = album; n?.parent; n = n.parent) words.push(...wordsOf(n.name), ...(isAlbum(n) ? [] : wordsOf(titleOf(n))));
    return words;
  };
  const found: { time: number; path: string; name: string }[] = [];
  const byWords: string[] = [];
  for (const album of albums) {
    const words = ownWords(album);
    for (let p = album.parent; p; p = p.parent) if (isAlbum(p) && asked.has(p)) words.push(...ownWords(p));
    const metByAlbum = terms.map((alternatives) => alternatives.some((a) => a.text !== undefined && words.some((w) => w.startsWith(a.text as string))));
    if (metByAlbum.every(Boolean)) byWords.push(album.path);
    for (const item of album.media) {
      const s = built.records.get(album.path)?.get(item.name);
      if (!s || s.elsewhere) continue;
      const wall = s.taken !== undefined && isTakenDate(s.taken) ? s.taken : wallClockOf(s.mtimeMs);
      const time = wall ? wallClockMs(wall) : s.mtimeMs;
      const fileWords = [
        ...wordsOf(item.name),
        ...wordsOf(album.meta.captions.get(item.name) ?? ''),
        ...wordsOf(s.camera ?? ''),
        ...(hidesLocation(album) ? [] : (s.places ?? []).flatMap(wordsOf)),
      ];
      const meets = terms.every(
        (alternatives, k) =>
          metByAlbum[k] ||
          alternatives.some((a) => {
            if (a.text !== undefined && fileWords.some((w) => w.startsWith(a.text as string))) return true;
            if (a.date === undefined) return false;
            const range = rangeOf(a.date);
            return range ? time >= range.from && time < range.to : onMonthDay(time, a.date);
          }),
      );
      if (meets) found.push({ time, path: album.path, name: item.name });
    }
  }
  found.sort((a, b) => b.time - a.time || (a.path < b.path ? -1 : a.path > b.path ? 1 : a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const from = (page - 1) * SEARCH_PAGE_SIZE;
  return { total: found.length, results: found.slice(from, from + SEARCH_PAGE_SIZE).map((f) => `${f.path}/${f.name}`), albums: byWords };
}

const shown = (answer: SearchAnswer) => ({
  total: answer.total,
  results: answer.results.map((f) => `${f.album.path}/${f.item.name}`),
  albums: answer.albums.map((a) => a.path),
});

describe('library search: the same answers as a plain filter over every file', function () {
  this.timeout(60_000);

  for (const seed of [1, 2, 3, 4, 5, 6]) {
    it(`should answer 150 random queries as the plain filter does (library ${seed})`, async () => {
      const r = randomOf(seed);
      const built = randomLibrary(r);
      const index = new TreeIndex(built.root);
      const library = createLibrary({ index, readFacts: async (path) => built.records.get(path) ?? new Map(), log: quietLogger, batch: 3 });
      await library.ready();
      const dates = datesOf(built);
      let compared = 0;
      let nonEmpty = 0;
      for (let q = 0; q < 150; q++) {
        // The albums a visitor may open: most; a parent left out while its child is asked about is a locked parent.
        const albums = built.albums.filter(() => r.chance(0.8));
        const query = randomQuery(r, dates);
        const expected = reference(built, albums, query, 1);
        const pages = Math.max(1, Math.ceil(expected.total / SEARCH_PAGE_SIZE)) + 1;
        for (let page = 1; page <= Math.min(pages, 3); page++) {
          const want = page === 1 ? expected : reference(built, albums, query, page);
          expect(shown(library.search(albums, query, page)), `"${query}", page ${page}, library ${seed}`).to.deep.equal(want);
          compared++;
        }
        if (expected.total > 0) nonEmpty++;
      }
      // The queries found something often enough for the comparison to mean something.
      expect(nonEmpty).to.be.greaterThan(40);
      expect(compared).to.be.greaterThan(150);
      library.close();
    });
  }

  it('should still answer as the plain filter after albums’ facts change and a rescan', async () => {
    const r = randomOf(99);
    const built = randomLibrary(r);
    const index = new TreeIndex(built.root);
    const library = createLibrary({ index, readFacts: async (path) => built.records.get(path) ?? new Map(), log: quietLogger });
    await library.ready();
    const dates = datesOf(built);
    const check = (albums: readonly Album[], queries = 60) => {
      for (let q = 0; q < queries; q++) {
        const query = randomQuery(r, dates);
        expect(shown(library.search(albums, query, 1)), `"${query}"`).to.deep.equal(reference(built, albums, query, 1));
      }
    };
    check(built.albums);
    // New facts for some albums, one at a time and searched in between (the search's summary
    // follows album by album): other dates, one camera for all, or every camera and place
    // (more than the album had room for), or none at all.
    for (const album of built.albums.filter(() => r.chance(0.4))) {
      const change = r.int(3);
      const record = new Map(
        [...(built.records.get(album.path) ?? new Map<string, Stored>())].map(([name, s], i) => [
          name,
          change === 0
            ? { ...s, taken: wallClock(r), camera: 'Leica Q2' }
            : change === 1
              ? { ...s, camera: CAMERAS[i % CAMERAS.length], places: PLACES[i % PLACES.length] }
              : { ...s, camera: undefined, places: undefined },
        ]),
      );
      built.records.set(album.path, record);
      library.update(album.path, record);
      check(built.albums, 8);
    }
    check(built.albums);
    // A rescan: a new tree (new album nodes), the same records.
    const again = randomOf(99);
    const rescanned = randomLibrary(again);
    rescanned.records = built.records;
    index.replace(rescanned.root);
    await library.ready();
    check(rescanned.albums.filter(() => r.chance(0.8)));
    // A query begun before the rescan asks with the albums of the tree before: answered over those.
    check(
      built.albums.filter(() => r.chance(0.8)),
      20,
    );
    check(rescanned.albums, 20);
    library.close();
  });
});
