import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import { newShareLinkId } from '../../server/core/albums/share-links.js';
import { linkUsageFile } from '../../server/core/access/link-usage.js';
import { accessCookie, eventually, GalleryFixture } from '../support/gallery-fixture.js';
import { writeCameraJpeg, writeVideo } from '../support/media-fixtures.js';

/** The `album-links` cookie as the server writes it. */
const linksCookie = (ids: readonly string[]) => `album-links=${encodeURIComponent(JSON.stringify(ids))}`;

/** The ids of the `album-links` cookie a response sets. */
function linksSet(res: { headers: Record<string, unknown> }): { ids: string[]; cookie: string } {
  const all = res.headers['set-cookie'];
  const cookie = (Array.isArray(all) ? (all as string[]) : []).find((c) => c.startsWith('album-links='));
  if (!cookie) throw new Error('no album-links cookie set');
  return { ids: JSON.parse(decodeURIComponent(cookie.split(';')[0]!.slice('album-links='.length))) as string[], cookie };
}

const HOUR = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();

/** A share link of album.json (docs/api.md#share-links). */
function link(name: string, extra: { downloads?: boolean; expires?: string } = {}) {
  return {
    id: newShareLinkId(),
    name,
    created: iso(Date.now() - HOUR),
    downloads: extra.downloads ?? true,
    ...(extra.expires ? { expires: extra.expires } : {}),
  };
}

/**
 * Share links per recipient over the real app and a real tree: a link opens its album and the
 * children without a password of their own, on the page and on every media route; expiry and
 * revocation take effect on the next request whatever the cookie holds; unknown, expired and
 * revoked links answer alike (their lockout: share-link-guesses.test.ts); a "no downloads"
 * link keeps originals, full-size JPEGs and the ZIP back.
 */
