import type { Server } from 'node:http';
import path from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import { CAMERA, createMediaTestApp, type MediaTestApp, UNLOCKED, writeCameraJpeg, writePng, writeVideo } from '../support/media-fixtures.js';
import { makeTempDir, removeTempDir } from '../support/temp-dir.js';

describe('GET /api/exif and /api/video-info', function () {
  let root: string;
  let albumsDir: string;
  let media: MediaTestApp;
  let server: Server;
  const original = (rel: string) => path.join(albumsDir, ...rel.split('/'));

  before(async function () {
    root = makeTempDir('metadata-api-');
    albumsDir = path.join(root, 'albums');
    await Promise.all([
      writeCameraJpeg(original('2024/trip/camera.jpg'), 1200, 800),
      writeCameraJpeg(original('2024/secret/camera.jpg'), 1200, 800),
      writePng(original('2024/trip/plain.png'), 300, 200),
      writeVideo(original('2024/trip/clip.mp4'), { width: 320, height: 240, seconds: 2 }),
      writeVideo(original('2024/trip/portrait.mp4'), { width: 320, height: 240, seconds: 1, rotate: 90 }),
    ]);
    media = await createMediaTestApp({ albumsDir, cacheDir: path.join(root, 'cache'), protectedAlbums: ['2024/secret'] });
    server = media.app.listen(0, '127.0.0.1');
  });

  after(async function () {
    server?.close();
    await media?.close();
    removeTempDir(root);
  });

  describe('GET /api/exif', function () {
    it('should answer every field with its exact value and JSON type', async function () {
      const res = await request(server).get('/api/exif?path=2024/trip/camera.jpg');
      expect(res.status).to.equal(200);
      expect(res.headers['content-type']).to.match(/application\/json/);
      expect(res.body).to.deep.equal({ ...CAMERA, ImageWidth: 1200, ImageHeight: 800 });
      expect(res.body.ExposureTime).to.equal(0.004);
      expect(res.body.DateTimeOriginal).to.equal('2024:05:01 12:34:56');
    });

    it('should answer null for each field a PNG without EXIF lacks', async function () {
      const res = await request(server).get('/api/exif?path=2024/trip/plain.png').expect(200);
      expect(Object.keys(res.body)).to.have.members([
        'Make',
        'Model',
        'LensModel',
        'FocalLength',
        'FNumber',
        'ExposureTime',
        'ISO',
        'DateTimeOriginal',
        'ImageWidth',
        'ImageHeight',
      ]);
      expect(res.body.Make).to.equal(null);
      expect(res.body.DateTimeOriginal).to.equal(null);
      expect([res.body.ImageWidth, res.body.ImageHeight]).to.deep.equal([300, 200]);
    });

    it('should remember the record of an unchanged file', async function () {
      await request(server).get('/api/exif?path=2024/trip/plain.png').expect(200);
      const before = media.pool.tasksRun;
      await request(server).get('/api/exif?path=2024/trip/plain.png').expect(200);
      expect(media.pool.tasksRun).to.equal(before);
    });

    it('should be cacheable publicly only for a public album', async function () {
      const pub = await request(server).get('/api/exif?path=2024/trip/camera.jpg').expect(200);
      expect(pub.headers['cache-control']).to.match(/^public, /);
      await request(server).get('/api/exif?path=2024/secret/camera.jpg').expect(401);
      const priv = await request(server).get('/api/exif?path=2024/secret/camera.jpg').set(UNLOCKED).expect(200);
      expect(priv.headers['cache-control']).to.match(/^private, /);
    });

    it('should answer 400 without a path', async function () {
      const res = await request(server).get('/api/exif');
      expect(res.status).to.equal(400);
      expect(res.body).to.deep.equal({ error: 'Missing required parameter: path' });
    });

    it('should answer 400 for a video', async function () {
      const res = await request(server).get('/api/exif?path=2024/trip/clip.mp4');
      expect(res.status).to.equal(400);
      expect(res.body.error).to.match(/image/);
    });

    it('should answer 404 for a missing file', async function () {
      await request(server).get('/api/exif?path=2024/trip/none.jpg').expect(404);
    });
  });

  describe('GET /api/video-info', function () {
    it('should answer duration, size, codec and frame rate', async function () {
      const res = await request(server).get('/api/video-info?path=2024/trip/clip.mp4');
      expect(res.status).to.equal(200);
      expect(Object.keys(res.body)).to.have.members(['duration', 'width', 'height', 'codec', 'fps']);
      expect(res.body.duration).to.be.a('number').and.closeTo(2, 0.1);
      expect([res.body.width, res.body.height]).to.deep.equal([320, 240]);
      expect(res.body.codec).to.equal('h264');
      expect(res.body.fps).to.be.a('number').and.closeTo(29.97, 0.01);
    });

    it('should answer the displayed size of a rotated video', async function () {
      const res = await request(server).get('/api/video-info?path=2024/trip/portrait.mp4').expect(200);
      expect([res.body.width, res.body.height]).to.deep.equal([240, 320]);
      expect(res.body.duration).to.be.closeTo(1, 0.1);
    });

    it('should answer 400 for an image', async function () {
      const res = await request(server).get('/api/video-info?path=2024/trip/camera.jpg');
      expect(res.status).to.equal(400);
      expect(res.body.error).to.match(/video/);
    });

    it('should answer 400 without a path', async function () {
      const res = await request(server).get('/api/video-info');
      expect(res.status).to.equal(400);
      expect(res.body).to.deep.equal({ error: 'Missing required parameter: path' });
    });
  });
});
