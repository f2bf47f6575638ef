import fs from 'node:fs';
import { parseFeed } from '@rowanmanning/feed-parser';
import { expect } from 'chai';
import request from 'supertest';
import { GalleryFixture, writeJpeg } from '../support/gallery-fixture.js';

/**
 * The feeds read by a feed reader's parser (@rowanmanning/feed-parser, tested against real
 * feeds), not by our own: what a subscriber's app would make of them.
 */
describe('feeds: as a feed reader reads them', () => {
  const fx = new GalleryFixture();
  before(async () => {
    await (
      await fx.build({
        '2024/lisbon': { meta: { title: 'Lisbon & the coast' }, files: ['a.jpg', 'b.jpg'] },
        '2024/locked': { meta: { title: 'Surprise party', password: 'pw' }, files: ['cake.jpg'] },
      })
    ).start();
  });
  after(() => fx.close());

  const read = async (url: string) => {
    const res = await request(fx.gallery.handler)
      .get(url)
      .expect(200)
      .expect('Content-Type', /application\/atom\+xml/);
    return parseFeed(res.text);
  };

  it('should read the site feed as Atom, with its entries, their links and dates, and nothing of a locked album', async () => {
    const feed = await read('/feed.atom');
    expect(feed.meta.type).to.equal('atom');
    expect(feed.title).to.be.a('string').and.not.equal('');
    expect(feed.items.length).to.be.at.least(1);
    for (const item of feed.items) {
      expect(item.id).to.match(/^urn:uuid:/);
      expect(item.url).to.match(/^http:\/\/127\.0\.0\.1(:\d+)?\/|^https?:\/\//);
      expect(item.published ?? item.updated).to.be.instanceOf(Date);
      expect(item.content).to.be.a('string').and.not.equal('');
    }
    const everything = JSON.stringify(feed);
    expect(everything).to.include('Lisbon & the coast');
    expect(everything).not.to.include('Surprise party');
    expect(everything).not.to.include('cake.jpg');
  });

  it('should list a photo copied into an album once the tree is read again', async () => {
    const before = JSON.stringify(await read('/feed/2024/lisbon.atom'));
    expect(before).not.to.include('new-one.jpg');
    await writeJpeg(fx.path('2024/lisbon/new-one.jpg'), 64, 48, 200);
    fs.utimesSync(fx.path('2024/lisbon/new-one.jpg'), new Date(), new Date());
    await fx.gallery.index.rescan();
    const after = JSON.stringify(await read('/feed/2024/lisbon.atom'));
    expect(after).to.include('new-one.jpg');
  });
});
