import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import { newShareLinkId } from '../../server/core/albums/share-links.js';
import { MEDIA_PER_PAGE } from '../../server/public/pages/media-items.js';
import { accessCookie, GalleryFixture } from '../support/gallery-fixture.js';

const HOUR = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();
const link = (name: string, extra: Record<string, unknown> = {}) => ({
  id: newShareLinkId(),
  name,
  created: iso(Date.now() - HOUR),
  downloads: true,
  ...extra,
});
/** The `album-links` cookie as the server writes it. */
const linksCookie = (ids: readonly string[]) => `album-links=${encodeURIComponent(JSON.stringify(ids))}`;
const q = encodeURIComponent;

type Item = { name: string; path: string; index: number };
const pathsOf = (body: { items: Item[] }) => body.items.map((i) => i.path);
const attribute = (html: string, name: string) => new RegExp(`${name}="([^"]*)"`).exec(html)?.[1];
const unescaped = (text: string | undefined) => text?.replaceAll('&amp;', '&').replaceAll('&#34;', '"');

/**
 * The photo frame's addresses over the real app and a real tree (docs/api.md#photo-frame):
 * `/frame/<path>` and `/s/<id>/frame` answer as the album page does for every visitor state
 * (anonymous, cookie, URL token, share link, revoked link, hidden album), and
 * `/api/frame-media` lists a folder's photos by the one rule of views across albums.
 */
