import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import { loadConfig } from '../../server/core/config.js';
import { createGallery, type Gallery } from '../../server/gallery.js';
import { quietLogger } from '../support/capture-logger.js';
import { type AdminFixture, createAdminFixture, treeHash } from './support/admin-fixture.js';

describe('admin PUT /api/album-order', () => {
  let fx: AdminFixture;
  beforeEach(async () => {
    fx = await createAdminFixture();
    await fx.album('2024/travel/lisbon', { title: 'Lisbon', order: 1, token: 'lisbon-token-0123456789' });
    await fx.album('2024/travel/porto', { title: 'Porto', token: 'porto-token-0123456789' });
    await fx.album('2024/travel/faro', { title: 'Faro', order: 7, token: 'faro-token-0123456789' });
    await fx.album('holidays', { title: 'Holidays', token: 'holidays-token-0123456789' });
    await fx.album('holidays/kids', { title: 'Kids', token: 'kids-token-0123456789' });
    await fx.album('holidays/beach', { title: 'Beach', token: 'beach-token-0123456789' });
  });
  afterEach(() => fx.close());

  it("should write each album's order, 1, 2, 3…, in the order given, and list them so", async () => {
    const res = await request(fx.app)
      .put('/api/album-order')
      .send({ parent: '2024/travel', albums: ['porto', 'faro', 'lisbon'] })
      .expect(200);
    expect(res.body).to.deep.equal({
      parent: '2024/travel',
      albums: [
        { path: '2024/travel/porto', order: 1 },
        { path: '2024/travel/faro', order: 2 },
        { path: '2024/travel/lisbon', order: 3 },
      ],
    });
    expect(fx.readAlbumJson('2024/travel/porto')).to.include({ order: 1, title: 'Porto' });
    expect(fx.readAlbumJson('2024/travel/faro')).to.include({ order: 2 });
    expect(fx.readAlbumJson('2024/travel/lisbon')).to.include({ order: 3 });
    const children = fx.index.node('2024/travel')!.children.map((c) => c.name);
    expect(children).to.deep.equal(['porto', 'faro', 'lisbon']);
  });

  it('should order the child albums of an album, and the albums at the top', async () => {
    await request(fx.app)
      .put('/api/album-order')
      .send({ parent: 'holidays', albums: ['kids', 'beach'] })
      .expect(200);
    expect(fx.readAlbumJson('holidays/kids')).to.include({ order: 1 });
    await request(fx.app)
      .put('/api/album-order')
      .send({ albums: ['holidays'] })
      .expect(200);
    expect(fx.readAlbumJson('holidays')).to.include({ order: 1 });
  });

  it('should leave an album.json alone when its order is already right', async () => {
    const file = path.join(fx.albumsDir, '2024', 'travel', 'lisbon', 'album.json');
    const before = fs.statSync(file);
    await request(fx.app)
      .put('/api/album-order')
      .send({ parent: '2024/travel', albums: ['lisbon', 'porto'] })
      .expect(200);
    expect(fs.statSync(file).ino).to.equal(before.ino);
    expect(fx.readAlbumJson('2024/travel/porto')).to.include({ order: 2 });
  });

  for (const [body, status, message] of [
    [{ parent: '2024/travel', albums: ['porto', 'nowhere'] }, 404, 'Album not found: 2024/travel/nowhere'],
    [{ parent: '2024/travel', albums: [] }, 400, 'Invalid album order: albums must be a list of 1 to 1000 folder names, in the new order'],
    [{ parent: '2024/travel', albums: 'porto' }, 400, 'Invalid album order: albums must be a list of 1 to 1000 folder names, in the new order'],
    [{ parent: '2024/travel', albums: ['porto', 'porto'] }, 400, 'Invalid album order: an album is named twice'],
    [{ parent: '2024/travel', albums: ['../holidays'] }, 400, 'Invalid album order: "../holidays" is not the folder name of a child album'],
    [{ parent: '2024/travel', albums: ['.trash'] }, 400, 'Invalid album order: ".trash" is not the folder name of a child album'],
    [{ parent: '2024/travel', albums: [3] }, 400, 'Invalid album order: 3 is not the folder name of a child album'],
    [{ parent: '../x', albums: ['porto'] }, 400, 'Invalid parameter: parent contains a ".." segment'],
    [{ parent: 5, albums: ['porto'] }, 400, 'Invalid album order: parent must be a path ("" for the top level)'],
    [{ parent: '2024/travel', albums: ['porto'], order: 1 }, 400, 'Invalid album order: unknown field "order"'],
  ] as const) {
    it(`should refuse ${JSON.stringify(body)} with ${status} and change nothing`, async () => {
      const before = treeHash(fx.root);
      const res = await request(fx.app).put('/api/album-order').send(body).expect(status);
      expect(res.body).to.deep.equal({ error: message });
      expect(treeHash(fx.root)).to.deep.equal(before);
    });
  }

  it('should change nothing when one album.json of the list is broken (409)', async () => {
    fs.writeFileSync(path.join(fx.albumsDir, '2024', 'travel', 'lisbon', 'album.json'), '{"title": 5}');
    const before = treeHash(fx.root);
    await request(fx.app)
      .put('/api/album-order')
      .send({ parent: '2024/travel', albums: ['porto', 'faro', 'lisbon'] })
      .expect(409);
    expect(treeHash(fx.root)).to.deep.equal(before);
  });
});

