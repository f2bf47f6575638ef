import { expect } from 'chai';
import request from 'supertest';
import { accessCookie, GalleryFixture } from '../support/gallery-fixture.js';

interface UnlockedAlbum {
  path: string;
  url: string;
  subtitle: string;
  cover: { src: string; srcset: string; webpSrcset: string; sizes: string } | null;
}

/**
 * `GET /api/unlocked-albums` (docs/api.md#get-apiunlocked-albums): which of the padlocks of
 * the cached /photos page this visitor has opened, through the one access resolver. It must
 * never say anything about an album the visitor cannot open.
 */
describe('GET /api/unlocked-albums', function () {
  this.timeout(30_000);
  const fx = new GalleryFixture();
  let app: ReturnType<typeof request>;

  before(async () => {
    await fx.build({
      '2024/open': { meta: { title: 'Open' }, files: ['o.jpg'] },
      // Protected albums nested in a public collection: /photos lists them as padlocks.
      '2024/family': { meta: { title: 'Family', isCollection: true } },
      '2024/family/wedding': { meta: { title: 'Wedding', password: 'pw', token: 't-wedding' }, files: ['kiss.jpg', 'cake.jpg'] },
      '2024/family/wedding/reception': { meta: { title: 'Reception', token: 't-reception' }, files: ['r.jpg'] },
      '2024/family/wedding/vip': { meta: { title: 'VIP', password: 'vip', token: 't-vip' }, files: ['v.jpg'] },
      '2024/family/garden': { meta: { title: 'Garden', password: 'g', allowAnonymous: true, token: 'share-garden' }, files: ['rose.jpg'] },
      // A top-level protected album without photos of its own, naming a cover in a child album
      // with its own password: the cover comes from the child that opens with it instead.
      vault: { meta: { title: 'Vault', password: 'v', token: 't-vault', thumbnail: 'kid/k.jpg', isCollection: true } },
      'vault/kid': { meta: { title: 'Kid', password: 'k', token: 't-kid' }, files: ['k.jpg'] },
      'vault/open-kid': { meta: { title: 'Open kid' }, files: ['ok.jpg'] },
      'hush/hidden': { meta: { title: 'Hidden', password: 'h', token: 't-hidden', hidden: true }, files: ['h.jpg'] },
    });
    await fx.start();
    app = request(fx.gallery.handler);
  });
  after(() => fx.close());

  const unlocked = async (headers: Record<string, string> = {}) => {
    const res = await app.get('/api/unlocked-albums').set(headers).expect(200).expect('Content-Type', /json/);
    expect(res.headers['cache-control']).to.equal('private, no-store');
    return { albums: (res.body as { albums: UnlockedAlbum[] }).albums, raw: res.text };
  };

  it('should answer an empty list to a visitor holding nothing', async () => {
    expect((await unlocked()).albums).to.deep.equal([]);
  });

  it('should answer the album a cookie token opens, with its counts and access-checked cover, and nothing else', async () => {
    const cookie = accessCookie(['t-wedding']);
    const { albums, raw } = await unlocked({ Cookie: cookie });
    expect(albums.map((a) => a.path)).to.deep.equal(['2024/family/wedding']);
    const [wedding] = albums;
    expect(wedding).to.include({ url: '/photos/2024/family/wedding', subtitle: '2 photos' });
    expect(wedding!.cover!.src).to.match(/^\/api\/thumbnail\?path=2024%2Ffamily%2Fwedding%2Fcake\.jpg&size=small&v=/);
    expect(wedding!.cover!.webpSrcset).to.include('format=webp');
    // Nothing of the albums this visitor cannot open, not even below the one it can.
    for (const leak of ['garden', 'Garden', 'vault', 'VIP', 'vip', 'reception', 'hush', 'rose', 'kid']) expect(raw, leak).to.not.include(leak);
    // The cover is the normal thumbnail route: it shows with the cookie, and not without.
    const thumb = await app.get(wedding!.cover!.src).set('Cookie', cookie).expect(200);
    expect(thumb.headers['content-type']).to.equal('image/jpeg');
    expect(thumb.headers['cache-control']).to.match(/^private/);
    await app.get(wedding!.cover!.src).expect(401);
  });

  it('should take a token from the X-Album-Token header, with a cover that opens with the album', async () => {
    const header = { 'X-Album-Token': 't-vault' };
    const { albums, raw } = await unlocked(header);
    expect(albums.map((a) => [a.path, a.url, a.subtitle])).to.deep.equal([['vault', '/photos/vault', '2 albums']]);
    expect(albums[0]!.cover!.src).to.match(/^\/api\/thumbnail\?path=vault%2Fopen-kid%2Fok\.jpg&/);
    expect(raw).to.not.include('k.jpg"').and.not.include('kid%2Fk.jpg');
    await app.get(albums[0]!.cover!.src).set(header).expect(200);
  });

  it('should answer every padlock a visitor holds', async () => {
    const { albums } = await unlocked({ Cookie: accessCookie(['t-vault', 'share-garden', 't-wedding']) });
    expect(albums.map((a) => a.path)).to.deep.equal(['2024/family/garden', '2024/family/wedding', 'vault']);
  });

  it('should answer nothing for albums /photos does not show as padlocks', async () => {
    // A child of a protected album is not on /photos at all; a hidden album is left out of listings.
    for (const token of ['t-reception', 't-vip', 't-hidden', 'not-a-token']) {
      expect((await unlocked({ Cookie: accessCookie([token]) })).albums, token).to.deep.equal([]);
    }
  });

  it('should never answer a locked album, whatever is sent', async () => {
    const attempts: Record<string, string>[] = [
      { Cookie: 'album-access=not-json' },
      { Cookie: accessCookie(['t-wedding ']) },
      { 'X-Album-Token': 'T-WEDDING' },
      { Cookie: accessCookie(['share-gardenx']) },
    ];
    for (const headers of attempts) expect((await unlocked(headers)).albums, JSON.stringify(headers)).to.deep.equal([]);
  });

  it('should match the padlocks of /photos, a page that stays the same for everyone', async () => {
    const anonymous = await app.get('/photos').expect(200);
    const unlockedVisitor = await app
      .get('/photos')
      .set('Cookie', accessCookie(['t-wedding', 't-vault']))
      .expect(200);
    expect(unlockedVisitor.text).to.equal(anonymous.text);
    expect(unlockedVisitor.headers.etag).to.equal(anonymous.headers.etag);
    expect(anonymous.text).to.match(/<script type="module" src="\/assets\/photos\.js\?v=[0-9a-f]{10}"><\/script>/);
    const padlocks = [...anonymous.text.matchAll(/<li class="card card--locked">\s*<a href="([^"]+)">/g)].map((m) => m[1]);
    const { albums } = await unlocked({ Cookie: accessCookie(['t-vault', 'share-garden', 't-wedding']) });
    expect(albums.map((a) => a.url).sort()).to.deep.equal(padlocks.sort());
  });
});
