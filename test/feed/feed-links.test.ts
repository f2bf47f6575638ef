import { expect } from 'chai';
import request from 'supertest';
import { newShareLinkId } from '../../server/core/albums/share-links.js';
import { accessCookie, GalleryFixture } from '../support/gallery-fixture.js';

/**
 * Feeds are found from the pages (docs/api.md#feeds): each page names its own feed in its head,
 * and offers it with a translated "Subscribe" link where a feed reader can read it.
 */

const lakeLink = { id: newShareLinkId(), name: 'Grandma', created: '2024-05-01T10:00:00Z', downloads: true };
const TREE = {
  '2024/public': { meta: { title: 'Public Trip' }, files: ['a.jpg'] },
  '2024/locked': { meta: { title: 'Secret Lodge', password: 'pw', token: 'locked-token-0000', shareLinks: [lakeLink] }, files: ['b.jpg'] },
  '2024/hidden': { meta: { title: 'Hidden Nook', hidden: true }, files: ['c.jpg'] },
};

/** The feeds a page's head names. */
const alternates = (html: string) => [...html.matchAll(/<link rel="alternate" type="application\/atom\+xml"[^>]* href="([^"]+)">/g)].map((m) => m[1]);
const subscribeLinks = (html: string) => [...html.matchAll(/<a class="subscribe__link" href="([^"]+)"/g)].map((m) => m[1]);

describe('feeds: found from the pages', function () {
  const fx = new GalleryFixture();
  before(async () => {
    await (await fx.build(TREE)).start();
  });
  after(() => fx.close());
  const app = () => fx.gallery.handler;

  const rows: readonly { page: string; who: string; cookie?: string; feed: string | undefined; offered: boolean }[] = [
    { page: '/photos', who: 'anyone', feed: '/feed.atom', offered: true },
    { page: '/photos/2024', who: 'anyone', feed: '/feed/2024.atom', offered: true },
    { page: '/photos/2024/public', who: 'anyone', feed: '/feed/2024/public.atom', offered: true },
    // Its feed opens with the cookie only: named for the browser, not offered to a feed reader.
    {
      page: '/photos/2024/locked',
      who: 'a visitor who unlocked it',
      cookie: accessCookie(['locked-token-0000']),
      feed: '/feed/2024/locked.atom',
      offered: false,
    },
    { page: `/s/${lakeLink.id}`, who: 'the holder of its share link', feed: `/s/${lakeLink.id}/feed.atom`, offered: true },
    { page: '/photos/2024/locked', who: 'a visitor who has not unlocked it', feed: undefined, offered: false },
    { page: '/photos/2024/hidden', who: 'anyone', feed: undefined, offered: false },
  ];

  for (const row of rows) {
    it(`should name ${row.feed?.replace(/\/s\/[^/]+/, '/s/<id>') ?? 'no feed'} on ${row.page.replace(/\/s\/.+/, '/s/<id>')} for ${row.who}${row.offered ? ', and offer it' : ''}`, async () => {
      const get = (url: string) => (row.cookie ? request(app()).get(url).set('Cookie', row.cookie) : request(app()).get(url));
      const html = (await get(row.page).expect(200)).text;
      expect(alternates(html)).to.deep.equal(row.feed ? [row.feed] : []);
      expect(subscribeLinks(html)).to.deep.equal(row.offered && row.feed ? [row.feed] : []);
      // The feed named opens for whoever sees the page.
      if (row.feed)
        await get(row.feed)
          .expect(200)
          .expect('Content-Type', /^application\/atom\+xml/);
    });
  }

  it('should say what a feed reader is, in the visitor language', async () => {
    const html = (await request(app()).get('/photos').set('Accept-Language', 'de').expect(200)).text;
    expect(html).to.include('>Abonnieren</a>');
    expect(html).to.include('Feedreader');
  });
});
