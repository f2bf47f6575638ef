import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import sharp from 'sharp';
import request from 'supertest';
import { captureLogger } from '../support/capture-logger.js';
import { GalleryFixture } from '../support/gallery-fixture.js';
import { heifGrid, TILE } from '../support/heif-craft.js';

/** A real iPhone HEIC (CC BY-SA 4.0, see test/fixtures/heic/ATTRIBUTION.md). */
const IPHONE = path.join(import.meta.dirname, '..', 'fixtures', 'heic', 'IMG_5195.HEIC');

/** Binary bodies from supertest. */
const asBuffer = (res: request.Response, cb: (err: Error | null, body: Buffer) => void) => {
  const chunks: Buffer[] = [];
  res.on('data', (c: Buffer) => chunks.push(c));
  res.on('end', () => cb(null, Buffer.concat(chunks)));
};

/**
 * The bomb of issue 25: a grid declaring an ordinary 4032 x 3024 photo made of sixteen tiles
 * each declaring 8192 x 8192, 1.07 gigapixels for libheif to decode (the tiles' own pixels are
 * the 64 px fixture's: the file is refused before any is decoded, whatever they hold).
 */
const BOMB = { rows: 4, columns: 4, declared: { width: 4032, height: 3024 }, tileDeclared: { width: 8192, height: 8192 } } as const;

