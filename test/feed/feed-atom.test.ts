import fs from 'node:fs';
import { expect } from 'chai';
import request from 'supertest';
import type { MediaItem, TreeNode } from '../../server/core/albums/album-tree.js';
import { FEED_ENTRIES, feedEntries } from '../../server/public/pages/feed-entries.js';
import { MediaStats } from '../../server/public/pages/media-stats.js';
import { createMediaLocator } from '../../server/core/access/media-location.js';
import type { ReadableFile } from '../../server/public/resolvers.js';
import { GalleryFixture, writeJpeg } from '../support/gallery-fixture.js';
import { childrenNamed, only, parseXml, type XmlElement } from './xml-tree.js';

/** Atom 1.0 (RFC 4287) as the feeds write it (docs/api.md#feeds). */

const ATOM_NS = 'http://www.w3.org/2005/Atom';
const URN_UUID = /^urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;
const AWKWARD_TITLE = `Tom & Jerry <3 "quoted" 'single'`;

const TREE = {
  '2024/lisbon': { meta: { title: 'Lisbon' }, files: ['a.jpg', 'b.jpg', 'c.jpg'] },
  '2024/awkward': { meta: { title: AWKWARD_TITLE }, files: ['x.jpg'] },
};

const text = (e: XmlElement, name: string) => only(e, name).text;

