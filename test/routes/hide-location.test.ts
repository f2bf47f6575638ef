import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { expect } from 'chai';
import sharp from 'sharp';
import request from 'supertest';
import yauzl from 'yauzl';
import { exifBombJpeg } from '../support/exif-bomb.js';
import { accessCookie, eventually, GalleryFixture } from '../support/gallery-fixture.js';
import { gpsImage, gpsIn, gpsOfImage, latitudeBytes, movieLocationTags, tiffWithGps, writeLocatedMovie } from '../support/located-media.js';
import { makeTempDir, removeTempDir } from '../support/temp-dir.js';

const PARIS = 'trips/paris';
const DAY = 'trips/paris/day-1';
const SHOWN = 'trips/paris/shown';
const ROME = 'trips/rome';
const HOME = 'family/home';

/** Every entry of a ZIP with the CRC its central directory gives (yauzl does not check it). */
async function unzipWithCrc(zip: Buffer): Promise<Map<string, { data: Buffer; crc32: number }>> {
  const zipfile = await yauzl.fromBufferPromise(zip, { lazyEntries: true, strictFileNames: true });
  const out = new Map<string, { data: Buffer; crc32: number }>();
  for await (const entry of zipfile.eachEntry()) {
    const chunks: Buffer[] = [];
    for await (const chunk of await zipfile.openReadStreamPromise(entry)) chunks.push(chunk as Buffer);
    out.set(entry.fileName, { data: Buffer.concat(chunks), crc32: entry.crc32 });
  }
  return out;
}

const sha256 = (file: string) => crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');

/** The ETag send gives the file itself. */
function plainEtag(file: string): string {
  const st = fs.statSync(file);
  return `W/"${st.size.toString(16)}-${st.mtime.getTime().toString(16)}"`;
}