describe('HEIC files told by their bytes', function () {
  this.timeout(60_000);
  const fx = new GalleryFixture();
  const { logger, lines } = captureLogger();
  const get = (url: string) => request(fx.gallery.handler).get(url).buffer(true).parse(asBuffer);
  const thumbnail = (rel: string, size = 'small') => get(`/api/thumbnail?path=${encodeURIComponent(rel)}&size=${size}`);
  const exif = (rel: string) => request(fx.gallery.handler).get(`/api/exif?path=${encodeURIComponent(rel)}`);

  before(async function () {
    await fx.build({ '2024/phone': { meta: { title: 'Phone' }, files: ['still.jpg'] } });
    // An iPhone photo under a JPEG's name (copied off a phone by a tool that renamed it).
    fs.copyFileSync(IPHONE, fx.path('2024/phone/IMG_8606.jpg'));
    // A JPEG under a HEIC's name.
    fs.copyFileSync(fx.path('2024/phone/still.jpg'), fx.path('2024/phone/really-a-jpeg.heic'));
    // 256 tiles: 257 items, more than libvips reads in a HEIF header.
    fs.writeFileSync(fx.path('2024/phone/many-tiles.heic'), heifGrid({ rows: 16, columns: 16 }));
    fs.writeFileSync(fx.path('2024/phone/bomb.heic'), heifGrid(BOMB));
    // The same bomb declaring its whole size: 32768 x 32768.
    fs.writeFileSync(fx.path('2024/phone/huge.heic'), heifGrid({ ...BOMB, declared: { width: 32768, height: 32768 } }));
    await fx.start({ log: logger });
  });

  after(() => fx.close());

  describe('a HEIC named .jpg', function () {
    it('should make its thumbnail with the HEIC decoder, upright and of the right size', async function () {
      const res = await thumbnail('2024/phone/IMG_8606.jpg').expect(200);
      const meta = await sharp(res.body as Buffer).metadata();
      expect([meta.format, meta.width, meta.height]).to.deep.equal(['jpeg', 400, 516]);
    });

    it('should read its EXIF and size', async function () {
      const res = await exif('2024/phone/IMG_8606.jpg').expect(200);
      expect(res.body).to.deep.include({
        Make: 'Apple',
        Model: 'iPhone 11 Pro Max',
        DateTimeOriginal: '2021:04:11 15:47:53',
        ImageWidth: 2566,
        ImageHeight: 3313,
      });
    });

    it('should give the page its size', async function () {
      await fx.knownFacts('2024/phone');
      const res = await request(fx.gallery.handler).get('/photos/2024/phone').expect(200);
      expect(res.text).to.match(/data-name="IMG_8606.jpg"[^>]*data-width="2566" data-height="3313"/);
    });
  });

  it('should make the thumbnail of a JPEG named .heic with libvips', async function () {
    const res = await thumbnail('2024/phone/really-a-jpeg.heic').expect(200);
    const meta = await sharp(res.body as Buffer).metadata();
    expect([meta.format, meta.width, meta.height]).to.deep.equal(['jpeg', 64, 48]);
  });

  describe('a HEIC whose header libvips refuses', function () {
    it('should be one libvips refuses (the case this suite is about)', async function () {
      await sharp(fx.path('2024/phone/many-tiles.heic'))
        .metadata()
        .then(
          () => expect.fail('libvips read the header'),
          (err: Error) => expect(err.message).to.match(/corrupt header.*exceeds the security limit/s),
        );
    });

    it('should still show: thumbnail, EXIF size, page size and full size', async function () {
      const side = 16 * TILE.width;
      const thumb = await thumbnail('2024/phone/many-tiles.heic').expect(200);
      expect((await sharp(thumb.body as Buffer).metadata()).width).to.equal(400);
      const record = await exif('2024/phone/many-tiles.heic').expect(200);
      expect([record.body.ImageWidth, record.body.ImageHeight]).to.deep.equal([side, side]);
      const page = await request(fx.gallery.handler).get('/photos/2024/phone').expect(200);
      expect(page.text).to.match(new RegExp(`data-name="many-tiles.heic"[^>]*data-width="${side}" data-height="${side}"`));
      const full = await get('/api/full-size?path=2024%2Fphone%2Fmany-tiles.heic').expect(200);
      const fullMeta = await sharp(full.body as Buffer).metadata();
      expect([fullMeta.width, fullMeta.height]).to.deep.equal([side, side]);
    });
  });

  describe('a HEIC bomb', function () {
    it('should be refused before decoding, for what decoding it would make', async function () {
      const started = Date.now();
      const res = await thumbnail('2024/phone/bomb.heic').expect(500);
      expect(JSON.parse(String(res.body))).to.deep.equal({ error: 'Could not process the media file' });
      expect(Date.now() - started, 'refused, not decoded').to.be.below(3000);
      const refusal = lines.find((l) => /bomb\.heic/.test(String(l.msg)) && /4032x3024 made of 4x4 tiles of 8192x8192/.test(JSON.stringify(l)));
      expect(refusal, 'the log says why').not.to.equal(undefined);
    });

    it('should refuse one declaring its whole size for that size', async function () {
      await thumbnail('2024/phone/huge.heic').expect(500);
      expect(lines.some((l) => /32768x32768, larger than the 120 megapixels/.test(JSON.stringify(l)))).to.equal(true);
    });

    it('should fail a second request for the same version at once, without a task', async function () {
      await get('/api/full-size?path=2024%2Fphone%2Fbomb.heic').expect(500);
      const before = fx.gallery.pool.tasksRun;
      await thumbnail('2024/phone/bomb.heic', 'large').expect(500);
      await get('/api/full-size?path=2024%2Fphone%2Fbomb.heic').expect(500);
      expect(fx.gallery.pool.tasksRun - before).to.equal(0);
    });

    it('should try a new version of the file again', async function () {
      const file = fx.path('2024/phone/bomb.heic');
      const later = new Date(Date.now() + 60_000);
      fs.utimesSync(file, later, later);
      const before = fx.gallery.pool.tasksRun;
      await thumbnail('2024/phone/bomb.heic').expect(500);
      expect(fx.gallery.pool.tasksRun - before).to.equal(1);
    });

    it('should keep the page, with the size the file declares', async function () {
      const page = await request(fx.gallery.handler).get('/photos/2024/phone').expect(200);
      expect(page.text).to.match(/data-name="bomb.heic"[^>]*data-width="4032" data-height="3024"/);
    });
  });
});
