import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import sharp from 'sharp';
import { type AdminFixture, createAdminFixture, listDir, makeJpeg, makePng } from './support/admin-fixture.js';

describe('admin /api/assets', () => {
  let fx: AdminFixture;
  beforeEach(async () => {
    fx = await createAdminFixture();
  });
  afterEach(() => fx.close());

  for (const kind of ['hero', 'cards'] as const) {
    describe(`/api/assets/${kind}`, () => {
      const dir = () => path.join(fx.contentDir, 'assets', kind);

      it('should list nothing before the first upload', async () => {
        expect((await request(fx.app).get(`/api/assets/${kind}`).expect(200)).body).to.deep.equal([]);
      });

      it('should upload verified images under safe names, list and serve them', async () => {
        const res = await request(fx.app)
          .post(`/api/assets/${kind}`)
          .attach('files', await makeJpeg(), 'Sunset Beach.JPG')
          .attach('files', await makePng(), 'logo.png')
          .attach('files', Buffer.from('text'), 'fake.png')
          .attach('files', await makeJpeg(), 'scan.tif')
          .expect(201);
        expect(res.body.results.map((r: { ok: boolean }) => r.ok)).to.deep.equal([true, true, false, false]);
        expect(res.body.results[3].error).to.equal('Only web images are accepted here (.jpg, .jpeg, .png, .webp, .avif)');
        expect(listDir(dir())).to.deep.equal(['Sunset Beach.JPG', 'logo.png']);
        const list = await request(fx.app).get(`/api/assets/${kind}`).expect(200);
        expect(list.body.map((f: { name: string }) => f.name)).to.deep.equal(['logo.png', 'Sunset Beach.JPG']);
        expect(list.body[1].url).to.equal(`/content-assets/${kind}/Sunset%20Beach.JPG`);
        await request(fx.app).get(list.body[1].url).expect(200).expect('Content-Type', 'image/jpeg');
        expect(listDir(path.join(fx.contentDir, '.uploads'))).to.deep.equal([]);
      });

      it('should delete by ?name= into CONTENT_DIR/.trash', async () => {
        await request(fx.app)
          .post(`/api/assets/${kind}`)
          .attach('files', await makeJpeg(), 'a.jpg')
          .expect(201);
        const res = await request(fx.app).delete(`/api/assets/${kind}?name=a.jpg`).expect(200);
        expect(res.body.deleted).to.equal('a.jpg');
        expect(listDir(dir())).to.deep.equal([]);
        expect(fs.existsSync(path.join(fx.contentDir, ...res.body.trashedTo.split('/')))).to.equal(true);
      });

      it('should answer 400 for a bad name and 404 for a missing file', async () => {
        for (const name of ['../home.json', '.hidden.jpg', 'a/b.jpg', 'notes.txt']) {
          await request(fx.app)
            .delete(`/api/assets/${kind}?name=${encodeURIComponent(name)}`)
            .expect(400);
        }
        expect((await request(fx.app).delete(`/api/assets/${kind}`).expect(400)).body.error).to.equal('Missing required parameter: name');
        await request(fx.app).delete(`/api/assets/${kind}?name=none.jpg`).expect(404);
      });
    });
  }

  describe('POST /api/assets/landing', () => {
    const landing = () => path.join(fx.contentDir, 'assets', 'landing', 'landing.jpg');

    it('should convert a PNG to CONTENT_DIR/assets/landing/landing.jpg', async () => {
      expect((await request(fx.app).get('/api/assets/landing').expect(200)).body).to.deep.equal([]);
      const res = await request(fx.app)
        .post('/api/assets/landing')
        .attach('files', await makePng(80, 60), 'landing.png')
        .expect(201);
      expect(res.body).to.deep.include({ name: 'landing.jpg', width: 80, height: 60, url: '/content-assets/landing/landing.jpg' });
      const meta = await sharp(landing()).metadata();
      expect(meta.format).to.equal('jpeg');
      expect(listDir(path.dirname(landing()))).to.deep.equal(['landing.jpg']);
      const list = await request(fx.app).get('/api/assets/landing').expect(200);
      expect(list.body).to.have.length(1);
      expect(list.body[0]).to.include({ name: 'landing.jpg', url: '/content-assets/landing/landing.jpg' });
    });

    it('should replace the previous landing image', async () => {
      await request(fx.app)
        .post('/api/assets/landing')
        .attach('files', await makeJpeg(30, 20), 'a.jpg')
        .expect(201);
      await request(fx.app)
        .post('/api/assets/landing')
        .attach('files', await makeJpeg(50, 40), 'b.jpg')
        .expect(201);
      expect((await sharp(landing()).metadata()).width).to.equal(50);
    });

    it('should refuse a file that is not an image and keep the current landing image', async () => {
      await request(fx.app)
        .post('/api/assets/landing')
        .attach('files', await makeJpeg(30, 20), 'a.jpg')
        .expect(201);
      const before = fs.readFileSync(landing());
      const res = await request(fx.app).post('/api/assets/landing').attach('files', Buffer.from('nope'), 'x.jpg').expect(400);
      expect(res.body.error).to.equal('"x.jpg": Not a decodable image');
      expect(fs.readFileSync(landing())).to.deep.equal(before);
      expect(listDir(path.join(fx.contentDir, '.uploads'))).to.deep.equal([]);
    });

    it('should take one file only', async () => {
      const res = await request(fx.app)
        .post('/api/assets/landing')
        .attach('files', await makeJpeg(), 'a.jpg')
        .attach('files', await makeJpeg(), 'b.jpg')
        .expect(413);
      expect(res.body.error).to.equal('Too many files: at most 1 per request; nothing was kept');
      expect(fs.existsSync(landing())).to.equal(false);
    });
  });
});
