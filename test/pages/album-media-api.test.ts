import fs from 'node:fs';
import { expect } from 'chai';
import cookieParser from 'cookie-parser';
import express from 'express';
import request from 'supertest';
import { createResolvers } from '../../server/public/access/gallery-access.js';
import { AlbumIndex } from '../../server/core/albums/album-index.js';
import { apiNotFound, errorHandler } from '../../server/http/error-handler.js';
import type { DimensionsProvider } from '../../server/media/dimensions.js';
import { MediaStats } from '../../server/public/pages/media-stats.js';
import { createAlbumMediaRouter } from '../../server/public/routes/album-media-api.js';
import { accessCookie, GalleryFixture } from '../support/gallery-fixture.js';
import { quietLogger } from '../support/capture-logger.js';

/** Every photo is 300×200, every video 1280×720 and 90.5 s long. */
const fakeDimensions: DimensionsProvider = async (_node, items) =>
  items.map((m) => (m.kind === 'video' ? { width: 1280, height: 720, duration: 90.5 } : { width: 300, height: 200 }));

describe('GET /api/album-media', () => {
  const fx = new GalleryFixture();
  let index: AlbumIndex;
  let app: ReturnType<typeof request>;

  before(async function () {
    this.timeout(60_000);
    await fx.build({
      '2024/trip': { meta: { title: 'Trip' }, files: ['IMG_10.jpg', 'IMG_2.jpg', 'IMG_1.jpg', 'clip.mp4'] },
      '2024/secret': { meta: { title: 'Secret', password: 'pw' }, files: ['s.jpg'] },
      '2024/secret/child': { meta: { title: 'Child' }, files: ['c.jpg'] },
      '2024/big': { meta: { title: 'Big' }, files: ['seed.jpg'] },
    });
    const seed = fs.readFileSync(fx.path('2024/big/seed.jpg'));
    fs.rmSync(fx.path('2024/big/seed.jpg'));
    for (let i = 1; i <= 250; i++) fs.writeFileSync(fx.path(`2024/big/IMG_${i}.jpg`), seed);
    index = await AlbumIndex.open({ albumsDir: fx.albumsDir, watch: false, log: quietLogger });
    const { resolveAlbum, locateMedia } = createResolvers(index, fx.albumsDir);
    const server = express();
    server.use(cookieParser());
    server.use(createAlbumMediaRouter({ index, resolveAlbum, stats: new MediaStats(locateMedia), dimensions: fakeDimensions }));
    server.use('/api', apiNotFound);
    server.use(errorHandler({ log: quietLogger }));
    app = request(server);
  });
  after(async () => {
    index.close();
    await fx.close();
  });

  const token = (albumPath: string) => index.album(albumPath)!.meta.token;

  describe('a public album', () => {
    it('should list its media in the album order with sizes, thumbnails and originals', async () => {
      const res = await app.get('/api/album-media?path=2024/trip').expect(200).expect('Content-Type', /json/);
      expect(res.headers['cache-control']).to.equal('no-cache');
      expect(res.body).to.include({ path: '2024/trip', title: 'Trip', total: 4, page: 1, pages: 1, perPage: 200 });
      expect(res.body.items.map((i: { name: string }) => i.name)).to.deep.equal(['clip.mp4', 'IMG_1.jpg', 'IMG_2.jpg', 'IMG_10.jpg']);
      // The original's mtime, size and inode: a replaced photo gets a new URL even with an old mtime.
      const stat = fs.statSync(fx.path('2024/trip/IMG_1.jpg'));
      const version = `${Math.floor(stat.mtimeMs)}-${stat.size.toString(36)}-${stat.ino.toString(36)}`;
      expect(res.body.items[1]).to.deep.equal({
        index: 1,
        name: 'IMG_1.jpg',
        kind: 'image',
        path: '2024/trip/IMG_1.jpg',
        alt: 'Photo 2 of 4',
        taken: null,
        caption: null,
        // What choosing it adds to a download (views/assets/select.js).
        bytes: stat.size,
        original: '/albums/2024/trip/IMG_1.jpg',
        full: '/albums/2024/trip/IMG_1.jpg',
        src: `/api/thumbnail?path=2024%2Ftrip%2FIMG_1.jpg&size=small&v=${version}`,
        large: `/api/thumbnail?path=2024%2Ftrip%2FIMG_1.jpg&size=large&v=${version}`,
        srcset: [
          `/api/thumbnail?path=2024%2Ftrip%2FIMG_1.jpg&size=small&v=${version} 400w`,
          `/api/thumbnail?path=2024%2Ftrip%2FIMG_1.jpg&size=tile&v=${version} 600w`,
          `/api/thumbnail?path=2024%2Ftrip%2FIMG_1.jpg&size=row&v=${version} 800w`,
          `/api/thumbnail?path=2024%2Ftrip%2FIMG_1.jpg&size=medium&v=${version} 1200w`,
          `/api/thumbnail?path=2024%2Ftrip%2FIMG_1.jpg&size=large&v=${version} 1920w`,
        ].join(', '),
        // The same sizes as WebP, for the lightbox of browsers that take it.
        webpSrcset: [
          `/api/thumbnail?path=2024%2Ftrip%2FIMG_1.jpg&size=small&format=webp&v=${version} 400w`,
          `/api/thumbnail?path=2024%2Ftrip%2FIMG_1.jpg&size=tile&format=webp&v=${version} 600w`,
          `/api/thumbnail?path=2024%2Ftrip%2FIMG_1.jpg&size=row&format=webp&v=${version} 800w`,
          `/api/thumbnail?path=2024%2Ftrip%2FIMG_1.jpg&size=medium&format=webp&v=${version} 1200w`,
          `/api/thumbnail?path=2024%2Ftrip%2FIMG_1.jpg&size=large&format=webp&v=${version} 1920w`,
        ].join(', '),
        width: 300,
        height: 200,
        thumbHash: null,
        // When it arrived (docs/api.md#feeds), for the "new" marks.
        added: Math.floor(stat.ctimeMs),
        duration: null,
        durationText: null,
        motion: null,
      });
      expect(res.body.items[0]).to.include({ kind: 'video', width: 1280, height: 720, duration: 90.5, durationText: '1:31' });
    });

    it('should give later pages with indices into the whole album', async () => {
      const res = await app.get('/api/album-media?path=2024/big&page=2').expect(200);
      expect(res.body).to.include({ total: 250, page: 2, pages: 2 });
      expect(res.body.items).to.have.length(50);
      expect(res.body.items[0]).to.include({ index: 200, name: 'IMG_201.jpg' });
      expect(res.body.items[49]).to.include({ index: 249, name: 'IMG_250.jpg' });
    });

    it('should find the page holding a file by its name', async () => {
      const res = await app.get('/api/album-media?path=2024/big&name=IMG_240.jpg').expect(200);
      expect(res.body.page).to.equal(2);
      expect(res.body.items.find((i: { name: string }) => i.name === 'IMG_240.jpg')).to.include({ index: 239 });
    });
  });

  describe('a protected album', () => {
    it('should answer 401 without a token', async () => {
      const res = await app.get('/api/album-media?path=2024/secret').expect(401).expect('Content-Type', /json/);
      expect(res.body.error).to.be.a('string');
      expect(JSON.stringify(res.body)).to.not.include('s.jpg');
    });

    it('should answer 401 for a passwordless child of a locked album', async () => {
      await app.get('/api/album-media?path=2024/secret/child').expect(401);
    });

    it('should answer 401 before telling whether a file name exists', async () => {
      await app.get('/api/album-media?path=2024/secret&name=nope.jpg').expect(401);
    });

    it('should list it with the cookie, privately', async () => {
      const res = await app
        .get('/api/album-media?path=2024/secret')
        .set('Cookie', accessCookie([token('2024/secret')]))
        .expect(200);
      expect(res.headers['cache-control']).to.equal('private, no-store');
      expect(res.body.items.map((i: { name: string }) => i.name)).to.deep.equal(['s.jpg']);
    });

    it('should list the child with the parent token', async () => {
      const res = await app
        .get('/api/album-media?path=2024/secret/child')
        .set('Cookie', accessCookie([token('2024/secret')]))
        .expect(200);
      expect(res.body.items.map((i: { name: string }) => i.name)).to.deep.equal(['c.jpg']);
    });

    it('should accept the X-Album-Token header', async () => {
      await app.get('/api/album-media?path=2024/secret').set('X-Album-Token', token('2024/secret')).expect(200);
    });
  });

  describe('errors', () => {
    for (const [query, why] of [
      ['path=2024/nope', 'an unknown album'],
      ['path=2024', 'a folder that is not an album'],
      ['path=2024/trip&page=2', 'a page past the last'],
      ['path=2024/trip&name=missing.jpg', 'an unknown file name'],
      ['path=2024/.hidden', 'a hidden path'],
    ] as const) {
      it(`should answer 404 JSON for ${why}`, async () => {
        const res = await app.get(`/api/album-media?${query}`).expect(404).expect('Content-Type', /json/);
        expect(res.body.error).to.be.a('string');
      });
    }

    for (const [query, message] of [
      ['', /Missing required parameter: path/],
      ['path=', /Missing required parameter: path/],
      ['path=../etc', /\.\./],
      ['path=/2024/trip', /relative/],
      ['path=2024/trip&path=2024/big', /single string/],
      ['path=2024/trip&page=0', /page must be a positive integer/],
      ['path=2024/trip&page=abc', /page must be a positive integer/],
      ['path=2024/trip&page=1.5', /page must be a positive integer/],
      ['path=2024/trip&page=1&name=IMG_1.jpg', /page or name/],
      ['path=2024/trip&name=a/b.jpg', /name must be a file name/],
    ] as const) {
      it(`should answer 400 for "${query}"`, async () => {
        const res = await app.get(`/api/album-media?${query}`).expect(400).expect('Content-Type', /json/);
        expect(res.body.error).to.match(message);
      });
    }
  });
});
