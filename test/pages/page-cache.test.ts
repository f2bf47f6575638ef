import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import cookieParser from 'cookie-parser';
import express from 'express';
import request from 'supertest';
import { AlbumIndex } from '../../server/core/albums/album-index.js';
import type { MediaItem } from '../../server/core/albums/album-tree.js';
import { ROOT_DIR, VIEWS_DIR } from '../../server/core/root-dir.js';
import { errorHandler } from '../../server/http/error-handler.js';
import { createResolvers, type ReadableMedia } from '../../server/public/access/gallery-access.js';
import { albumPageHandler } from '../../server/public/pages/album-page.js';
import { assetLocals } from '../../server/public/pages/asset-urls.js';
import type { DimensionsProvider } from '../../server/media/dimensions.js';
import { MediaStats } from '../../server/public/pages/media-stats.js';
import { PageCache } from '../../server/public/pages/page-cache.js';
import { quietLogger } from '../support/capture-logger.js';
import { accessCookie, GalleryFixture, writeJpeg } from '../support/gallery-fixture.js';

describe('rendered album pages kept in memory', () => {
  /** How long the test's page cache keeps a page that is not final. */
  const UNFINISHED_MS = 300;
  const fx = new GalleryFixture();
  let index: AlbumIndex;
  let cache: PageCache;
  /** How many times the page's media were asked for their sizes: once per render. */
  let renders: number;
  /** Items the dimensions provider has answered for; the others are not read yet. */
  let known: Set<string>;

  const dimensions: DimensionsProvider = Object.assign(
    async (_node: unknown, items: readonly MediaItem[]) => {
      renders++;
      return items.map((m) => (known.has(m.name) ? { width: 640, height: 480 } : undefined));
    },
    { settled: (items: readonly MediaItem[]) => items.every((m) => known.has(m.name)) },
  );

  /** @param hook runs after the album's media were listed for a page, before the page is made */
  function app(hook?: () => Promise<void>) {
    const server = express();
    server.set('view engine', 'ejs');
    server.set('views', VIEWS_DIR);
    Object.assign(
      server.locals,
      assetLocals({
        '/assets/': path.join(VIEWS_DIR, 'assets'),
        '/vendor/photoswipe/': path.join(ROOT_DIR, 'node_modules', 'photoswipe', 'dist'),
      }),
    );
    server.use(cookieParser());
    const { readableMedia, locateMedia } = createResolvers(index, fx.albumsDir);
    const listed: ReadableMedia = async (req, album) => {
      const files = await readableMedia(req, album);
      await hook?.();
      return files;
    };
    server.get(
      '/photos/*splat',
      albumPageHandler({
        index,
        stats: new MediaStats(locateMedia),
        readableMedia: listed,
        production: false,
        dimensions,
        pageCache: cache,
        unfinishedPageMs: UNFINISHED_MS,
      }),
    );
    server.use(errorHandler({ log: quietLogger }));
    return request(server);
  }

  before(async function () {
    this.timeout(30_000);
    await fx.build({
      '2024/trip': { meta: { title: 'Trip' }, files: ['a.jpg', 'b.jpg'] },
      '2024/trip/locked-day': { meta: { title: 'Locked day', password: 'pw', token: 't-locked' }, files: ['c.jpg'] },
      '2024/secret': { meta: { title: 'Secret', password: 'pw', token: 't-secret' }, files: ['s.jpg'] },
    });
    index = await AlbumIndex.open({ albumsDir: fx.albumsDir, watch: false, log: quietLogger });
  });
  beforeEach(() => {
    cache = new PageCache();
    renders = 0;
    known = new Set(['a.jpg', 'b.jpg', 'c.jpg', 's.jpg', 'new.jpg']);
  });
  after(async () => {
    index.close();
    await fx.close();
  });

  it('should render a public album page once and send it again from memory, with its ETag and 304', async () => {
    const first = await app().get('/photos/2024/trip').expect(200);
    const second = await app().get('/photos/2024/trip').expect(200);
    expect(renders).to.equal(1);
    expect(second.text).to.equal(first.text);
    expect(second.headers.etag)
      .to.equal(first.headers.etag)
      .and.match(/^"[\w-]+"$/);
    expect(second.headers['cache-control']).to.equal('no-cache');
    await app().get('/photos/2024/trip').set('If-None-Match', first.headers.etag!).expect(304);
  });

  it('should render again once the album changes on disk (a new index version)', async () => {
    const before = await app().get('/photos/2024/trip').expect(200);
    await writeJpeg(fx.path('2024/trip/new.jpg'));
    await index.rescan();
    const after = await app().get('/photos/2024/trip').expect(200);
    expect(renders).to.equal(2);
    expect(before.text).not.to.include('new.jpg');
    expect(after.text).to.include('data-name="new.jpg"');
    expect(after.headers.etag).not.to.equal(before.headers.etag);
    fs.rmSync(fx.path('2024/trip/new.jpg'));
    await index.rescan();
  });

  it('should not keep a page made from the tree a rescan replaced while it was being made', async () => {
    // The rescan lands between the listing of the album's media and the page's render.
    let rescanned = false;
    const rescanMeanwhile = async () => {
      if (rescanned) return;
      rescanned = true;
      await writeJpeg(fx.path('2024/trip/new.jpg'));
      await index.rescan();
    };
    try {
      const racing = await app(rescanMeanwhile).get('/photos/2024/trip').expect(200);
      expect(rescanned).to.equal(true);
      // What the visitor asked for then: the old tree's page.
      expect(racing.text).not.to.include('new.jpg');
      // The next visitor gets the new tree's page, not the old one kept under the new version.
      const next = await app().get('/photos/2024/trip').expect(200);
      expect(next.text).to.include('data-name="new.jpg"');
      expect(renders).to.equal(2);
      expect((await app().get('/photos/2024/trip').expect(200)).text).to.equal(next.text);
      expect(renders).to.equal(2);
    } finally {
      fs.rmSync(fx.path('2024/trip/new.jpg'), { force: true });
      await index.rescan();
    }
  });

  it('should keep one page per set of unlocked child albums, never showing one visitor what another unlocked', async () => {
    const anonymous = await app().get('/photos/2024/trip').expect(200);
    const unlocked = await app()
      .get('/photos/2024/trip')
      .set('Cookie', accessCookie(['t-locked']))
      .expect(200);
    const anonymousAgain = await app().get('/photos/2024/trip').expect(200);
    expect(renders).to.equal(2);
    expect(unlocked.text).not.to.equal(anonymous.text);
    expect(anonymousAgain.text).to.equal(anonymous.text);
  });

  it('should never keep the page of a protected album', async () => {
    const cookie = accessCookie(['t-secret']);
    const res = await app().get('/photos/2024/secret').set('Cookie', cookie).expect(200);
    await app().get('/photos/2024/secret').set('Cookie', cookie).expect(200);
    expect(res.headers['cache-control']).to.equal('no-store');
    expect(renders).to.equal(2);
    expect(cache.size).to.equal(0);
  });

  it('should keep a page rendered before the sizes of its photos were read only a moment, then render it with them', async () => {
    known.delete('b.jpg');
    const cold = await app().get('/photos/2024/trip').expect(200);
    expect(cold.text).not.to.match(/data-name="b.jpg"[^>]*data-width/);
    known.add('b.jpg');
    // Within its short lifetime the unfinished page is sent again, not rendered per visitor.
    const soon = await app().get('/photos/2024/trip').expect(200);
    expect(soon.text).to.equal(cold.text);
    expect(renders).to.equal(1);
    await new Promise((r) => setTimeout(r, UNFINISHED_MS + 50));
    // Its moment over, it is still sent at once, while it is made again for the next visitor.
    const stale = await app().get('/photos/2024/trip').expect(200);
    expect(stale.text).to.equal(cold.text);
    await new Promise((r) => setTimeout(r, 50));
    expect(renders).to.equal(2);
    const warm = await app().get('/photos/2024/trip').expect(200);
    expect(warm.text).to.match(/data-name="b.jpg"[^>]*data-width="640"/);
    // Final now: kept for good.
    await new Promise((r) => setTimeout(r, UNFINISHED_MS + 50));
    await app().get('/photos/2024/trip').expect(200);
    expect(renders).to.equal(2);
  });

  it('should keep a public folder page per set of unlocked child albums, and answer 304 to its ETag', async () => {
    const first = await app().get('/photos/2024').expect(200);
    expect(cache.size).to.equal(1);
    const again = await app().get('/photos/2024').expect(200);
    expect(again.headers.etag).to.equal(first.headers.etag);
    expect(again.headers['cache-control']).to.equal('no-cache');
    await app().get('/photos/2024').set('If-None-Match', first.headers.etag!).expect(304);
    // The secret album's card shows its padlock to one visitor and its cover to another.
    const unlocked = await app()
      .get('/photos/2024')
      .set('Cookie', accessCookie(['t-secret']))
      .expect(200);
    expect(cache.size).to.equal(2);
    expect(unlocked.text).not.to.equal(first.text);
    expect((await app().get('/photos/2024').expect(200)).text).to.equal(first.text);
  });

  it('should render a page once for visitors asking for it at the same moment', async () => {
    const agent = app();
    const pages = await Promise.all(Array.from({ length: 8 }, () => agent.get('/photos/2024/trip').expect(200)));
    expect(renders).to.equal(1);
    expect(new Set(pages.map((p) => p.headers.etag)).size).to.equal(1);
  });
});

