import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import { writeVideo } from '../support/media-fixtures.js';
import { writeHevcClip } from '../support/phone-videos.js';
import { accessCookie, eventually, GalleryFixture } from '../support/gallery-fixture.js';
import { makeTempDir, removeTempDir } from '../support/temp-dir.js';
import { unzip } from '../zip/support.js';

/**
 * Live Photos (docs/api.md#live-photos), with real files: JPEG stills made by sharp and
 * H.264 QuickTime movies made by the shipped ffmpeg. A still and a `.mov` of one name are one
 * photo everywhere a visitor counts or sees media; the movie stays a file of its album on
 * every media route, and is guarded there exactly like the album's other files.
 */
describe('Live Photos', function () {
  this.timeout(60_000);
  const fx = new GalleryFixture();
  let outside: string;
  let app: ReturnType<typeof request>;
  const PHONE = '2024/phone';
  const LOCKED = '2024/locked';
  const MIXED = '2024/mixed';
  const IPHONE = '2024/iphone';
  const UNLOCKED = accessCookie(['t-locked']);

  before(async () => {
    await fx.build({
      '2024': { meta: { title: 'Year 2024', isCollection: true } },
      [PHONE]: { meta: { title: 'Phone' }, files: ['IMG_1.JPG', 'IMG_2.jpg'] },
      [LOCKED]: { meta: { title: 'Locked', password: 'pw', token: 't-locked' }, files: ['IMG_5.jpg'] },
      [MIXED]: { meta: { title: 'Mixed' }, files: ['IMG_7.jpg', 'IMG_8.jpg', 'IMG_9.jpg'] },
      [IPHONE]: { meta: { title: 'iPhone' }, files: ['IMG_3.JPG'] },
    });
    await writeHevcClip(fx.path(IPHONE, 'IMG_3.MOV'));
    await writeVideo(fx.path(PHONE, 'IMG_1.MOV'), { seconds: 1 });
    await writeVideo(fx.path(PHONE, 'clip.mp4'), { seconds: 1 });
    await writeVideo(fx.path(PHONE, 'lone.MOV'), { seconds: 1 });
    await writeVideo(fx.path(LOCKED, 'IMG_5.mov'), { seconds: 1 });
    outside = makeTempDir('gallery-outside-');
    fs.writeFileSync(path.join(outside, 'secret.mov'), 'not in the tree');
    // Motion files that are links: into a locked album, out of the tree, to a public album's motion.
    const linkIn = (name: string, target: string) => fs.symlinkSync(path.relative(fx.path(MIXED), target), fx.path(MIXED, name));
    linkIn('IMG_7.MOV', fx.path(LOCKED, 'IMG_5.mov'));
    linkIn('IMG_8.MOV', path.join(outside, 'secret.mov'));
    linkIn('IMG_9.MOV', fx.path(PHONE, 'IMG_1.MOV'));
    // Prepared as the gallery does once files arrive: a page never waits for the facts it shows.
    await fx.start({ env: { WORKERS: '2', PREPARE: 'on' }, backgroundDelayMs: 0 });
    await fx.gallery.preparer!.idle();
    app = request(fx.gallery.handler);
  });

  after(async () => {
    await fx.close();
    removeTempDir(outside);
  });

  const q = (mediaPath: string) => encodeURIComponent(mediaPath);
  const get = (url: string, cookie = '') => app.get(url).set('Cookie', cookie).timeout(20_000);

  interface Item {
    name: string;
    kind: string;
    motion: { path: string; sources: { src: string; type?: string }[] } | null;
  }
  async function albumMedia(albumPath: string, cookie = ''): Promise<{ total: number; items: Item[] }> {
    const res = await get(`/api/album-media?path=${q(albumPath)}`, cookie).expect(200);
    return res.body as { total: number; items: Item[] };
  }

  async function zipNames(albumPath: string, cookie = ''): Promise<string[]> {
    const res = await get(`/api/download-album?path=${q(albumPath)}`, cookie)
      .buffer(true)
      .parse((r, done) => {
        const chunks: Buffer[] = [];
        r.on('data', (c: Buffer) => chunks.push(c));
        r.on('end', () => done(null, Buffer.concat(chunks)));
      })
      .expect(200);
    return [...(await unzip(res.body as Buffer)).keys()];
  }

  /** Status of every media route for a movie. */
  async function statuses(mediaPath: string, cookie = ''): Promise<Record<string, number>> {
    return {
      original: (await get(`/albums/${mediaPath}`, cookie)).status,
      thumbnail: (await get(`/api/thumbnail?path=${q(mediaPath)}&size=small`, cookie)).status,
      videoInfo: (await get(`/api/video-info?path=${q(mediaPath)}`, cookie)).status,
    };
  }
  const everywhere = (status: number) => ({ original: status, thumbnail: status, videoInfo: status });

  describe('the album page', () => {
    it('should show a Live Photo as one tile with a LIVE badge, and the movie as no tile', async () => {
      const res = await get(`/photos/${PHONE}`).expect(200);
      const tiles = [...res.text.matchAll(/<li class="media__item[^"]*"[\s\S]*?<\/li>/g)].map((m) => m[0]);
      expect(tiles.map((t) => /data-name="([^"]+)"/.exec(t)?.[1])).to.deep.equal(['clip.mp4', 'IMG_1.JPG', 'IMG_2.jpg', 'lone.MOV']);
      const live = tiles[1]!;
      expect(live).to.match(/class="media__item media__item--image media__item--live"/);
      expect(live).to.include('class="badge badge--live"').and.include('LIVE');
      expect(live).to.include('data-motion="');
      expect(tiles.filter((t) => t.includes('badge--live'))).to.have.length(1);
      expect(res.text).to.not.include('data-name="IMG_1.MOV"');
    });

    it('should count the pair as one photo in the header', async () => {
      const res = await get(`/photos/${PHONE}`).expect(200);
      expect(res.text).to.include('2 photos · 2 videos');
    });

    it('should count it as one photo on the cards of /photos and of a collection', async () => {
      const photos = await get('/photos').expect(200);
      const collection = await get('/photos/2024').expect(200);
      for (const page of [photos.text, collection.text]) {
        // The card's dates ("Jun 2024", card-dates.ts) come between its title and its count.
        const card =
          /<span class="card__title">Phone<\/span>(?:<span class="card__meta card__dates">[^<]*<\/span>)?\s*<span class="card__meta">([^<]*)<\/span>/.exec(
            page,
          );
        expect(card?.[1]).to.equal('2 photos · 2 videos');
      }
    });
  });

  describe('GET /api/album-media', () => {
    it('should list the still once, with its motion, and count no movie of a pair', async () => {
      const body = await albumMedia(PHONE);
      expect(body.total).to.equal(4);
      expect(body.items.map((i) => i.name)).to.deep.equal(['clip.mp4', 'IMG_1.JPG', 'IMG_2.jpg', 'lone.MOV']);
      // The movie is probed with the page, as videos are: this H.264 one has its index at the
      // end, so its remux comes first and the original is the fallback while it is made.
      expect(body.items[1]!.motion).to.deep.equal({
        path: `${PHONE}/IMG_1.MOV`,
        sources: [{ src: `/api/web-video?path=${encodeURIComponent(`${PHONE}/IMG_1.MOV`)}`, type: 'video/mp4' }, { src: `/albums/${PHONE}/IMG_1.MOV` }],
      });
      expect(body.items.filter((i) => i.name !== 'IMG_1.JPG').map((i) => i.motion)).to.deep.equal([null, null, null]);
    });

    it("should offer an iPhone's HEVC movie typed for Safari, then its H.264 copy, started with the page", async function () {
      this.timeout(30_000);
      const motion = `${IPHONE}/IMG_3.MOV`;
      const body = await albumMedia(IPHONE);
      expect(body.items[0]!.motion).to.deep.equal({
        path: motion,
        sources: [
          { src: `/albums/${motion}`, type: 'video/mp4; codecs="hvc1"' },
          { src: `/api/web-video?path=${encodeURIComponent(motion)}`, type: 'video/mp4' },
        ],
      });
      const copy = `${path.join(fx.cacheDir, 'web-video', ...motion.split('/'))}.mp4`;
      await eventually(() => fs.existsSync(copy), 20_000, 'the web copy of the movie, started by the page');
    });

    it('should give the movie no deep link of its own', async () => {
      const res = await get(`/api/album-media?path=${q(PHONE)}&name=IMG_1.MOV`).expect(404);
      expect(res.body).to.deep.equal({ error: 'File not found' });
      await get(`/api/album-media?path=${q(PHONE)}&name=IMG_1.JPG`).expect(200);
    });
  });

  describe('the movie of a Live Photo in an open album', () => {
    const movie = `${PHONE}/IMG_1.MOV`;

    it('should serve its original as before, with Range', async () => {
      const res = await get(`/albums/${movie}`).expect(200);
      expect(res.headers['content-type']).to.equal('video/quicktime');
      expect(res.headers['cache-control']).to.equal('public, max-age=31536000, immutable');
      expect(Number(res.headers['content-length'])).to.equal(fs.statSync(fx.path(movie)).size);
      const part = await get(`/albums/${movie}`).set('Range', 'bytes=0-99').expect(206);
      expect(part.headers['content-range']).to.match(/^bytes 0-99\//);
    });

    it('should give its thumbnail and video info', async () => {
      const thumb = await get(`/api/thumbnail?path=${q(movie)}&size=small`).expect(200);
      expect(thumb.headers['content-type']).to.equal('image/jpeg');
      const info = await get(`/api/video-info?path=${q(movie)}`).expect(200);
      expect(info.body).to.include({ codec: 'h264', width: 320, height: 240 });
    });

    it('should answer a name the album does not have with 404, as for any file', async () => {
      expect(await statuses(`${PHONE}/IMG_2.MOV`)).to.deep.equal(everywhere(404));
    });
  });

  describe('the movie of a Live Photo in a locked album', () => {
    const movie = `${LOCKED}/IMG_5.mov`;

    it('should answer 401 with a JSON error on every route', async () => {
      expect(await statuses(movie)).to.deep.equal(everywhere(401));
      const res = await get(`/api/video-info?path=${q(movie)}`).expect(401);
      expect(res.body).to.deep.equal({ error: 'This album is protected: unlock it first' });
    });

    it('should answer 401 in any letter case of its name, and for the still too', async () => {
      expect(await statuses(`${LOCKED}/IMG_5.MOV`)).to.deep.equal(everywhere(401));
      expect((await get(`/albums/${LOCKED}/IMG_5.jpg`)).status).to.equal(401);
    });

    it('should be served privately once the album is unlocked', async () => {
      expect(await statuses(movie, UNLOCKED)).to.deep.equal(everywhere(200));
      const res = await get(`/albums/${movie}`, UNLOCKED).expect(200);
      expect(res.headers['cache-control']).to.equal('private, max-age=31536000, immutable');
      const body = await albumMedia(LOCKED, UNLOCKED);
      expect(body.items.map((i) => [i.name, i.motion?.path])).to.deep.equal([['IMG_5.jpg', movie]]);
    });
  });

  describe('a motion file that is a symlink', () => {
    it('should follow it only into an album the visitor may open (401 into a locked one, 404 out of the tree)', async () => {
      expect(await statuses(`${MIXED}/IMG_7.MOV`)).to.deep.equal(everywhere(401));
      expect(await statuses(`${MIXED}/IMG_7.MOV`, UNLOCKED)).to.deep.equal(everywhere(200));
      expect(await statuses(`${MIXED}/IMG_8.MOV`, UNLOCKED)).to.deep.equal(everywhere(404));
      expect(await statuses(`${MIXED}/IMG_9.MOV`)).to.deep.equal(everywhere(200));
    });

    it('should show the still as a plain photo, and leave the movie out of the ZIP, where the link is refused', async () => {
      const anonymous = await albumMedia(MIXED);
      expect(anonymous.items.map((i) => [i.name, i.motion?.path ?? null])).to.deep.equal([
        ['IMG_7.jpg', null],
        ['IMG_8.jpg', null],
        ['IMG_9.jpg', `${MIXED}/IMG_9.MOV`],
      ]);
      expect(await zipNames(MIXED)).to.deep.equal(['IMG_7.jpg', 'IMG_8.jpg', 'IMG_9.jpg', 'IMG_9.MOV']);
      const page = await get(`/photos/${MIXED}`).expect(200);
      expect(page.headers['cache-control']).to.equal('no-cache');
      expect(page.text).to.not.include('IMG_7.MOV').and.not.include('IMG_8.MOV');
    });

    it('should play a link into an album the visitor unlocked, and keep the page out of shared caches', async () => {
      const unlocked = await albumMedia(MIXED, UNLOCKED);
      expect(unlocked.items[0]!.motion?.path).to.equal(`${MIXED}/IMG_7.MOV`);
      expect(await zipNames(MIXED, UNLOCKED)).to.deep.equal(['IMG_7.jpg', 'IMG_7.MOV', 'IMG_8.jpg', 'IMG_9.jpg', 'IMG_9.MOV']);
      const page = await get(`/photos/${MIXED}`, UNLOCKED).expect(200);
      expect(page.headers['cache-control']).to.equal('no-store');
    });
  });

  describe('GET /api/download-album', () => {
    it('should hold both files of each pair, and no other video', async () => {
      expect(await zipNames(PHONE)).to.deep.equal(['IMG_1.JPG', 'IMG_1.MOV', 'IMG_2.jpg']);
    });

    it('should hold the locked album\u2019s pair once it is unlocked, and refuse it before', async () => {
      await get(`/api/download-album?path=${q(LOCKED)}`).expect(401);
      expect(await zipNames(LOCKED, UNLOCKED)).to.deep.equal(['IMG_5.jpg', 'IMG_5.mov']);
    });
  });
});
