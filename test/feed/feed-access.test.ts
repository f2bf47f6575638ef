import { expect } from 'chai';
import request from 'supertest';
import { newShareLinkId } from '../../server/core/albums/share-links.js';
import { accessCookie, GalleryFixture } from '../support/gallery-fixture.js';
import { childrenNamed, only, parseXml } from './xml-tree.js';

/**
 * The three feeds against every visitor state (docs/api.md#feeds): what each holds is the one
 * rule of server/core/access/visible-albums.ts, and nothing of an album the feed's visitor may
 * not open appears anywhere in the answer: neither its title nor its file names nor its count.
 */

const link = (extra: Record<string, unknown> = {}) => ({ id: newShareLinkId(), name: 'Grandma', created: '2024-05-01T10:00:00Z', downloads: true, ...extra });
const lakeLink = link();
const expiredLink = link({ expires: '2020-01-01' });
const revokedLink = link({ revoked: '2024-06-01T00:00:00Z' });
const hiddenLink = link();

/** Every album's title and its files' names: each must appear only where its album may be seen. */
const TITLES = {
  public: 'Public Trip',
  locked: 'Secret Lodge',
  inner: 'Inner Child',
  hidden: 'Hidden Nook',
  lake: 'Linked Lake',
  pond: 'Own Password Pond',
} as const;
type Name = keyof typeof TITLES;
const FILES: Record<Name, string> = { public: 'trip.jpg', locked: 'lodge.jpg', inner: 'inner.jpg', hidden: 'nook.jpg', lake: 'lake.jpg', pond: 'pond.jpg' };

const TREE = {
  '2024/public': { meta: { title: TITLES.public }, files: [FILES.public, 'trip2.jpg'] },
  '2024/locked': { meta: { title: TITLES.locked, password: 'pw', token: 'locked-token-0000' }, files: [FILES.locked] },
  '2024/locked/inner': { meta: { title: TITLES.inner }, files: [FILES.inner] },
  '2024/hidden': { meta: { title: TITLES.hidden, hidden: true, shareLinks: [hiddenLink] }, files: [FILES.hidden] },
  '2024/lake': { meta: { title: TITLES.lake, password: 'pw2', shareLinks: [lakeLink, expiredLink, revokedLink] }, files: [FILES.lake] },
  '2024/lake/pond': { meta: { title: TITLES.pond, password: 'pw3' }, files: [FILES.pond] },
};

const LOCKED_COOKIE = accessCookie(['locked-token-0000']);
const LAKE_LINK_COOKIE = `album-links=${encodeURIComponent(JSON.stringify([lakeLink.id]))}`;

/** What an answer gives away of each album: its title or one of its files named anywhere in the body. */
function shown(body: string): Name[] {
  return (Object.keys(TITLES) as Name[]).filter((n) => body.includes(TITLES[n]) || body.includes(FILES[n]));
}

