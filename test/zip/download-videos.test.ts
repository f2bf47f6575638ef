import fs from 'node:fs';
import { expect } from 'chai';
import request from 'supertest';
import { writeVideo } from '../support/media-fixtures.js';
import { accessCookie, GalleryFixture } from '../support/gallery-fixture.js';
import { unzip } from './support.js';

/**
 * `GET /api/download-album?path=&videos=1` (docs/api.md#get-apidownload-albumpath): the album's
 * videos join its photos, in album order, with real H.264 files made by the shipped ffmpeg,
 * read back with yauzl (sizes and CRCs checked). The photos-only ZIP stays the default.
 */
describe('GET /api/download-album with videos=1', function () {
  this.timeout(60_000);
  const fx = new GalleryFixture();
  let app: ReturnType<typeof request>;
  const TRIP = '2024/trip';
  const LOCKED = '2024/locked';
  const ONLY_VIDEOS = '2024/clips';

  before(async () => {
    await fx.build({
      [TRIP]: { meta: { title: 'Trip' }, files: ['IMG_1.JPG', 'IMG_2.jpg', 'IMG_10.jpg'] },
      [LOCKED]: { meta: { title: 'Locked', password: 'pw', token: 't-locked' }, files: ['s.jpg'] },
      [ONLY_VIDEOS]: { meta: { title: 'Clips' } },
      [`${TRIP}/child`]: { meta: { title: 'Child' }, files: ['c.jpg'] },
    });
    // IMG_1.MOV beside IMG_1.JPG is its Live Photo movie; the others are videos of their own.
    await writeVideo(fx.path(TRIP, 'IMG_1.MOV'), { seconds: 1 });
    await writeVideo(fx.path(TRIP, 'IMG_3.mp4'), { seconds: 1 });
    await writeVideo(fx.path(TRIP, 'VID_5.mov'), { seconds: 1, width: 160, height: 120 });
    await writeVideo(fx.path(LOCKED, 'secret.mp4'), { seconds: 1 });
    await writeVideo(fx.path(ONLY_VIDEOS, 'a.mp4'), { seconds: 1 });
    await writeVideo(fx.path(`${TRIP}/child`, 'child.mp4'), { seconds: 1 });
    await fx.start({ env: { WORKERS: '1' } });
    app = request(fx.gallery.handler);
  });
  after(() => fx.close());

  const binary = (r: request.Test) =>
    r.buffer(true).parse((res, done) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => done(null, Buffer.concat(chunks)));
    });
  const zipOf = (albumPath: string, query = '', cookie = '') =>
    binary(
      app
        .get(`/api/download-album?path=${encodeURIComponent(albumPath)}${query}`)
        .set('Cookie', cookie)
        .timeout(20_000),
    );

  it("should hold the album's photos and videos in album order, byte for byte, with the exact Content-Length", async () => {
    const res = await zipOf(TRIP, '&videos=1').expect(200);
    const body = res.body as Buffer;
    expect(Number(res.headers['content-length'])).to.equal(body.length);
    expect(res.headers['content-type']).to.equal('application/zip');
    expect(res.headers['content-disposition']).to.equal('attachment; filename="trip.zip"');
    const entries = await unzip(body);
    // Natural order; the Live Photo's movie right after its still; nothing of the child album.
    expect([...entries.keys()]).to.deep.equal(['IMG_1.JPG', 'IMG_1.MOV', 'IMG_2.jpg', 'IMG_3.mp4', 'IMG_10.jpg', 'VID_5.mov']);
    for (const [name, entry] of entries) expect(entry.data.equals(fs.readFileSync(fx.path(TRIP, name))), name).to.equal(true);
  });

  it('should keep the photos-only ZIP as the default, with the Live Photo movie and no other video', async () => {
    for (const query of ['', '&videos=0']) {
      const res = await zipOf(TRIP, query).expect(200);
      expect(Number(res.headers['content-length'])).to.equal((res.body as Buffer).length);
      expect([...(await unzip(res.body as Buffer)).keys()], query).to.deep.equal(['IMG_1.JPG', 'IMG_1.MOV', 'IMG_2.jpg', 'IMG_10.jpg']);
    }
  });

  it('should answer a HEAD with the same exact length and no body', async () => {
    const full = await zipOf(TRIP, '&videos=1').expect(200);
    const head = await app.head(`/api/download-album?path=${encodeURIComponent(TRIP)}&videos=1`).expect(200);
    expect(head.headers['content-length']).to.equal(String((full.body as Buffer).length));
  });

  it('should zip an album of videos only', async () => {
    const res = await zipOf(ONLY_VIDEOS, '&videos=1').expect(200);
    expect([...(await unzip(res.body as Buffer)).keys()]).to.deep.equal(['a.mp4']);
  });

  it('should refuse a locked album before anything else, and serve it once unlocked', async () => {
    const locked = await app.get(`/api/download-album?path=${encodeURIComponent(LOCKED)}&videos=1`).expect(401);
    expect(locked.body).to.deep.equal({ error: 'This album is protected: unlock it first' });
    expect(locked.headers['content-disposition']).to.equal(undefined);
    const res = await zipOf(LOCKED, '&videos=1', accessCookie(['t-locked'])).expect(200);
    expect([...(await unzip(res.body as Buffer)).keys()]).to.deep.equal(['s.jpg', 'secret.mp4']);
    expect(res.headers['cache-control']).to.equal('private, no-store');
  });

  it('should answer 400 for any other value of videos', async () => {
    for (const value of ['2', 'yes', 'true', '']) {
      const res = await app.get(`/api/download-album?path=${encodeURIComponent(TRIP)}&videos=${value}`).expect(400);
      expect(res.body, value).to.deep.equal({ error: 'Invalid parameter: videos must be 0 or 1' });
    }
    await app.get(`/api/download-album?path=${encodeURIComponent(TRIP)}&videos=1&videos=1`).expect(400);
  });
});
