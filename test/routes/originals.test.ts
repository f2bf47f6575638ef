import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import express from 'express';
import request from 'supertest';
import { createResolvers } from '../../server/public/access/gallery-access.js';
import { errorHandler } from '../../server/http/error-handler.js';
import type { MediaResolver } from '../../server/public/resolvers.js';
import { originalsHandler } from '../../server/public/routes/originals.js';
import { accessCookie, GalleryFixture } from '../support/gallery-fixture.js';
import { makeTempDir, removeTempDir } from '../support/temp-dir.js';
import { quietLogger } from '../support/capture-logger.js';

describe('GET /albums/{path}', () => {
  const fx = new GalleryFixture();
  let outside: string;
  let app: ReturnType<typeof request>;

  before(async () => {
    await fx.build({
      '2024/trip/lisbon': {
        meta: { title: 'Lisbon', token: 't-lisbon' },
        files: ['IMG_1.jpg', 'Café São Paulo – 日本.jpg', 'notes.txt', '.secret.jpg', 'vanishing.jpg'],
      },
      '2024/trip/private': { meta: { title: 'Private', password: 'pw', token: 't-private' }, files: ['p1.jpg'] },
      '2024/trip/private/child': { meta: { title: 'Child', token: 't-child' }, files: ['c1.jpg'] },
    });
    fs.writeFileSync(fx.path('2024/trip/lisbon/clip.mp4'), Buffer.alloc(10_000, 7));
    outside = makeTempDir();
    fs.writeFileSync(path.join(outside, 'secret.jpg'), 'outside the tree');
    fs.symlinkSync(path.join(outside, 'secret.jpg'), fx.path('2024/trip/lisbon/escape.jpg'));
    fs.symlinkSync(fx.path('2024/trip/private/p1.jpg'), fx.path('2024/trip/lisbon/sneaky.jpg'));
    fs.writeFileSync(fx.path('2024/loose.jpg'), 'in a folder that is not an album');
    await fx.start();
    app = request(fx.gallery.handler);
  });
  after(async () => {
    await fx.close();
    removeTempDir(outside);
  });

  describe('for a public photo', () => {
    it('should serve it with its type and the documented cache header', async () => {
      const res = await app.get('/albums/2024/trip/lisbon/IMG_1.jpg').expect(200);
      expect(res.headers['content-type']).to.equal('image/jpeg');
      expect(res.headers['cache-control']).to.equal('public, max-age=31536000, immutable');
      expect(res.headers.etag).to.be.a('string');
      expect(res.headers['last-modified']).to.be.a('string');
      expect(res.headers['x-content-type-options']).to.equal('nosniff');
      expect(res.headers['x-powered-by']).to.equal(undefined);
      expect(Buffer.compare(res.body as Buffer, fs.readFileSync(fx.path('2024/trip/lisbon/IMG_1.jpg')))).to.equal(0);
    });

    it('should serve a non-ASCII file name', async () => {
      await app
        .get(`/albums/2024/trip/lisbon/${encodeURIComponent('Café São Paulo – 日本.jpg')}`)
        .expect(200)
        .expect('Content-Type', 'image/jpeg');
    });

    it('should answer If-None-Match with 304', async () => {
      const first = await app.get('/albums/2024/trip/lisbon/IMG_1.jpg');
      await app.get('/albums/2024/trip/lisbon/IMG_1.jpg').set('If-None-Match', first.headers.etag!).expect(304);
    });

    it('should answer a Range request with 206 and the bytes asked for', async () => {
      const res = await app.get('/albums/2024/trip/lisbon/clip.mp4').set('Range', 'bytes=100-199').buffer(true).expect(206);
      expect(res.headers['content-range']).to.equal('bytes 100-199/10000');
      expect(res.headers['content-type']).to.equal('video/mp4');
      expect(Number(res.headers['content-length'])).to.equal(100);
    });

    it('should answer an unsatisfiable Range with 416 JSON and the size in Content-Range', async () => {
      const res = await app.get('/albums/2024/trip/lisbon/clip.mp4').set('Range', 'bytes=20000-30000').expect(416);
      expect(res.headers['content-type']).to.match(/^application\/json/);
      expect(res.headers['content-range']).to.equal('bytes */10000');
      expect(res.body.error).to.be.a('string').and.not.empty;
      // An error is not the file: none of the file's validators or its year-long cache header.
      expect(res.headers['cache-control']).to.equal('no-store');
      expect(res.headers['last-modified']).to.equal(undefined);
    });
  });

  describe('with a bad path', () => {
    for (const [url, status] of [
      ['/albums/2024/trip/../trip/lisbon/IMG_1.jpg', 400],
      ['/albums/2024/trip/%2e%2e/trip/lisbon/IMG_1.jpg', 400],
      ['/albums/..%2f..%2fetc%2fpasswd', 400],
      ['/albums/%2fetc%2fpasswd', 400],
      ['/albums/2024%5ctrip%5clisbon%5cIMG_1.jpg', 400],
      ['/albums/2024/trip/lisbon/IMG_1.jpg%00.png', 400],
      ['/albums/2024/trip/lisbon/%E0%A4%A.jpg', 400],
      ['/albums/2024/trip/lisbon/album.json', 404],
      ['/albums/2024/trip/lisbon/notes.txt', 404],
      ['/albums/2024/trip/lisbon/.secret.jpg', 404],
      ['/albums/2024/trip/lisbon/missing.jpg', 404],
      ['/albums/2024/trip/lisbon/escape.jpg', 404],
      ['/albums/2024/loose.jpg', 404],
      ['/albums/2024/trip/nothing/x.jpg', 404],
    ] as const) {
      it(`should answer ${url} with ${status} JSON`, async () => {
        const res = await app
          .get(url)
          .expect(status)
          .expect('Content-Type', /application\/json/);
        expect(res.body.error).to.be.a('string').and.not.empty;
        expect(res.text).to.not.include('outside the tree');
      });
    }
  });

  describe('when the file vanishes between lookup and open', () => {
    // The real resolver finds the file; it is then deleted before send opens it, as when the
    // owner removes a photo while a visitor asks for it.
    function appWithVanishingFiles() {
      const { resolveMedia } = createResolvers(fx.gallery.index, fx.albumsDir);
      const vanishing: MediaResolver = async (req, raw, use) => {
        const media = await resolveMedia(req, raw, use);
        fs.rmSync(media.absPath);
        return media;
      };
      return express()
        .get('/albums/*splat', originalsHandler(vanishing))
        .use(errorHandler({ log: quietLogger }));
    }

    it('should answer 404 JSON that names no filesystem path', async () => {
      const res = await request(appWithVanishingFiles()).get('/albums/2024/trip/lisbon/vanishing.jpg').expect(404);
      expect(res.headers['content-type']).to.match(/^application\/json/);
      expect(res.body).to.deep.equal({ error: 'Not found' });
      expect(res.text).to.not.include(fx.root);
      expect(res.headers['cache-control']).to.equal('no-store');
    });
  });

  describe('for a protected album', () => {
    it('should answer 401 JSON without access, whether or not the file exists', async () => {
      const a = await app.get('/albums/2024/trip/private/p1.jpg').expect(401);
      const b = await app.get('/albums/2024/trip/private/guess.jpg').expect(401);
      expect(a.body).to.deep.equal(b.body);
      await app.get('/albums/2024/trip/private/child/c1.jpg').expect(401);
    });

    it('should not leak through a symlink from a public album', async () => {
      await app.get('/albums/2024/trip/lisbon/sneaky.jpg').expect(401);
    });

    it('should serve it as private with the album token in the cookie', async () => {
      const res = await app
        .get('/albums/2024/trip/private/p1.jpg')
        .set('Cookie', accessCookie(['t-private']))
        .expect(200);
      expect(res.headers['cache-control']).to.equal('private, max-age=31536000, immutable');
      const child = await app
        .get('/albums/2024/trip/private/child/c1.jpg')
        .set('Cookie', accessCookie(['t-private']))
        .expect(200);
      expect(child.headers['cache-control']).to.equal('private, max-age=31536000, immutable');
    });

    it('should accept the X-Album-Token header', async () => {
      await app.get('/albums/2024/trip/private/p1.jpg').set('X-Album-Token', 't-private').expect(200);
    });

    it('should not accept a URL token for an album without allowAnonymous', async () => {
      await app.get('/albums/2024/trip/private/p1.jpg?token=t-private').expect(401);
    });
  });
});
