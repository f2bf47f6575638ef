import { expect } from 'chai';
import request from 'supertest';
import { accessCookie, type GalleryFixture } from '../support/gallery-fixture.js';
import { datedGallery, exifDate, linksCookie, shareLink, todayYearsAgo } from './dated-gallery.js';

/**
 * /timeline, /api/timeline and /api/on-this-day × every visitor state: a locked or hidden
 * album's files, paths, months and counts appear only to a visitor the one rule
 * (albumsVisibleTo) lets in. Photos "on this day" are taken a multiple of four years ago, so a
 * 29 February has its day in each of those years.
 */
describe('timeline and on this day: only what the visitor may open', function () {
  this.timeout(60_000);
  const grandma = shareLink();
  const revoked = shareLink({ revoked: '2024-06-01T00:00:00Z' });
  const expired = shareLink({ expires: '2020-01-01' });
  const hiddenLink = shareLink();
  /** album → file → date taken, as written into the photos. */
  const files = {
    'open/beach': { 'sunset.jpg': exifDate(2023, 8, 2, 19), 'today4.jpg': todayYearsAgo(4) },
    'open/city': { 'tram.jpg': exifDate(2021, 4, 10), 'today8.jpg': todayYearsAgo(8) },
    'vault/secret': { 'quokka.jpg': exifDate(2019, 7, 4), 'today12.jpg': todayYearsAgo(12) },
    'open/narwhal-trip': { 'fjord.jpg': exifDate(2017, 2, 2), 'today16.jpg': todayYearsAgo(16) },
  } as const;
  let fx: GalleryFixture;

  before(async () => {
    fx = await datedGallery({
      'open/beach': { meta: { title: 'Beach days' }, files: files['open/beach'] },
      'open/city': { meta: { title: 'City' }, files: files['open/city'] },
      'vault/secret': {
        meta: { title: 'Zebra wedding', password: 'pw', allowAnonymous: true, shareLinks: [grandma, revoked, expired] },
        files: files['vault/secret'],
      },
      'open/narwhal-trip': { meta: { title: 'Ocean', hidden: true, shareLinks: [hiddenLink] }, files: files['open/narwhal-trip'] },
    });
  });
  after(() => fx.close());

  type Opens = 'secret' | 'hidden' | 'none';
  const states: { who: string; headers: () => Record<string, string>; query?: () => string; opens: Opens }[] = [
    { who: 'an anonymous visitor', headers: () => ({}), opens: 'none' },
    { who: 'a visitor with the password’s cookie', headers: () => ({ Cookie: accessCookie([fx.token('vault/secret')]) }), opens: 'secret' },
    { who: 'a visitor with the album’s token in the address', headers: () => ({}), query: () => `token=${fx.token('vault/secret')}`, opens: 'secret' },
    { who: 'a visitor with a per-person link', headers: () => ({ Cookie: linksCookie([grandma.id]) }), opens: 'secret' },
    { who: 'a visitor with a revoked link', headers: () => ({ Cookie: linksCookie([revoked.id]) }), opens: 'none' },
    { who: 'a visitor with an expired link', headers: () => ({ Cookie: linksCookie([expired.id]) }), opens: 'none' },
    { who: 'a visitor with the hidden album’s link', headers: () => ({ Cookie: linksCookie([hiddenLink.id]) }), opens: 'hidden' },
  ];

  /** The files a visitor opening `opens` may see: path → date taken, newest first. */
  function expected(opens: Opens): [string, string][] {
    const albums: (keyof typeof files)[] = ['open/beach', 'open/city'];
    if (opens === 'secret') albums.push('vault/secret');
    if (opens === 'hidden') albums.push('open/narwhal-trip');
    const all = albums.flatMap((album) => Object.entries(files[album]).map(([name, taken]): [string, string] => [`${album}/${name}`, taken]));
    return all.sort((a, b) => (a[1] < b[1] ? 1 : -1));
  }
  const monthsOf = (dated: [string, string][]) => {
    const counts = new Map<string, number>();
    for (const [, taken] of dated) counts.set(taken.slice(0, 7).replace(':', '-'), (counts.get(taken.slice(0, 7).replace(':', '-')) ?? 0) + 1);
    return [...counts].sort((a, b) => (a[0] < b[0] ? 1 : -1)).map(([month, count]) => ({ month, count }));
  };
  const today = new Date();
  const takenToday = (taken: string) => taken.slice(5, 10) === `${String(today.getMonth() + 1).padStart(2, '0')}:${String(today.getDate()).padStart(2, '0')}`;

  const get = (path: string, state: (typeof states)[number]) => {
    const q = state.query?.();
    return request(fx.gallery.handler)
      .get(q ? `${path}${path.includes('?') ? '&' : '?'}${q}` : path)
      .set(state.headers());
  };

  for (const state of states) {
    describe(state.who, () => {
      const secretText = /Zebra|quokka|vault|today12/;
      const hiddenText = /Ocean|narwhal|fjord|today16/;

      it('should list on /api/timeline only the files it may open, newest first, with their months', async () => {
        const res = await get('/api/timeline', state).expect(200);
        expect(res.headers['cache-control']).to.equal('private, no-store');
        const want = expected(state.opens);
        expect((res.body.files as { path: string }[]).map((f) => f.path)).to.deep.equal(want.map(([path]) => path));
        expect(res.body.total).to.equal(want.length);
        expect(res.body.months).to.deep.equal(monthsOf(want));
        expect(res.body.next).to.equal(undefined);
        expect(secretText.test(JSON.stringify(res.body))).to.equal(state.opens === 'secret');
        expect(hiddenText.test(JSON.stringify(res.body))).to.equal(state.opens === 'hidden');
      });

      it('should show on /timeline only the files, years and counts it may open', async () => {
        const res = await get('/timeline', state).expect(200);
        expect(res.headers['cache-control']).to.equal('private, no-store');
        const want = expected(state.opens);
        expect(res.text).to.include(`data-total="${want.length}"`);
        const shown = [...res.text.matchAll(/data-name="([^"]+)"/g)].map((m) => m[1]);
        expect(shown).to.deep.equal(want.map(([path]) => path));
        const years = [...res.text.matchAll(/data-year="(\d{4})"/g)].map((m) => m[1]);
        expect(years).to.deep.equal([...new Set(want.map(([, taken]) => taken.slice(0, 4)))]);
        expect(secretText.test(res.text)).to.equal(state.opens === 'secret');
        expect(hiddenText.test(res.text)).to.equal(state.opens === 'hidden');
      });

      it('should show on this day only the files it may open', async () => {
        const res = await get('/api/on-this-day', state).expect(200);
        expect(res.headers['cache-control']).to.equal('private, no-store');
        const want = expected(state.opens).filter(([, taken]) => takenToday(taken));
        const years = res.body.years as { year: number; yearsAgo: number; label: string; files: { path: string; url: string }[] }[];
        expect(years.flatMap((y) => y.files.map((f) => f.path))).to.deep.equal(want.map(([path]) => path));
        for (const y of years) {
          expect(y.yearsAgo).to.equal(today.getFullYear() - y.year);
          expect(y.label).to.equal(`${y.yearsAgo} years ago`);
        }
        expect(secretText.test(JSON.stringify(res.body))).to.equal(state.opens === 'secret');
        expect(hiddenText.test(JSON.stringify(res.body))).to.equal(state.opens === 'hidden');
      });

      it('should find a file of the viewer’s list by its path only where it may open it', async () => {
        for (const path of ['vault/secret/quokka.jpg', 'open/narwhal-trip/fjord.jpg']) {
          const opens = path.startsWith('vault') ? state.opens === 'secret' : state.opens === 'hidden';
          const res = await get(`/api/timeline?for=viewer&name=${encodeURIComponent(path)}`, state).expect(200);
          const names = (res.body.items as { name: string }[]).map((i) => i.name);
          expect(names.includes(path), path).to.equal(opens);
          // Not found: the first page, as for a name nobody has.
          if (!opens) {
            const nobody = await get(`/api/timeline?for=viewer&name=${encodeURIComponent('open/beach/nobody.jpg')}`, state).expect(200);
            expect(res.body).to.deep.equal(nobody.body);
          }
        }
      });
    });
  }

  describe('the welcome page', () => {
    it('should stay one page for everyone, with an empty hidden section its script fills', async () => {
      const anonymous = await request(fx.gallery.handler).get('/').expect(200);
      const unlocked = await request(fx.gallery.handler)
        .get('/')
        .set('Cookie', accessCookie([fx.token('vault/secret')]))
        .expect(200);
      expect(anonymous.text).to.equal(unlocked.text);
      expect(anonymous.text).to.match(/<section class="on-this-day" id="on-this-day"[^>]* hidden>/);
      expect(anonymous.text).to.match(/<script type="module" src="\/assets\/on-this-day\.js\?v=[^"]+"><\/script>/);
      expect(anonymous.text).not.to.match(/today\d+\.jpg/);
    });

    it('should say how long ago in the visitor’s language, with its plural rules', async () => {
      const res = await request(fx.gallery.handler).get('/api/on-this-day').set('Cookie', 'lang=pl').expect(200);
      expect(res.headers.vary).to.match(/Cookie/i);
      const labels = new Map((res.body.years as { yearsAgo: number; label: string }[]).map((y) => [y.yearsAgo, y.label]));
      expect([labels.get(4), labels.get(8)]).to.deep.equal(['4 lata temu', '8 lat temu']);
    });
  });
});