describe('share links per recipient', function () {
  this.timeout(60_000);
  const fx = new GalleryFixture();
  const full = link('Grandma');
  const viewOnly = link('Neighbour', { downloads: false });
  const expired = link('Old friend', { expires: iso(Date.now() - HOUR) });
  const later = link('Cousin', { expires: iso(Date.now() + 48 * HOUR) });
  const other = link('Colleague');
  const onPublic = link('Anyone', { downloads: false });
  const famMeta = { title: 'Family', password: 'pw', token: 't-family-token', shareLinks: [full, viewOnly, expired, later] };
  let nextIp = 1;
  /** Each test its own client address: the lockout counts per address. */
  let ip = '';

  before(async () => {
    await fx.build({
      fam: { meta: famMeta, files: ['b.jpg'] },
      'fam/kids': { meta: { title: 'Kids' }, files: ['k.jpg'] },
      'fam/private': { meta: { title: 'Private', password: 'pw2' }, files: ['p.jpg'] },
      other: { meta: { title: 'Other', password: 'pw3', shareLinks: [other] }, files: ['o.jpg'] },
      pub: { meta: { title: 'Public', shareLinks: [onPublic] }, files: ['x.jpg'] },
      anon: { meta: { title: 'Anon', password: 'pw4', allowAnonymous: true, token: 'share-me-token' }, files: ['n.jpg'] },
    });
    await writeCameraJpeg(fx.path('fam/a.jpg'), 320, 240);
    await writeVideo(fx.path('fam/clip.mp4'), { seconds: 1 });
    // Watched as in production: revocation and expiry are seen through the index's watcher.
    await fx.start({ watch: true, env: { TRUST_PROXY: '1' } });
  });
  after(() => fx.close());
  beforeEach(() => {
    ip = `198.51.100.${nextIp++}`;
  });

  const get = (url: string, cookies: readonly string[] = []) => {
    const r = request(fx.gallery.handler).get(url).set('X-Forwarded-For', ip);
    return cookies.length ? r.set('Cookie', cookies.join('; ')) : r;
  };
  const q = encodeURIComponent;
  const media = {
    thumbnail: (p: string) => `/api/thumbnail?path=${q(p)}&size=small`,
    original: (p: string) => `/albums/${p}`,
    exif: (p: string) => `/api/exif?path=${q(p)}`,
    videoInfo: (p: string) => `/api/video-info?path=${q(p)}`,
    fullSize: (p: string) => `/api/full-size?path=${q(p)}`,
    zip: (p: string) => `/api/download-album?path=${q(p)}`,
    albumMedia: (p: string) => `/api/album-media?path=${q(p)}`,
  };

  /** Rewrites fam's album.json and waits until the public server has seen it. */
  async function setFamLinks(links: readonly unknown[], seen: () => Promise<boolean>): Promise<void> {
    fs.writeFileSync(path.join(fx.path('fam'), 'album.json'), JSON.stringify({ ...famMeta, shareLinks: links }, null, 2));
    await eventually(seen, 8000, 'the index to see the new album.json');
  }
  const stillOpens = async (id: string) => (await get(media.thumbnail('fam/a.jpg'), [linksCookie([id])])).status === 200;

  describe('the link address /s/<id>', () => {
    it('should render the album at its own address, with the link in a long-lived strict cookie', async () => {
      const res = await get(`/s/${full.id}`).expect(200).expect('Content-Type', /html/);
      expect(res.headers.location).to.equal(undefined);
      expect(res.text).to.include('<h1>Family</h1>').and.include('data-name="a.jpg"').and.include('button--download"');
      expect(res.headers['cache-control']).to.equal('no-store');
      const { ids, cookie } = linksSet(res);
      expect(ids).to.deep.equal([full.id]);
      expect(cookie)
        .to.match(/HttpOnly/)
        .and.match(/SameSite=Strict/)
        .and.match(/Path=\//);
      expect(Number(/Max-Age=(\d+)/.exec(cookie)![1])).to.be.greaterThan(300 * 86_400);
    });

    it('should open the album with no cookie at all, as a bookmark or home-screen launch does', async () => {
      const res = await get(`/s/${later.id}?page=1`).expect(200);
      expect(res.text).to.include('data-name="b.jpg"');
      const slashed = await get(`/s/${later.id}/`).expect(200);
      expect(slashed.text).to.include('data-name="b.jpg"');
      await get(`/s/${later.id}/more`).expect(404);
    });

    it('should open deep-linkable pages: the album-media API finds a photo by name for #photo=', async () => {
      const res = await get(`${media.albumMedia('fam')}&name=a.jpg`, [linksCookie([full.id])]).expect(200);
      expect(res.body.items.map((i: { name: string }) => i.name)).to.include('a.jpg');
    });

    it('should keep in the cookie only the links that still work, adding the new one last', async () => {
      const res = await get(`/s/${later.id}`, [linksCookie([expired.id, 'not-a-link', full.id, newShareLinkId()])]).expect(200);
      expect(linksSet(res).ids).to.deep.equal([full.id, later.id]);
    });

    it("should render a public album's link like its page: a link restricts nothing anyone may open", async () => {
      // The same page, once the album's dates (its header's span) have been read in the background.
      let viaLink = await get(`/s/${onPublic.id}`).expect(200);
      await eventually(
        async () => {
          viaLink = await get(`/s/${onPublic.id}`).expect(200);
          return viaLink.text.includes('album-dates');
        },
        10_000,
        'the album’s dates',
      );
      const page = await get('/photos/pub').expect(200);
      expect(viaLink.text).to.equal(page.text);
      expect(viaLink.text).to.include('button--download"');
      await get(media.original('pub/x.jpg'), [linksCookie([onPublic.id])]).expect(200);
    });
  });

  describe('with the link held in the cookie', () => {
    const cookie = () => [linksCookie([full.id])];

    it('should open the album page and its children without a password of their own', async () => {
      const page = await get('/photos/fam', cookie()).expect(200);
      expect(page.text).to.include('data-name="a.jpg"').and.not.include('id="password"');
      expect(page.headers['cache-control']).to.equal('no-store');
      const kids = await get('/photos/fam/kids', cookie()).expect(200);
      expect(kids.text).to.include('data-name="k.jpg"');
    });

    it('should serve every media route of the album and of its open children', async () => {
      const thumb = await get(media.thumbnail('fam/a.jpg'), cookie()).expect(200).expect('Content-Type', 'image/jpeg');
      expect(thumb.headers['cache-control']).to.match(/^private/);
      const original = await get(media.original('fam/a.jpg'), cookie()).expect(200);
      expect(Buffer.compare(original.body as Buffer, fs.readFileSync(fx.path('fam/a.jpg')))).to.equal(0);
      const exif = await get(media.exif('fam/a.jpg'), cookie()).expect(200);
      expect(exif.body.Model).to.be.a('string');
      await get(media.videoInfo('fam/clip.mp4'), cookie()).expect(200);
      await get(media.original('fam/clip.mp4'), cookie()).set('Range', 'bytes=0-99').expect(206);
      await get(media.thumbnail('fam/clip.mp4'), cookie()).expect(200);
      const zip = await get(media.zip('fam'), cookie()).expect(200).expect('Content-Type', 'application/zip');
      expect(zip.headers['content-disposition']).to.include('fam.zip');
      await get(media.thumbnail('fam/kids/k.jpg'), cookie()).expect(200);
      await get(media.original('fam/kids/k.jpg'), cookie()).expect(200);
    });

    it('should leave a child album with a password of its own locked', async () => {
      const page = await get('/photos/fam/private', cookie()).expect(200);
      expect(page.text).to.include('id="password"').and.not.include('p.jpg');
      await get(media.thumbnail('fam/private/p.jpg'), cookie()).expect(401);
      await get(media.original('fam/private/p.jpg'), cookie()).expect(401);
      await get(media.zip('fam/private'), cookie()).expect(401);
    });

    it("should never open another album: album A's link is nothing to album B", async () => {
      const page = await get('/photos/other', cookie()).expect(200);
      expect(page.text).to.include('id="password"').and.not.include('o.jpg');
      await get(media.thumbnail('other/o.jpg'), cookie()).expect(401);
      const viaOther = [linksCookie([other.id])];
      await get(media.thumbnail('fam/a.jpg'), viaOther).expect(401);
      await get(media.original('fam/a.jpg'), viaOther).expect(401);
      await get(media.zip('fam'), viaOther).expect(401);
      const otherPage = await get(`/s/${other.id}`).expect(200);
      expect(otherPage.text).to.include('<h1>Other</h1>').and.not.include('a.jpg');
    });

    it('should ignore a malformed cookie, and a link id given anywhere but the cookie or its address', async () => {
      await get(media.thumbnail('fam/a.jpg'), ['album-links=%5Bnot-json']).expect(401);
      await get(`${media.thumbnail('fam/a.jpg')}&token=${full.id}`).expect(401);
      await get(media.thumbnail('fam/a.jpg')).set('X-Album-Token', full.id).expect(401);
      await get(media.thumbnail('fam/a.jpg'), [accessCookie([full.id])]).expect(401);
    });

    it('should answer check-access for the album as open', async () => {
      const res = await request(fx.gallery.handler)
        .post('/api/check-access')
        .set('X-Forwarded-For', ip)
        .set('Cookie', cookie().join('; '))
        .send({ albumPath: 'fam/kids' })
        .expect(200);
      expect(res.body.success).to.equal(true);
      await request(fx.gallery.handler).post('/api/check-access').set('X-Forwarded-For', ip).send({ albumPath: 'fam/kids' }).expect(401);
    });

    it("should still open an allowAnonymous album with the CONTRACT's ?token= link", async () => {
      const res = await get('/photos/anon?token=share-me-token').expect(200);
      expect(res.text).to.include('data-name="n.jpg"');
      expect(String(res.headers['set-cookie'])).to.include('album-access=');
      await get(`${media.zip('anon')}&token=share-me-token`).expect(200);
    });
  });

  describe('a "no downloads" link', () => {
    const cookie = () => [linksCookie([viewOnly.id])];

    it('should refuse originals of photos, full-size JPEGs and the ZIP with 403 JSON', async () => {
      for (const url of [media.original('fam/a.jpg'), media.fullSize('fam/a.jpg'), media.zip('fam'), media.original('fam/kids/k.jpg')]) {
        const res = await get(url, cookie()).expect(403).expect('Content-Type', /json/);
        expect(res.body).to.deep.equal({ error: 'This share link does not allow downloads: ask the person who sent it for the original' });
      }
    });

    it('should still serve thumbnails, EXIF, and videos for playback', async () => {
      await get(media.thumbnail('fam/a.jpg'), cookie()).expect(200);
      await get(`/api/thumbnail?path=${q('fam/a.jpg')}&size=large`, cookie()).expect(200);
      await get(media.exif('fam/a.jpg'), cookie()).expect(200);
      await get(media.videoInfo('fam/clip.mp4'), cookie()).expect(200);
      await get(media.original('fam/clip.mp4'), cookie()).set('Range', 'bytes=0-99').expect(206);
    });

    it('should show no download button and link tiles to the large thumbnail', async () => {
      for (const url of [`/s/${viewOnly.id}`, '/photos/fam']) {
        const res = await get(url, cookie()).expect(200);
        expect(res.text).to.not.include('button--download').and.not.include('/api/download-album').and.not.include('href="/albums/fam/a.jpg"');
        expect(res.text).to.include('data-downloads="false"');
        expect(res.text).to.match(/<a class="media__link" href="\/api\/thumbnail\?path=fam%2Fa\.jpg&amp;size=large[^"]*" data-index="0"/);
        // Videos keep their original: it is what plays.
        expect(res.text).to.include('href="/albums/fam/clip.mp4"');
      }
      const api = await get(media.albumMedia('fam'), cookie()).expect(200);
      const photo = api.body.items.find((i: { name: string }) => i.name === 'a.jpg');
      expect(photo.original).to.equal(photo.large).and.equal(photo.full);
    });

    it('should give way to a held album token: a password unlock is full access', async () => {
      const both = [linksCookie([viewOnly.id]), accessCookie(['t-family-token'])];
      await get(media.original('fam/a.jpg'), both).expect(200);
      await get(media.zip('fam'), both).expect(200);
      const page = await get('/photos/fam', both).expect(200);
      expect(page.text).to.include('button--download');
    });

    it("should never let one visitor's page reach another through the page cache", async () => {
      const viaLink = await get('/photos/fam', cookie()).expect(200);
      const unlocked = await get('/photos/fam', [accessCookie(['t-family-token'])]).expect(200);
      const viaLinkAgain = await get('/photos/fam', cookie()).expect(200);
      expect(unlocked.text).to.include('button--download').and.include('href="/albums/fam/a.jpg"');
      expect(viaLinkAgain.text).to.equal(viaLink.text).and.not.include('button--download');
      for (const res of [viaLink, unlocked, viaLinkAgain]) expect(res.headers['cache-control']).to.equal('no-store');
    });
  });

  describe('links that open nothing', () => {
    it('should answer unknown, malformed and expired links with one status and one page', async () => {
      const answers = await Promise.all([newShareLinkId(), 'short', `${newShareLinkId()}!`, expired.id].map((id) => get(`/s/${encodeURIComponent(id)}`)));
      for (const res of answers) {
        expect(res.status).to.equal(404);
        expect(res.headers['content-type']).to.match(/html/);
        expect(res.headers['cache-control']).to.equal('no-store');
        expect(res.headers['set-cookie']).to.equal(undefined);
        expect(res.text).to.equal(answers[0]!.text);
      }
      expect(answers[0]!.text).to.include('This link has expired or was revoked: ask the person who sent it.');
    });
  });

  describe('expiry and revocation', () => {
    // Every route a visitor holding the link used: all of them must close at once.
    const routes = [
      media.thumbnail('fam/a.jpg'),
      media.original('fam/a.jpg'),
      media.exif('fam/a.jpg'),
      media.videoInfo('fam/clip.mp4'),
      media.original('fam/clip.mp4'),
      media.zip('fam'),
      media.albumMedia('fam'),
      media.thumbnail('fam/kids/k.jpg'),
    ];

    async function expectClosed(id: string): Promise<void> {
      for (const url of routes) await get(url, [linksCookie([id])]).expect(401);
      for (const page of ['/photos/fam', '/photos/fam/kids']) {
        const res = await get(page, [linksCookie([id])]).expect(200);
        expect(res.text).to.include('id="password"').and.not.include('a.jpg').and.not.include('k.jpg');
      }
    }

    after(async () => {
      await setFamLinks(famMeta.shareLinks, () => stillOpens(full.id));
    });

    it('should close an expired link on every media route and page, cookie or not', async () => {
      const soon = link('Soon', { downloads: true });
      await setFamLinks([...famMeta.shareLinks, soon], () => stillOpens(soon.id));
      for (const url of routes) await get(url, [linksCookie([soon.id])]).expect(200);
      await setFamLinks([...famMeta.shareLinks, { ...soon, expires: iso(Date.now() - 1000) }], async () => !(await stillOpens(soon.id)));
      await expectClosed(soon.id);
      const page = await get(`/s/${soon.id}`).expect(404);
      expect(page.text).to.include('This link has expired or was revoked');
    });

    it('should close a revoked link everywhere, and answer it exactly as an unknown one', async () => {
      const gone = link('Gone');
      await setFamLinks([...famMeta.shareLinks, gone], () => stillOpens(gone.id));
      await get(`/s/${gone.id}`).expect(200);
      await setFamLinks(famMeta.shareLinks, async () => !(await stillOpens(gone.id)));
      await expectClosed(gone.id);
      const revoked = await get(`/s/${gone.id}`).expect(404);
      const unknown = await get(`/s/${newShareLinkId()}`).expect(404);
      const expiredAnswer = await get(`/s/${expired.id}`).expect(404);
      expect(revoked.text).to.equal(unknown.text).and.equal(expiredAnswer.text);
      expect(revoked.headers['content-type']).to.equal(unknown.headers['content-type']);
    });
  });

  describe('usage', () => {
    it('should count a visit per browser, move the last use with every view, and write it to CACHE_DIR/share-links', async () => {
      const counted = link('Counted');
      await setFamLinks([...famMeta.shareLinks, counted], () => stillOpens(counted.id));
      const before = Date.now();
      const phone = (url: string) => get(url, [linksCookie([counted.id])]).set('User-Agent', 'phone');
      await phone(`/s/${counted.id}`).expect(200);
      await phone('/photos/fam').expect(200);
      await phone('/photos/fam/kids?page=1').expect(200);
      // Media requests are not page views.
      await phone(media.thumbnail('fam/a.jpg')).expect(200);
      await get(`/s/${counted.id}`).set('User-Agent', 'laptop').expect(200);
      await fx.gallery.linkUsage.flush();
      const usage = (await fx.gallery.linkUsage.read()).get(counted.id);
      expect(usage?.visits).to.equal(2);
      expect(Date.parse(usage!.lastUsed)).to.be.within(before, Date.now());
      const file = JSON.parse(fs.readFileSync(linkUsageFile(fx.cacheDir), 'utf8'));
      expect(file.links[counted.id]).to.deep.equal(usage);
      // A visitor who unlocked with the password is no visit of the link.
      await get('/photos/fam', [linksCookie([counted.id]), accessCookie(['t-family-token'])])
        .set('User-Agent', 'tablet')
        .expect(200);
      await fx.gallery.linkUsage.flush();
      expect((await fx.gallery.linkUsage.read()).get(counted.id)?.visits).to.equal(2);
    });
  });
});
