import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import sharp from 'sharp';
import request from 'supertest';
import { eventuallyPasses } from '../support/eventually-passes.js';
import { writeLiveMovie, writeLiveStill } from '../support/live-photo-files.js';
import { writeAlbum } from '../support/temp-dir.js';
import { cornerPng, cornersOf, probedRotation, writeHalvesMovie } from '../support/turn-fixtures.js';
import { openSiteWithAdmin, type SiteWithAdmin, treeHash } from './support/admin-fixture.js';

/** A real iPhone HEIC (CC BY-SA 4.0, see test/fixtures/heic/ATTRIBUTION.md): 2566 × 3313, portrait. */
const IPHONE = path.join(import.meta.dirname, '..', 'fixtures', 'heic', 'IMG_5195.HEIC');
const TRIP = '2024/trip';
const OTHER = '2024/other';
const LOCKED = '2024/locked';
const LOCKED_TOKEN = 'locked-album-token-0123456789';

const binary = (res: request.Response, done: (err: Error | null, body: Buffer) => void) => {
  const chunks: Buffer[] = [];
  res.on('data', (c: Buffer) => chunks.push(c));
  res.on('end', () => done(null, Buffer.concat(chunks)));
};

/** Size and top corners of a served image. */
async function looks(image: Buffer) {
  const { width, height, topLeft, topRight } = await cornersOf(image);
  return { width, height, topLeft, topRight };
}

interface Item {
  name: string;
  src: string;
  full: string;
  original: string;
  webpSrcset: string;
  width: number | null;
  height: number | null;
  thumbHash: string | null;
}