describe('admin PUT /api/album-order at the top of the tree (parent "")', function () {
  this.timeout(30_000);
  let fx: AdminFixture;
  let gallery: Gallery;

  /** The titles of the cards of /photos, top to bottom, as the public server renders them now. */
  async function publicCardTitles(): Promise<string[]> {
    await gallery.index.rescan();
    const html = (await request(gallery.handler).get('/photos').expect(200)).text;
    return [...html.matchAll(/<span class="card__title">([^<]*)<\/span>/g)].map((m) => m[1]!);
  }

  beforeEach(async () => {
    fx = await createAdminFixture();
    // Year folders (no album.json) and three albums directly at the top, one with a child album.
    await fx.album('2023/beach', { title: 'Beach', token: 'beach-token-0123456789' });
    await fx.album('2024/trip', { title: 'Trip', token: 'trip-token-0123456789' });
    await fx.album('holidays', { title: 'Holidays', order: 2, token: 'holidays-token-0123456789' });
    await fx.album('holidays/kids', { title: 'Kids', token: 'kids-token-0123456789' });
    await fx.album('garden', { title: 'Garden', token: 'garden-token-0123456789' });
    await fx.album('birthdays', { title: 'Birthdays', token: 'birthdays-token-0123456789' });
    // The public server over the same tree; it is made to rescan rather than left to watch.
    // No background preparation: the test checks that a refused change writes nothing, cache included.
    const config = loadConfig({ ALBUMS_DIR: 'albums', CONTENT_DIR: 'content', CACHE_DIR: 'cache', PORT: '0', WORKERS: '1', PREPARE: 'off' }, fx.root);
    gallery = await createGallery(config, { watch: false, log: quietLogger });
  });
  afterEach(async () => {
    await gallery.close();
    fx.close();
  });

  it('should order the albums at the top, and /photos should list them so, after the years (newest first)', async () => {
    // Before: by order (Holidays has one), then by title.
    expect(await publicCardTitles()).to.deep.equal(['Trip', 'Beach', 'Holidays', 'Birthdays', 'Garden', 'Kids']);
    const res = await request(fx.app)
      .put('/api/album-order')
      .send({ parent: '', albums: ['garden', 'birthdays', 'holidays'] })
      .expect(200);
    expect(res.body).to.deep.equal({
      parent: '',
      albums: [
        { path: 'garden', order: 1 },
        { path: 'birthdays', order: 2 },
        { path: 'holidays', order: 3 },
      ],
    });
    expect(fx.readAlbumJson('garden')).to.deep.equal({ title: 'Garden', token: 'garden-token-0123456789', order: 1 });
    expect(fx.readAlbumJson('holidays')).to.include({ order: 3 });
    // The year folders keep their own order; a top album's child albums follow the top albums.
    expect(await publicCardTitles()).to.deep.equal(['Trip', 'Beach', 'Garden', 'Birthdays', 'Holidays', 'Kids']);
    expect(fx.index.root.children.map((c) => c.name)).to.deep.equal(['2024', '2023', 'garden', 'birthdays', 'holidays']);

    // And back again, the parent left out (it defaults to the top).
    await request(fx.app)
      .put('/api/album-order')
      .send({ albums: ['holidays', 'garden', 'birthdays'] })
      .expect(200);
    expect(await publicCardTitles()).to.deep.equal(['Trip', 'Beach', 'Holidays', 'Garden', 'Birthdays', 'Kids']);
  });

  it('should never interleave two orders sent at once: the albums end in one of them, whole', async () => {
    const names = ['garden', 'birthdays', 'holidays'];
    for (let i = 0; i < 8; i++) {
      const forth = [...names.slice(i % 3), ...names.slice(0, i % 3)];
      const back = [...forth].reverse();
      await Promise.all([forth, back].map((albums) => request(fx.app).put('/api/album-order').send({ parent: '', albums }).expect(200)));
      const byOrder = names.map((name) => ({ name, order: fx.readAlbumJson(name).order as number })).sort((a, b) => a.order - b.order);
      expect(byOrder.map((a) => a.order)).to.deep.equal([1, 2, 3]);
      expect([forth, back]).to.deep.include(byOrder.map((a) => a.name));
    }
  });

  for (const [body, status, message] of [
    [{ parent: '', albums: ['garden', 'nowhere'] }, 404, 'Album not found: nowhere'],
    [{ parent: '', albums: ['2024', 'garden'] }, 404, 'Album not found: 2024'],
    [{ parent: '', albums: ['garden', 'holidays/kids'] }, 400, 'Invalid album order: "holidays/kids" is not the folder name of a child album'],
    [{ parent: '', albums: ['..', 'garden'] }, 400, 'Invalid album order: ".." is not the folder name of a child album'],
    [{ parent: '', albums: ['.trash'] }, 400, 'Invalid album order: ".trash" is not the folder name of a child album'],
    [{ parent: '', albums: ['garden\u0000'] }, 400, 'Invalid album order: "garden\\u0000" is not the folder name of a child album'],
    [{ parent: '', albums: ['garden', 'birthdays', 'garden'] }, 400, 'Invalid album order: an album is named twice'],
    [{ parent: '', albums: [] }, 400, 'Invalid album order: albums must be a list of 1 to 1000 folder names, in the new order'],
    [{ parent: '', albums: { garden: 1 } }, 400, 'Invalid album order: albums must be a list of 1 to 1000 folder names, in the new order'],
    [{ parent: null, albums: ['garden'] }, 400, 'Invalid album order: parent must be a path ("" for the top level)'],
    [{ parent: '/', albums: ['garden'] }, 400, 'Invalid parameter: parent must be relative to the albums directory'],
    [{ parent: '.', albums: ['garden'] }, 400, 'Invalid parameter: parent has an empty segment'],
    [{ parent: '.trash', albums: ['garden'] }, 400, 'Invalid album order: parent must not name a hidden folder'],
  ] as const) {
    it(`should refuse ${JSON.stringify(body)} with ${status} and change nothing, on disk or on /photos`, async () => {
      const before = treeHash(fx.root);
      const res = await request(fx.app).put('/api/album-order').send(body).expect(status);
      expect(res.body).to.deep.equal({ error: message });
      expect(treeHash(fx.root)).to.deep.equal(before);
      expect(await publicCardTitles()).to.deep.equal(['Trip', 'Beach', 'Holidays', 'Birthdays', 'Garden', 'Kids']);
    });
  }
});

