import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import { type AdminFixture, createAdminFixture, listDir, makeJpeg } from './support/admin-fixture.js';
import { quietLogger } from '../support/capture-logger.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('admin /api/albums', () => {
  let fx: AdminFixture;
  beforeEach(async () => {
    fx = await createAdminFixture();
    const dir = await fx.album('2024/travel/lisbon', { title: 'Lisbon', password: 'sesame', token: 'lisbon-token-0123456789', style: 'masonry' });
    fs.writeFileSync(path.join(dir, 'IMG_2.jpg'), await makeJpeg());
    fs.writeFileSync(path.join(dir, 'IMG_10.jpg'), await makeJpeg());
    fs.writeFileSync(path.join(dir, 'clip.mp4'), 'not probed by listings');
    fs.writeFileSync(path.join(dir, 'notes.txt'), 'not media');
    await fx.album('2024/travel/lisbon/day-1', { title: 'Day 1', token: 'day-one-token-0123456789' });
    await fx.album('2023/family/xmas', { title: 'Christmas', hidden: true, allowAnonymous: true, token: 'xmas-token-0123456789' });
  });
  afterEach(() => fx.close());

  describe('GET /api/albums', () => {
    it('should list every album with its metadata (password included), path and media counts', async () => {
      const res = await request(fx.app).get('/api/albums').expect(200).expect('Content-Type', /json/);
      const byPath = Object.fromEntries((res.body as Array<{ path: string }>).map((a) => [a.path, a]));
      expect(Object.keys(byPath)).to.have.members(['2024/travel/lisbon', '2024/travel/lisbon/day-1', '2023/family/xmas']);
      expect(byPath['2024/travel/lisbon']).to.deep.include({
        title: 'Lisbon',
        password: 'sesame',
        style: 'masonry',
        token: 'lisbon-token-0123456789',
        photoCount: 2,
        videoCount: 1,
        hidden: false,
        protected: true,
        parent: null,
      });
      expect(byPath['2024/travel/lisbon/day-1']).to.deep.include({ password: null, protected: true, parent: '2024/travel/lisbon' });
      expect(byPath['2023/family/xmas']).to.deep.include({ hidden: true, allowAnonymous: true, protected: false });
    });

    it('should count a Live Photo as one photo, as the gallery does, while the detail still lists both files', async () => {
      const dir = await fx.album('2024/phone', { title: 'Phone' });
      fs.writeFileSync(path.join(dir, 'IMG_1.JPG'), await makeJpeg());
      fs.writeFileSync(path.join(dir, 'IMG_1.MOV'), 'not probed by listings');
      fs.writeFileSync(path.join(dir, 'lone.mov'), 'not probed by listings');
      await fx.index.rescan();
      const list = await request(fx.app).get('/api/albums').expect(200);
      expect((list.body as Array<{ path: string }>).find((a) => a.path === '2024/phone')).to.deep.include({ photoCount: 1, videoCount: 1 });
      const detail = await request(fx.app).get('/api/albums/2024/phone').expect(200);
      expect(detail.body).to.deep.include({ photoCount: 1, videoCount: 1 });
      expect((detail.body.media as Array<{ name: string }>).map((m) => m.name)).to.deep.equal(['IMG_1.JPG', 'IMG_1.MOV', 'lone.mov']);
    });
  });

  describe('POST /api/albums', () => {
    it('should create the album directory and album.json with a token, and answer 201 with the album', async () => {
      const res = await request(fx.app)
        .post('/api/albums')
        .send({ path: '2025/Été à Paris/jour 1', title: '  Paris  ', style: 'single', allowAnonymous: true })
        .expect(201);
      expect(res.headers.location).to.equal('/api/albums/2025/%C3%89t%C3%A9%20%C3%A0%20Paris/jour%201');
      expect(res.body).to.deep.include({ path: '2025/Été à Paris/jour 1', title: 'Paris', style: 'single', allowAnonymous: true, photoCount: 0, media: [] });
      expect(res.body.token).to.match(UUID);
      expect(res.body.sharePath).to.equal(`/photos/2025/%C3%89t%C3%A9%20%C3%A0%20Paris/jour%201?token=${res.body.token}`);
      expect(fx.readAlbumJson('2025/Été à Paris/jour 1')).to.deep.equal({ title: 'Paris', allowAnonymous: true, style: 'single', token: res.body.token });
      const list = await request(fx.app).get('/api/albums').expect(200);
      expect((list.body as Array<{ path: string }>).map((a) => a.path)).to.include('2025/Été à Paris/jour 1');
    });

    it('should create a child album inside an existing one', async () => {
      await request(fx.app).post('/api/albums').send({ path: '2024/travel/lisbon/day-2', title: 'Day 2' }).expect(201);
      const res = await request(fx.app).get('/api/albums/2024/travel/lisbon/day-2').expect(200);
      expect(res.body).to.deep.include({ parent: '2024/travel/lisbon', protected: true });
    });

    for (const albumPath of ['holidays', '2024/lisbon', '2024/travel']) {
      it(`should create an album at ${JSON.stringify(albumPath)}: an album may sit at any depth`, async () => {
        const res = await request(fx.app).post('/api/albums').send({ path: albumPath, title: 'Anywhere' }).expect(201);
        expect(res.body).to.deep.include({ path: albumPath, title: 'Anywhere', media: [] });
        expect(fx.readAlbumJson(albumPath)).to.deep.include({ title: 'Anywhere' });
      });
    }

    it('should create a child album inside a top-level album, and a parent above existing albums', async () => {
      await request(fx.app).post('/api/albums').send({ path: 'holidays', title: 'Holidays', password: 'pw' }).expect(201);
      const child = await request(fx.app).post('/api/albums').send({ path: 'holidays/kids', title: 'Kids' }).expect(201);
      expect(child.body).to.deep.include({ parent: 'holidays', protected: true });
      // A folder above albums becomes an album itself; the albums below it become its children.
      await request(fx.app).post('/api/albums').send({ path: '2024', title: 'Year 2024' }).expect(201);
      const lisbon = await request(fx.app).get('/api/albums/2024/travel/lisbon/day-1').expect(200);
      expect(lisbon.body.parent).to.equal('2024/travel/lisbon');
      const list = await request(fx.app).get('/api/albums').expect(200);
      const byPath = Object.fromEntries((list.body as Array<{ path: string; parent: string | null }>).map((a) => [a.path, a.parent]));
      expect(byPath).to.deep.include({ holidays: null, 'holidays/kids': 'holidays', '2024': null, '2024/travel/lisbon': '2024' });
    });

    it('should answer 409 when a file of the tree is in the way, and create nothing', async () => {
      for (const albumPath of ['2024/travel/lisbon/IMG_2.jpg', '2024/travel/lisbon/notes.txt/inner']) {
        const before = listDir(fx.albumsDir);
        const res = await request(fx.app).post('/api/albums').send({ path: albumPath, title: 'X' }).expect(409);
        expect(res.body.error).to.match(/^A file is in the way of the album: 2024\/travel\/lisbon\/(IMG_2\.jpg|notes\.txt)$/);
        expect(listDir(fx.albumsDir)).to.deep.equal(before);
      }
    });

    it('should edit, fill, list and delete a top-level album like any other', async () => {
      await request(fx.app).post('/api/albums').send({ path: 'holidays', title: 'Holidays' }).expect(201);
      const put = await request(fx.app).put('/api/albums/holidays').send({ style: 'single', title: 'Summer' }).expect(200);
      expect(put.body).to.deep.include({ path: 'holidays', title: 'Summer', style: 'single' });
      await request(fx.app)
        .post('/api/photos/holidays')
        .attach('files', await makeJpeg(), 'beach.jpg')
        .expect(201);
      const photos = await request(fx.app).get('/api/photos/holidays').expect(200);
      expect((photos.body as Array<{ name: string }>).map((p) => p.name)).to.deep.equal(['beach.jpg']);
      expect((await request(fx.app).get('/api/albums/holidays').expect(200)).body).to.deep.include({ photoCount: 1, parent: null });
      const del = await request(fx.app).delete('/api/albums/holidays').expect(200);
      expect(del.body.trashedTo).to.match(/^\.trash\/[^/]+\/holidays$/);
      expect(fs.existsSync(path.join(fx.albumsDir, 'holidays'))).to.equal(false);
      expect(fs.existsSync(path.join(fx.albumsDir, ...del.body.trashedTo.split('/'), 'beach.jpg'))).to.equal(true);
    });

    it('should answer 409 when the album exists, and leave it alone', async () => {
      const before = fx.readAlbumJson('2024/travel/lisbon');
      const res = await request(fx.app).post('/api/albums').send({ path: '2024/travel/lisbon', title: 'Other' }).expect(409);
      expect(res.body.error).to.equal('Album already exists: 2024/travel/lisbon');
      expect(fx.readAlbumJson('2024/travel/lisbon')).to.deep.equal(before);
    });

    const badPaths: Array<[unknown, RegExp]> = [
      ['../x/y/z', /"\.\." segment/],
      ['2024/../../etc', /"\.\." segment/],
      ['/abs/olute/path', /must be relative/],
      ['a\\b/c/d', /backslash/],
      ['2024/a\u0000b/c', /control character/],
      [`2024/cat/${'東'.repeat(90)}`, /longer than/],
      [Array.from({ length: 40 }, () => 'deep').join('/'), /too deep/],
      ['2024//x/y', /empty segment/],
      ['2024/.hidden/x', /may hold only/],
      ['2024/trip/name.', /may hold only/],
      ['2024/trip/ lead', /may hold only/],
      ['2024/trip/a<b>', /may hold only/],
      ['2024/trip/a:b', /may hold only/],
      [undefined, /Missing required parameter: path/],
      [42, /must be a single string/],
    ];
    for (const [bad, message] of badPaths) {
      it(`should answer 400 for the path ${JSON.stringify(bad)} and create nothing`, async () => {
        const before = listDir(fx.albumsDir);
        const res = await request(fx.app).post('/api/albums').send({ path: bad, title: 'X' }).expect(400).expect('Content-Type', /json/);
        expect(res.body.error).to.match(message);
        expect(listDir(fx.albumsDir)).to.deep.equal(before);
      });
    }

    const badFields: Array<[Record<string, unknown>, string]> = [
      [{}, 'Invalid album metadata: title is required'],
      [{ title: '' }, 'Invalid album metadata: title must be a non-empty string'],
      [{ title: 'X', style: 'carousel' }, 'Invalid album metadata: style must be one of grid, masonry, single'],
      [{ title: 'X', hidden: 'yes' }, 'Invalid album metadata: hidden must be a boolean'],
      [{ title: 'X', order: '3' }, 'Invalid album metadata: order must be a finite number'],
      [{ title: 'X', passwrod: 'typo' }, 'Invalid album metadata: unknown field "passwrod"'],
      [{ title: 'X', token: 'short' }, 'Invalid album metadata: token must be 16 to 200 characters of letters, digits, ".", "_", "~" and "-"'],
      [{ title: 'X', thumbnail: '../secret.jpg' }, 'Invalid parameter: thumbnail contains a ".." segment'],
      [{ title: 'X', thumbnail: 'missing.jpg' }, 'Invalid album metadata: thumbnail "missing.jpg" is not a file of the album or of a child album'],
    ];
    for (const [fields, message] of badFields) {
      it(`should answer 400 "${message}" and create nothing`, async () => {
        const before = listDir(path.join(fx.albumsDir, '2025'));
        const res = await request(fx.app)
          .post('/api/albums')
          .send({ path: '2025/new/album', ...fields })
          .expect(400);
        expect(res.body.error).to.equal(message);
        expect(listDir(path.join(fx.albumsDir, '2025'))).to.deep.equal(before);
      });
    }

    it('should refuse a path that leads out of the albums directory through a symlink', async () => {
      const outside = path.join(fx.root, 'outside');
      fs.mkdirSync(outside);
      fs.symlinkSync(outside, path.join(fx.albumsDir, 'escape'));
      await request(fx.app).post('/api/albums').send({ path: 'escape/cat/name', title: 'X' }).expect(400);
      expect(listDir(outside)).to.deep.equal([]);
    });
  });

  describe('GET /api/albums/{path}', () => {
    it('should answer one album with its media list in natural order', async () => {
      const res = await request(fx.app).get('/api/albums/2024/travel/lisbon').expect(200);
      expect(res.body).to.deep.include({ path: '2024/travel/lisbon', title: 'Lisbon', password: 'sesame', protected: true, parent: null });
      expect((res.body.media as Array<{ name: string }>).map((m) => m.name)).to.deep.equal(['clip.mp4', 'IMG_2.jpg', 'IMG_10.jpg']);
      expect(res.body.media[1]).to.include({ kind: 'image', url: '/media/2024/travel/lisbon/IMG_2.jpg' });
      expect(res.body.media[1].size).to.be.greaterThan(100);
    });

    it('should answer 409 for an album.json edited by hand into an invalid one, which a PUT can repair', async () => {
      const file = path.join(fx.albumsDir, '2024/travel/lisbon/album.json');
      fs.writeFileSync(file, JSON.stringify({ ...fx.readAlbumJson('2024/travel/lisbon'), style: 'carousel' }));
      const res = await request(fx.app).get('/api/albums/2024/travel/lisbon').expect(409);
      expect(res.body.error).to.match(/^The album\.json of 2024\/travel\/lisbon is invalid .*style must be one of grid, masonry, single/);
      await request(fx.app).put('/api/albums/2024/travel/lisbon').send({ style: 'grid' }).expect(200);
      await request(fx.app).get('/api/albums/2024/travel/lisbon').expect(200);
    });

    it('should answer 404 for a folder that is not an album, and for nothing', async () => {
      expect((await request(fx.app).get('/api/albums/2024/travel').expect(404)).body).to.deep.equal({ error: 'Album not found: 2024/travel' });
      await request(fx.app).get('/api/albums/2024/nothing/here').expect(404);
    });

    for (const [url, message] of [
      ['/api/albums/../x', /"\.\." segment/],
      ['/api/albums/%2E%2E/x', /"\.\." segment/],
      ['/api/albums//abs', /must be relative/],
      ['/api/albums/a%5Cb', /backslash/],
      ['/api/albums/a%00b', /control character/],
      ['/api/albums/.trash/x', /hidden/],
    ] as const) {
      it(`should answer 400 for ${url}`, async () => {
        const res = await request(fx.app).get(url).expect(400).expect('Content-Type', /json/);
        expect(res.body.error).to.match(message);
      });
    }
  });

  describe('PUT /api/albums/{path}', () => {
    it('should merge a partial change into album.json and keep the other fields', async () => {
      const res = await request(fx.app).put('/api/albums/2024/travel/lisbon').send({ title: 'Lisboa', hidden: true, order: 3 }).expect(200);
      expect(res.body).to.deep.include({ title: 'Lisboa', hidden: true, order: 3, password: 'sesame', style: 'masonry' });
      expect(fx.readAlbumJson('2024/travel/lisbon')).to.deep.equal({
        title: 'Lisboa',
        password: 'sesame',
        order: 3,
        hidden: true,
        style: 'masonry',
        token: 'lisbon-token-0123456789',
      });
    });

    it('should remove an optional field given null, and the password given ""', async () => {
      await request(fx.app).put('/api/albums/2024/travel/lisbon').send({ password: '', style: null }).expect(200);
      expect(fx.readAlbumJson('2024/travel/lisbon')).to.deep.equal({ title: 'Lisbon', token: 'lisbon-token-0123456789' });
      const list = await request(fx.app).get('/api/albums').expect(200);
      const child = (list.body as Array<{ path: string; protected: boolean }>).find((a) => a.path === '2024/travel/lisbon/day-1');
      expect(child?.protected).to.equal(false);
    });

    it('should set the cover to a photo of the album', async () => {
      const res = await request(fx.app).put('/api/albums/2024/travel/lisbon').send({ thumbnail: 'IMG_10.jpg' }).expect(200);
      expect(res.body.thumbnail).to.equal('IMG_10.jpg');
      expect(fx.readAlbumJson('2024/travel/lisbon').thumbnail).to.equal('IMG_10.jpg');
    });

    it('should keep fields of album.json the admin does not know', async () => {
      const file = path.join(fx.albumsDir, '2024/travel/lisbon/album.json');
      fs.writeFileSync(file, JSON.stringify({ ...fx.readAlbumJson('2024/travel/lisbon'), description: 'by hand' }));
      await request(fx.app).put('/api/albums/2024/travel/lisbon').send({ order: 1 }).expect(200);
      expect(fx.readAlbumJson('2024/travel/lisbon')).to.include({ description: 'by hand', order: 1 });
    });

    const badPatches: Array<[Record<string, unknown>, string]> = [
      [{ style: 'carousel' }, 'Invalid album metadata: style must be one of grid, masonry, single'],
      [{ hidden: 1 }, 'Invalid album metadata: hidden must be a boolean'],
      [{ title: 7 }, 'Invalid album metadata: title must be a non-empty string'],
      [{ title: null }, 'Invalid album metadata: title cannot be removed'],
      [{ token: null }, 'Invalid album metadata: token cannot be removed'],
      [{ path: '2024/other/place' }, 'Invalid album metadata: unknown field "path"'],
      [{ colour: 'red', style: 'x' }, 'Invalid album metadata: unknown field "colour"; style must be one of grid, masonry, single'],
      [{}, 'Invalid album metadata: the body names no field to change'],
    ];
    for (const [patch, message] of badPatches) {
      it(`should answer 400 "${message}" and leave album.json unchanged`, async () => {
        const file = path.join(fx.albumsDir, '2024/travel/lisbon/album.json');
        const before = fs.readFileSync(file, 'utf8');
        const res = await request(fx.app).put('/api/albums/2024/travel/lisbon').send(patch).expect(400);
        expect(res.body).to.deep.equal({ error: message });
        expect(fs.readFileSync(file, 'utf8')).to.equal(before);
        expect(listDir(path.dirname(file)).filter((n) => n.startsWith('.'))).to.deep.equal([]);
      });
    }

    it('should answer 404 for an unknown album', async () => {
      await request(fx.app).put('/api/albums/2024/travel/porto').send({ title: 'Porto' }).expect(404);
      expect(fs.existsSync(path.join(fx.albumsDir, '2024/travel/porto'))).to.equal(false);
    });

    it('should answer 409 when album.json is not a JSON object, and leave it for a human', async () => {
      const file = path.join(fx.albumsDir, '2024/travel/lisbon/album.json');
      fs.writeFileSync(file, '{ broken');
      const res = await request(fx.app).put('/api/albums/2024/travel/lisbon').send({ title: 'X' }).expect(409);
      expect(res.body.error).to.match(/not a JSON object/);
      expect(fs.readFileSync(file, 'utf8')).to.equal('{ broken');
    });

    it('should never tear album.json under concurrent edits: it ends valid, holding one of the writes', async () => {
      const titles = Array.from({ length: 20 }, (_, i) => `Title ${i}`);
      const answers = await Promise.all(titles.map((title, i) => request(fx.app).put('/api/albums/2024/travel/lisbon').send({ title, order: i })));
      for (const a of answers) expect(a.status).to.equal(200);
      const record = fx.readAlbumJson('2024/travel/lisbon');
      const i = titles.indexOf(record.title as string);
      expect(i).to.be.at.least(0);
      expect(record.order).to.equal(i);
      expect(record).to.include({ password: 'sesame', token: 'lisbon-token-0123456789' });
      expect(listDir(path.join(fx.albumsDir, '2024/travel/lisbon')).filter((n) => n.endsWith('.tmp'))).to.deep.equal([]);
    });

    it('should apply concurrent edits of different fields one after another, losing none', async () => {
      await Promise.all([
        request(fx.app).put('/api/albums/2024/travel/lisbon').send({ hidden: true }),
        request(fx.app).put('/api/albums/2024/travel/lisbon').send({ order: 5 }),
        request(fx.app).put('/api/albums/2024/travel/lisbon').send({ isCollection: true }),
        request(fx.app).put('/api/albums/2024/travel/lisbon').send({ style: 'single' }),
      ]);
      expect(fx.readAlbumJson('2024/travel/lisbon')).to.include({ hidden: true, order: 5, isCollection: true, style: 'single' });
    });
  });

  describe('POST /api/albums/{path}?action=rotate-token', () => {
    it('should give the album a new random token and keep the rest', async () => {
      const res = await request(fx.app).post('/api/albums/2024/travel/lisbon?action=rotate-token').expect(200);
      expect(res.body.token).to.match(UUID);
      expect(res.body.sharePath).to.equal(`/photos/2024/travel/lisbon?token=${res.body.token}`);
      expect(fx.readAlbumJson('2024/travel/lisbon')).to.deep.include({ token: res.body.token, password: 'sesame' });
      const again = await request(fx.app).post('/api/albums/2024/travel/lisbon?action=rotate-token').expect(200);
      expect(again.body.token).not.to.equal(res.body.token);
    });

    it('should also accept a chosen token through PUT', async () => {
      await request(fx.app).put('/api/albums/2024/travel/lisbon').send({ token: 'a-chosen-token-of-20ch' }).expect(200);
      expect(fx.readAlbumJson('2024/travel/lisbon').token).to.equal('a-chosen-token-of-20ch');
    });

    it('should answer 400 without an action or with an unknown one', async () => {
      expect((await request(fx.app).post('/api/albums/2024/travel/lisbon').expect(400)).body.error).to.equal('Missing required parameter: action');
      expect((await request(fx.app).post('/api/albums/2024/travel/lisbon?action=explode').expect(400)).body.error).to.equal(
        'Invalid parameter: action must be one of rotate-token',
      );
    });
  });

  describe('keys named like Object.prototype members', () => {
    const hostile = ['constructor', 'toString', '__proto__', 'hasOwnProperty'];
    for (const key of hostile) {
      it(`should answer 400 unknown field "${key}" to PUT and POST, not 500`, async () => {
        const file = path.join(fx.albumsDir, '2024/travel/lisbon/album.json');
        const before = fs.readFileSync(file, 'utf8');
        const put = await request(fx.app).put('/api/albums/2024/travel/lisbon').type('json').send(`{"${key}":{"title":"x"}}`).expect(400);
        expect(put.body).to.deep.equal({ error: `Invalid album metadata: unknown field "${key}"` });
        expect(fs.readFileSync(file, 'utf8')).to.equal(before);
        const post = await request(fx.app).post('/api/albums').type('json').send(`{"path":"2025/new/album","title":"New","${key}":"x"}`).expect(400);
        expect(post.body).to.deep.equal({ error: `Invalid album metadata: unknown field "${key}"` });
        expect(fs.existsSync(path.join(fx.albumsDir, '2025'))).to.equal(false);
      });
    }

    it('should list, show, edit and rotate an album whose album.json has such keys, and keep them as they are', async () => {
      const file = path.join(fx.albumsDir, '2024/travel/lisbon/album.json');
      const extra = '"constructor":"c","toString":{"a":1},"__proto__":{"password":"not-this"}';
      fs.writeFileSync(file, `{"title":"Lisbon","password":"sesame","token":"lisbon-token-0123456789",${extra}}`);
      await fx.index.rescan();
      const list = await request(fx.app).get('/api/albums').expect(200);
      expect((list.body as Array<{ path: string }>).map((a) => a.path)).to.include.members(['2024/travel/lisbon', '2024/travel/lisbon/day-1']);
      expect((await request(fx.app).get('/api/albums/2024/travel/lisbon').expect(200)).body).to.include({ title: 'Lisbon', password: 'sesame' });
      await request(fx.app).put('/api/albums/2024/travel/lisbon').send({ title: 'Lisboa' }).expect(200);
      await request(fx.app).post('/api/albums/2024/travel/lisbon?action=rotate-token').expect(200);
      const text = fs.readFileSync(file, 'utf8');
      const record = JSON.parse(text) as Record<string, unknown>;
      expect(Object.keys(record)).to.include.members(['constructor', 'toString', '__proto__']);
      expect(Object.getPrototypeOf(record)).to.equal(Object.prototype);
      expect(record).to.deep.include({ title: 'Lisboa', password: 'sesame', constructor: 'c', toString: { a: 1 } });
      expect(text).to.include('"__proto__": {\n    "password": "not-this"\n  }');
    });
  });

  describe('tokens come from album.json', () => {
    it('should write a token into a hand-made album.json that has none and show that one', async () => {
      const file = path.join(fx.albumsDir, '2024/travel/lisbon/album.json');
      fs.writeFileSync(file, JSON.stringify({ title: 'Lisbon', password: 'changed' }));
      const res = await request(fx.app).get('/api/albums/2024/travel/lisbon').expect(200);
      expect(res.body.token).to.match(UUID).and.not.equal('lisbon-token-0123456789');
      expect(fx.readAlbumJson('2024/travel/lisbon')).to.deep.equal({ title: 'Lisbon', password: 'changed', token: res.body.token });
      expect(res.body.sharePath).to.equal(`/photos/2024/travel/lisbon?token=${res.body.token}`);
    });

    it('should show the token the public index uses, in the list and the album, after the token line is deleted', async () => {
      // A second index over the same tree stands for the public server's process.
      const { AlbumIndex } = await import('../../server/core/albums/album-index.js');
      await fx.album('2024/travel/porto', { title: 'Porto' });
      const publicIndex = await AlbumIndex.open({ albumsDir: fx.albumsDir, watch: false, log: quietLogger });
      try {
        fs.writeFileSync(path.join(fx.albumsDir, '2024/travel/porto/album.json'), JSON.stringify({ title: 'Porto', password: 'new' }));
        await fx.index.rescan();
        await publicIndex.rescan();
        const publicToken = publicIndex.album('2024/travel/porto')!.meta.token;
        expect(fx.readAlbumJson('2024/travel/porto').token).to.equal(publicToken);
        const list = await request(fx.app).get('/api/albums').expect(200);
        expect((list.body as Array<{ path: string; token: string }>).find((a) => a.path === '2024/travel/porto')!.token).to.equal(publicToken);
        expect((await request(fx.app).get('/api/albums/2024/travel/porto').expect(200)).body.token).to.equal(publicToken);
      } finally {
        publicIndex.close();
      }
    });

    it('should answer 409 for an album.json whose token is too long, and let rotate-token repair it', async () => {
      const file = path.join(fx.albumsDir, '2024/travel/lisbon/album.json');
      fs.writeFileSync(file, JSON.stringify({ title: 'Lisbon', token: 'y'.repeat(300) }));
      const res = await request(fx.app).get('/api/albums/2024/travel/lisbon').expect(409);
      expect(res.body.error).to.match(/token must be 1 to 256 characters/);
      const rotated = await request(fx.app).post('/api/albums/2024/travel/lisbon?action=rotate-token').expect(200);
      expect(fx.readAlbumJson('2024/travel/lisbon').token).to.equal(rotated.body.token).and.match(UUID);
    });
  });

  describe('DELETE /api/albums/{path}', () => {
    it('should move the album directory, children included, to .trash/<timestamp>/<path>', async () => {
      const res = await request(fx.app).delete('/api/albums/2024/travel/lisbon').expect(200);
      expect(res.body.path).to.equal('2024/travel/lisbon');
      expect(res.body.trashedTo).to.match(/^\.trash\/\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z\/2024\/travel\/lisbon$/);
      expect(fs.existsSync(path.join(fx.albumsDir, '2024/travel/lisbon'))).to.equal(false);
      const trashed = path.join(fx.albumsDir, ...res.body.trashedTo.split('/'));
      expect(listDir(trashed)).to.deep.equal(['IMG_10.jpg', 'IMG_2.jpg', 'album.json', 'clip.mp4', 'day-1', 'notes.txt']);
      expect(fs.existsSync(path.join(trashed, 'day-1/album.json'))).to.equal(true);
      const list = await request(fx.app).get('/api/albums').expect(200);
      expect((list.body as Array<{ path: string }>).map((a) => a.path)).to.deep.equal(['2023/family/xmas']);
      await request(fx.app).get('/api/albums/2024/travel/lisbon').expect(404);
    });

    it('should trash a re-created album of the same path again without overwriting the first', async () => {
      const first = await request(fx.app).delete('/api/albums/2024/travel/lisbon/day-1').expect(200);
      await request(fx.app).post('/api/albums').send({ path: '2024/travel/lisbon/day-1', title: 'Again' }).expect(201);
      const second = await request(fx.app).delete('/api/albums/2024/travel/lisbon/day-1').expect(200);
      expect(second.body.trashedTo).not.to.equal(first.body.trashedTo);
      for (const t of [first.body.trashedTo, second.body.trashedTo]) {
        expect(fs.existsSync(path.join(fx.albumsDir, ...t.split('/'), 'album.json'))).to.equal(true);
      }
    });

    it('should answer 404 for an unknown album and 400 for a bad path', async () => {
      await request(fx.app).delete('/api/albums/2024/travel/porto').expect(404);
      await request(fx.app).delete('/api/albums/../albums').expect(400);
    });
  });
});
