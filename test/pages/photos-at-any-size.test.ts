import { expect } from 'chai';
import request from 'supertest';
import { fairShares, MAX_CARDS_PER_PAGE } from '../../server/public/pages/photos-outline.js';
import { type LibraryAlbum, writeLibrary, yearsOfAlbums } from '../support/album-library.js';
import { GalleryFixture } from '../support/gallery-fixture.js';

/** The cards of a page: each one's link, in page order. */
const cardLinks = (html: string): string[] => [...html.matchAll(/<li class="card[^"]*"><a href="([^"]+)"/g)].map((m) => m[1]!);
/** The "All N albums" links under the sections of /photos: text → address. */
const moreLinks = (html: string): Map<string, string> =>
  new Map([...html.matchAll(/<p class="tree-more"><a [^>]*href="([^"]+)">([^<]+) →<\/a>/g)].map((m) => [m[2]!, m[1]!.replaceAll('&amp;', '&')]));
/** The cards of one section of /photos (its own list, not its sub-sections'). */
const sectionCards = (html: string, anchor: string): string[] => {
  const start = html.indexOf(`id="${anchor}"`);
  expect(start, anchor).to.be.greaterThan(0);
  const list = /<ul class="cards[^"]*">([\s\S]*?)<\/ul>/.exec(html.slice(start));
  return cardLinks(list?.[1] ?? '');
};
const KB = 1024;

async function libraryGallery(albums: readonly LibraryAlbum[]): Promise<{ fx: GalleryFixture; app: ReturnType<typeof request> }> {
  const fx = new GalleryFixture();
  await fx.build({});
  await writeLibrary(fx.albumsDir, albums);
  await fx.start();
  return { fx, app: request(fx.gallery.handler) };
}

describe('/photos and folder pages at any size (server/public/pages/photos-outline.ts)', function () {
  this.timeout(120_000);

  describe('fairShares', () => {
    it('should give small parts what they want and share the rest equally, never more than the budget', () => {
      expect(fairShares([0, 2, 50, 100], 60)).to.deep.equal([0, 2, 29, 29]);
      expect(fairShares([10, 10, 10], 150)).to.deep.equal([10, 10, 10]);
      const shares = fairShares([7, 300, 300, 300, 3000], 150);
      expect(shares.reduce((a, b) => a + b)).to.be.at.most(150);
      expect(shares[0]).to.equal(7);
      expect(Math.max(...shares.slice(1)) - Math.min(...shares.slice(1)), 'the big parts get the same, within a card').to.be.at.most(1);
    });
  });

  describe(`a family's library of up to ${MAX_CARDS_PER_PAGE} albums`, () => {
    let fx: GalleryFixture;
    let app: ReturnType<typeof request>;
    before(async () => ({ fx, app } = await libraryGallery(yearsOfAlbums(2024, 3, 5, 10))));
    after(() => fx.close());

    it('should be shown whole, in the tree order, with no "All albums" link', async () => {
      const html = (await app.get('/photos').expect(200)).text;
      expect(cardLinks(html)).to.have.length(150);
      expect(moreLinks(html).size).to.equal(0);
      expect(sectionCards(html, 's-2024-category-0').slice(0, 3)).to.deep.equal([
        '/photos/2024/category-0/album-0000',
        '/photos/2024/category-0/album-0001',
        '/photos/2024/category-0/album-0002',
      ]);
    });
  });

  describe('a library a little past the limit', () => {
    let fx: GalleryFixture;
    let app: ReturnType<typeof request>;
    before(async () => ({ fx, app } = await libraryGallery(yearsOfAlbums(2024, 4, 4, 10))));
    after(() => fx.close());

    it('should keep its years and categories, each showing most of its albums and linking to its page', async () => {
      const html = (await app.get('/photos').expect(200)).text;
      const cards = cardLinks(html);
      // 37 or 38 cards a year, 9 or 10 a category.
      expect(cards).to.have.length(150);
      expect(sectionCards(html, 's-2022-category-0')).to.have.length(9);
      expect(sectionCards(html, 's-2022-category-3')).to.have.length(10);
      const more = moreLinks(html);
      expect(more.get('All 10 albums of Category-0')).to.equal('/photos/2021/category-0');
      // A year holding only categories has no link of its own: each category cut short has one.
      expect(more.has('All 40 albums of 2022')).to.equal(false);
    });
  });

  describe('a library of 6,000 albums', () => {
    let fx: GalleryFixture;
    let app: ReturnType<typeof request>;
    /** The size of /photos on 500 albums of the same shape, for comparison. */
    let smallPage = 0;

    before(async () => {
      const albums = yearsOfAlbums(2024, 10, 10, 30).map((a): LibraryAlbum => {
        // Some albums of 2024 dated: a year's newest are those, newest first.
        const dated: Record<string, string> = { 'category-3/album-0005': '2024-08-01', 'category-7/album-0017': '2024-11-20', 'category-9/album-0029': '2024' };
        const date = a.path.startsWith('2024/') ? dated[a.path.slice(5)] : undefined;
        if (a.path === '2023/category-0/album-0000') return { ...a, meta: { password: 'secret' } };
        return date ? { ...a, meta: { date } } : a;
      });
      const big = Array.from({ length: 3000 }, (_, i): LibraryAlbum => ({ path: `2010/big/album-${String(i).padStart(4, '0')}`, title: `Big ${i}` }));
      const guarded: LibraryAlbum[] = [
        // The newest date of all, but hidden: never listed.
        { path: '2024/category-0/hidden-one', title: 'Hidden one', meta: { hidden: true, date: '2024-12-31' } },
        // A padlock and what is inside it: only the padlock, however the year is cut.
        { path: '2023/category-0/album-0000/secret-child', title: 'Secret child', meta: { date: '2023-12-31' } },
      ];
      ({ fx, app } = await libraryGallery([...albums, ...big, ...guarded]));
      const small = await libraryGallery(yearsOfAlbums(2024, 5, 10, 10));
      smallPage = (await small.app.get('/photos').expect(200)).text.length;
      await small.fx.close();
    });
    after(() => fx.close());

    it(`should show at most ${MAX_CARDS_PER_PAGE} cards, a page as light as one of 500 albums`, async () => {
      const html = (await app.get('/photos').expect(200)).text;
      expect(cardLinks(html).length).to.be.within(MAX_CARDS_PER_PAGE - 11, MAX_CARDS_PER_PAGE);
      expect(html.length).to.be.below(300 * KB);
      expect(html.length).to.be.below(smallPage * 1.1);
    });

    it('should show each year newest first (dated albums, then the tree order) and link to all of its albums', async () => {
      const html = (await app.get('/photos').expect(200)).text;
      expect(sectionCards(html, 's-2024').slice(0, 5)).to.deep.equal([
        '/photos/2024/category-7/album-0017',
        '/photos/2024/category-3/album-0005',
        '/photos/2024/category-9/album-0029',
        '/photos/2024/category-0/album-0000',
        '/photos/2024/category-0/album-0001',
      ]);
      const more = moreLinks(html);
      expect(more.get('All 300 albums of 2024')).to.equal('/photos/2024');
      // 2010 holds one folder: the link is that folder's.
      expect(more.get('All 3,000 albums of Big')).to.equal('/photos/2010/big');
      expect(more.size).to.equal(11);
    });

    it('should leave out hidden albums and what is inside a padlock, as a whole tree does', async () => {
      const html = (await app.get('/photos').expect(200)).text;
      expect(html).to.not.include('Hidden one').and.not.include('Secret child').and.not.include('secret-child');
    });

    it('should list a folder of 3,000 albums 150 a page, linking the pages', async () => {
      const first = (await app.get('/photos/2010/big').expect(200)).text;
      expect(cardLinks(first)).to.have.length(150);
      expect(cardLinks(first)[0]).to.equal('/photos/2010/big/album-0000');
      expect(first).to.include('Page 1 of 20').and.include('href="/photos/2010/big?page=2"');
      expect(first.length).to.be.below(400 * KB);
      const last = (await app.get('/photos/2010/big?page=20').expect(200)).text;
      expect(cardLinks(last)).to.have.length(150);
      expect(cardLinks(last).at(-1)).to.equal('/photos/2010/big/album-2999');
      expect(last).to.include('href="/photos/2010/big?page=19"').and.not.include('rel="next"');
      for (const page of ['21', '0', 'x', '1.5']) await app.get(`/photos/2010/big?page=${page}`).expect(404);
    });

    it('should keep a page of a folder for every visitor, by page', async () => {
      const res = await app.get('/photos/2010/big?page=2').expect(200);
      await app.get('/photos/2010/big?page=2').set('If-None-Match', res.headers.etag!).expect(304);
      expect(cardLinks(res.text)[0]).to.equal('/photos/2010/big/album-0150');
    });
  });

  describe('a library of 400 albums at the top, and no folders', () => {
    let fx: GalleryFixture;
    let app: ReturnType<typeof request>;
    before(
      async () =>
        ({ fx, app } = await libraryGallery(Array.from({ length: 400 }, (_, i) => ({ path: `event-${String(i).padStart(3, '0')}`, title: `Event ${i}` })))),
    );
    after(() => fx.close());

    it('should show the first 150 on /photos and link to all of them at /photos?all, a page at a time', async () => {
      const html = (await app.get('/photos').expect(200)).text;
      expect(cardLinks(html)).to.have.length(150);
      expect([...moreLinks(html)]).to.deep.equal([['All 400 albums', '/photos?all']]);
      const all = (await app.get('/photos?all').expect(200)).text;
      expect(all).to.include('<h1>All albums</h1>').and.include('<meta property="og:title" content="All albums">').and.include('Page 1 of 3');
      expect(cardLinks(all)).to.have.length(150);
      expect(cardLinks((await app.get('/photos?all&page=3').expect(200)).text)).to.have.length(100);
      await app.get('/photos?all&page=4').expect(404);
    });
  });
});
