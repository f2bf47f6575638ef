import { expect } from 'chai';
import type { Album } from '../../server/core/albums/album-tree.js';
import type { Stored } from '../../server/media/dimensions-file.js';
import { createLibrary, type LibraryFile, type LibraryIndex } from '../../server/media/library/library.js';
import { quietLogger } from '../support/capture-logger.js';
import { fact, node, TreeIndex } from './library-fixture.js';

const names = (files: readonly LibraryFile[]) => files.map((f) => `${f.album.path}/${f.item.name}`);

/**
 * 2023/christmas (captions, cameras), 2023/summer (places), 2024/secret-trip (hides
 * locations, same place), 2024/locked (a password; left out of the albums asked about by the
 * tests that play a visitor who may not open it).
 */
function tree() {
  const root = node('', undefined);
  const y2023 = node('2023', root);
  const y2024 = node('2024', root);
  const christmas = node(
    'christmas',
    y2023,
    { title: 'Christmas at Grandma’s', description: 'Snow and presents', captions: { 'IMG_0002.JPG': 'Opening the big présent' } },
    ['IMG_0001.JPG', 'IMG_0002.JPG', 'clip.mp4'],
  );
  const lisbon = node('summer', y2023, { title: 'Summer trip' }, ['tram.jpg', 'beach.jpg']);
  const secret = node('secret-trip', y2024, { title: 'Quiet weekend', hideLocation: true }, ['alfama.jpg']);
  const locked = node('locked', y2024, { title: 'Surprise party', password: 'pw' }, ['cake.jpg']);
  const records = new Map<string, Map<string, Stored>>([
    [
      '2023/christmas',
      new Map([
        ['IMG_0001.JPG', fact('2023-12-24T18:00:00', { camera: 'Canon EOS R6' })],
        ['IMG_0002.JPG', fact('2023-12-25T09:30:00', { camera: 'Apple iPhone 15 Pro' })],
        ['clip.mp4', fact('2023-12-24T19:00:00', { duration: 12 })],
      ]),
    ],
    [
      '2023/summer',
      new Map([
        ['tram.jpg', fact('2023-07-14T11:00:00', { places: ['Lisbon', 'Lisbon District', 'Portugal'], position: { lat: 38.7139, lon: -9.1394 } })],
        ['beach.jpg', fact('2023-07-15T16:00:00', { places: ['Cascais', 'Portugal'], position: { lat: 38.69, lon: -9.42 } })],
      ]),
    ],
    ['2024/secret-trip', new Map([['alfama.jpg', fact('2024-07-14T10:00:00', { places: ['Lisbon', 'Portugal'], position: { lat: 38.71, lon: -9.13 } })]])],
    ['2024/locked', new Map([['cake.jpg', fact('2021-07-14T10:00:00')]])],
  ]);
  return { root, christmas: christmas as Album, lisbon: lisbon as Album, secret: secret as Album, locked: locked as Album, records };
}

async function libraryOf(t: ReturnType<typeof tree>): Promise<{ library: LibraryIndex; index: TreeIndex }> {
  const index = new TreeIndex(t.root);
  const library = createLibrary({ index, readFacts: async (path) => t.records.get(path) ?? new Map(), log: quietLogger, batch: 2 });
  await library.ready();
  return { library, index };
}