describe('photo frame: pages and lists', function () {
  this.timeout(60_000);
  const fx = new GalleryFixture();
  const grandma = link('Grandma');
  const revoked = link('Old', { revoked: iso(Date.now() - HOUR) });
  const oma = link('Oma', { language: 'de' });
  let ip = 1;
  const get = (url: string, cookies: readonly string[] = []) => {
    const r = request(fx.gallery.handler).get(url).set('X-Forwarded-For', `203.0.113.${ip++}`);
    return cookies.length ? r.set('Cookie', cookies.join('; ')) : r;
  };

  before(async () => {
    await fx.build({
      '2024/summer': { meta: { title: 'Summer by the sea', captions: { 'a.jpg': 'Sandcastle' } }, files: ['a.jpg', 'b.jpg'] },
      '2024/locked': { meta: { title: 'Locked title', password: 'pw', token: 'locked-token', shareLinks: [grandma, revoked, oma] }, files: ['c.jpg'] },
      '2024/locked/kid': { meta: { title: 'Kid title' }, files: ['k.jpg'] },
      '2024/hidden': { meta: { title: 'Hidden title', hidden: true, token: 'hidden-token-0123456789' }, files: ['h.jpg'] },
      '2024/anon': { meta: { title: 'Anon title', password: 'pw2', allowAnonymous: true, token: 'anon-token-0123456789' }, files: ['n.jpg'] },
      big: { meta: { title: 'Big' }, files: ['first.jpg'] },
      'big/one': { meta: { title: 'One' } },
      'big/two': { meta: { title: 'Two' } },
    });
    // 205 photos in two albums below `big`: the folder's list spans two pages.
    const photo = fx.path('big/first.jpg');
    for (let i = 0; i < 150; i++) fs.copyFileSync(photo, path.join(fx.path('big/one'), `p${i}.jpg`));
    for (let i = 0; i < 55; i++) fs.copyFileSync(photo, path.join(fx.path('big/two'), `q${i}.jpg`));
    fs.rmSync(photo);
    await fx.start({ env: { TRUST_PROXY: '1' } });
  });
  after(() => fx.close());

  describe('GET /frame/<path>', () => {
    it("should show an album's frame reading the album-media API, with its options from the address", async () => {
      const res = await get('/frame/2024/summer').expect(200).expect('Content-Type', /html/);
      expect(unescaped(attribute(res.text, 'data-source'))).to.equal(`/api/album-media?path=${q('2024/summer')}`);
      expect(res.text).to.include('Summer by the sea').and.include('data-interval="10"').and.include('data-shuffle="0"');
      expect(res.text).to.include('data-caption="1"').and.include('data-date="1"');
      expect(res.headers['cache-control']).to.equal('no-cache');
      expect(res.headers['content-security-policy']).to.match(/script-src 'self'/);
      expect(res.headers.vary).to.match(/Accept-Language/);
      // The close button goes back to the album page.
      expect(res.text).to.include('href="/photos/2024/summer" data-frame-close');

      const chosen = await get('/frame/2024/summer?interval=30&shuffle=1&caption=0&date=false').expect(200);
      expect(chosen.text).to.include('data-interval="30"').and.include('data-shuffle="1"').and.include('data-caption="0"').and.include('data-date="0"');
      expect(chosen.text).to.match(/<option value="30" selected>/);
      // A typo on a TV's keyboard never breaks the frame: the defaults stand in.
      const typo = await get('/frame/2024/summer?interval=abc&shuffle=maybe').expect(200);
      expect(typo.text).to.include('data-interval="10"').and.include('data-shuffle="0"');
      // A short test interval is taken, and offered in the settings beside the usual ones.
      const fast = await get('/frame/2024/summer?interval=0.05').expect(200);
      expect(fast.text)
        .to.include('data-interval="0.05"')
        .and.match(/<option value="0.05" selected>/);
    });

    it("should show a folder's frame reading the frame-media API, and the whole gallery's at /frame", async () => {
      const folder = await get('/frame/2024').expect(200);
      expect(unescaped(attribute(folder.text, 'data-source'))).to.equal(`/api/frame-media?path=2024`);
      const all = await get('/frame').expect(200);
      expect(unescaped(attribute(all.text, 'data-source'))).to.equal('/api/frame-media?path=');
    });

    it('should take another list of this site’s API as its source, and nothing else', async () => {
      const source = '/api/album-media?path=2024%2Fsummer';
      const fed = await get(`/frame?source=${q(source)}&back=${q('/photos/2024')}`).expect(200);
      expect(unescaped(attribute(fed.text, 'data-source'))).to.equal(source);
      expect(fed.text).to.include('href="/photos/2024" data-frame-close');
      expect(fed.headers['cache-control']).to.equal('no-store');
      for (const bad of ['https://elsewhere.example/api/x', '//elsewhere.example/api/x', '/photos/2024', '/api/\\x']) {
        const res = await get(`/frame?source=${q(bad)}&back=${q('//elsewhere.example/')}`).expect(200);
        expect(unescaped(attribute(res.text, 'data-source'))).to.equal('/api/frame-media?path=');
        expect(res.text).to.include('href="/photos" data-frame-close');
      }
    });

    it('should answer a locked album, its child and a guessed path below it with the same password form, coming back to the frame', async () => {
      const forms = await Promise.all(['2024/locked', '2024/locked/kid', '2024/locked/nothing-here'].map((p) => get(`/frame/${p}?interval=30`).expect(200)));
      for (const [i, res] of forms.entries()) {
        expect(res.text).to.include('action="/api/unlock"').and.include('name="albumPath" value="2024/locked"');
        expect(res.text).not.to.include('c.jpg').and.not.include('k.jpg').and.not.include('Kid title').and.not.include('data-source');
        expect(res.headers['cache-control']).to.equal('no-store');
        const back = ['/frame/2024/locked?interval=30', '/frame/2024/locked/kid?interval=30', '/frame/2024/locked/nothing-here?interval=30'][i];
        expect(res.text).to.include(`name="returnUrl" value="${back}"`);
      }
      await get('/frame/no-such-album').expect(404);
      await get('/frame/2024/.hidden-dir').expect(404);
    });

    it('should come back to the frame once the password is given', async () => {
      const res = await request(fx.gallery.handler)
        .post('/api/unlock')
        .set('X-Forwarded-For', '203.0.113.250')
        .type('form')
        .send({ albumPath: '2024/locked', password: 'pw', returnUrl: '/frame/2024/locked?interval=30' })
        .expect(302);
      expect(res.headers.location).to.equal('/frame/2024/locked?interval=30');
    });

    it('should open a locked album for a visitor holding its token, and never keep its page', async () => {
      const res = await get('/frame/2024/locked', [accessCookie(['locked-token'])]).expect(200);
      expect(unescaped(attribute(res.text, 'data-source'))).to.equal(`/api/album-media?path=${q('2024/locked')}`);
      expect(res.headers['cache-control']).to.equal('no-store');
    });

    it('should open an album through its URL token and put the token in the cookie for the list it reads', async () => {
      const res = await get('/frame/2024/anon?token=anon-token-0123456789').expect(200);
      expect(res.text).to.include('data-source');
      const cookie = ([] as string[]).concat(res.headers['set-cookie'] ?? []).find((c) => c.startsWith('album-access='));
      expect(cookie && decodeURIComponent(cookie)).to.include('anon-token-0123456789');
    });

    it('should offer the frame in the album header', async () => {
      const page = await get('/photos/2024/summer').expect(200);
      expect(page.text).to.match(/<a class="button button--ghost button--frame" href="\/frame\/2024\/summer">/);
    });
  });

  describe('GET /s/<id>/frame', () => {
    it("should show the link's album as a frame, hold the link in the cookie and count the visit as the link's page does", async () => {
      const agent = request.agent(fx.gallery.handler);
      const res = await agent.get(`/s/${grandma.id}/frame?interval=60`).set('User-Agent', 'grandmas-tv').expect(200);
      expect(unescaped(attribute(res.text, 'data-source'))).to.equal(`/api/album-media?path=${q('2024/locked')}`);
      expect(res.text).to.include(`href="/s/${grandma.id}" data-frame-close`).and.include('data-interval="60"');
      expect(res.headers['cache-control']).to.equal('no-store');
      // The list the frame reads opens with the cookie the frame page set.
      const list = await agent.get(`/api/album-media?path=${q('2024/locked')}`).expect(200);
      expect(pathsOf(list.body)).to.deep.equal(['2024/locked/c.jpg']);
      await fx.gallery.linkUsage.flush();
      expect((await fx.gallery.linkUsage.read()).get(grandma.id)?.visits).to.equal(1);
    });

    it("should be written in the link's language, as the link's page is", async () => {
      const res = await get(`/s/${oma.id}/frame`).set('Accept-Language', 'en').expect(200);
      expect(res.text).to.include('<html lang="de"').and.include('Bilderrahmen: Locked title');
    });

    it('should say that a revoked or unknown link no longer works, as its page does', async () => {
      for (const id of [revoked.id, newShareLinkId()]) {
        const res = await get(`/s/${id}/frame`).expect(404);
        expect(res.text).to.include('This link no longer works');
        expect(res.text).not.to.include('Locked title').and.not.include('data-source');
        expect(res.headers['set-cookie']).to.equal(undefined);
      }
    });
  });

  describe('GET /api/frame-media', () => {
    const frameMedia = (p: string, cookies: readonly string[] = [], extra = '') => get(`/api/frame-media?path=${q(p)}${extra}`, cookies);

    it('should list only what an anonymous visitor may open: no locked album, no hidden one', async () => {
      const res = await frameMedia('2024').expect(200);
      expect(pathsOf(res.body)).to.deep.equal(['2024/summer/a.jpg', '2024/summer/b.jpg']);
      expect(res.body).to.include({ total: 2, page: 1, pages: 1, path: '2024' });
      expect(res.body.items[0].caption).to.equal('Sandcastle');
      for (const secret of ['Locked title', 'Kid title', 'Hidden title', 'Anon title', 'c.jpg', 'k.jpg', 'h.jpg', 'n.jpg'])
        expect(res.text).not.to.include(secret);
      expect(res.headers['cache-control']).to.equal('no-cache');
    });

    it('should add a locked album for a visitor holding its token, and keep such a list private', async () => {
      const res = await frameMedia('2024', [accessCookie(['locked-token'])]).expect(200);
      expect(pathsOf(res.body)).to.deep.equal(['2024/locked/c.jpg', '2024/locked/kid/k.jpg', '2024/summer/a.jpg', '2024/summer/b.jpg']);
      expect(res.headers['cache-control']).to.equal('private, no-store');
    });

    it('should add what a live share link opens, and nothing for a revoked one', async () => {
      const viaLink = await frameMedia('2024', [linksCookie([grandma.id])]).expect(200);
      expect(pathsOf(viaLink.body)).to.include.members(['2024/locked/c.jpg', '2024/locked/kid/k.jpg']);
      const viaRevoked = await frameMedia('2024', [linksCookie([revoked.id])]).expect(200);
      expect(pathsOf(viaRevoked.body)).to.deep.equal(['2024/summer/a.jpg', '2024/summer/b.jpg']);
    });

    it('should show a hidden album only to a visitor holding a key of its own', async () => {
      const res = await frameMedia('2024', [accessCookie(['hidden-token-0123456789'])]).expect(200);
      expect(pathsOf(res.body)).to.include('2024/hidden/h.jpg');
      const token = await frameMedia('2024', [], '&token=anon-token-0123456789').expect(200);
      expect(pathsOf(token.body)).to.include('2024/anon/n.jpg').and.not.include('2024/hidden/h.jpg');
    });

    it('should answer a locked folder and a guessed path below it alike, and refuse bad parameters', async () => {
      const locked = await frameMedia('2024/locked').expect(401);
      const guessed = await frameMedia('2024/locked/nothing-here').expect(401);
      expect(guessed.body).to.deep.equal(locked.body);
      expect(locked.body.error).to.be.a('string');
      expect((await frameMedia('nothing-here').expect(404)).body.error).to.be.a('string');
      expect((await frameMedia('../etc').expect(400)).body.error).to.be.a('string');
      expect((await frameMedia('2024', [], '&page=0').expect(400)).body.error).to.be.a('string');
      expect((await frameMedia('2024', [], '&page=2').expect(404)).body.error).to.be.a('string');
    });

    it('should lay the albums end to end, a page of 200 at a time, their positions running on', async () => {
      const first = await frameMedia('big').expect(200);
      expect(first.body).to.include({ total: 205, pages: 2, perPage: MEDIA_PER_PAGE });
      expect(first.body.items).to.have.length(200);
      const second = await frameMedia('big', [], '&page=2').expect(200);
      const all = [...first.body.items, ...second.body.items] as Item[];
      expect(all.map((i) => i.index)).to.deep.equal([...Array(205).keys()]);
      expect(all.filter((i) => i.path.startsWith('big/one/'))).to.have.length(150);
      expect(all[149]!.path).to.equal('big/one/p149.jpg');
      expect(all[150]!.path).to.equal('big/two/q0.jpg');
    });
  });
});