describe('albums that hide where photos were taken (hideLocation)', function () {
  this.timeout(60_000);
  const fx = new GalleryFixture();
  let scratch: string;
  let app: ReturnType<typeof request>;
  const hashes = new Map<string, string>();
  const binary = (url: string) => app.get(url).buffer(true).parse(rawBody);

  before(async () => {
    await fx.build({
      [PARIS]: { meta: { title: 'Paris', hideLocation: true } },
      [DAY]: { meta: { title: 'Day 1' } },
      [SHOWN]: { meta: { title: 'Shown', hideLocation: false } },
      [ROME]: { meta: { title: 'Rome' } },
      [HOME]: { meta: { title: 'Home', password: 'pw', token: 'home-token', hideLocation: true } },
    });
    const jpeg = await gpsImage('jpeg');
    for (const album of [PARIS, DAY, SHOWN, ROME, HOME]) fs.writeFileSync(fx.path(album, 'photo.jpg'), jpeg);
    fs.writeFileSync(fx.path(PARIS, 'photo.avif'), await gpsImage('avif'));
    fs.writeFileSync(fx.path(PARIS, 'scan.tif'), tiffWithGps(true, 64, 48));
    fs.writeFileSync(fx.path(PARIS, 'bomb.jpg'), await exifBombJpeg(64, 48));
    await writeLocatedMovie(fx.path(PARIS, 'clip.mov'), 'iphone');
    await writeLocatedMovie(fx.path(ROME, 'clip.mov'), 'mov');
    // Rome shows locations, but a link into Paris does not bring Paris's photo out with its own.
    fs.symlinkSync(fx.path(PARIS, 'photo.jpg'), fx.path(ROME, 'from-paris.jpg'));
    for (const album of [PARIS, DAY, SHOWN, ROME, HOME]) {
      for (const name of fs.readdirSync(fx.path(album)))
        if (name !== 'album.json' && !fs.lstatSync(fx.path(album, name)).isDirectory()) hashes.set(`${album}/${name}`, sha256(fx.path(album, name)));
    }
    await fx.start();
    app = request(fx.gallery.handler);
    scratch = makeTempDir();
  });
  after(async () => {
    await fx.close();
    removeTempDir(scratch);
  });

  describe('GET /albums/{path} of a photo with GPS', () => {
    const url = `/albums/${PARIS}/photo.jpg`;

    it('should serve it without GPS, at its length, decodable', async () => {
      const onDisk = fs.readFileSync(fx.path(PARIS, 'photo.jpg'));
      const res = await binary(url).expect(200);
      const body = res.body as Buffer;
      expect(Number(res.headers['content-length'])).to.equal(onDisk.length);
      expect(body.length).to.equal(onDisk.length);
      expect(res.headers['content-type']).to.equal('image/jpeg');
      expect(res.headers['cache-control']).to.equal('public, max-age=31536000, immutable');
      expect(res.headers['accept-ranges']).to.equal('bytes');
      expect((await gpsOfImage(onDisk)).tags.size, 'the file on disk has GPS').to.be.above(3);
      expect((await gpsOfImage(body)).tags.size).to.equal(0);
      expect(body.indexOf(latitudeBytes())).to.equal(-1);
      expect((await sharp(body).metadata()).exif?.includes('Canon'), 'camera fields kept').to.equal(true);
    });

    it('should carry a stable ETag of its own, not the unpatched file’s, and answer If-None-Match with 304', async () => {
      const first = await binary(url).expect(200);
      const second = await binary(url).expect(200);
      expect(first.headers.etag).to.equal(second.headers.etag);
      expect(first.headers.etag).to.match(/^W\/"[0-9a-f]+-[0-9a-f]+-noloc2"$/);
      expect(first.headers.etag).to.not.equal(plainEtag(fx.path(PARIS, 'photo.jpg')));
      const notModified = await app.get(url).set('If-None-Match', first.headers.etag!).expect(304);
      expect(notModified.headers['content-length']).to.equal(undefined);
      expect(first.headers['last-modified']).to.equal(fs.statSync(fx.path(PARIS, 'photo.jpg')).mtime.toUTCString());
    });

    it('should answer Range requests with the slices of the patched file', async () => {
      const full = (await binary(url).expect(200)).body as Buffer;
      const size = full.length;
      const exifAt = full.indexOf('Exif\0\0', 0, 'latin1');
      expect(exifAt + 400).to.be.below(size);
      expect(full.equals(fs.readFileSync(fx.path(PARIS, 'photo.jpg'))), 'the patched region is in the head').to.equal(false);
      const cases: [string, number, number][] = [
        ['bytes=100-199', 100, 199],
        // From the segment's start, across the GPS IFD and its values, to past the segment's end.
        [`bytes=${exifAt}-${exifAt + 400}`, exifAt, exifAt + 400],
        ['bytes=-500', size - 500, size - 1],
        [`bytes=${size - 50}-`, size - 50, size - 1],
        [`bytes=0-${size + 1000}`, 0, size - 1],
      ];
      for (const [range, start, end] of cases) {
        const res = await binary(url).set('Range', range).expect(206);
        expect(res.headers['content-range'], range).to.equal(`bytes ${start}-${end}/${size}`);
        expect(Number(res.headers['content-length']), range).to.equal(end - start + 1);
        expect((res.body as Buffer).equals(full.subarray(start, end + 1)), range).to.equal(true);
      }
    });

    it('should answer several ranges with the whole file, and an unsatisfiable one with 416 JSON', async () => {
      const size = fs.statSync(fx.path(PARIS, 'photo.jpg')).size;
      const several = await binary(url).set('Range', 'bytes=0-9,500-509').expect(200);
      expect((several.body as Buffer).length).to.equal(size);
      const res = await app
        .get(url)
        .set('Range', `bytes=${size + 10}-`)
        .expect(416);
      expect(res.headers['content-range']).to.equal(`bytes */${size}`);
      expect(res.body).to.deep.equal({ error: 'Range not satisfiable' });
      expect(res.headers['cache-control']).to.equal('no-store');
      expect(res.headers['last-modified']).to.equal(undefined);
    });

    it('should honour If-Range: the range for its own ETag, the whole file for another', async () => {
      const { etag } = (await app.head(url).expect(200)).headers;
      await binary(url).set('Range', 'bytes=0-9').set('If-Range', etag!).expect(206);
      const stale = await binary(url)
        .set('Range', 'bytes=0-9')
        .set('If-Range', plainEtag(fx.path(PARIS, 'photo.jpg')))
        .expect(200);
      expect((stale.body as Buffer).length).to.equal(fs.statSync(fx.path(PARIS, 'photo.jpg')).size);
      await app.get(url).set('If-Match', '"other"').expect(412);
    });

    it('should answer HEAD with the headers and no body', async () => {
      const res = await app.head(url).expect(200);
      expect(Number(res.headers['content-length'])).to.equal(fs.statSync(fx.path(PARIS, 'photo.jpg')).size);
      expect(res.headers.etag).to.match(/-noloc2"$/);
    });
  });

  describe('inheritance', () => {
    it('should hide it in a child album without a setting of its own', async () => {
      const body = (await binary(`/albums/${DAY}/photo.jpg`).expect(200)).body as Buffer;
      expect((await gpsOfImage(body)).tags.size).to.equal(0);
      expect(body.length).to.equal(fs.statSync(fx.path(DAY, 'photo.jpg')).size);
    });

    it('should serve the exact bytes in a child album that says false', async () => {
      const res = await binary(`/albums/${SHOWN}/photo.jpg`).expect(200);
      expect((res.body as Buffer).equals(fs.readFileSync(fx.path(SHOWN, 'photo.jpg')))).to.equal(true);
      expect(res.headers.etag).to.equal(plainEtag(fx.path(SHOWN, 'photo.jpg')));
    });

    it('should serve the exact bytes, GPS included, in an album that does not hide it (the default)', async () => {
      const body = (await binary(`/albums/${ROME}/photo.jpg`).expect(200)).body as Buffer;
      expect(body.equals(fs.readFileSync(fx.path(ROME, 'photo.jpg')))).to.equal(true);
      expect((await gpsOfImage(body)).tags.size).to.be.above(3);
    });

    it('should hide it through a link from an album that does not hide it into one that does', async () => {
      const body = (await binary(`/albums/${ROME}/from-paris.jpg`).expect(200)).body as Buffer;
      expect((await gpsOfImage(body)).tags.size).to.equal(0);
    });
  });

  describe('a protected album that hides locations', () => {
    it('should refuse the original without access, and serve it patched and private with it', async () => {
      const locked = await app.get(`/albums/${HOME}/photo.jpg`).expect(401);
      expect(locked.body.error).to.be.a('string');
      const res = await binary(`/albums/${HOME}/photo.jpg`)
        .set('Cookie', accessCookie(['home-token']))
        .expect(200);
      expect(res.headers['cache-control']).to.equal('private, max-age=31536000, immutable');
      expect((await gpsOfImage(res.body as Buffer)).tags.size).to.equal(0);
    });
  });

  describe('other formats', () => {
    it('should serve an AVIF without GPS', async () => {
      const body = (await binary(`/albums/${PARIS}/photo.avif`).expect(200)).body as Buffer;
      expect((await gpsOfImage(body)).tags.size).to.equal(0);
      expect(body.indexOf(latitudeBytes())).to.equal(-1);
      expect(body.length).to.equal(fs.statSync(fx.path(PARIS, 'photo.avif')).size);
    });

    it('should serve a TIFF without GPS and the same pixels', async () => {
      const body = (await binary(`/albums/${PARIS}/scan.tif`).expect(200)).body as Buffer;
      expect(gpsIn(body).tags.size).to.equal(0);
      expect(Buffer.compare(await sharp(body).raw().toBuffer(), await sharp(fx.path(PARIS, 'scan.tif')).raw().toBuffer())).to.equal(0);
    });

    it('should serve a photo with hostile EXIF (an EXIF bomb) without failing, at its length, decodable', async () => {
      const res = await binary(`/albums/${PARIS}/bomb.jpg`).expect(200);
      const body = res.body as Buffer;
      expect(body.length).to.equal(fs.statSync(fx.path(PARIS, 'bomb.jpg')).size);
      expect((await sharp(body).raw().toBuffer({ resolveWithObject: true })).info.width).to.equal(64);
      expect((await gpsOfImage(body)).gpsIfds).to.equal(0);
    });

    it('should serve a phone video without its position, and answer its Range requests from the patched bytes', async () => {
      const url = `/albums/${PARIS}/clip.mov`;
      const onDisk = fx.path(PARIS, 'clip.mov');
      expect(Object.keys(await movieLocationTags(onDisk)), 'the file on disk has a location').to.not.be.empty;
      const full = (await binary(url).expect(200)).body as Buffer;
      expect(full.length).to.equal(fs.statSync(onDisk).size);
      const served = path.join(scratch, 'clip.mov');
      fs.writeFileSync(served, full);
      expect(await movieLocationTags(served)).to.deep.equal({});
      // The index (with the location) is at the end: a player's request for it.
      const moovAt = full.lastIndexOf('moov', full.length, 'latin1') - 4;
      const tail = await binary(url).set('Range', `bytes=${moovAt}-`).expect(206);
      expect((tail.body as Buffer).equals(full.subarray(moovAt))).to.equal(true);
    });

    it('should serve a video in an album that shows locations exactly', async () => {
      const body = (await binary(`/albums/${ROME}/clip.mov`).expect(200)).body as Buffer;
      expect(body.equals(fs.readFileSync(fx.path(ROME, 'clip.mov')))).to.equal(true);
    });
  });

  describe('GET /api/download-album', () => {
    it('should hold each photo without GPS at its length, with the exact Content-Length and right CRCs', async () => {
      const res = await binary(`/api/download-album?path=${encodeURIComponent(PARIS)}`).expect(200);
      const zip = res.body as Buffer;
      expect(Number(res.headers['content-length'])).to.equal(zip.length);
      const entries = await unzipWithCrc(zip);
      expect([...entries.keys()].sort()).to.deep.equal(['bomb.jpg', 'photo.avif', 'photo.jpg', 'scan.tif']);
      for (const [name, entry] of entries) {
        expect(entry.data.length, name).to.equal(fs.statSync(fx.path(PARIS, name)).size);
        expect(zlib.crc32(entry.data), `${name}: the CRC is that of the bytes archived`).to.equal(entry.crc32);
        expect(entry.data.indexOf(latitudeBytes()), name).to.equal(-1);
      }
      expect((await gpsOfImage(entries.get('photo.jpg')!.data)).tags.size).to.equal(0);
      expect((await gpsOfImage(entries.get('photo.avif')!.data)).tags.size).to.equal(0);
      expect(gpsIn(entries.get('scan.tif')!.data).tags.size).to.equal(0);
      // The same bytes as the original route gives.
      const original = (await binary(`/albums/${PARIS}/photo.jpg`).expect(200)).body as Buffer;
      expect(entries.get('photo.jpg')!.data.equals(original)).to.equal(true);
    });

    it('should hold the exact files of an album that shows locations', async () => {
      const res = await binary(`/api/download-album?path=${encodeURIComponent(ROME)}`).expect(200);
      const entries = await unzipWithCrc(res.body as Buffer);
      expect(entries.get('photo.jpg')!.data.equals(fs.readFileSync(fx.path(ROME, 'photo.jpg')))).to.equal(true);
      // A link into Paris is archived as Paris serves it.
      expect((await gpsOfImage(entries.get('from-paris.jpg')!.data)).tags.size).to.equal(0);
    });
  });

  describe('what is derived from the photo', () => {
    it('should answer /api/exif with the camera fields and no location field', async () => {
      const res = await app.get(`/api/exif?path=${encodeURIComponent(`${PARIS}/photo.jpg`)}`).expect(200);
      expect(res.body.Make).to.equal('Canon');
      expect(Object.keys(res.body).filter((k) => /gps|location|latitude|longitude|altitude/i.test(k))).to.deep.equal([]);
    });

    it('should give thumbnails without EXIF, as for every album', async () => {
      for (const format of ['jpeg', 'webp']) {
        const res = await binary(`/api/thumbnail?path=${encodeURIComponent(`${PARIS}/photo.jpg`)}&size=small&format=${format}`).expect(200);
        expect((await sharp(res.body as Buffer).metadata()).exif, format).to.equal(undefined);
        expect((res.body as Buffer).indexOf(latitudeBytes()), format).to.equal(-1);
      }
    });

    it('should give the full-size JPEG of a TIFF without EXIF', async () => {
      const res = await binary(`/api/full-size?path=${encodeURIComponent(`${PARIS}/scan.tif`)}`).expect(200);
      const meta = await sharp(res.body as Buffer).metadata();
      expect(meta.format).to.equal('jpeg');
      expect(meta.exif).to.equal(undefined);
    });
  });

  describe('the web copy of a video', () => {
    it('should carry no position either', async function () {
      const rel = `${PARIS}/camera.mov`;
      // H.264 with its index at the end: its copy is a remux, which keeps the metadata.
      await writeLocatedMovie(fx.path(rel), 'mov');
      await fx.gallery.index.rescan();
      const url = `/api/web-video?path=${encodeURIComponent(rel)}`;
      await eventually(async () => (await app.get(url)).status === 200, 30_000, 'the web copy');
      const copy = `${path.join(fx.cacheDir, 'web-video', ...rel.split('/'))}.mp4`;
      expect(Object.keys(await movieLocationTags(copy)), 'the copy on disk has the location').to.not.be.empty;
      const res = await binary(url).expect(200);
      expect(res.headers.etag).to.match(/-noloc2"$/);
      const served = path.join(scratch, 'copy.mp4');
      fs.writeFileSync(served, res.body as Buffer);
      expect(await movieLocationTags(served)).to.deep.equal({});
      expect((res.body as Buffer).length).to.equal(fs.statSync(copy).size);
    });
  });

  describe('the files on disk', () => {
    it('should be unchanged after all of the above', () => {
      for (const [rel, hash] of hashes) expect(sha256(fx.path(rel)), rel).to.equal(hash);
    });
  });
});

/** supertest's parser for a binary body of any type. */
function rawBody(res: request.Response, done: (err: Error | null, body: Buffer) => void): void {
  const chunks: Buffer[] = [];
  res.on('data', (c: Buffer) => chunks.push(c));
  res.on('end', () => done(null, Buffer.concat(chunks)));
}