describe('PageCache', () => {
  it('should drop every page of an older tree version, and the least recently used past its size', () => {
    // Room for two pages of 5 characters (10 bytes each: the text and its UTF-8 bytes).
    const cache = new PageCache(20);
    cache.set(1, 'a', '12345');
    cache.set(1, 'b', '12345');
    expect(cache.get(1, 'a')?.html).to.equal('12345');
    cache.set(1, 'c', '12345');
    // 'b' was the least recently used.
    expect(cache.get(1, 'b')).to.equal(undefined);
    expect(cache.get(1, 'a')?.html).to.equal('12345');
    expect(cache.get(2, 'a')).to.equal(undefined);
    cache.set(2, 'x', 'xx');
    expect(cache.size).to.equal(1);
    expect(cache.get(1, 'a')).to.equal(undefined);
  });

  it('should not let a page made from an older tree version displace the pages of the newer one', () => {
    const cache = new PageCache();
    cache.set(2, 'a', 'new tree');
    // A render that began before the rescan ends after a page of the new tree was kept.
    expect(cache.set(1, 'a', 'old tree').html).to.equal('old tree');
    expect(cache.get(2, 'a')?.html).to.equal('new tree');
    expect(cache.get(1, 'a')).to.equal(undefined);
    expect(cache.size).to.equal(1);
  });

  it('should send a page kept for a moment after its moment while making it anew, once', async () => {
    const cache = new PageCache();
    cache.set(1, 'brief', 'soon stale', 40);
    cache.set(1, 'final', 'for good');
    expect(cache.get(1, 'brief')?.html).to.equal('soon stale');
    await new Promise((r) => setTimeout(r, 60));
    expect(cache.get(1, 'brief')).to.equal(undefined);
    expect(cache.get(1, 'final')?.html).to.equal('for good');
    let made = 0;
    const make = async () => {
      made++;
      await new Promise((r) => setTimeout(r, 20));
      return { html: 'made anew' };
    };
    const sent = await Promise.all([cache.make(1, 'brief', make), cache.make(1, 'brief', make)]);
    expect(sent.map((p) => p.html)).to.deep.equal(['soon stale', 'soon stale']);
    await new Promise((r) => setTimeout(r, 40));
    expect(made).to.equal(1);
    expect((await cache.make(1, 'brief', make)).html).to.equal('made anew');
    expect(made).to.equal(1);
  });

  it('should make a page once for callers at the same moment, and again when making it failed', async () => {
    const cache = new PageCache();
    let made = 0;
    const make = async () => {
      made++;
      await new Promise((r) => setTimeout(r, 20));
      return { html: `page ${made}` };
    };
    const pages = await Promise.all([cache.make(1, 'k', make), cache.make(1, 'k', make), cache.make(1, 'k', make)]);
    expect(made).to.equal(1);
    expect(pages.map((p) => p.html)).to.deep.equal(['page 1', 'page 1', 'page 1']);
    const failing = () => Promise.reject(new Error('render failed'));
    let err: unknown;
    await cache.make(1, 'other', failing).catch((e: unknown) => (err = e));
    expect((err as Error).message).to.equal('render failed');
    expect((await cache.make(1, 'other', make)).html).to.equal('page 2');
  });
});
