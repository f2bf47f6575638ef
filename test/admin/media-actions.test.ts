import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import sharp from 'sharp';
import request from 'supertest';
import { mediaCacheFiles, thumbnailFile } from '../../server/core/media-catalogue.js';
import { sourceTagIn } from '../../server/core/media/source-tag.js';
import { createMediaPool, type MediaPool } from '../../server/media/pool.js';
import { quietLogger } from '../support/capture-logger.js';
import { type AdminFixture, createAdminFixture, listDir, makeJpeg, makeMp4, makePng, treeHash } from './support/admin-fixture.js';

const TRIP = '2024/trip';
const OTHER = '2024/other';

describe('admin /api/media (per-photo actions)', function () {
  this.timeout(60_000);
  let pool: MediaPool;
  let fx: AdminFixture;
  const albumDir = (albumPath: string) => path.join(fx.albumsDir, ...albumPath.split('/'));
  const inAlbum = (albumPath: string) => listDir(albumDir(albumPath)).filter((n) => !n.startsWith('.'));
  const trash = () => path.join(fx.albumsDir, '.trash');
  const url = (mediaPath: string, action?: string) =>
    `/api/media/${mediaPath.split('/').map(encodeURIComponent).join('/')}${action ? `?action=${action}` : ''}`;
  /** Makes the small thumbnail of a file through the admin's preview route: real cache files. */
  const preview = async (mediaPath: string) => {
    const res = await request(fx.app)
      .get(`/previews/albums/${mediaPath.split('/').map(encodeURIComponent).join('/')}?size=small`)
      .buffer(true)
      .parse((r, done) => {
        const chunks: Buffer[] = [];
        r.on('data', (c: Buffer) => chunks.push(c));
        r.on('end', () => done(null, Buffer.concat(chunks)));
      })
      .expect(200)
      .expect('Content-Type', 'image/jpeg');
    return res.body as Buffer;
  };
  const smallThumb = (mediaPath: string) => thumbnailFile(fx.cacheDir, 'small', mediaPath);

  before(() => {
    pool = createMediaPool({ workers: 1, maxQueue: 100, log: quietLogger });
  });
  after(() => pool.close());

  beforeEach(async () => {
    fx = await createAdminFixture({ mediaPool: pool });
    // "2024" is an album too: its cover names a photo of the trip below it.
    await fx.album('2024', { title: 'Year', thumbnail: 'trip/IMG_1.jpg', token: 'year-token-0123456789' });
    const trip = await fx.album(TRIP, {
      title: 'Trip',
      thumbnail: 'IMG_1.jpg',
      captions: { 'IMG_1.jpg': "Grandma's 90th", 'IMG_2.jpg': 'The cake' },
      token: 'trip-token-0123456789',
    });
    fs.writeFileSync(path.join(trip, 'IMG_1.jpg'), await makeJpeg(320, 240));
    fs.writeFileSync(path.join(trip, 'IMG_2.jpg'), await makeJpeg(160, 120));
    // A Live Photo: the still and its movie, paired by name.
    fs.writeFileSync(path.join(trip, 'IMG_3.JPG'), await makeJpeg(64, 48));
    fs.writeFileSync(path.join(trip, 'IMG_3.MOV'), 'the movie of a Live Photo');
    fs.writeFileSync(path.join(trip, 'logo.png'), await makePng());
    await fx.album(OTHER, { title: 'Other', token: 'other-token-0123456789' });
  });
  afterEach(() => fx.close());

  describe('DELETE', () => {
    it('should move the photo to the trash, drop its caption and the covers naming it, and remove its cached files', async () => {
      await preview(`${TRIP}/IMG_1.jpg`);
      expect(fs.existsSync(smallThumb(`${TRIP}/IMG_1.jpg`))).to.equal(true);
      const original = fs.readFileSync(path.join(albumDir(TRIP), 'IMG_1.jpg'));

      const res = await request(fx.app)
        .delete(url(`${TRIP}/IMG_1.jpg`))
        .expect(200);

      expect(res.body.path).to.equal(`${TRIP}/IMG_1.jpg`);
      expect(res.body.trashedTo).to.have.length(1);
      expect(res.body.trashedTo[0]).to.match(/^\.trash\/\d{4}-\d\d-\d\dT[\d-]+Z\/2024\/trip\/IMG_1\.jpg$/);
      expect(fs.readFileSync(path.join(fx.albumsDir, ...res.body.trashedTo[0].split('/'))).equals(original)).to.equal(true);
      expect(inAlbum(TRIP)).to.not.include('IMG_1.jpg');
      expect(fx.readAlbumJson(TRIP)).to.not.have.property('thumbnail');
      expect(fx.readAlbumJson(TRIP).captions).to.deep.equal({ 'IMG_2.jpg': 'The cake' });
      expect(fx.readAlbumJson('2024')).to.not.have.property('thumbnail');
      for (const file of mediaCacheFiles(fx.cacheDir, `${TRIP}/IMG_1.jpg`)) expect(fs.existsSync(file), file).to.equal(false);
      const detail = await request(fx.app).get(`/api/albums/${TRIP}`).expect(200);
      expect(detail.body.media.map((m: { name: string }) => m.name)).to.deep.equal(['IMG_2.jpg', 'IMG_3.JPG', 'IMG_3.MOV', 'logo.png']);
    });

    it("should take a Live Photo's movie to the trash with its still", async () => {
      const res = await request(fx.app)
        .delete(url(`${TRIP}/IMG_3.JPG`))
        .expect(200);
      expect(res.body.trashedTo.map((p: string) => path.basename(p))).to.deep.equal(['IMG_3.JPG', 'IMG_3.MOV']);
      expect(inAlbum(TRIP)).to.deep.equal(['IMG_1.jpg', 'IMG_2.jpg', 'album.json', 'logo.png']);
    });

    it('should keep both when the same photo is deleted twice at once: one 200, one 404', async () => {
      const [a, b] = await Promise.all([request(fx.app).delete(url(`${TRIP}/IMG_2.jpg`)), request(fx.app).delete(url(`${TRIP}/IMG_2.jpg`))]);
      expect([a.status, b.status].sort()).to.deep.equal([200, 404]);
      const trashed = fs.readdirSync(trash(), { recursive: true }).filter((p) => String(p).endsWith('IMG_2.jpg'));
      expect(trashed).to.have.length(1);
    });

    for (const [what, target, status] of [
      ['a file that is not there', `${TRIP}/nope.jpg`, 404],
      ['album.json', `${TRIP}/album.json`, 400],
      ['a file of an unknown type', `${TRIP}/notes.txt`, 400],
      ['a path with ..', `${TRIP}/../trip/IMG_1.jpg`, 400],
      ['a hidden file', `${TRIP}/.hidden.jpg`, 400],
      ['a file in a folder that is not an album', '2023/IMG_1.jpg', 404],
      ['the trash', `.trash/x/IMG_1.jpg`, 400],
    ] as const) {
      it(`should refuse ${what} (${status}) and change nothing on disk`, async () => {
        fs.writeFileSync(path.join(albumDir(TRIP), 'notes.txt'), 'not media');
        const before = treeHash(fx.root);
        const res = await request(fx.app).delete(`/api/media/${target}`).expect(status).expect('Content-Type', /json/);
        expect(res.body.error).to.be.a('string');
        expect(treeHash(fx.root)).to.deep.equal(before);
      });
    }
  });

  describe('POST ?action=rename', () => {
    it('should rename the photo; its caption, the covers naming it and its cached thumbnails follow', async () => {
      const thumb = await preview(`${TRIP}/IMG_1.jpg`);
      const res = await request(fx.app)
        .post(url(`${TRIP}/IMG_1.jpg`, 'rename'))
        .send({ name: "Grandma's 90th (1).jpg" })
        .expect(200);
      expect(res.body).to.deep.equal({
        path: `${TRIP}/Grandma's 90th (1).jpg`,
        album: TRIP,
        name: "Grandma's 90th (1).jpg",
        moved: [{ from: `${TRIP}/IMG_1.jpg`, to: `${TRIP}/Grandma's 90th (1).jpg` }],
      });
      expect(inAlbum(TRIP)).to.include("Grandma's 90th (1).jpg").and.not.include('IMG_1.jpg');
      expect(fx.readAlbumJson(TRIP)).to.deep.include({
        thumbnail: "Grandma's 90th (1).jpg",
        captions: { 'IMG_2.jpg': 'The cake', "Grandma's 90th (1).jpg": "Grandma's 90th" },
      });
      expect(fx.readAlbumJson('2024')).to.include({ thumbnail: "trip/Grandma's 90th (1).jpg" });
      // The thumbnail moved with it and is still fresh: asked again, it is the same file, not made anew.
      const moved = smallThumb(`${TRIP}/Grandma's 90th (1).jpg`);
      expect(fs.existsSync(smallThumb(`${TRIP}/IMG_1.jpg`))).to.equal(false);
      expect(fs.readFileSync(moved).equals(thumb)).to.equal(true);
      const mtime = fs.statSync(moved).mtimeMs;
      expect((await preview(`${TRIP}/Grandma's 90th (1).jpg`)).equals(thumb)).to.equal(true);
      expect(fs.statSync(moved).mtimeMs).to.equal(mtime);
    });

    it("should give a Live Photo's movie the new name too, with its own extension", async () => {
      const res = await request(fx.app)
        .post(url(`${TRIP}/IMG_3.JPG`, 'rename'))
        .send({ name: 'Sunset.jpg' })
        .expect(200);
      expect(res.body.moved).to.deep.equal([
        { from: `${TRIP}/IMG_3.JPG`, to: `${TRIP}/Sunset.jpg` },
        { from: `${TRIP}/IMG_3.MOV`, to: `${TRIP}/Sunset.MOV` },
      ]);
      expect(inAlbum(TRIP)).to.deep.equal(['IMG_1.jpg', 'IMG_2.jpg', 'Sunset.MOV', 'Sunset.jpg', 'album.json', 'logo.png']);
    });

    it('should change the letter case of a name', async () => {
      await request(fx.app)
        .post(url(`${TRIP}/IMG_2.jpg`, 'rename'))
        .send({ name: 'img_2.JPG' })
        .expect(200);
      expect(inAlbum(TRIP)).to.include('img_2.JPG').and.not.include('IMG_2.jpg');
      expect(fx.readAlbumJson(TRIP).captions).to.deep.include({ 'img_2.JPG': 'The cake' });
    });

    it('should answer 200 and change nothing when the name is the same', async () => {
      const before = treeHash(fx.root);
      const res = await request(fx.app)
        .post(url(`${TRIP}/IMG_2.jpg`, 'rename'))
        .send({ name: 'IMG_2.jpg' })
        .expect(200);
      expect(res.body.moved).to.deep.equal([]);
      expect(treeHash(fx.root)).to.deep.equal(before);
    });

    it('should refuse a name taken in the album, in any letter case (409), and change nothing', async () => {
      const before = treeHash(fx.root);
      const res = await request(fx.app)
        .post(url(`${TRIP}/IMG_1.jpg`, 'rename'))
        .send({ name: 'img_2.JPG' })
        .expect(409);
      expect(res.body.error).to.equal('A file named img_2.JPG is already in 2024/trip');
      // The movie's new name is checked too.
      fs.writeFileSync(path.join(albumDir(TRIP), 'Beach.mov'), 'another movie');
      const before2 = treeHash(fx.root);
      await request(fx.app)
        .post(url(`${TRIP}/IMG_3.JPG`, 'rename'))
        .send({ name: 'Beach.jpg' })
        .expect(409);
      expect(treeHash(fx.root)).to.deep.equal(before2);
      expect(before2).to.deep.equal({ ...before, 'albums/2024/trip/Beach.mov': before2['albums/2024/trip/Beach.mov'] });
    });

    for (const [body, message] of [
      [{}, 'Invalid rename: the body must give "name"'],
      [{ name: '' }, 'Invalid rename: name must be the new file name'],
      [{ name: 5 }, 'Invalid rename: name must be the new file name'],
      [{ name: 'a/b.jpg' }, /^Invalid rename: name must be a file name without/],
      [{ name: '../b.jpg' }, /^Invalid rename: name must be a file name without/],
      [{ name: '.hidden.jpg' }, /^Invalid rename: name must be a file name without/],
      [{ name: 'what?.jpg' }, /^Invalid rename: name must be a file name without/],
      [{ name: 'tab\there.jpg' }, /^Invalid rename: name must be a file name without/],
      [{ name: 'trailing.jpg ' }, /^Invalid rename: name must be a file name without/],
      [{ name: 'con.jpg' }, /^Invalid rename: name must be a file name without/],
      [{ name: `${'x'.repeat(250)}.jpg` }, /^Invalid rename: name must be a file name without/],
      [{ name: 'IMG_1.png' }, 'Invalid rename: the extension must stay .jpg (any case)'],
      [{ name: 'IMG_1' }, /^Invalid rename: name must be a file name without/],
      [{ name: 'b.jpg', album: 'x' }, 'Invalid rename: unknown field "album" (the body is {"name": …})'],
    ] as const) {
      it(`should refuse ${JSON.stringify(body)} with 400 and change nothing`, async () => {
        const before = treeHash(fx.root);
        const res = await request(fx.app)
          .post(url(`${TRIP}/IMG_1.jpg`, 'rename'))
          .send(body)
          .expect(400);
        if (typeof message === 'string') expect(res.body.error).to.equal(message);
        else expect(res.body.error).to.match(message);
        expect(treeHash(fx.root)).to.deep.equal(before);
      });
    }

    it('should answer 400 for an unknown action, a missing action and a body that is not JSON', async () => {
      const before = treeHash(fx.root);
      expect(
        (
          await request(fx.app)
            .post(url(`${TRIP}/IMG_1.jpg`, 'explode'))
            .send({})
            .expect(400)
        ).body.error,
      ).to.equal('Invalid parameter: action must be one of rename, move, rotate, caption');
      expect(
        (
          await request(fx.app)
            .post(url(`${TRIP}/IMG_1.jpg`))
            .send({})
            .expect(400)
        ).body.error,
      ).to.equal('Missing required parameter: action');
      await request(fx.app)
        .post(url(`${TRIP}/IMG_1.jpg`, 'rename'))
        .type('form')
        .send('name=x.jpg')
        .expect(400);
      expect(treeHash(fx.root)).to.deep.equal(before);
    });

    it('should run two renames to one name one after the other: one 200, one 409, nothing lost', async () => {
      const [a, b] = await Promise.all([
        request(fx.app)
          .post(url(`${TRIP}/IMG_1.jpg`, 'rename'))
          .send({ name: 'best.jpg' }),
        request(fx.app)
          .post(url(`${TRIP}/IMG_2.jpg`, 'rename'))
          .send({ name: 'BEST.jpg' }),
      ]);
      expect([a.status, b.status].sort()).to.deep.equal([200, 409]);
      const names = inAlbum(TRIP);
      expect(names.filter((n) => n.toLowerCase() === 'best.jpg')).to.have.length(1);
      expect(names).to.have.length(6);
    });

    it('should run two renames of one photo one after the other: one 200, one 404', async () => {
      const [a, b] = await Promise.all([
        request(fx.app)
          .post(url(`${TRIP}/IMG_1.jpg`, 'rename'))
          .send({ name: 'first.jpg' }),
        request(fx.app)
          .post(url(`${TRIP}/IMG_1.jpg`, 'rename'))
          .send({ name: 'second.jpg' }),
      ]);
      // Which one the album's queue takes first is the order they reach the server: not the test's to choose.
      expect([a.status, b.status].sort()).to.deep.equal([200, 404]);
      const [won, lost] = a.status === 200 ? ['first.jpg', 'second.jpg'] : ['second.jpg', 'first.jpg'];
      expect(inAlbum(TRIP)).to.include(won).and.not.include(lost).and.not.include('IMG_1.jpg');
      expect(fx.readAlbumJson(TRIP).captions).to.deep.include({ [won]: "Grandma's 90th" });
    });

    it('should keep a rename and an edit of the album at once both', async () => {
      await Promise.all([
        request(fx.app)
          .post(url(`${TRIP}/IMG_2.jpg`, 'rename'))
          .send({ name: 'cake.jpg' })
          .expect(200),
        request(fx.app).put(`/api/albums/${TRIP}`).send({ description: 'Her birthday' }).expect(200),
        request(fx.app)
          .post(url(`${TRIP}/IMG_1.jpg`, 'caption'))
          .send({ caption: 'Grandma' })
          .expect(200),
      ]);
      expect(fx.readAlbumJson(TRIP)).to.deep.include({ description: 'Her birthday', captions: { 'IMG_1.jpg': 'Grandma', 'cake.jpg': 'The cake' } });
    });
  });

  describe('POST ?action=move', () => {
    it('should move the photo to another album with its caption; the covers naming it are dropped; its cache follows', async () => {
      const thumb = await preview(`${TRIP}/IMG_1.jpg`);
      const res = await request(fx.app)
        .post(url(`${TRIP}/IMG_1.jpg`, 'move'))
        .send({ album: OTHER })
        .expect(200);
      expect(res.body).to.deep.equal({
        path: `${OTHER}/IMG_1.jpg`,
        album: OTHER,
        name: 'IMG_1.jpg',
        moved: [{ from: `${TRIP}/IMG_1.jpg`, to: `${OTHER}/IMG_1.jpg` }],
      });
      expect(inAlbum(TRIP)).to.not.include('IMG_1.jpg');
      expect(inAlbum(OTHER)).to.deep.equal(['IMG_1.jpg', 'album.json']);
      expect(fx.readAlbumJson(TRIP)).to.not.have.property('thumbnail');
      expect(fx.readAlbumJson(TRIP).captions).to.deep.equal({ 'IMG_2.jpg': 'The cake' });
      expect(fx.readAlbumJson(OTHER).captions).to.deep.equal({ 'IMG_1.jpg': "Grandma's 90th" });
      // "2024" holds both albums: its cover follows the photo to its new place below it.
      expect(fx.readAlbumJson('2024')).to.include({ thumbnail: 'other/IMG_1.jpg' });
      expect(fs.readFileSync(smallThumb(`${OTHER}/IMG_1.jpg`)).equals(thumb)).to.equal(true);
      expect(fs.existsSync(smallThumb(`${TRIP}/IMG_1.jpg`))).to.equal(false);
    });

    it('should move a Live Photo whole, and rewrite a cover that moves into a child album', async () => {
      await fx.album(`${TRIP}/day-2`, { title: 'Day 2', token: 'day-two-token-0123456789' });
      await request(fx.app).put(`/api/albums/${TRIP}`).send({ thumbnail: 'IMG_3.JPG' }).expect(200);
      await request(fx.app)
        .post(url(`${TRIP}/IMG_3.JPG`, 'move'))
        .send({ album: `${TRIP}/day-2` })
        .expect(200);
      expect(inAlbum(`${TRIP}/day-2`)).to.deep.equal(['IMG_3.JPG', 'IMG_3.MOV', 'album.json']);
      expect(fx.readAlbumJson(TRIP)).to.include({ thumbnail: 'day-2/IMG_3.JPG' });
    });

    it('should refuse a name taken in the other album (409), and change nothing', async () => {
      fs.writeFileSync(path.join(albumDir(OTHER), 'img_1.JPG'), await makeJpeg());
      const before = treeHash(fx.root);
      const res = await request(fx.app)
        .post(url(`${TRIP}/IMG_1.jpg`, 'move'))
        .send({ album: OTHER })
        .expect(409);
      expect(res.body.error).to.equal('A file named IMG_1.jpg is already in 2024/other');
      expect(treeHash(fx.root)).to.deep.equal(before);
    });

    for (const [body, status, message] of [
      [{ album: TRIP }, 400, 'Invalid move: the photo is in that album already'],
      [{ album: '2024/nowhere' }, 404, 'Album not found: 2024/nowhere'],
      [{ album: '2023' }, 404, 'Album not found: 2023'],
      [{ album: '../outside' }, 400, 'Invalid parameter: album contains a ".." segment'],
      [{ album: '/etc' }, 400, 'Invalid parameter: album must be relative to the albums directory'],
      [{ album: '.trash' }, 400, 'Invalid parameter: album must not name a hidden folder'],
      [{ album: '' }, 400, 'Invalid move: album must name the album to move it to'],
      [{ album: ['2024/other'] }, 400, 'Invalid parameter: album must be a single string'],
    ] as const) {
      it(`should refuse ${JSON.stringify(body)} with ${status} and change nothing`, async () => {
        const before = treeHash(fx.root);
        const res = await request(fx.app)
          .post(url(`${TRIP}/IMG_1.jpg`, 'move'))
          .send(body)
          .expect(status);
        expect(res.body.error).to.equal(message);
        expect(treeHash(fx.root)).to.deep.equal(before);
      });
    }

    it('should refuse to move a link (it would point elsewhere from another folder), moving nothing', async () => {
      fs.symlinkSync('IMG_1.jpg', path.join(albumDir(TRIP), 'alias.jpg'));
      const before = treeHash(fx.root);
      const res = await request(fx.app)
        .post(url(`${TRIP}/alias.jpg`, 'move'))
        .send({ album: OTHER })
        .expect(400);
      expect(res.body.error).to.equal('alias.jpg is a link to a file elsewhere: move the original in its own album instead');
      expect(treeHash(fx.root)).to.deep.equal(before);
    });

    it('should refuse to move into an album whose album.json is broken (409), moving nothing', async () => {
      fs.writeFileSync(path.join(albumDir(OTHER), 'album.json'), '[1, 2]');
      const before = treeHash(fx.root);
      await request(fx.app)
        .post(url(`${TRIP}/IMG_1.jpg`, 'move'))
        .send({ album: OTHER })
        .expect(409);
      expect(treeHash(fx.root)).to.deep.equal(before);
    });

    it('should run two moves between two albums in opposite directions without waiting on each other', async () => {
      fs.writeFileSync(path.join(albumDir(OTHER), 'there.jpg'), await makeJpeg());
      const [a, b] = await Promise.all([
        request(fx.app)
          .post(url(`${TRIP}/IMG_2.jpg`, 'move'))
          .send({ album: OTHER }),
        request(fx.app)
          .post(url(`${OTHER}/there.jpg`, 'move'))
          .send({ album: TRIP }),
      ]);
      expect([a.status, b.status]).to.deep.equal([200, 200]);
      expect(inAlbum(OTHER)).to.deep.equal(['IMG_2.jpg', 'album.json']);
      expect(inAlbum(TRIP)).to.include('there.jpg');
    });
  });

  describe('POST ?action=rotate', () => {
    it('should turn a JPEG losslessly: its thumbnail has its sides swapped and a new identity', async () => {
      const before = await sharp(await preview(`${TRIP}/IMG_1.jpg`)).metadata();
      expect([before.width, before.height]).to.deep.equal([320, 240]);
      const oldTag = sourceTagIn(fs.readFileSync(smallThumb(`${TRIP}/IMG_1.jpg`)));
      const res = await request(fx.app)
        .post(url(`${TRIP}/IMG_1.jpg`, 'rotate'))
        .send({ degrees: 90 })
        .expect(200);
      expect(res.body).to.deep.equal({ path: `${TRIP}/IMG_1.jpg`, turnedBy: 'exif-orientation', orientation: 6 });
      // The EXIF tag turns a JPEG: album.json is not asked to.
      expect(fx.readAlbumJson(TRIP)).to.not.have.property('rotations');
      // The stale thumbnails are gone; the next one is made from the rotated original.
      expect(fs.existsSync(smallThumb(`${TRIP}/IMG_1.jpg`))).to.equal(false);
      const after = await sharp(await preview(`${TRIP}/IMG_1.jpg`)).metadata();
      expect([after.width, after.height]).to.deep.equal([240, 320]);
      expect(sourceTagIn(fs.readFileSync(smallThumb(`${TRIP}/IMG_1.jpg`))))
        .to.be.a('string')
        .and.not.equal(oldTag);
      expect((await sharp(path.join(albumDir(TRIP), 'IMG_1.jpg')).metadata()).orientation).to.equal(6);
      await request(fx.app)
        .post(url(`${TRIP}/IMG_1.jpg`, 'rotate'))
        .send({ degrees: -90 })
        .expect(200);
      expect((await sharp(path.join(albumDir(TRIP), 'IMG_1.jpg')).metadata()).orientation).to.equal(1);
    });

    for (const [what, target, body, status, message] of [
      ['45 degrees for a PNG', `${TRIP}/logo.png`, { degrees: 45 }, 400, /^Invalid rotation: degrees must be one of 90, 180, 270/],
      ['a text file named .MOV (a Live Photo movie on its own)', `${TRIP}/IMG_3.MOV`, { degrees: 90 }, 400, /^Cannot rotate IMG_3\.MOV: no video track header/],
      ['a Live Photo whose movie cannot be turned', `${TRIP}/IMG_3.JPG`, { degrees: 90 }, 400, /^Cannot rotate IMG_3\.MOV: no video track header/],
      ['a WebM', `${TRIP}/clip.webm`, { degrees: 90 }, 400, /^clip\.webm cannot be rotated without re-encoding it/],
      ['45 degrees', `${TRIP}/IMG_1.jpg`, { degrees: 45 }, 400, /^Invalid rotation: degrees must be one of 90, 180, 270/],
      ['"90"', `${TRIP}/IMG_1.jpg`, { degrees: '90' }, 400, /^Invalid rotation/],
      ['a missing photo', `${TRIP}/nope.jpg`, { degrees: 90 }, 404, /^Photo or video not found/],
      ['a text file named .jpg', `${TRIP}/fake.jpg`, { degrees: 90 }, 400, /^Cannot rotate fake\.jpg: Not a JPEG file/],
    ] as const) {
      it(`should refuse ${what} (${status}) and change nothing`, async () => {
        fs.writeFileSync(path.join(albumDir(TRIP), 'fake.jpg'), 'plain text');
        fs.writeFileSync(path.join(albumDir(TRIP), 'clip.webm'), 'a WebM in name only');
        const before = treeHash(fx.root);
        const res = await request(fx.app).post(url(target, 'rotate')).send(body).expect(status);
        expect(res.body.error).to.match(message);
        expect(treeHash(fx.root)).to.deep.equal(before);
      });
    }

    it('should refuse a symlink to a photo of another album', async () => {
      fs.symlinkSync(path.join(albumDir(TRIP), 'IMG_1.jpg'), path.join(albumDir(OTHER), 'linked.jpg'));
      const before = treeHash(fx.root);
      const res = await request(fx.app)
        .post(url(`${OTHER}/linked.jpg`, 'rotate'))
        .send({ degrees: 90 })
        .expect(400);
      expect(res.body.error).to.match(/link to a file elsewhere/);
      expect(treeHash(fx.root)).to.deep.equal(before);
    });

    it('should turn a PNG in album.json only, its original byte for byte the same, and back to upright without an entry', async () => {
      const file = path.join(albumDir(TRIP), 'logo.png');
      const original = fs.readFileSync(file);
      const before = await sharp(await preview(`${TRIP}/logo.png`)).metadata();
      expect([before.width, before.height]).to.deep.equal([40, 30]);
      await request(fx.app)
        .post(url(`${TRIP}/logo.png`, 'rotate'))
        .send({ degrees: 90 })
        .expect(200, { path: `${TRIP}/logo.png`, turnedBy: 'album-rotation', rotation: 90 });
      expect(fx.readAlbumJson(TRIP).rotations).to.deep.equal({ 'logo.png': 90 });
      expect(fs.readFileSync(file).equals(original)).to.equal(true);
      // The admin's listing gives the preview a new URL, and the preview is turned.
      const detail = await request(fx.app).get(`/api/albums/${TRIP}`).expect(200);
      const listed = detail.body.media.find((m: { name: string }) => m.name === 'logo.png');
      expect(listed).to.include({ rotation: 90, turnedBy: 'album-rotation' });
      expect(listed.preview).to.match(/&v=[^&]*-r90$/);
      const turned = await sharp(await preview(`${TRIP}/logo.png`)).metadata();
      expect([turned.width, turned.height]).to.deep.equal([30, 40]);
      expect(sourceTagIn(fs.readFileSync(smallThumb(`${TRIP}/logo.png`)))).to.match(/\.r90$/);

      await request(fx.app)
        .post(url(`${TRIP}/logo.png`, 'rotate'))
        .send({ degrees: 180 })
        .expect(200, { path: `${TRIP}/logo.png`, turnedBy: 'album-rotation', rotation: 270 });
      await request(fx.app)
        .post(url(`${TRIP}/logo.png`, 'rotate'))
        .send({ degrees: 90 })
        .expect(200, { path: `${TRIP}/logo.png`, turnedBy: 'album-rotation', rotation: 0 });
      expect(fx.readAlbumJson(TRIP)).to.not.have.property('rotations');
      expect(fs.readFileSync(file).equals(original)).to.equal(true);
      const upright = await sharp(await preview(`${TRIP}/logo.png`)).metadata();
      expect([upright.width, upright.height]).to.deep.equal([40, 30]);
    });

    it('should carry the rotation with a rename and a move (the turned thumbnail stays fresh), and drop it with a delete', async () => {
      await request(fx.app)
        .post(url(`${TRIP}/logo.png`, 'rotate'))
        .send({ degrees: 270 })
        .expect(200);
      const thumb = await preview(`${TRIP}/logo.png`);
      expect(sourceTagIn(thumb)).to.match(/\.r270$/);

      await request(fx.app)
        .post(url(`${TRIP}/logo.png`, 'rename'))
        .send({ name: 'brand.png' })
        .expect(200);
      expect(fx.readAlbumJson(TRIP).rotations).to.deep.equal({ 'brand.png': 270 });
      const renamed = smallThumb(`${TRIP}/brand.png`);
      const mtime = fs.statSync(renamed).mtimeMs;
      expect((await preview(`${TRIP}/brand.png`)).equals(thumb)).to.equal(true);
      expect(fs.statSync(renamed).mtimeMs).to.equal(mtime);

      await request(fx.app)
        .post(url(`${TRIP}/brand.png`, 'move'))
        .send({ album: OTHER })
        .expect(200);
      expect(fx.readAlbumJson(TRIP)).to.not.have.property('rotations');
      expect(fx.readAlbumJson(OTHER).rotations).to.deep.equal({ 'brand.png': 270 });
      expect((await preview(`${OTHER}/brand.png`)).equals(thumb)).to.equal(true);

      await request(fx.app)
        .delete(url(`${OTHER}/brand.png`))
        .expect(200);
      expect(fx.readAlbumJson(OTHER)).to.not.have.property('rotations');
    });

    it('should add up two turns asked at once: each runs in the album queue', async () => {
      const [a, b] = await Promise.all([
        request(fx.app)
          .post(url(`${TRIP}/logo.png`, 'rotate'))
          .send({ degrees: 90 }),
        request(fx.app)
          .post(url(`${TRIP}/logo.png`, 'rotate'))
          .send({ degrees: 90 }),
      ]);
      expect([a.status, b.status]).to.deep.equal([200, 200]);
      expect([a.body.rotation, b.body.rotation].sort((x, y) => x - y)).to.deep.equal([90, 180]);
      expect(fx.readAlbumJson(TRIP).rotations).to.deep.equal({ 'logo.png': 180 });
    });

    it('should keep the other entries of rotations when one photo turns back to upright', async () => {
      fs.writeFileSync(path.join(albumDir(TRIP), 'b.png'), await makePng());
      await request(fx.app)
        .post(url(`${TRIP}/logo.png`, 'rotate'))
        .send({ degrees: 90 })
        .expect(200);
      await request(fx.app)
        .post(url(`${TRIP}/b.png`, 'rotate'))
        .send({ degrees: 180 })
        .expect(200);
      await request(fx.app)
        .post(url(`${TRIP}/logo.png`, 'rotate'))
        .send({ degrees: -90 })
        .expect(200);
      expect(fx.readAlbumJson(TRIP).rotations).to.deep.equal({ 'b.png': 180 });
    });

    it('should refuse to turn a photo of an album whose album.json has a field it cannot save, changing nothing', async () => {
      fs.writeFileSync(path.join(albumDir(TRIP), 'album.json'), JSON.stringify({ ...fx.readAlbumJson(TRIP), style: 'collage' }));
      const before = treeHash(fx.root);
      const res = await request(fx.app)
        .post(url(`${TRIP}/logo.png`, 'rotate'))
        .send({ degrees: 90 })
        .expect(400);
      expect(res.body.error).to.equal('Invalid album metadata: style must be one of grid, masonry, single');
      expect(treeHash(fx.root)).to.deep.equal(before);
    });

    it('should refuse to turn a photo of an album whose album.json is not an object, changing nothing', async () => {
      fs.writeFileSync(path.join(albumDir(TRIP), 'album.json'), '["not", "an", "object"]');
      const before = treeHash(fx.root);
      const res = await request(fx.app)
        .post(url(`${TRIP}/logo.png`, 'rotate'))
        .send({ degrees: 90 })
        .expect(409);
      expect(res.body.error).to.match(/not a JSON object/);
      expect(treeHash(fx.root)).to.deep.equal(before);
    });
  });

  describe('POST ?action=caption', () => {
    it('should set, replace and remove a caption in album.json, and list it with the media', async () => {
      await request(fx.app)
        .post(url(`${TRIP}/logo.png`, 'caption'))
        .send({ caption: '  Our logo  ' })
        .expect(200, { path: `${TRIP}/logo.png`, caption: 'Our logo' });
      expect(fx.readAlbumJson(TRIP).captions).to.deep.include({ 'logo.png': 'Our logo' });
      const detail = await request(fx.app).get(`/api/albums/${TRIP}`).expect(200);
      expect(detail.body.media.find((m: { name: string }) => m.name === 'logo.png')).to.include({ caption: 'Our logo', livePair: null });
      expect(detail.body.media.find((m: { name: string }) => m.name === 'IMG_3.JPG')).to.include({ livePair: 'IMG_3.MOV' });
      await request(fx.app)
        .post(url(`${TRIP}/IMG_2.jpg`, 'caption'))
        .send({ caption: null })
        .expect(200, { path: `${TRIP}/IMG_2.jpg`, caption: null });
      await request(fx.app)
        .post(url(`${TRIP}/IMG_1.jpg`, 'caption'))
        .send({ caption: '' })
        .expect(200);
      expect(fx.readAlbumJson(TRIP).captions).to.deep.equal({ 'logo.png': 'Our logo' });
      await request(fx.app)
        .post(url(`${TRIP}/logo.png`, 'caption'))
        .send({ caption: null })
        .expect(200);
      expect(fx.readAlbumJson(TRIP)).to.not.have.property('captions');
    });

    for (const [target, body, status, message] of [
      [`${TRIP}/IMG_1.jpg`, { caption: 5 }, 400, 'Invalid caption: caption must be a string, or null to remove it'],
      [`${TRIP}/IMG_1.jpg`, { caption: 'x'.repeat(1001) }, 400, 'Invalid caption: caption must be at most 1000 characters'],
      [`${TRIP}/IMG_1.jpg`, { caption: 'two\nlines' }, 400, 'Invalid caption: caption must be one line without control characters'],
      [`${TRIP}/nope.jpg`, { caption: 'x' }, 404, 'Photo or video not found: 2024/trip/nope.jpg'],
    ] as const) {
      it(`should refuse ${JSON.stringify(body).slice(0, 40)} for ${target} with ${status} and change nothing`, async () => {
        const before = treeHash(fx.root);
        const res = await request(fx.app).post(url(target, 'caption')).send(body).expect(status);
        expect(res.body.error).to.equal(message);
        expect(treeHash(fx.root)).to.deep.equal(before);
      });
    }
  });

  describe('GET /previews', () => {
    it('should answer a video with its poster and a HEIC with a JPEG, never the original', async () => {
      const clip = path.join(import.meta.dirname, '..', 'fixtures', 'heic', 'IMG_5195.HEIC');
      fs.copyFileSync(clip, path.join(albumDir(OTHER), 'IMG_5195.HEIC'));
      fs.writeFileSync(path.join(albumDir(OTHER), 'clip.mp4'), await makeMp4());
      const heic = await sharp(await preview(`${OTHER}/IMG_5195.HEIC`)).metadata();
      expect(heic.format).to.equal('jpeg');
      expect(heic.width).to.be.at.most(400);
      // The poster: a frame of the 160 × 120 test video.
      const poster = await sharp(await preview(`${OTHER}/clip.mp4`)).metadata();
      expect([poster.format, poster.width, poster.height]).to.deep.equal(['jpeg', 160, 120]);
    });

    it('should answer 404 for album.json, hidden files and missing files, and 400 for a bad size', async () => {
      await request(fx.app).get(`/previews/albums/${TRIP}/album.json`).expect(404);
      await request(fx.app).get(`/previews/albums/${TRIP}/.hidden.jpg`).expect(404);
      await request(fx.app).get(`/previews/albums/${TRIP}/nope.jpg`).expect(404);
      await request(fx.app).get(`/previews/albums/${TRIP}/IMG_1.jpg?size=huge`).expect(400);
      await request(fx.app).get('/previews/albums/2024/%2E%2E/2024/trip/IMG_1.jpg').expect(400);
    });

    it('should cache a versioned preview for good and revalidate another', async () => {
      const detail = await request(fx.app).get(`/api/albums/${TRIP}`).expect(200);
      const entry = detail.body.media.find((m: { name: string }) => m.name === 'IMG_1.jpg');
      expect(entry.preview).to.match(/^\/previews\/albums\/2024\/trip\/IMG_1\.jpg\?size=small&v=/);
      const versioned = await request(fx.app).get(entry.preview).expect(200);
      expect(versioned.headers['cache-control']).to.equal('private, max-age=31536000, immutable');
      const plain = await request(fx.app).get(`/previews/albums/${TRIP}/IMG_1.jpg`).expect(200);
      expect(plain.headers['cache-control']).to.equal('private, no-cache');
      await request(fx.app).get(`/previews/albums/${TRIP}/IMG_1.jpg`).set('If-None-Match', plain.headers.etag!).expect(304);
    });

    it('should preview the site images from a cache of their own', async () => {
      const hero = path.join(fx.contentDir, 'assets', 'hero');
      fs.mkdirSync(hero, { recursive: true });
      fs.writeFileSync(path.join(hero, 'big sky.jpg'), await makeJpeg(900, 600));
      const res = await request(fx.app).get('/previews/site/hero/big%20sky.jpg').expect(200).expect('Content-Type', 'image/jpeg');
      expect(res.headers['content-length']).to.be.a('string');
      expect(fs.existsSync(path.join(fx.cacheDir, 'site-assets', 'thumbnails', 'small', 'hero', 'big sky.jpg.jpg'))).to.equal(true);
      await request(fx.app).get('/previews/site/secret/big%20sky.jpg').expect(404);
      await request(fx.app).get('/previews/site/hero/..%2F..%2Fhome.json').expect(400);
    });
  });
});
