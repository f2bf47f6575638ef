import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import { type AdminFixture, createAdminFixture } from './support/admin-fixture.js';

describe('admin /api/cache', () => {
  let fx: AdminFixture;
  /** Writes a cache file of `bytes` bytes at CACHE_DIR/thumbnails/{size}/{rel}. */
  const put = (size: string, rel: string, bytes: number) => {
    const file = path.join(fx.cacheDir, 'thumbnails', size, ...rel.split('/'));
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, Buffer.alloc(bytes, 1));
  };

  beforeEach(async () => {
    fx = await createAdminFixture();
    put('small', '2024/trip/a.jpg.jpg', 100);
    put('small', '2024/trip/b.jpg.jpg', 50);
    put('small', '2024/trip/child/c.jpg.jpg', 10);
    put('medium', '2024/trip/a.jpg.jpg', 1000);
    put('large', '2023/other/x.mp4.jpg', 5000);
    put('medium', '2024/trip/a.jpg.webp', 700);
    // A temp file being written is not a thumbnail yet.
    put('small', '2024/trip/.a.jpg.webp.123.abc.tmp', 30);
  });
  afterEach(() => fx.close());

  it('should count the real files and bytes of the whole cache, per size', async () => {
    const res = await request(fx.app).get('/api/cache/stats').expect(200);
    expect(res.body).to.deep.equal({
      files: 6,
      bytes: 6860,
      sizes: {
        small: { files: 3, bytes: 160 },
        tile: { files: 0, bytes: 0 },
        row: { files: 0, bytes: 0 },
        medium: { files: 2, bytes: 1700 },
        large: { files: 1, bytes: 5000 },
      },
      formats: { jpeg: { files: 5, bytes: 6160 }, webp: { files: 1, bytes: 700 } },
      webVideo: { files: 0, bytes: 0 },
      fullSize: { files: 0, bytes: 0 },
    });
  });

  it('should answer zeros when there is no cache at all', async () => {
    fs.rmSync(path.join(fx.cacheDir, 'thumbnails'), { recursive: true });
    const res = await request(fx.app).get('/api/cache/stats').expect(200);
    expect(res.body).to.deep.equal({
      files: 0,
      bytes: 0,
      sizes: {
        small: { files: 0, bytes: 0 },
        tile: { files: 0, bytes: 0 },
        row: { files: 0, bytes: 0 },
        medium: { files: 0, bytes: 0 },
        large: { files: 0, bytes: 0 },
      },
      formats: { jpeg: { files: 0, bytes: 0 }, webp: { files: 0, bytes: 0 } },
      webVideo: { files: 0, bytes: 0 },
      fullSize: { files: 0, bytes: 0 },
    });
  });

  it('should clear the whole cache with DELETE and report what it removed', async () => {
    const res = await request(fx.app).delete('/api/cache/stats').expect(200);
    expect(res.body).to.deep.include({ files: 0, bytes: 0 });
    expect(res.body.removed).to.deep.include({ files: 6, bytes: 6860 });
    expect(fs.readdirSync(path.join(fx.cacheDir, 'thumbnails'))).to.deep.equal([]);
  });

  it("should count one album's own thumbnails, not its child albums'", async () => {
    const res = await request(fx.app).get('/api/cache/album/2024/trip').expect(200);
    expect(res.body).to.deep.equal({
      path: '2024/trip',
      files: 4,
      bytes: 1850,
      sizes: {
        small: { files: 2, bytes: 150 },
        tile: { files: 0, bytes: 0 },
        row: { files: 0, bytes: 0 },
        medium: { files: 2, bytes: 1700 },
        large: { files: 0, bytes: 0 },
      },
      formats: { jpeg: { files: 3, bytes: 1150 }, webp: { files: 1, bytes: 700 } },
      webVideo: { files: 0, bytes: 0 },
      fullSize: { files: 0, bytes: 0 },
    });
  });

  it("should clear one album's own thumbnails and leave the rest", async () => {
    const res = await request(fx.app).delete('/api/cache/album/2024/trip').expect(200);
    expect(res.body).to.deep.include({ path: '2024/trip', files: 0, bytes: 0 });
    expect(res.body.removed).to.deep.include({ files: 4, bytes: 1850 });
    const after = await request(fx.app).get('/api/cache/stats').expect(200);
    expect(after.body).to.deep.include({ files: 2, bytes: 5010 });
    expect(fs.existsSync(path.join(fx.cacheDir, 'thumbnails/small/2024/trip/child/c.jpg.jpg'))).to.equal(true);
  });

  it('should answer 400 for a bad album path', async () => {
    for (const url of ['/api/cache/album/../x', '/api/cache/album/%2E%2E', '/api/cache/album//etc', '/api/cache/album/a%5Cb']) {
      await request(fx.app).delete(url).expect(400);
    }
    expect((await request(fx.app).get('/api/cache/stats').expect(200)).body.files).to.equal(6);
  });

  describe('web copies of videos (CACHE_DIR/web-video)', () => {
    /** A copy of `bytes` bytes and its freshness record, as server/media/web-video.ts writes them. */
    const putCopy = (rel: string, bytes: number) => {
      const file = `${path.join(fx.cacheDir, 'web-video', ...rel.split('/'))}.mp4`;
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, Buffer.alloc(bytes, 1));
      fs.writeFileSync(path.join(path.dirname(file), `.${path.basename(file)}.json`), '{"version":1}');
    };
    beforeEach(() => {
      putCopy('2024/trip/IMG_1.MOV', 300);
      putCopy('2024/trip/child/clip.mov', 40);
    });

    it('should count them apart from the thumbnails, records left out', async () => {
      const res = await request(fx.app).get('/api/cache/stats').expect(200);
      expect(res.body).to.deep.include({ files: 6, bytes: 6860, webVideo: { files: 2, bytes: 340 } });
      const album = await request(fx.app).get('/api/cache/album/2024/trip').expect(200);
      expect(album.body.webVideo).to.deep.equal({ files: 1, bytes: 300 });
    });

    it('should clear them with the whole cache', async () => {
      const res = await request(fx.app).delete('/api/cache/stats').expect(200);
      expect(res.body.removed.webVideo).to.deep.equal({ files: 2, bytes: 340 });
      expect(res.body.webVideo).to.deep.equal({ files: 0, bytes: 0 });
      expect(fs.existsSync(path.join(fx.cacheDir, 'web-video'))).to.equal(false);
    });

    it("should clear one album's own copies with its thumbnails, and leave its children's", async () => {
      const res = await request(fx.app).delete('/api/cache/album/2024/trip').expect(200);
      expect(res.body.removed.webVideo).to.deep.equal({ files: 1, bytes: 300 });
      expect(fs.readdirSync(path.join(fx.cacheDir, 'web-video/2024/trip'))).to.deep.equal(['child']);
      expect(fs.existsSync(path.join(fx.cacheDir, 'web-video/2024/trip/child/clip.mov.mp4'))).to.equal(true);
    });
  });

  describe('full-size JPEGs (CACHE_DIR/full-size)', () => {
    const putFull = (rel: string, bytes: number) => {
      const file = `${path.join(fx.cacheDir, 'full-size', ...rel.split('/'))}.jpg`;
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, Buffer.alloc(bytes, 1));
    };
    beforeEach(() => {
      putFull('2024/trip/IMG_1.HEIC', 700);
      putFull('2024/trip/child/scan.tif', 70);
    });

    it('should count them apart, and clear them with the whole cache', async () => {
      const stats = await request(fx.app).get('/api/cache/stats').expect(200);
      expect(stats.body).to.deep.include({ files: 6, fullSize: { files: 2, bytes: 770 } });
      const res = await request(fx.app).delete('/api/cache/stats').expect(200);
      expect(res.body.removed.fullSize).to.deep.equal({ files: 2, bytes: 770 });
      expect(fs.existsSync(path.join(fx.cacheDir, 'full-size'))).to.equal(false);
    });

    it("should clear one album's own with its thumbnails, and leave its children's", async () => {
      const res = await request(fx.app).delete('/api/cache/album/2024/trip').expect(200);
      expect(res.body.removed.fullSize).to.deep.equal({ files: 1, bytes: 700 });
      expect(fs.existsSync(path.join(fx.cacheDir, 'full-size/2024/trip/child/scan.tif.jpg'))).to.equal(true);
    });
  });
});