describe('rotations seen on the public site (album.json overrides, video display matrices)', function () {
  this.timeout(120_000);
  let fx: SiteWithAdmin;
  const site = () => request(fx.gallery.handler);
  const albumDir = (albumPath: string) => path.join(fx.config.albumsDir, ...albumPath.split('/'));
  const readAlbumJson = (albumPath: string) => JSON.parse(fs.readFileSync(path.join(albumDir(albumPath), 'album.json'), 'utf8')) as Record<string, unknown>;
  const rotate = (mediaPath: string, degrees: unknown) => request(fx.admin).post(`/api/media/${mediaPath}?action=rotate`).send({ degrees });
  const itemOf = async (albumPath: string, name: string, headers: Record<string, string> = {}): Promise<Item> => {
    const res = await site()
      .get(`/api/album-media?path=${encodeURIComponent(albumPath)}`)
      .set(headers)
      .expect(200);
    const item = (res.body.items as Item[]).find((i) => i.name === name);
    if (!item) throw new Error(`${name} is not listed in ${albumPath}`);
    return item;
  };
  const fetched = async (url: string, headers: Record<string, string> = {}) => site().get(url).set(headers).buffer(true).parse(binary).expect(200);

  beforeEach(async () => {
    fx = await openSiteWithAdmin('gallery-rotations-', async (albums) => {
      const trip = writeAlbum(albums, TRIP, { title: 'Trip', token: 'trip-token-0123456789' });
      fs.writeFileSync(path.join(trip, 'logo.png'), await cornerPng());
      writeAlbum(albums, OTHER, { title: 'Other', token: 'other-token-0123456789' });
      const locked = writeAlbum(albums, LOCKED, { title: 'Locked', password: 'pw', token: LOCKED_TOKEN });
      fs.writeFileSync(path.join(locked, 'secret.png'), await cornerPng());
      // A public address: link previews then carry the cover's thumbnail.
      fs.writeFileSync(path.join(albums, '..', 'content', 'site.json'), JSON.stringify({ publicUrl: 'https://photos.example.com' }));
    });
  });
  afterEach(() => fx.close());

  describe('a PNG (album.json `rotations`)', () => {
    it('should turn its thumbnails, full size, page and API sizes and placeholder, with new URLs and ETags; the original stays byte for byte', async () => {
      const file = path.join(albumDir(TRIP), 'logo.png');
      const original = fs.readFileSync(file);
      // The album is prepared in the background (its sizes are not known at once): wait for them.
      let before = await itemOf(TRIP, 'logo.png');
      await eventuallyPasses(async () => {
        before = await itemOf(TRIP, 'logo.png');
        expect([before.width, before.height]).to.deep.equal([320, 240]);
      });
      expect(before.thumbHash).to.be.a('string');
      const oldThumb = await fetched(before.src);
      expect(await looks(oldThumb.body as Buffer)).to.deep.equal({ width: 320, height: 240, topLeft: 'red', topRight: 'blue' });
      const oldPage = await site().get(`/photos/${TRIP}`).expect(200);

      await rotate(`${TRIP}/logo.png`, 90).expect(200, { path: `${TRIP}/logo.png`, turnedBy: 'album-rotation', rotation: 90 });
      expect(readAlbumJson(TRIP).rotations).to.deep.equal({ 'logo.png': 90 });

      let after!: Item;
      await eventuallyPasses(async () => {
        after = await itemOf(TRIP, 'logo.png');
        expect([after.width, after.height]).to.deep.equal([240, 320]);
      });
      expect(after.src).to.not.equal(before.src);
      expect(after.src).to.match(/&v=[^&]*-r90$/);
      expect(after.thumbHash).to.be.a('string').and.not.equal(before.thumbHash);

      // Every size and format is turned clockwise: the red corner goes from top left to top right.
      const thumb = await fetched(after.src);
      expect(await looks(thumb.body as Buffer)).to.deep.equal({ width: 240, height: 320, topLeft: 'blue', topRight: 'red' });
      expect(thumb.headers.etag).to.be.a('string').and.not.equal(oldThumb.headers.etag);
      // A browser asking again with the ETag it holds gets the turned one, not a 304.
      await site().get(after.src).set('If-None-Match', oldThumb.headers.etag!).expect(200);
      const webp = await fetched(after.webpSrcset.split(' ')[0]!);
      expect(webp.headers['content-type']).to.equal('image/webp');
      expect(await looks(webp.body as Buffer)).to.include({ width: 240, height: 320, topRight: 'red' });
      const large = await fetched(after.src.replace('size=small', 'size=large'));
      expect(await looks(large.body as Buffer)).to.include({ width: 240, height: 320, topRight: 'red' });

      // The viewer's full resolution is a turned JPEG; the original is what was uploaded.
      expect(after.full).to.match(/^\/api\/full-size\?path=2024%2Ftrip%2Flogo\.png&v=[^&]*-r90$/);
      const full = await fetched(after.full);
      expect(full.headers['content-type']).to.equal('image/jpeg');
      expect(await looks(full.body as Buffer)).to.include({ width: 240, height: 320, topRight: 'red' });
      expect(after.original).to.equal('/albums/2024/trip/logo.png');
      const served = await fetched(after.original);
      expect((served.body as Buffer).equals(original)).to.equal(true);
      expect(fs.readFileSync(file).equals(original)).to.equal(true);

      const page = await site().get(`/photos/${TRIP}`).expect(200);
      expect(page.headers.etag).to.not.equal(oldPage.headers.etag);
      expect(page.text).to.match(/data-name="logo\.png"[^>]* data-width="240" data-height="320"/);
      expect(page.text).to.include(after.src.replaceAll('&', '&amp;'));
      // The link preview shows the cover turned too: its URL is the new version's.
      const ogImage = /<meta property="og:image" content="([^"]+)">/.exec(page.text)?.[1]?.replaceAll('&amp;', '&');
      expect(ogImage).to.match(/^https:\/\/photos\.example\.com\/api\/thumbnail\?path=2024%2Ftrip%2Flogo\.png&size=medium&v=[^&]*-r90$/);
      const og = await fetched(ogImage!.slice('https://photos.example.com'.length));
      expect(await looks(og.body as Buffer)).to.include({ width: 240, height: 320, topRight: 'red' });
    });

    it('should turn back to upright without an entry, the first URLs again', async () => {
      const before = await itemOf(TRIP, 'logo.png');
      await rotate(`${TRIP}/logo.png`, 180).expect(200);
      await eventuallyPasses(async () => {
        expect((await itemOf(TRIP, 'logo.png')).src).to.match(/-r180$/);
      });
      await rotate(`${TRIP}/logo.png`, 180).expect(200, { path: `${TRIP}/logo.png`, turnedBy: 'album-rotation', rotation: 0 });
      expect(readAlbumJson(TRIP)).to.not.have.property('rotations');
      await eventuallyPasses(async () => {
        expect((await itemOf(TRIP, 'logo.png')).src).to.equal(before.src);
      });
      expect(await looks((await fetched(before.src)).body as Buffer)).to.include({ width: 320, height: 240, topLeft: 'red' });
      await site().get('/api/full-size?path=2024/trip/logo.png').expect(404);
    });

    it('should carry the turn with a rename and a move, and drop it with a delete', async () => {
      await rotate(`${TRIP}/logo.png`, 270).expect(200);
      await request(fx.admin).post(`/api/media/${TRIP}/logo.png?action=rename`).send({ name: 'brand.png' }).expect(200);
      expect(readAlbumJson(TRIP).rotations).to.deep.equal({ 'brand.png': 270 });
      await eventuallyPasses(async () => {
        expect([(await itemOf(TRIP, 'brand.png')).width]).to.deep.equal([240]);
      });
      const renamed = await itemOf(TRIP, 'brand.png');
      // Counter-clockwise: the red corner goes to the bottom left, the top is blue.
      expect(await looks((await fetched(renamed.src)).body as Buffer)).to.deep.equal({ width: 240, height: 320, topLeft: 'blue', topRight: 'blue' });

      await request(fx.admin).post(`/api/media/${TRIP}/brand.png?action=move`).send({ album: OTHER }).expect(200);
      expect(readAlbumJson(TRIP)).to.not.have.property('rotations');
      expect(readAlbumJson(OTHER).rotations).to.deep.equal({ 'brand.png': 270 });
      await eventuallyPasses(async () => {
        expect((await itemOf(OTHER, 'brand.png')).height).to.equal(320);
      });
      expect(await looks((await fetched((await itemOf(OTHER, 'brand.png')).src)).body as Buffer)).to.include({ width: 240, height: 320 });

      await request(fx.admin).delete(`/api/media/${OTHER}/brand.png`).expect(200);
      expect(readAlbumJson(OTHER)).to.not.have.property('rotations');
    });

    it('should show a link to the photo from another album turned as its own album turns it', async () => {
      fs.symlinkSync(path.join(albumDir(TRIP), 'logo.png'), path.join(albumDir(OTHER), 'linked.png'));
      await eventuallyPasses(async () => {
        expect((await itemOf(OTHER, 'linked.png')).width).to.equal(320);
      });
      await rotate(`${TRIP}/logo.png`, 90).expect(200);
      await eventuallyPasses(async () => {
        const linked = await itemOf(OTHER, 'linked.png');
        expect([linked.width, linked.height]).to.deep.equal([240, 320]);
        expect(linked.src).to.match(/-r90$/);
      });
      const linked = await itemOf(OTHER, 'linked.png');
      expect(await looks((await fetched(linked.src)).body as Buffer)).to.include({ width: 240, height: 320, topRight: 'red' });
    });

    it('should keep a locked album locked: its turned photo reaches only those who unlocked it', async () => {
      await rotate(`${LOCKED}/secret.png`, 90).expect(200);
      const unlocked = { 'X-Album-Token': LOCKED_TOKEN };
      let item!: Item;
      await eventuallyPasses(async () => {
        item = await itemOf(LOCKED, 'secret.png', unlocked);
        expect(item.width).to.equal(240);
      });
      for (const url of [item.src, item.full, `/api/thumbnail?path=${LOCKED}/secret.png&size=small`, `/albums/${LOCKED}/secret.png`]) {
        expect((await site().get(url).expect(401)).body).to.deep.equal({ error: 'This album is protected: unlock it first' });
      }
      await site().get(`/api/album-media?path=${LOCKED}`).expect(401);
      const form = await site().get(`/photos/${LOCKED}`).expect(200);
      expect(form.text).to.not.include('secret.png');
      const thumb = await fetched(item.src, unlocked);
      expect(thumb.headers['cache-control']).to.match(/^private/);
      expect(await looks(thumb.body as Buffer)).to.include({ width: 240, height: 320, topRight: 'red' });
    });
  });

  describe('a HEIC (album.json `rotations`)', () => {
    it('should turn its thumbnails and sizes, keeping the original byte for byte', async () => {
      const file = path.join(albumDir(TRIP), 'IMG_0001.HEIC');
      fs.copyFileSync(IPHONE, file);
      let before!: Item;
      await eventuallyPasses(async () => {
        before = await itemOf(TRIP, 'IMG_0001.HEIC');
        expect([before.width, before.height]).to.deep.equal([2566, 3313]);
      });
      const small = await looks((await fetched(before.src)).body as Buffer);
      expect([small.width, small.height]).to.deep.equal([400, 516]);

      await rotate(`${TRIP}/IMG_0001.HEIC`, 270).expect(200, { path: `${TRIP}/IMG_0001.HEIC`, turnedBy: 'album-rotation', rotation: 270 });
      expect(readAlbumJson(TRIP).rotations).to.deep.equal({ 'IMG_0001.HEIC': 270 });
      let after!: Item;
      await eventuallyPasses(async () => {
        after = await itemOf(TRIP, 'IMG_0001.HEIC');
        expect([after.width, after.height]).to.deep.equal([3313, 2566]);
      });
      const turned = await fetched(after.src);
      expect(await looks(turned.body as Buffer)).to.include({ width: 400, height: 310 });
      expect(after.full).to.match(/-r270$/);
      expect(fs.readFileSync(file).equals(fs.readFileSync(IPHONE))).to.equal(true);
      expect(((await fetched(after.original)).body as Buffer).equals(fs.readFileSync(IPHONE))).to.equal(true);
    });
  });

  describe('a video (its display matrix)', () => {
    it('should turn the file itself, no frame re-encoded: poster, sizes, video info and web copy follow', async () => {
      const file = path.join(albumDir(TRIP), 'clip.mov');
      await writeHalvesMovie(file, 'mov', 1);
      const beforeStat = fs.statSync(file);
      const beforeBytes = fs.readFileSync(file);
      let before!: Item;
      await eventuallyPasses(async () => {
        before = await itemOf(TRIP, 'clip.mov');
        expect([before.width, before.height]).to.deep.equal([160, 120]);
      });
      expect(await looks((await fetched(before.src)).body as Buffer)).to.include({ width: 160, height: 120, topLeft: 'red', topRight: 'blue' });
      // Its index comes last: browsers get a remuxed web copy, made once asked for.
      await eventuallyPasses(async () => void (await site().get(`/api/web-video?path=${TRIP}/clip.mov`).expect(200)), 30_000);

      const res = await rotate(`${TRIP}/clip.mov`, 90).expect(200);
      expect(res.body).to.deep.equal({ path: `${TRIP}/clip.mov`, turnedBy: 'display-matrix', rotation: 90 });
      expect(readAlbumJson(TRIP)).to.not.have.property('rotations');
      // A new version of the file (new inode and mtime, the same size), 36 bytes apart from the old.
      const afterStat = fs.statSync(file);
      expect(afterStat.size).to.equal(beforeStat.size);
      expect(afterStat.ino).to.not.equal(beforeStat.ino);
      expect(afterStat.mtimeMs).to.not.equal(beforeStat.mtimeMs);
      const afterBytes = fs.readFileSync(file);
      const changed = [...afterBytes.keys()].filter((i) => afterBytes[i] !== beforeBytes[i]);
      expect(changed.length).to.be.greaterThan(0);
      expect(changed[changed.length - 1]! - changed[0]!).to.be.lessThan(36);
      expect(await probedRotation(file)).to.equal(-90);

      let after!: Item;
      await eventuallyPasses(async () => {
        after = await itemOf(TRIP, 'clip.mov');
        expect([after.width, after.height]).to.deep.equal([120, 160]);
      });
      expect(after.src).to.not.equal(before.src);
      expect(await looks((await fetched(after.src)).body as Buffer)).to.include({ width: 120, height: 160, topLeft: 'red', topRight: 'red' });
      const info = await site().get(`/api/video-info?path=${TRIP}/clip.mov`).expect(200);
      expect(info.body).to.include({ width: 120, height: 160 });

      // The web copy is made again from the new version, and carries the turn.
      let copy!: Buffer;
      await eventuallyPasses(async () => {
        copy = (await fetched(`/api/web-video?path=${TRIP}/clip.mov`)).body as Buffer;
      }, 30_000);
      const copyFile = path.join(fx.root, 'copy.mp4');
      fs.writeFileSync(copyFile, copy);
      expect(await probedRotation(copyFile)).to.equal(-90);
    });

    it("should turn a Live Photo's movie with its still", async () => {
      const still = path.join(albumDir(TRIP), 'IMG_7.JPG');
      const movie = path.join(albumDir(TRIP), 'IMG_7.MOV');
      await writeLiveStill(still, null);
      await writeLiveMovie(movie, null);
      const res = await rotate(`${TRIP}/IMG_7.JPG`, 90).expect(200);
      expect(res.body).to.deep.equal({
        path: `${TRIP}/IMG_7.JPG`,
        turnedBy: 'exif-orientation',
        orientation: 6,
        motion: { path: `${TRIP}/IMG_7.MOV`, rotation: 90 },
      });
      expect((await sharp(still).metadata()).orientation).to.equal(6);
      expect(await probedRotation(movie)).to.equal(-90);
    });
  });

  describe('refusals', () => {
    for (const [what, target, body, status, message] of [
      ['45 degrees', `${TRIP}/logo.png`, { degrees: 45 }, 400, /^Invalid rotation: degrees must be one of 90, 180, 270/],
      ['degrees as a string', `${TRIP}/logo.png`, { degrees: '90' }, 400, /^Invalid rotation/],
      ['no degrees', `${TRIP}/logo.png`, {}, 400, /^Invalid rotate: the body must give "degrees"/],
      ['an unknown field', `${TRIP}/logo.png`, { degrees: 90, force: true }, 400, /^Invalid rotate: unknown field "force"/],
      ['a WebM', `${TRIP}/clip.webm`, { degrees: 90 }, 400, /^clip\.webm cannot be rotated without re-encoding it/],
      ['a text file named .mp4', `${TRIP}/fake.mp4`, { degrees: 90 }, 400, /^Cannot rotate fake\.mp4: no video track header \(tkhd\) was found/],
      ['a photo that is not there', `${TRIP}/nope.png`, { degrees: 90 }, 404, /^Photo or video not found/],
      ['a path with ..', `${TRIP}/../trip/logo.png`, { degrees: 90 }, 400, /./],
      ['album.json', `${TRIP}/album.json`, { degrees: 90 }, 400, /must name a photo or video/],
    ] as const) {
      it(`should refuse ${what} (${status}) and change nothing on disk`, async () => {
        fs.writeFileSync(path.join(albumDir(TRIP), 'clip.webm'), 'a WebM in name only');
        fs.writeFileSync(path.join(albumDir(TRIP), 'fake.mp4'), 'an MP4 in name only');
        const before = treeHash(fx.config.albumsDir);
        const res = await request(fx.admin).post(`/api/media/${target}?action=rotate`).send(body).expect(status).expect('Content-Type', /json/);
        expect(res.body.error).to.match(message);
        expect(treeHash(fx.config.albumsDir)).to.deep.equal(before);
      });
    }
  });
});