describe('library: the index across albums', () => {
  describe('newest', () => {
    it('should list files of the albums asked about newest first, and only those', async () => {
      const t = tree();
      const { library } = await libraryOf(t);
      const { files, next } = library.newest([t.christmas, t.lisbon], { limit: 10 });
      expect(names(files)).to.deep.equal([
        '2023/christmas/IMG_0002.JPG',
        '2023/christmas/clip.mp4',
        '2023/christmas/IMG_0001.JPG',
        '2023/summer/beach.jpg',
        '2023/summer/tram.jpg',
      ]);
      expect(next).to.equal(undefined);
    });

    it('should page with its cursor, each file once', async () => {
      const t = tree();
      const { library } = await libraryOf(t);
      const all = [t.christmas, t.lisbon, t.secret, t.locked];
      const seen: string[] = [];
      let cursor: string | undefined;
      do {
        const page = library.newest(all, { cursor, limit: 2 });
        seen.push(...names(page.files));
        cursor = page.next;
      } while (cursor);
      expect(seen).to.deep.equal(names(library.newest(all, { limit: 100 }).files));
      expect(seen).to.have.length(7);
    });

    it('should give the facts a tile needs', async () => {
      const t = tree();
      const { library } = await libraryOf(t);
      const [clip] = library.newest([t.christmas], { limit: 3 }).files.filter((f) => f.item.name === 'clip.mp4');
      expect(clip).to.include({ width: 640, height: 480, duration: 12, thumbHash: 'AAAAAAAAAAAA', taken: Date.UTC(2023, 11, 24, 19) });
      expect(clip?.item.kind).to.equal('video');
    });
  });

  it('should count files per month, newest month first', async () => {
    const t = tree();
    const { library } = await libraryOf(t);
    expect(library.months([t.christmas, t.lisbon, t.locked])).to.deep.equal([
      { month: '2023-12', count: 3 },
      { month: '2023-07', count: 2 },
      { month: '2021-07', count: 1 },
    ]);
  });

  it('should find files taken on this day in earlier years only', async () => {
    const t = tree();
    const { library } = await libraryOf(t);
    const all = [t.christmas, t.lisbon, t.secret, t.locked];
    expect(names(library.onThisDay(all, 7, 14, 2025, 10))).to.deep.equal(['2024/secret-trip/alfama.jpg', '2023/summer/tram.jpg', '2024/locked/cake.jpg']);
    expect(names(library.onThisDay(all, 7, 14, 2024, 10))).to.deep.equal(['2023/summer/tram.jpg', '2024/locked/cake.jpg']);
  });

  it('should give positions of albums that do not hide locations only', async () => {
    const t = tree();
    const { library } = await libraryOf(t);
    expect(names([...library.positioned([t.christmas, t.lisbon, t.secret])]).sort()).to.deep.equal(['2023/summer/beach.jpg', '2023/summer/tram.jpg']);
  });

  describe('kept current', () => {
    it('should take an album’s facts as saved', async () => {
      const t = tree();
      const { library } = await libraryOf(t);
      library.update('2023/summer', new Map([['tram.jpg', fact('2022-01-01T00:00:00', { camera: 'Fujifilm X100V' })]]));
      expect(names(library.search([t.lisbon], 'fujifilm', 1).results)).to.deep.equal(['2023/summer/tram.jpg']);
      expect(library.months([t.lisbon])).to.deep.equal([{ month: '2022-01', count: 1 }]);
    });

    it('should leave out files and albums a rescan found gone, and read new albums', async () => {
      const t = tree();
      const { library, index } = await libraryOf(t);
      // The rescan: new nodes; tram.jpg is gone, the locked album is gone, a new album came.
      const root = node('', undefined);
      const y2023 = node('2023', root);
      const lisbon = node('summer', y2023, { title: 'Summer trip' }, ['beach.jpg']) as Album;
      const fresh = node('fresh', y2023, { title: 'Fresh' }, ['new.jpg']) as Album;
      t.records.set('2023/fresh', new Map([['new.jpg', fact('2023-01-01T00:00:00')]]));
      index.replace(root);
      expect(names(library.newest([lisbon], { limit: 10 }).files)).to.deep.equal(['2023/summer/beach.jpg']);
      await library.ready();
      await new Promise((resolve) => setImmediate(resolve));
      expect(names(library.newest([fresh], { limit: 10 }).files)).to.deep.equal(['2023/fresh/new.jpg']);
      // beach.jpg and new.jpg: the albums the new tree no longer has are gone with their files.
      expect(library.size).to.equal(2);
    });
  });

  describe('search', () => {
    const cases: [string, string, string[]][] = [
      ['a file name', 'img_0001', ['2023/christmas/IMG_0001.JPG']],
      ['the start of a word of a file name', 'tra', ['2023/summer/tram.jpg']],
      ['a caption, accents and case ignored', 'PRESENT opening', ['2023/christmas/IMG_0002.JPG']],
      ['a camera make', 'canon', ['2023/christmas/IMG_0001.JPG']],
      ['a camera model', 'iphone 15', ['2023/christmas/IMG_0002.JPG']],
      // The place of tram.jpg and the folder of both; never alfama.jpg, whose album hides locations.
      ['a place, not in an album hiding locations', 'lisbon', ['2023/summer/tram.jpg']],
      ['a place alone', 'cascais', ['2023/summer/beach.jpg']],
      ['a country', 'portugal', ['2023/summer/beach.jpg', '2023/summer/tram.jpg']],
      ['an album title: all its files', 'grandma', ['2023/christmas/IMG_0002.JPG', '2023/christmas/clip.mp4', '2023/christmas/IMG_0001.JPG']],
      ['an album description and a file name, in any order', 'img_0002 snow', ['2023/christmas/IMG_0002.JPG']],
      ['a folder name', 'secret', ['2024/secret-trip/alfama.jpg']],
      ['a year', '2024', ['2024/secret-trip/alfama.jpg']],
      ['a year and a word', 'portugal 2023', ['2023/summer/beach.jpg', '2023/summer/tram.jpg']],
      ['a month and a year', 'December 2023', ['2023/christmas/IMG_0002.JPG', '2023/christmas/clip.mp4', '2023/christmas/IMG_0001.JPG']],
      ['a short month', 'dec 2023', ['2023/christmas/IMG_0002.JPG', '2023/christmas/clip.mp4', '2023/christmas/IMG_0001.JPG']],
      ['a month in German', 'Dezember 2023', ['2023/christmas/IMG_0002.JPG', '2023/christmas/clip.mp4', '2023/christmas/IMG_0001.JPG']],
      ['a day', '24 December 2023', ['2023/christmas/clip.mp4', '2023/christmas/IMG_0001.JPG']],
      ['a day, American order', 'December 25, 2023', ['2023/christmas/IMG_0002.JPG']],
      ['a day in Spanish', '24 de diciembre de 2023', ['2023/christmas/clip.mp4', '2023/christmas/IMG_0001.JPG']],
      ['a day in French', '25 décembre 2023', ['2023/christmas/IMG_0002.JPG']],
      ['a day in Polish', '25 grudnia 2023', ['2023/christmas/IMG_0002.JPG']],
      ['a day in Turkish', '14 Temmuz 2023', ['2023/summer/tram.jpg']],
      ['a day with dots', '24.12.2023', ['2023/christmas/clip.mp4', '2023/christmas/IMG_0001.JPG']],
      ['a day with slashes', '15/07/2023', ['2023/summer/beach.jpg']],
      ['a month, ISO', '2023-07', ['2023/summer/beach.jpg', '2023/summer/tram.jpg']],
      ['a day, ISO', '2023-12-25', ['2023/christmas/IMG_0002.JPG']],
      ['a month of any year', 'july', ['2024/secret-trip/alfama.jpg', '2023/summer/beach.jpg', '2023/summer/tram.jpg']],
      ['no real day', '31.02.2023', []],
      ['words that match apart but not together', 'canon lisbon', []],
    ];
    for (const [what, query, expected] of cases) {
      it(`should find by ${what} ("${query}")`, async () => {
        const t = tree();
        const { library } = await libraryOf(t);
        const answer = library.search([t.christmas, t.lisbon, t.secret], query, 1);
        expect(names(answer.results)).to.deep.equal(expected);
        expect(answer.total).to.equal(expected.length);
      });
    }

    it('should list the albums matched by their own words', async () => {
      const t = tree();
      const { library } = await libraryOf(t);
      expect(library.search([t.christmas, t.lisbon, t.secret], 'summer', 1).albums).to.deep.equal([t.lisbon]);
      expect(library.search([t.christmas, t.lisbon], 'december 2023', 1).albums).to.deep.equal([]);
    });

    it('should answer from the albums asked about only: a locked album’s words find nothing', async () => {
      const t = tree();
      const { library } = await libraryOf(t);
      const visible = [t.christmas, t.lisbon, t.secret];
      const nothing = library.search(visible, 'qqqq', 1);
      for (const query of ['surprise', 'cake', 'party 2021', 'locked']) expect(library.search(visible, query, 1)).to.deep.equal(nothing);
    });

    it('should not find an album by the title of a locked album above it', async () => {
      const root = node('', undefined);
      const parent = node('family', root, { title: 'Zanzibar wedding', password: 'pw' });
      const child = node('guests', parent, { title: 'Guests', password: 'other' }, ['a.jpg']) as Album;
      const records = new Map([['family/guests', new Map([['a.jpg', fact('2020-05-05T10:00:00')]])]]);
      const index = new TreeIndex(root);
      const library = createLibrary({ index, readFacts: async (path) => records.get(path) ?? new Map(), log: quietLogger });
      await library.ready();
      expect(library.search([child], 'zanzibar', 1).total).to.equal(0);
      expect(library.search([child, parent as Album], 'zanzibar', 1).total).to.equal(1);
      expect(library.search([child], 'guests', 1).total).to.equal(1);
    });

    it('should give 60 results a page, newest first, and nothing past the last page', async () => {
      const root = node('', undefined);
      const files = Array.from({ length: 130 }, (_, i) => `p${String(i).padStart(3, '0')}.jpg`);
      const big = node('big', root, { title: 'Big' }, files) as Album;
      const record = new Map(files.map((name, i) => [name, fact(new Date(Date.UTC(2022, 0, 1) + i * 60_000).toISOString().slice(0, 19))]));
      const index = new TreeIndex(root);
      const library = createLibrary({ index, readFacts: async () => record, log: quietLogger });
      await library.ready();
      const pages = [1, 2, 3, 4].map((page) => library.search([big], 'p', page));
      expect(pages.map((p) => p.results.length)).to.deep.equal([60, 60, 10, 0]);
      expect(pages[0]?.total).to.equal(130);
      expect(pages[0]?.results[0]?.item.name).to.equal('p129.jpg');
      expect(pages[2]?.results[9]?.item.name).to.equal('p000.jpg');
    });
  });
});
