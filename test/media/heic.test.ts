import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import decodeHeic from 'heic-decode';
import sharp from 'sharp';
import request from 'supertest';
import { sourceTagIn } from '../../server/core/media/source-tag.js';
import { unzip } from '../zip/support.js';
import { accessCookie, eventually, GalleryFixture } from '../support/gallery-fixture.js';
import { writeVideo } from '../support/media-fixtures.js';

/** Two real HEIC files (CC BY-SA 4.0, see test/fixtures/heic/ATTRIBUTION.md). */
const FIXTURES = path.join(import.meta.dirname, '..', 'fixtures', 'heic');
const IPHONE = path.join(FIXTURES, 'IMG_5195.HEIC');
const SMALL_HEIF = path.join(FIXTURES, 'samplefilehub.heif');

/** Binary bodies from supertest. */
const asBuffer = (res: request.Response, cb: (err: Error | null, body: Buffer) => void) => {
  const chunks: Buffer[] = [];
  res.on('data', (c: Buffer) => chunks.push(c));
  res.on('end', () => cb(null, Buffer.concat(chunks)));
};

describe('HEIC/HEIF photos', function () {
  this.timeout(60_000);
  const fx = new GalleryFixture();
  const get = (url: string) => request(fx.gallery.handler).get(url).buffer(true).parse(asBuffer);
  const thumbnail = (rel: string, size: string) => get(`/api/thumbnail?path=${encodeURIComponent(rel)}&size=${size}`);

  before(async function () {
    await fx.build({
      '2024/phone': { meta: { title: 'Phone' }, files: ['IMG_5190.jpg', 'IMG_5200.jpg'] },
      '2024/locked': { meta: { title: 'Locked', password: 'pw' } },
      '2024/burst': { meta: { title: 'Burst' }, files: ['still.jpg'] },
    });
    fs.copyFileSync(IPHONE, fx.path('2024/phone/IMG_5195.HEIC'));
    fs.copyFileSync(SMALL_HEIF, fx.path('2024/phone/sample.heif'));
    fs.copyFileSync(SMALL_HEIF, fx.path('2024/phone/lower.heic'));
    // The first 20 KB of a real HEIC: a readable header, pixels that cannot be decoded.
    fs.writeFileSync(fx.path('2024/phone/broken.heic'), fs.readFileSync(IPHONE).subarray(0, 20_000));
    fs.copyFileSync(IPHONE, fx.path('2024/locked/IMG_5195.HEIC'));
    // A Live Photo: the iPhone's HEIC and its movie.
    await writeVideo(fx.path('2024/phone/IMG_5195.MOV'), { width: 320, height: 240, seconds: 1 });
    for (let i = 0; i < 6; i++) fs.copyFileSync(IPHONE, fx.path(`2024/burst/IMG_${i}.HEIC`));
    await fx.start();
  });

  after(() => fx.close());

  it('should list .heic and .heif files in any case, counted and in natural order', async function () {
    const res = await request(fx.gallery.handler).get('/photos/2024/phone').expect(200);
    const names = [...res.text.matchAll(/data-name="([^"]+)"/g)].map((m) => m[1]);
    expect(names).to.deep.equal(['broken.heic', 'IMG_5190.jpg', 'IMG_5195.HEIC', 'IMG_5200.jpg', 'lower.heic', 'sample.heif']);
    expect(res.text).to.match(/6 photos/);
    expect(res.text).not.to.match(/\d+ videos?\b/);
  });

  it('should show a HEIC with its movie as one Live Photo', async function () {
    const res = await request(fx.gallery.handler).get('/photos/2024/phone').expect(200);
    expect(res.text).to.match(/media__item--live"[^>]*>\s*<a[^>]*data-name="IMG_5195.HEIC"/);
    const zip = await unzip((await get('/api/download-album?path=2024/phone').expect(200)).body as Buffer);
    expect([...zip.keys()]).to.include.members(['IMG_5195.HEIC', 'IMG_5195.MOV']);
  });

  it('should give the page the displayed size of a HEIC (for the layouts)', async function () {
    await fx.knownFacts('2024/phone');
    const res = await request(fx.gallery.handler).get('/photos/2024/phone').expect(200);
    expect(res.text).to.match(/data-name="IMG_5195.HEIC"[^>]*data-width="2566" data-height="3313"/);
  });

  it('should make the three thumbnails of a HEIC, upright JPEGs of the right sizes, tagged in the cache', async function () {
    const expected = { small: [400, 516], medium: [1200, 1549], large: [1920, 2479] } as const;
    for (const [size, [width, height]] of Object.entries(expected)) {
      const res = await thumbnail('2024/phone/IMG_5195.HEIC', size).expect(200);
      expect(res.headers['content-type']).to.equal('image/jpeg');
      const meta = await sharp(res.body as Buffer).metadata();
      expect([meta.format, meta.width, meta.height], size).to.deep.equal(['jpeg', width, height]);
      const cached = fs.readFileSync(path.join(fx.cacheDir, 'thumbnails', size, '2024', 'phone', 'IMG_5195.HEIC.jpg'));
      expect(sourceTagIn(cached)).to.be.a('string');
    }
  });

  it("should show the HEIC's own pixels, neither rotated nor mirrored by the pipeline", async function () {
    // The reference: libheif's own decode, shrunk to the same size by sharp.
    const decoded = await decodeHeic({ buffer: fs.readFileSync(IPHONE) });
    const reference = await sharp(Buffer.from(decoded.data.buffer), { raw: { width: decoded.width, height: decoded.height, channels: 4 } })
      .removeAlpha()
      .resize(40, 52, { fit: 'fill' })
      .raw()
      .toBuffer();
    const res = await thumbnail('2024/phone/IMG_5195.HEIC', 'small').expect(200);
    const ours = await sharp(res.body as Buffer)
      .resize(40, 52, { fit: 'fill' })
      .raw()
      .toBuffer();
    const flipped = await sharp(res.body as Buffer)
      .rotate(180)
      .resize(40, 52, { fit: 'fill' })
      .raw()
      .toBuffer();
    const meanDiff = (a: Buffer, b: Buffer) => a.reduce((sum, v, i) => sum + Math.abs(v - b[i]!), 0) / a.length;
    // Measured: 8 (JPEG and resampling differences), against 69 for the same picture upside down.
    expect(meanDiff(ours, reference)).to.be.below(16);
    expect(meanDiff(flipped, reference)).to.be.above(40);
  });

  it('should read the EXIF of a HEIC', async function () {
    const res = await request(fx.gallery.handler).get('/api/exif?path=2024/phone/IMG_5195.HEIC').expect(200);
    expect(res.body).to.deep.include({
      Make: 'Apple',
      Model: 'iPhone 11 Pro Max',
      LensModel: 'iPhone 11 Pro Max back triple camera 4.25mm f/1.8',
      FocalLength: 4.25,
      FNumber: 1.8,
      ISO: 32,
      DateTimeOriginal: '2021:04:11 15:47:53',
      ImageWidth: 2566,
      ImageHeight: 3313,
    });
    expect(res.body.ExposureTime).to.be.closeTo(1 / 391, 1e-5);
  });

  it('should serve the original untouched as image/heic, with ranges', async function () {
    const res = await get('/albums/2024/phone/IMG_5195.HEIC').expect(200);
    expect(res.headers['content-type']).to.equal('image/heic');
    expect(Buffer.compare(res.body as Buffer, fs.readFileSync(IPHONE))).to.equal(0);
    const heif = await get('/albums/2024/phone/sample.heif').set('Range', 'bytes=0-11').expect(206);
    expect(heif.headers['content-type']).to.equal('image/heif');
    expect((heif.body as Buffer).subarray(4, 12).toString('latin1')).to.equal('ftypheic');
  });

  it('should offer a full-size JPEG as the full resolution of a HEIC, and none for a JPEG', async function () {
    const page = await request(fx.gallery.handler).get('/photos/2024/phone').expect(200);
    const full = /data-name="IMG_5195.HEIC"[^>]*data-full="([^"]+)"/.exec(page.text)?.[1]?.replaceAll('&amp;', '&');
    expect(full).to.match(/^\/api\/full-size\?path=2024%2Fphone%2FIMG_5195.HEIC&v=/);
    expect(page.text).not.to.match(/data-name="IMG_5190.jpg"[^>]*data-full=/);

    const res = await get(full!).expect(200);
    expect(res.headers['content-type']).to.equal('image/jpeg');
    expect(res.headers['cache-control']).to.equal('public, max-age=31536000, immutable');
    const meta = await sharp(res.body as Buffer).metadata();
    expect([meta.format, meta.width, meta.height]).to.deep.equal(['jpeg', 2566, 3313]);
    expect(meta.exif, 'no EXIF (and no GPS) in the rendition').to.equal(undefined);
    expect(fs.existsSync(path.join(fx.cacheDir, 'full-size', '2024', 'phone', 'IMG_5195.HEIC.jpg'))).to.equal(true);

    const jpeg = await request(fx.gallery.handler).get('/api/full-size?path=2024/phone/IMG_5190.jpg').expect(404);
    expect(jpeg.body.error).to.match(/browsers show its original/);
  });

  it('should make a full-size JPEG once for visitors asking at the same time', async function () {
    const before = fx.gallery.pool.tasksRun;
    const answers = await Promise.all([1, 2, 3].map(() => get('/api/full-size?path=2024/phone/sample.heif')));
    expect(answers.map((a) => a.status)).to.deep.equal([200, 200, 200]);
    expect(fx.gallery.pool.tasksRun - before).to.equal(1);
  });

  it('should answer 401 for every route of a HEIC in a locked album, and serve it once unlocked', async function () {
    const rel = encodeURIComponent('2024/locked/IMG_5195.HEIC');
    for (const url of [`/api/thumbnail?path=${rel}&size=small`, `/api/exif?path=${rel}`, `/api/full-size?path=${rel}`, '/albums/2024/locked/IMG_5195.HEIC']) {
      const res = await request(fx.gallery.handler).get(url);
      expect(res.status, url).to.equal(401);
      expect(res.body, url).to.have.property('error');
    }
    const cookie = accessCookie([fx.token('2024/locked')]);
    const res = await get(`/api/full-size?path=${rel}`).set('Cookie', cookie).expect(200);
    expect(res.headers['cache-control']).to.equal('private, max-age=31536000, immutable');
    const thumb = await thumbnail('2024/locked/IMG_5195.HEIC', 'small').set('Cookie', cookie).expect(200);
    expect(thumb.headers['cache-control']).to.match(/^private/);
  });

  it('should answer 500 for a HEIC that cannot be decoded, and keep serving', async function () {
    const res = await request(fx.gallery.handler).get('/api/thumbnail?path=2024/phone/broken.heic&size=small').expect(500);
    expect(res.body).to.deep.equal({ error: 'Could not process the media file' });
    await thumbnail('2024/phone/lower.heic', 'small').expect(200);
  });

  it('should put HEIC originals in the album ZIP as they are', async function () {
    const res = await get('/api/download-album?path=2024/phone').expect(200);
    const entries = await unzip(res.body as Buffer);
    expect(Buffer.compare(entries.get('IMG_5195.HEIC')!.data, fs.readFileSync(IPHONE))).to.equal(0);
    expect([...entries.keys()]).to.include.members(['sample.heif', 'lower.heic']);
  });

  it('should decode HEICs one at a time in their own lane while JPEG thumbnails keep coming', async function () {
    const pool = fx.gallery.pool;
    const heics = Promise.all([0, 1, 2, 3, 4, 5].map((i) => thumbnail(`2024/burst/IMG_${i}.HEIC`, 'small')));
    await eventually(() => pool.inFlight('heif') === 6, 5000, 'the six HEIC thumbnails to be queued in the heif lane');
    const jpeg = await thumbnail('2024/burst/still.jpg', 'small').expect(200);
    expect((await sharp(jpeg.body as Buffer).metadata()).format).to.equal('jpeg');
    // The JPEG was made while HEICs still waited for the single heif worker.
    expect(pool.inFlight('heif')).to.be.greaterThan(0);
    const done = await heics;
    expect(done.map((r) => r.status)).to.deep.equal([200, 200, 200, 200, 200, 200]);
  });
});
