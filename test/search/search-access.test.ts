import { expect } from 'chai';
import request from 'supertest';
import { newShareLinkId } from '../../server/core/albums/share-links.js';
import { accessCookie, GalleryFixture } from '../support/gallery-fixture.js';

/** The `album-links` cookie as the server writes it. */
const linksCookie = (ids: readonly string[]) => `album-links=${encodeURIComponent(JSON.stringify(ids))}`;
const link = (extra: Record<string, unknown> = {}) => ({ id: newShareLinkId(), name: 'Grandma', created: '2024-05-01T10:00:00Z', downloads: true, ...extra });

/**
 * /search and /api/search × every visitor state: what a locked or hidden album holds (its
 * title, folder name, caption, file name, and its files in counts) appears only to a visitor
 * the one rule (albumsVisibleTo) lets in, and a query matching only locked things is answered
 * exactly as one matching nothing.
 */
describe('search: only what the visitor may open', function () {
  this.timeout(60_000);
  const grandma = link();
  const revoked = link({ revoked: '2024-06-01T00:00:00Z' });
  const expired = link({ expires: '2020-01-01' });
  const hiddenLink = link();
  let fx: GalleryFixture;

  before(async () => {
    fx = await new GalleryFixture().build({
      'open/beach': { meta: { title: 'Beach days' }, files: ['sunset.jpg'] },
      'open/city': { meta: { title: 'City' }, files: ['tram.jpg'] },
      'open/quiet': { meta: { title: 'Quiet weekend', hideLocation: true }, files: ['alfama.jpg'] },
      'vault/secret': {
        meta: {
          title: 'Zebra wedding',
          password: 'pw',
          allowAnonymous: true,
          captions: { 'quokka.jpg': 'Walrus dance' },
          shareLinks: [grandma, revoked, expired],
        },
        files: ['quokka.jpg'],
      },
      'open/narwhal-trip': { meta: { title: 'Ocean', hidden: true, shareLinks: [hiddenLink] }, files: ['fjord.jpg'] },
    });
    const gallery = await fx.start();
    for (const album of ['open/beach', 'open/city', 'open/quiet', 'vault/secret', 'open/narwhal-trip']) await fx.knownFacts(album);
    // Place names, as the preparation's geocoder writes them beside the other facts.
    for (const [album, name] of [
      ['open/city', 'tram.jpg'],
      ['open/quiet', 'alfama.jpg'],
    ] as const) {
      const node = gallery.index.album(album)!;
      await gallery.facts.records.amend(node, name, (s) => ({ ...s, places: ['Lisbon', 'Portugal'] }));
      await gallery.facts.save(node);
    }
  });
  after(() => fx.close());

  const secretWords = ['zebra', 'wedding', 'walrus dance', 'quokka', 'vault'];
  const hiddenWords = ['narwhal', 'ocean', 'fjord'];
  const states: { who: string; headers: () => Record<string, string>; query?: () => string; opens: 'secret' | 'hidden' | 'none' }[] = [
    { who: 'an anonymous visitor', headers: () => ({}), opens: 'none' },
    { who: 'a visitor with the password’s cookie', headers: () => ({ Cookie: accessCookie([fx.token('vault/secret')]) }), opens: 'secret' },
    { who: 'a visitor with the album’s token in the address', headers: () => ({}), query: () => `&token=${fx.token('vault/secret')}`, opens: 'secret' },
    { who: 'a visitor with a per-person link', headers: () => ({ Cookie: linksCookie([grandma.id]) }), opens: 'secret' },
    { who: 'a visitor with a revoked link', headers: () => ({ Cookie: linksCookie([revoked.id]) }), opens: 'none' },
    { who: 'a visitor with an expired link', headers: () => ({ Cookie: linksCookie([expired.id]) }), opens: 'none' },
    { who: 'a visitor with the hidden album’s link', headers: () => ({ Cookie: linksCookie([hiddenLink.id]) }), opens: 'hidden' },
  ];

  const api = (q: string, state: (typeof states)[number]) =>
    request(fx.gallery.handler)
      .get(`/api/search?q=${encodeURIComponent(q)}${state.query?.() ?? ''}`)
      .set(state.headers());
  const page = (q: string, state: (typeof states)[number]) =>
    request(fx.gallery.handler)
      .get(`/search?q=${encodeURIComponent(q)}${state.query?.() ?? ''}`)
      .set(state.headers());
  const withoutQuery = (body: Record<string, unknown>) => ({ ...body, query: undefined });

  for (const state of states) {
    describe(state.who, () => {
      for (const word of [...secretWords, ...hiddenWords]) {
        const opens = secretWords.includes(word) ? state.opens === 'secret' : state.opens === 'hidden';
        it(`should ${opens ? '' : 'not '}find "${word}" through /api/search`, async () => {
          const res = await api(word, state).expect(200);
          expect(res.headers['cache-control']).to.equal('private, no-store');
          if (opens) {
            expect(res.body.total).to.equal(1);
            return;
          }
          const nothing = await api('xyzzy', state).expect(200);
          expect(withoutQuery(res.body)).to.deep.equal(withoutQuery(nothing.body));
        });

        it(`should ${opens ? '' : 'not '}show "${word}" on /search`, async () => {
          const res = await page(word, state).expect(200);
          const shown = /Zebra wedding|quokka\.jpg|Walrus dance|vault\/secret|fjord\.jpg|narwhal-trip/.test(res.text);
          expect(shown).to.equal(opens);
          if (!opens) expect(res.text).to.include('Nothing found');
        });
      }

      it('should count only the files it may open', async () => {
        // Every file was written today: a query for this year matches them all, as dates.
        const year = String(new Date().getFullYear());
        const res = await api(year, state).expect(200);
        expect(res.body.total).to.equal(3 + (state.opens === 'none' ? 0 : 1));
        const paths = (res.body.results as { path: string }[]).map((r) => r.path);
        expect(paths.some((p) => p.startsWith('vault/'))).to.equal(state.opens === 'secret');
        expect(paths.some((p) => p.includes('narwhal'))).to.equal(state.opens === 'hidden');
      });

      it('should find a place only in albums that do not hide locations', async () => {
        const res = await api('lisbon', state).expect(200);
        expect((res.body.results as { path: string }[]).map((r) => r.path)).to.deep.equal(['open/city/tram.jpg']);
        expect(JSON.stringify(res.body)).not.to.match(/Lisbon|Portugal|position|places/);
      });
    });
  }

  describe('answers', () => {
    it('should give each result what a tile needs', async () => {
      const res = await api('sunset', states[0]!).expect(200);
      expect(res.body).to.include({ total: 1, page: 1, pages: 1, perPage: 60 });
      const [result] = res.body.results as Record<string, unknown>[];
      expect(result).to.include({
        path: 'open/beach/sunset.jpg',
        album: 'open/beach',
        albumTitle: 'Beach days',
        name: 'sunset.jpg',
        kind: 'image',
        width: 64,
        height: 48,
      });
      expect(result?.taken).to.match(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/);
      expect(result?.src).to.match(/^\/api\/thumbnail\?/);
      expect(res.body.albums).to.deep.equal([]);
    });

    it('should list albums found by their title', async () => {
      const res = await api('beach', states[0]!).expect(200);
      expect(res.body.albums).to.deep.equal([{ path: 'open/beach', title: 'Beach days', url: '/photos/open/beach' }]);
    });

    it('should refuse a query over 200 characters with a JSON 400', async () => {
      const res = await request(fx.gallery.handler)
        .get(`/api/search?q=${'a'.repeat(201)}`)
        .expect(400);
      expect(res.body).to.deep.equal({ error: 'Invalid parameter: q must be at most 200 characters' });
    });

    it('should refuse a page out of range with a JSON 400, and answer a page past the last empty', async () => {
      for (const bad of ['0', '-1', 'x', '1001']) {
        const res = await request(fx.gallery.handler).get(`/api/search?q=a&page=${bad}`).expect(400);
        expect(res.body).to.deep.equal({ error: 'Invalid parameter: page must be an integer from 1 to 1000' });
      }
      const past = await request(fx.gallery.handler).get('/api/search?q=sunset&page=5').expect(200);
      expect(past.body).to.include({ total: 1 });
      expect(past.body.results).to.deep.equal([]);
    });

    it('should ask for q', async () => {
      const res = await request(fx.gallery.handler).get('/api/search').expect(400);
      expect(res.body).to.deep.equal({ error: 'Missing required parameter: q' });
    });

    it('should show the search box in the header of every page, the query in it on /search', async () => {
      for (const path of ['/', '/home', '/photos', '/photos/open/beach']) {
        const res = await request(fx.gallery.handler).get(path);
        expect(res.text, path).to.match(/<form class="site-search" action="\/search"/);
      }
      const res = await request(fx.gallery.handler).get('/search?q=sunset').expect(200);
      expect(res.text).to.include('name="q" maxlength="200" value="sunset"');
      expect(res.text).to.include('data-name="open/beach/sunset.jpg"');
    });
  });
});