describe('admin album description and date', () => {
  let fx: AdminFixture;
  beforeEach(async () => {
    fx = await createAdminFixture();
    await fx.album('2024/lisbon', { title: 'Lisbon', token: 'lisbon-token-0123456789' });
  });
  afterEach(() => fx.close());

  it('should store them in album.json after the title, show them in the album, and remove them with "" or null', async () => {
    const res = await request(fx.app).put('/api/albums/2024/lisbon').send({ description: 'Trams and tiles.\nAnd the sea.', date: '2024-10-03' }).expect(200);
    expect(res.body).to.include({ description: 'Trams and tiles.\nAnd the sea.', date: '2024-10-03' });
    expect(Object.keys(fx.readAlbumJson('2024/lisbon'))).to.deep.equal(['title', 'description', 'date', 'token']);
    const list = await request(fx.app).get('/api/albums').expect(200);
    expect(list.body[0]).to.include({ description: 'Trams and tiles.\nAnd the sea.', date: '2024-10-03' });
    await request(fx.app).put('/api/albums/2024/lisbon').send({ description: '', date: null }).expect(200);
    expect(fx.readAlbumJson('2024/lisbon')).to.deep.equal({ title: 'Lisbon', token: 'lisbon-token-0123456789' });
  });

  it('should take an empty date, as the settings form sends an unset date input, as no date', async () => {
    await request(fx.app).put('/api/albums/2024/lisbon').send({ date: '2024-10-03' }).expect(200);
    await request(fx.app).put('/api/albums/2024/lisbon').send({ title: 'Lisbon', description: '', date: '' }).expect(200);
    expect(fx.readAlbumJson('2024/lisbon')).to.deep.equal({ title: 'Lisbon', token: 'lisbon-token-0123456789' });
  });

  for (const [body, message] of [
    [{ date: '2024-02-30' }, 'Invalid album metadata: date must be a date written YYYY-MM-DD, YYYY-MM or YYYY'],
    [{ date: '03/10/2024' }, 'Invalid album metadata: date must be a date written YYYY-MM-DD, YYYY-MM or YYYY'],
    [{ date: '2024-13' }, 'Invalid album metadata: date must be a date written YYYY-MM-DD, YYYY-MM or YYYY'],
    [{ description: 12 }, 'Invalid album metadata: description must be a string'],
    [{ description: 'x'.repeat(5001) }, 'Invalid album metadata: description must be at most 5000 characters'],
    [{ captions: { 'a.jpg': 'x'.repeat(1001) } }, 'Invalid album metadata: a caption must be at most 1000 characters'],
    [{ captions: { 'a/b.jpg': 'x' } }, 'Invalid album metadata: captions must be an object of file names to caption strings'],
  ] as const) {
    it(`should refuse ${JSON.stringify(body).slice(0, 50)} with 400 and change nothing`, async () => {
      const before = treeHash(fx.root);
      const res = await request(fx.app).put('/api/albums/2024/lisbon').send(body).expect(400);
      expect(res.body).to.deep.equal({ error: message });
      expect(treeHash(fx.root)).to.deep.equal(before);
    });
  }
});
