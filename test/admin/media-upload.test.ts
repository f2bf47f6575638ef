import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import { type AdminFixture, createAdminFixture, listDir, makeJpeg, makeMp4, makePng } from './support/admin-fixture.js';

describe('admin /api/photos and /api/videos', () => {
  let fx: AdminFixture;
  let albumDir: string;
  const uploadsDir = () => path.join(fx.albumsDir, '.uploads');

  beforeEach(async () => {
    fx = await createAdminFixture({ maxUploadBytes: 256 * 1024 });
    albumDir = await fx.album('2024/travel/lisbon', { title: 'Lisbon', token: 'lisbon-token-0123456789' });
  });
  afterEach(() => fx.close());

  describe('POST /api/photos/{path}', () => {
    it('should keep a valid JPEG under its own name and answer 201 with per-file results', async () => {
      const res = await request(fx.app)
        .post('/api/photos/2024/travel/lisbon')
        .attach('files', await makeJpeg(), 'IMG_0001.JPG')
        .expect(201);
      expect(res.body).to.deep.equal({
        stored: 1,
        rejected: 0,
        results: [{ name: 'IMG_0001.JPG', ok: true, file: 'IMG_0001.JPG', kind: 'image', size: res.body.results[0].size }],
      });
      expect(fs.readFileSync(path.join(albumDir, 'IMG_0001.JPG')).subarray(0, 2)).to.deep.equal(Buffer.from([0xff, 0xd8]));
      expect(listDir(uploadsDir())).to.deep.equal([]);
      const album = await request(fx.app).get('/api/albums').expect(200);
      expect(album.body[0].photoCount).to.equal(1);
    });

    it('should take several files at once, giving safe unique names and never overwriting', async () => {
      fs.writeFileSync(path.join(albumDir, 'beach.jpg'), await makeJpeg());
      const jpeg = await makeJpeg();
      const res = await request(fx.app)
        .post('/api/photos/2024/travel/lisbon')
        .attach('files', jpeg, 'beach.jpg')
        .attach('files', jpeg, 'BEACH.JPG')
        .attach('files', await makePng(), '../../etc/My Trip (1)?.PNG')
        .attach('files', jpeg, '.hidden.jpg')
        .attach('files', jpeg, 'Café <b>.jpeg')
        .expect(201);
      expect((res.body.results as Array<{ file: string }>).map((r) => r.file)).to.deep.equal([
        'beach-2.jpg',
        'BEACH-3.JPG',
        'My Trip (1).PNG',
        'hidden.jpg',
        'Café -b.jpeg',
      ]);
      expect(listDir(albumDir)).to.deep.equal(['BEACH-3.JPG', 'Café -b.jpeg', 'My Trip (1).PNG', 'album.json', 'beach-2.jpg', 'beach.jpg', 'hidden.jpg']);
    });

    it('should reject a text file renamed .jpg and write nothing (no file, no temp left)', async () => {
      const before = listDir(albumDir);
      const res = await request(fx.app)
        .post('/api/photos/2024/travel/lisbon')
        .attach('files', Buffer.from('this is not an image\n'.repeat(50)), 'holiday.jpg')
        .expect(400);
      expect(res.body.error).to.equal('No file was stored: "holiday.jpg": Not a decodable image');
      expect(res.body.results).to.deep.equal([{ name: 'holiday.jpg', ok: false, error: 'Not a decodable image' }]);
      expect(listDir(albumDir)).to.deep.equal(before);
      expect(listDir(uploadsDir())).to.deep.equal([]);
    });

    it('should reject a truncated JPEG', async () => {
      const jpeg = await makeJpeg(200, 150);
      const res = await request(fx.app)
        .post('/api/photos/2024/travel/lisbon')
        .attach('files', jpeg.subarray(0, jpeg.length / 2), 'cut.jpg')
        .expect(400);
      expect(res.body.results[0].ok).to.equal(false);
      expect(listDir(albumDir)).to.deep.equal(['album.json']);
    });

    it('should store the good files of a mixed batch and report the bad ones in order', async () => {
      const res = await request(fx.app)
        .post('/api/photos/2024/travel/lisbon')
        .attach('files', Buffer.from('nope'), 'a.jpg')
        .attach('files', await makeJpeg(), 'b.jpg')
        .attach('files', Buffer.from('text'), 'c.txt')
        .attach('files', await makeMp4(), 'd.mp4')
        .expect(201);
      expect(res.body.stored).to.equal(1);
      expect(res.body.results).to.deep.equal([
        { name: 'a.jpg', ok: false, error: 'Not a decodable image' },
        { name: 'b.jpg', ok: true, file: 'b.jpg', kind: 'image', size: res.body.results[1].size },
        { name: 'c.txt', ok: false, error: 'Only photos are accepted here (.jpg, .jpeg, .png, .webp, .avif, .gif, .tif, .tiff, .heic, .heif)' },
        { name: 'd.mp4', ok: false, error: 'Only photos are accepted here (.jpg, .jpeg, .png, .webp, .avif, .gif, .tif, .tiff, .heic, .heif)' },
      ]);
      expect(listDir(albumDir)).to.deep.equal(['album.json', 'b.jpg']);
      expect(listDir(uploadsDir())).to.deep.equal([]);
    });

    it('should store a long non-Latin name shortened by bytes, with the rest of its batch', async () => {
      const jpeg = await makeJpeg();
      const longName = `${'東京の夜景と'.repeat(20)}.JPG`;
      const res = await request(fx.app)
        .post('/api/photos/2024/travel/lisbon')
        .attach('files', jpeg, 'first.jpg')
        .attach('files', jpeg, longName)
        .attach('files', jpeg, longName)
        .expect(201);
      expect(res.body.stored).to.equal(3);
      const [first, long, again] = (res.body.results as Array<{ file: string }>).map((r) => r.file);
      expect(first).to.equal('first.jpg');
      expect(long).to.match(/^東京の夜景と.*\.JPG$/);
      expect(again).to.equal(long!.replace(/\.JPG$/, '-2.JPG'));
      for (const name of [long!, again!]) expect(Buffer.byteLength(name)).to.be.at.most(255);
      expect(listDir(albumDir)).to.have.members(['album.json', first, long, again]);
      expect(listDir(uploadsDir())).to.deep.equal([]);
    });

    it('should answer 413 past the per-file limit and keep nothing of the request', async () => {
      // A real JPEG padded past the limit: multer cuts it off on size, before any check of the content.
      const big = Buffer.concat([await makeJpeg(), Buffer.alloc(300 * 1024)]);
      const res = await request(fx.app)
        .post('/api/photos/2024/travel/lisbon')
        .attach('files', await makeJpeg(), 'small.jpg')
        .attach('files', big, 'big.jpg')
        .expect(413)
        .expect('Content-Type', /json/);
      // The limit of this fixture, 256 × 1024 bytes, written as every size is (views/assets/byte-size.js).
      expect(res.body.error).to.equal('File too large: "big.jpg" is over the limit of 262 kB per file; nothing was kept');
      expect(listDir(albumDir)).to.deep.equal(['album.json']);
      expect(listDir(uploadsDir())).to.deep.equal([]);
    });

    it('should answer 400 for a file in another field, a body that is not multipart, or no file', async () => {
      const wrongField = await request(fx.app)
        .post('/api/photos/2024/travel/lisbon')
        .attach('photo', await makeJpeg(), 'a.jpg')
        .expect(400);
      expect(wrongField.body.error).to.equal('Unexpected file field "photo": send the files in the field "files"');
      const json = await request(fx.app).post('/api/photos/2024/travel/lisbon').send({ files: [] }).expect(400);
      expect(json.body.error).to.equal('Expected a multipart/form-data body with the files in the field "files"');
      const none = await request(fx.app).post('/api/photos/2024/travel/lisbon').field('note', 'x').expect(400);
      expect(none.body.error).to.equal('No files received: send them in the multipart field "files"');
      expect(listDir(albumDir)).to.deep.equal(['album.json']);
      expect(listDir(uploadsDir())).to.deep.equal([]);
    });

    it('should answer 404 for an unknown album and 400 for a bad path, before reading the upload', async () => {
      await request(fx.app)
        .post('/api/photos/2024/travel/porto')
        .attach('files', await makeJpeg(), 'a.jpg')
        .expect(404);
      await request(fx.app)
        .post('/api/photos/../x')
        .attach('files', await makeJpeg(), 'a.jpg')
        .expect(400);
      expect(fs.existsSync(path.join(fx.albumsDir, '2024/travel/porto'))).to.equal(false);
    });
  });

  describe('POST /api/videos/{path}', () => {
    it('should keep a valid MP4 (checked with ffprobe) under a safe name', async () => {
      const res = await request(fx.app)
        .post('/api/videos/2024/travel/lisbon')
        .attach('files', await makeMp4(), 'Tram #28.MP4')
        .expect(201);
      expect(res.body.results[0]).to.include({ ok: true, file: 'Tram #28.MP4', kind: 'video' });
      expect(listDir(albumDir)).to.deep.equal(['Tram #28.MP4', 'album.json']);
      const list = await request(fx.app).get('/api/videos/2024/travel/lisbon').expect(200);
      expect(list.body).to.have.length(1);
      expect(list.body[0]).to.include({ name: 'Tram #28.MP4', kind: 'video', url: '/media/2024/travel/lisbon/Tram%20%2328.MP4' });
    });

    it('should reject a JPEG renamed .mp4 and a text file renamed .mov, writing nothing', async () => {
      const res = await request(fx.app)
        .post('/api/videos/2024/travel/lisbon')
        .attach('files', await makeJpeg(), 'photo.mp4')
        .attach('files', Buffer.from('plain text, not a movie'), 'notes.mov')
        .expect(400);
      expect((res.body.results as Array<{ ok: boolean }>).map((r) => r.ok)).to.deep.equal([false, false]);
      expect(res.body.results[0].error).to.match(/^Not a (video container|playable video)/);
      expect(listDir(albumDir)).to.deep.equal(['album.json']);
      expect(listDir(uploadsDir())).to.deep.equal([]);
    });

    it('should refuse photos on the videos route', async () => {
      const res = await request(fx.app)
        .post('/api/videos/2024/travel/lisbon')
        .attach('files', await makeJpeg(), 'a.jpg')
        .expect(400);
      expect(res.body.results[0].error).to.equal('Only videos are accepted here (.mp4, .m4v, .mov, .webm)');
    });
  });

  describe('GET /api/photos/{path}', () => {
    it('should list the photos only, in natural order, with size and preview URL', async () => {
      for (const name of ['IMG_10.jpg', 'IMG_2.jpg', '.hidden.jpg']) fs.writeFileSync(path.join(albumDir, name), await makeJpeg());
      fs.writeFileSync(path.join(albumDir, 'clip.mp4'), await makeMp4());
      const res = await request(fx.app).get('/api/photos/2024/travel/lisbon').expect(200);
      expect((res.body as Array<{ name: string }>).map((f) => f.name)).to.deep.equal(['IMG_2.jpg', 'IMG_10.jpg']);
      expect(res.body[0]).to.have.keys(['name', 'kind', 'size', 'modified', 'url']);
    });

    it('should answer 404 for an unknown album', async () => {
      await request(fx.app).get('/api/photos/2024/none/here').expect(404);
    });
  });
});