describe('feeds: what each visitor is told', function () {
  const fx = new GalleryFixture();
  before(async () => {
    await (await fx.build(TREE)).start();
  });
  after(() => fx.close());
  const app = () => fx.gallery.handler;

  const rows: readonly { feed: string; who: string; cookie?: string; shows: readonly Name[]; cache: RegExp }[] = [
    { feed: '/feed.atom', who: 'an anonymous visitor', shows: ['public'], cache: /^public/ },
    // The site's feed is an anonymous visitor's, whatever this one holds: a reader has no cookie.
    { feed: '/feed.atom', who: 'a visitor who unlocked an album', cookie: LOCKED_COOKIE, shows: ['public'], cache: /^public/ },
    { feed: '/feed.atom', who: 'a visitor holding a share link', cookie: LAKE_LINK_COOKIE, shows: ['public'], cache: /^public/ },
    { feed: '/feed/2024.atom', who: 'an anonymous visitor', shows: ['public'], cache: /^private/ },
    { feed: '/feed/2024.atom', who: 'a visitor who unlocked an album', cookie: LOCKED_COOKIE, shows: ['public', 'locked', 'inner'], cache: /^private/ },
    { feed: '/feed/2024.atom', who: 'a visitor holding a share link', cookie: LAKE_LINK_COOKIE, shows: ['public', 'lake'], cache: /^private/ },
    { feed: '/feed/2024/locked.atom', who: 'a visitor who unlocked it', cookie: LOCKED_COOKIE, shows: ['locked', 'inner'], cache: /^private/ },
    { feed: '/feed/2024/public.atom', who: 'an anonymous visitor', shows: ['public'], cache: /^private/ },
    { feed: `/s/${lakeLink.id}/feed.atom`, who: 'an anonymous reader', shows: ['lake'], cache: /^private/ },
    // Only what the link opens: not what the cookie opens besides, nor the public site.
    { feed: `/s/${lakeLink.id}/feed.atom`, who: 'a visitor who unlocked another album', cookie: LOCKED_COOKIE, shows: ['lake'], cache: /^private/ },
    { feed: `/s/${hiddenLink.id}/feed.atom`, who: 'an anonymous reader', shows: ['hidden'], cache: /^private/ },
  ];

  for (const row of rows) {
    it(`should show ${row.who} exactly ${row.shows.join(', ')} in ${row.feed.replace(/\/s\/[^/]+/, '/s/<id>')}`, async () => {
      const req = request(app()).get(row.feed);
      if (row.cookie) req.set('Cookie', row.cookie);
      const res = await req.expect(200).expect('Content-Type', /^application\/atom\+xml/);
      expect(shown(res.text)).to.deep.equal(row.shows);
      expect(res.headers['cache-control']).to.match(row.cache);
      // Each album it shows is one entry (all its files arrived today): a count, never one of another album.
      const entries = childrenNamed(parseXml(res.text), 'entry');
      expect(entries).to.have.length(row.shows.length);
    });
  }

  const refusals: readonly { feed: string; who: string; cookie?: string; status: number }[] = [
    { feed: '/feed/2024/locked.atom', who: 'an anonymous visitor', status: 401 },
    { feed: '/feed/2024/locked/inner.atom', who: 'an anonymous visitor', status: 401 },
    // A guessed path below a locked album answers as an existing one: whether it exists is the owner's secret.
    { feed: '/feed/2024/locked/nothing-here.atom', who: 'an anonymous visitor', status: 401 },
    { feed: '/feed/2024/lake/pond.atom', who: 'a visitor holding the link of the album above', cookie: LAKE_LINK_COOKIE, status: 401 },
    { feed: '/feed/2024/hidden.atom', who: 'an anonymous visitor', status: 404 },
    { feed: '/feed/2024/nothing-here.atom', who: 'an anonymous visitor', status: 404 },
    { feed: `/s/${expiredLink.id}/feed.atom`, who: 'the holder of an expired link', status: 404 },
    { feed: `/s/${revokedLink.id}/feed.atom`, who: 'the holder of a revoked link', status: 404 },
    { feed: `/s/${newShareLinkId()}/feed.atom`, who: 'someone guessing a link', status: 404 },
  ];

  for (const row of refusals) {
    it(`should answer ${row.who} ${row.status} with nothing of any album for ${row.feed.replace(/\/s\/[^/]+/, '/s/<id>')}`, async () => {
      const req = request(app()).get(row.feed);
      if (row.cookie) req.set('Cookie', row.cookie);
      const res = await req.expect(row.status);
      expect(shown(res.text)).to.deep.equal([]);
    });
  }

  describe('thumbnails of a share link feed', () => {
    it('should serve them to a reader holding no cookie, through the link alone', async () => {
      const feed = parseXml((await request(app()).get(`/s/${lakeLink.id}/feed.atom`).expect(200)).text);
      const html = only(only(feed, 'entry'), 'content').text;
      // The content is HTML: its attribute values are escaped once more.
      const src = /<img src="([^"]+)"/.exec(html)?.[1]?.replaceAll('&amp;', '&');
      expect(src).to.be.a('string');
      const url = new URL(src as string);
      expect(url.pathname).to.equal(`/s/${lakeLink.id}/feed/thumbnail`);
      const res = await request(app())
        .get(`${url.pathname}${url.search}`)
        .expect(200)
        .expect('Content-Type', /^image\/jpeg/);
      expect(res.headers['cache-control']).to.match(/^private/);
      // The same file through the ordinary route, with no cookie: refused.
      await request(app()).get(`/api/thumbnail${url.search}`).expect(401);
    });

    it('should not open through the link what the link does not open', async () => {
      await request(app()).get(`/s/${lakeLink.id}/feed/thumbnail?path=2024/lake/pond/${FILES.pond}&size=small`).expect(401);
      await request(app()).get(`/s/${lakeLink.id}/feed/thumbnail?path=2024/locked/${FILES.locked}&size=small`).expect(401);
    });

    it('should open nothing through a link that no longer works', async () => {
      await request(app()).get(`/s/${expiredLink.id}/feed/thumbnail?path=2024/lake/${FILES.lake}&size=small`).expect(404);
    });
  });
});