/** Every element RFC 4287 requires of a feed and of each entry, and what our feeds promise besides. */
function checkAtom(feed: XmlElement, selfUrl: string): void {
  expect(feed.name).to.equal('feed');
  expect(feed.attrs.xmlns).to.equal(ATOM_NS);
  expect(text(feed, 'id')).to.match(URN_UUID);
  expect(text(feed, 'title')).to.not.equal('');
  expect(text(feed, 'updated')).to.match(RFC3339);
  expect(text(only(feed, 'author'), 'name')).to.not.equal('');
  const self = childrenNamed(feed, 'link').find((l) => l.attrs.rel === 'self');
  expect(self?.attrs.href).to.equal(selfUrl);
  const entries = childrenNamed(feed, 'entry');
  const ids = entries.map((e) => text(e, 'id'));
  expect(new Set(ids).size).to.equal(ids.length);
  for (const entry of entries) {
    expect(text(entry, 'id')).to.match(URN_UUID);
    expect(text(entry, 'title')).to.not.equal('');
    expect(text(entry, 'updated')).to.match(RFC3339);
    expect(text(entry, 'published')).to.match(RFC3339);
    const alternate = childrenNamed(entry, 'link').find((l) => l.attrs.rel === 'alternate');
    expect(alternate?.attrs.href).to.match(/^https?:\/\//);
    expect(only(entry, 'content').attrs.type).to.equal('html');
  }
  const updated = entries.map((e) => text(e, 'updated'));
  expect(updated).to.deep.equal([...updated].sort().reverse());
  // The feed is as new as its newest entry.
  if (entries.length) expect(text(feed, 'updated')).to.equal(updated[0]);
}

describe('feeds: Atom', function () {
  const fx = new GalleryFixture();
  before(async () => {
    await (await fx.build(TREE)).start();
  });
  after(() => fx.close());
  const app = () => fx.gallery.handler;

  it('should write a valid Atom document for the site, an album and a folder', async () => {
    for (const feed of ['/feed.atom', '/feed/2024.atom', '/feed/2024/lisbon.atom']) {
      const res = await request(app()).get(feed).set('Host', 'gallery.test').expect(200);
      checkAtom(parseXml(res.text), `http://gallery.test${feed}`);
    }
  });

  it('should escape what it writes: a title with markup characters reads back as it is', async () => {
    const res = await request(app()).get('/feed/2024/awkward.atom').expect(200);
    const feed = parseXml(res.text);
    expect(text(only(feed, 'entry'), 'title')).to.equal(`New album: ${AWKWARD_TITLE}`);
    expect(text(feed, 'title')).to.equal(`${AWKWARD_TITLE} · Gallery`);
    // The entry's HTML, once unescaped from the XML, has the title escaped as HTML text.
    expect(text(only(feed, 'entry'), 'content')).to.include('Tom &amp; Jerry &lt;3');
  });

  it('should tell an album, its photos counted, with a few absolute thumbnails in its content', async () => {
    const res = await request(app()).get('/feed/2024/lisbon.atom').set('Host', 'gallery.test').expect(200);
    const entry = only(parseXml(res.text), 'entry');
    expect(text(entry, 'title')).to.equal('New album: Lisbon');
    const html = text(entry, 'content');
    expect(html).to.include('3 photos');
    const thumbs = [...html.matchAll(/<img src="([^"]+)"/g)].map((m) => m[1]);
    expect(thumbs).to.have.length(3);
    for (const src of thumbs) expect(src).to.match(/^http:\/\/gallery\.test\/api\/thumbnail\?path=2024%2Flisbon%2F[abc]\.jpg&amp;size=small&amp;v=/);
  });

  it('should write its words in the visitor language', async () => {
    const res = await request(app()).get('/feed/2024/lisbon.atom').set('Accept-Language', 'de').expect(200);
    const feed = parseXml(res.text);
    expect(feed.attrs['xml:lang']).to.equal('de');
    expect(text(only(feed, 'entry'), 'title')).to.equal('Neues Album: Lisbon');
    expect(res.headers.vary).to.match(/Accept-Language/);
  });

  it('should keep its ids and its bytes from one request to the next, and answer a reader that has it with 304', async () => {
    const get = () => request(app()).get('/feed.atom').set('Host', 'gallery.test');
    const first = await get().expect(200);
    const second = await get().expect(200);
    expect(second.text).to.equal(first.text);
    expect(first.headers.etag).to.be.a('string');
    await get()
      .set('If-None-Match', first.headers.etag as string)
      .expect(304);
  });

  it('should keep the same ids after a restart', async () => {
    const before = (await request(app()).get('/feed.atom').expect(200)).text;
    const other = new GalleryFixture(fx.root);
    try {
      await other.start();
      const after = (await request(other.gallery.handler).get('/feed.atom').expect(200)).text;
      const ids = (xml: string) => [text(parseXml(xml), 'id'), ...childrenNamed(parseXml(xml), 'entry').map((e) => text(e, 'id'))];
      expect(ids(after)).to.deep.equal(ids(before));
    } finally {
      // The same root: the first fixture removes it.
      await other.gallery.close();
    }
  });

  it("should build absolute URLs on site.json's public address when it is set", async () => {
    fs.writeFileSync(`${fx.contentDir}/site.json`, JSON.stringify({ publicUrl: 'https://photos.example.com' }));
    const other = new GalleryFixture(fx.root);
    try {
      await other.start();
      const res = await request(other.gallery.handler).get('/feed.atom').set('Host', 'internal:3000').expect(200);
      expect(res.text).to.not.include('internal:3000');
      checkAtom(parseXml(res.text), 'https://photos.example.com/feed.atom');
      expect(res.text).to.include('src=&quot;https://photos.example.com/api/thumbnail?');
    } finally {
      await other.gallery.close();
      fs.rmSync(`${fx.contentDir}/site.json`);
    }
  });

  it('should list a photo copied into an album once the gallery has seen it', async () => {
    const entryOf = async () => only(parseXml((await request(app()).get('/feed/2024/lisbon.atom').expect(200)).text), 'entry');
    const before = await entryOf();
    await writeJpeg(fx.path('2024/lisbon/d.jpg'));
    await fx.gallery.index.rescan();
    const after = await entryOf();
    expect(text(after, 'id')).to.equal(text(before, 'id'));
    expect(text(after, 'content')).to.include('4 photos');
    expect(text(after, 'updated') >= text(before, 'updated')).to.equal(true);
  });
});

describe('feedEntries: news grouped per album and day', function () {
  const fx = new GalleryFixture();
  before(async () => {
    await (
      await fx.build({
        '2024/rome': { meta: { title: 'Rome' }, files: ['1.jpg', '2.jpg', '3.jpg', '4.jpg'] },
        '2024/oslo': { meta: { title: 'Oslo' }, files: ['o.jpg'] },
      })
    ).start();
  });
  after(() => fx.close());

  const DAY = 86_400_000;
  const T0 = Date.UTC(2024, 4, 1, 10);
  /** The real stats, each file's arrival set to `arrivals[name]` (a ctime no test can set on disk). */
  function statsArriving(arrivals: Record<string, number>): Pick<MediaStats, 'all'> {
    const real = new MediaStats(createMediaLocator(fx.gallery.index, fx.albumsDir));
    return {
      all: async (node: TreeNode, items: readonly MediaItem[]) =>
        (await real.all(node, items)).map((s, i) => s && { ...s, ctimeMs: arrivals[(items[i] as MediaItem).name] ?? T0 }),
    };
  }
  const readable = async (album: TreeNode): Promise<ReadableFile[]> =>
    album.media.map((item) => ({ item, absPath: '', protected: false, hideLocation: false, downloadable: true }));
  const albums = () => [fx.gallery.index.album('2024/oslo'), fx.gallery.index.album('2024/rome')].filter((a) => a !== undefined);

  it("should make an album's first day its arrival and each later day news of it, newest first", async () => {
    const stats = statsArriving({ '1.jpg': T0, '2.jpg': T0 + 60_000, '3.jpg': T0 + 2 * DAY, '4.jpg': T0 + 2 * DAY + 5, 'o.jpg': T0 + DAY });
    const entries = await feedEntries(albums(), readable, stats);
    expect(entries.map((e) => [e.album.path, e.kind, e.day, e.files.map((f) => f.mediaPath.split('/').pop())])).to.deep.equal([
      ['2024/rome', 'photos', '2024-05-03', ['3.jpg', '4.jpg']],
      ['2024/oslo', 'album', '2024-05-02', ['o.jpg']],
      ['2024/rome', 'album', '2024-05-01', ['1.jpg', '2.jpg']],
    ]);
    expect(entries[2]?.published).to.equal(T0);
    expect(entries[2]?.updated).to.equal(T0 + 60_000);
  });

  it(`should hold the newest ${FEED_ENTRIES} entries at most`, async () => {
    const arrivals = Object.fromEntries(['1.jpg', '2.jpg', '3.jpg', '4.jpg', 'o.jpg'].map((n, i) => [n, T0 + i * DAY]));
    const entries = await feedEntries(albums(), readable, statsArriving(arrivals), 2);
    expect(entries.map((e) => e.day)).to.deep.equal(['2024-05-05', '2024-05-04']);
  });
});
