import { expect } from 'chai';
import request from 'supertest';
import { SEARCH_ALBUM_CARDS } from '../../server/public/pages/search-results.js';
import { GalleryFixture } from '../support/gallery-fixture.js';

/**
 * A word found in many albums' titles: the cards above the results are the first
 * SEARCH_ALBUM_CARDS, and the heading and the API say how many there are (a word in half a
 * library's titles would otherwise put thousands of cards before the first photo).
 */
describe('search: the albums found by their title', function () {
  this.timeout(60_000);
  const ALBUMS = SEARCH_ALBUM_CARDS + 3;
  const paths = Array.from({ length: ALBUMS }, (_, i) => `trips/sea-${String(i).padStart(2, '0')}`);
  let fx: GalleryFixture;

  before(async () => {
    fx = await new GalleryFixture().build(Object.fromEntries(paths.map((p, i) => [p, { meta: { title: `Sea trip ${i}` }, files: [`shore${i}.jpg`] }])));
    await fx.start();
    for (const p of paths) await fx.knownFacts(p);
  });
  after(() => fx.close());

  it('should answer the first cards and how many albums were found, on the first page only', async () => {
    const first = await request(fx.gallery.handler).get('/api/search?q=sea').expect(200);
    expect(first.body.albums).to.have.length(SEARCH_ALBUM_CARDS);
    expect(first.body.albumsTotal).to.equal(ALBUMS);
    expect(first.body.total).to.equal(ALBUMS);
    const second = await request(fx.gallery.handler).get('/api/search?q=sea&page=2').expect(200);
    expect(second.body.albums).to.deep.equal([]);
    expect(second.body.albumsTotal).to.equal(0);
  });

  it('should show as many cards on the page, under a heading that says how many there are', async () => {
    const page = await request(fx.gallery.handler).get('/search?q=sea').set('Accept-Language', 'en').expect(200);
    expect(page.text.match(/<li class="card/g) ?? []).to.have.length(SEARCH_ALBUM_CARDS);
    expect(page.text).to.include(`Albums (${SEARCH_ALBUM_CARDS} of ${ALBUMS})`);
    const few = await request(fx.gallery.handler).get('/search?q=sea+trip+3').set('Accept-Language', 'en').expect(200);
    expect(few.text).to.match(/<h2 id="albums-heading">Albums<\/h2>/);
  });
});
