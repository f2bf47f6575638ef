import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import { createAdminApp } from '../../server/admin/app.js';
import { MAX_LINKS_PER_ALBUM } from '../../server/admin/routes/share-links.js';
import { FileLinkUsageStore } from '../../server/core/access/link-usage.js';
import { AlbumIndex } from '../../server/core/albums/album-index.js';
import { type Config, loadConfig } from '../../server/core/config.js';
import { createGallery, type Gallery } from '../../server/gallery.js';
import { quietLogger } from '../support/capture-logger.js';
import { eventually } from '../support/gallery-fixture.js';
import { makeTempDir, removeTempDir } from '../support/temp-dir.js';
import { type AdminFixture, createAdminFixture, makeJpeg } from './support/admin-fixture.js';

const ALBUM = '2024/family';
const URL = `/api/share-links/${ALBUM}`;

describe('admin /api/share-links', () => {
  let fx: AdminFixture;
  const albumFile = () => path.join(fx.albumsDir, ...ALBUM.split('/'), 'album.json');
  beforeEach(async () => {
    fx = await createAdminFixture();
    await fx.album(ALBUM, { title: 'Family', password: 'pw', token: 'family-token-0123456789' });
    await fx.album('2024/open', { title: 'Open to all', token: 'open-token-0123456789' });
  });
  afterEach(() => fx.close());

  describe('POST (create)', () => {
    it('should add a link with a strong id to album.json and answer 201 with it', async () => {
      const before = Date.now();
      const expires = new Date(Date.now() + 7 * 86_400_000).toISOString();
      const res = await request(fx.app).post(URL).send({ name: '  Grandma ', expires, downloads: false }).expect(201);
      expect(res.body.id).to.match(/^[A-Za-z0-9_-]{24}$/);
      expect(res.body).to.deep.include({ name: 'Grandma', expires, downloads: false, path: `/s/${res.body.id}`, expired: false, visits: 0, lastUsed: null });
      expect(Date.parse(res.body.created)).to.be.within(before, Date.now());
      const stored = fx.readAlbumJson(ALBUM);
      expect(stored.shareLinks).to.deep.equal([{ id: res.body.id, name: 'Grandma', created: res.body.created, expires, downloads: false }]);
      // The other fields are kept as they were.
      expect(stored).to.deep.include({ title: 'Family', password: 'pw', token: 'family-token-0123456789' });
      expect(fs.readdirSync(path.dirname(albumFile())).filter((n) => n.endsWith('.tmp'))).to.deep.equal([]);
    });

    it("should keep the language chosen for the person's pages in album.json, and none when left to their browser", async () => {
      const german = await request(fx.app).post(URL).send({ name: 'Oma', language: 'de' }).expect(201);
      expect(german.body.language).to.equal('de');
      const plain = await request(fx.app).post(URL).send({ name: 'Cousin', language: '' }).expect(201);
      expect(plain.body.language).to.equal(null);
      const stored = fx.readAlbumJson(ALBUM).shareLinks as Array<Record<string, unknown>>;
      expect(stored.find((l) => l.name === 'Oma')).to.include({ language: 'de' });
      expect(stored.find((l) => l.name === 'Cousin')).to.not.have.property('language');
      const listed = (await request(fx.app).get(URL).expect(200)).body.links as Array<{ name: string; language: string | null }>;
      expect(listed.map((l) => [l.name, l.language])).to.deep.equal([
        ['Oma', 'de'],
        ['Cousin', null],
      ]);
    });

    it('should default to a link that never expires and allows downloads; a day alone lasts the whole day', async () => {
      const plain = await request(fx.app).post(URL).send({ name: 'Uncle' }).expect(201);
      expect(plain.body).to.deep.include({ expires: null, downloads: true });
      const day = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
      const dated = await request(fx.app).post(URL).send({ name: 'Aunt', expires: day }).expect(201);
      expect(dated.body.expires).to.equal(`${nextDay(day)}T00:00:00.000Z`);
    });

    for (const [what, body] of [
      ['no name', {}],
      ['an empty name', { name: '   ' }],
      ['a name of 101 characters', { name: 'x'.repeat(101) }],
      ['a name with a control character', { name: 'Gran\u0007ma' }],
      ['a name that is not a string', { name: 42 }],
      ['an expiry that is no date', { name: 'A', expires: 'next week' }],
      ['an expiry without its zone', { name: 'A', expires: '2099-01-01T10:00:00' }],
      ['an expiry in the past', { name: 'A', expires: '2001-01-01T00:00:00Z' }],
      ['downloads that is not a boolean', { name: 'A', downloads: 'yes' }],
      ['a language the gallery does not have', { name: 'A', language: 'xx' }],
      ['a language that is not a string', { name: 'A', language: 7 }],
      ['an unknown field', { name: 'A', id: 'chosen-by-the-client-000000' }],
    ] as const) {
      it(`should answer 400 JSON for ${what}, album.json untouched`, async () => {
        const before = fs.readFileSync(albumFile(), 'utf8');
        const res = await request(fx.app).post(URL).send(body).expect(400).expect('Content-Type', /json/);
        expect(res.body.error).to.match(/^Invalid share link: /);
        expect(fs.readFileSync(albumFile(), 'utf8')).to.equal(before);
      });
    }

    it('should answer 400 for a body that is not a JSON object, 400 for a bad path, 404 for an unknown album', async () => {
      const before = fs.readFileSync(albumFile(), 'utf8');
      await request(fx.app).post(URL).set('Content-Type', 'application/json').send('[1]').expect(400);
      await request(fx.app).post(URL).set('Content-Type', 'application/json').send('{"name": ').expect(400);
      await request(fx.app).post(URL).type('form').send('name=A').expect(400);
      await request(fx.app).post('/api/share-links/2024/../2024/family').send({ name: 'A' }).expect(400);
      await request(fx.app).post('/api/share-links/2024/nope').send({ name: 'A' }).expect(404).expect('Content-Type', /json/);
      expect(fs.readFileSync(albumFile(), 'utf8')).to.equal(before);
    });

    it('should keep every link of concurrent creations (one read-modify-write at a time)', async () => {
      const names = Array.from({ length: 12 }, (_, i) => `Guest ${i}`);
      await Promise.all(names.map((name) => request(fx.app).post(URL).send({ name }).expect(201)));
      const stored = fx.readAlbumJson(ALBUM).shareLinks as Array<{ name: string; id: string }>;
      expect(stored.map((l) => l.name)).to.have.members(names);
      expect(new Set(stored.map((l) => l.id)).size).to.equal(names.length);
    });

    it(`should refuse a link past ${MAX_LINKS_PER_ALBUM} with 409`, async function () {
      this.timeout(30_000);
      for (let i = 0; i < MAX_LINKS_PER_ALBUM; i++)
        await request(fx.app)
          .post(URL)
          .send({ name: `G${i}` })
          .expect(201);
      const before = fs.readFileSync(albumFile(), 'utf8');
      await request(fx.app).post(URL).send({ name: 'One too many' }).expect(409);
      expect(fs.readFileSync(albumFile(), 'utf8')).to.equal(before);
    });

    it('should refuse shareLinks through the album update API: links are made here only', async () => {
      const before = fs.readFileSync(albumFile(), 'utf8');
      const res = await request(fx.app).put(`/api/albums/${ALBUM}`).send({ shareLinks: [] }).expect(400);
      expect(res.body.error).to.include('shareLinks are made and revoked through /api/share-links/{path}');
      expect(fs.readFileSync(albumFile(), 'utf8')).to.equal(before);
    });
  });

  describe('GET (list)', () => {
    it('should list the links with their address, expiry state and use, and whether the album is protected', async () => {
      const a = (await request(fx.app).post(URL).send({ name: 'Grandma' }).expect(201)).body;
      const b = (await request(fx.app).post(URL).send({ name: 'Neighbour', downloads: false }).expect(201)).body;
      // Written by the public server: one link used.
      const usage = new FileLinkUsageStore({ cacheDir: fx.cacheDir, log: quietLogger });
      usage.recordVisit(a.id, { at: Date.parse('2025-03-04T05:06:07Z'), newVisit: true });
      usage.recordVisit(a.id, { at: Date.parse('2025-03-05T05:06:07Z'), newVisit: true });
      await usage.flush();
      const res = await request(fx.app).get(URL).expect(200);
      expect(res.body.protected).to.equal(true);
      expect(res.body.links).to.deep.equal([
        { ...a, visits: 2, lastUsed: '2025-03-05T05:06:07.000Z' },
        { ...b, visits: 0, lastUsed: null },
      ]);
      const open = await request(fx.app).get('/api/share-links/2024/open').expect(200);
      expect(open.body).to.deep.equal({ path: '2024/open', links: [], protected: false });
    });

    it("should keep the links' use when the owner clears the caches", async () => {
      const usage = new FileLinkUsageStore({ cacheDir: fx.cacheDir, log: quietLogger });
      usage.recordVisit('abcdefghijklmnopqrstuvwx', { at: Date.now(), newVisit: true });
      await usage.flush();
      await request(fx.app).delete('/api/cache/stats').expect(200);
      await request(fx.app).delete(`/api/cache/album/${ALBUM}`).expect(200);
      expect((await usage.read()).get('abcdefghijklmnopqrstuvwx')?.visits).to.equal(1);
    });

    it('should mark a link past its expiry', async () => {
      const raw = fx.readAlbumJson(ALBUM);
      const id = 'abcdefghijklmnopqrstuvwx';
      fs.writeFileSync(
        albumFile(),
        JSON.stringify({ ...raw, shareLinks: [{ id, name: 'Old', created: '2020-01-01T00:00:00Z', expires: '2020-02-01', downloads: true }] }),
      );
      const res = await request(fx.app).get(URL).expect(200);
      expect(res.body.links[0]).to.deep.include({ id, expired: true, expires: '2020-02-02T00:00:00.000Z' });
    });
  });

  describe('rotating the token (POST /api/albums/{path}?action=rotate-token)', () => {
    const rotate = () => request(fx.app).post(`/api/albums/${ALBUM}?action=rotate-token`).expect(200);

    it('should revoke every link per person with the time, keep them listed as revoked, and say how many', async () => {
      const a = (await request(fx.app).post(URL).send({ name: 'Grandma' }).expect(201)).body;
      const b = (await request(fx.app).post(URL).send({ name: 'Neighbour', downloads: false }).expect(201)).body;
      expect(a.revoked).to.equal(null);
      const before = Date.now();
      const rotated = await rotate();
      expect(rotated.body.revokedLinks).to.equal(2);
      const listed = (await request(fx.app).get(URL).expect(200)).body.links as Array<{ id: string; revoked: string | null; expired: boolean }>;
      expect(listed.map((l) => l.id)).to.deep.equal([a.id, b.id]);
      for (const link of listed) {
        expect(Date.parse(link.revoked!)).to.be.within(before, Date.now());
        expect(link.expired).to.equal(false);
      }
      // In album.json as written, next to the new token; the links' other fields as they were.
      const stored = fx.readAlbumJson(ALBUM);
      expect(stored.token).to.equal(rotated.body.token);
      expect(stored.shareLinks).to.deep.equal([
        { id: a.id, name: 'Grandma', created: a.created, downloads: true, revoked: listed[0]!.revoked },
        { id: b.id, name: 'Neighbour', created: b.created, downloads: false, revoked: listed[1]!.revoked },
      ]);
    });

    it('should keep the time of an earlier rotation, count only links that worked, and let new links work', async () => {
      const a = (await request(fx.app).post(URL).send({ name: 'Grandma' }).expect(201)).body;
      const first = (await rotate()).body;
      const revokedAt = (fx.readAlbumJson(ALBUM).shareLinks as Array<{ revoked: string }>)[0]!.revoked;
      const b = (await request(fx.app).post(URL).send({ name: 'Cousin' }).expect(201)).body;
      expect(b.revoked).to.equal(null);
      const second = (await rotate()).body;
      expect(second.revokedLinks).to.equal(1);
      expect(second.token).to.not.equal(first.token);
      const stored = fx.readAlbumJson(ALBUM).shareLinks as Array<{ id: string; revoked: string }>;
      expect(stored.find((l) => l.id === a.id)!.revoked).to.equal(revokedAt);
      // A revoked link is removed from the list like any.
      const removed = await request(fx.app).delete(`${URL}?id=${a.id}`).expect(200);
      expect(removed.body.links.map((l: { id: string }) => l.id)).to.deep.equal([b.id]);
      // An album without links: nothing to say, no list written.
      const open = await request(fx.app).post('/api/albums/2024/open?action=rotate-token').expect(200);
      expect(open.body.revokedLinks).to.equal(0);
      expect(fx.readAlbumJson('2024/open')).to.not.have.property('shareLinks');
    });
  });

  describe('DELETE (revoke)', () => {
    it('should remove the link from album.json, keeping the others', async () => {
      const a = (await request(fx.app).post(URL).send({ name: 'Grandma' }).expect(201)).body;
      const b = (await request(fx.app).post(URL).send({ name: 'Neighbour' }).expect(201)).body;
      const res = await request(fx.app).delete(`${URL}?id=${a.id}`).expect(200);
      expect(res.body.revoked).to.equal(a.id);
      expect(res.body.links.map((l: { id: string }) => l.id)).to.deep.equal([b.id]);
      expect((fx.readAlbumJson(ALBUM).shareLinks as Array<{ id: string }>).map((l) => l.id)).to.deep.equal([b.id]);
      await request(fx.app).delete(`${URL}?id=${b.id}`).expect(200);
      // The last one gone: no empty list left behind.
      expect(fx.readAlbumJson(ALBUM)).to.not.have.property('shareLinks');
    });

    it('should answer 400 without an id and 404 for a link the album does not have, album.json untouched', async () => {
      await request(fx.app).post(URL).send({ name: 'Grandma' }).expect(201);
      const before = fs.readFileSync(albumFile(), 'utf8');
      await request(fx.app).delete(URL).expect(400).expect('Content-Type', /json/);
      const res = await request(fx.app).delete(`${URL}?id=abcdefghijklmnopqrstuvwx`).expect(404);
      expect(res.body.error).to.equal('Share link not found: abcdefghijklmnopqrstuvwx');
      await request(fx.app).delete('/api/share-links/2024/open?id=abcdefghijklmnopqrstuvwx').expect(404);
      expect(fs.readFileSync(albumFile(), 'utf8')).to.equal(before);
    });

    it('should refuse a revocation from another site (Origin)', async () => {
      const a = (await request(fx.app).post(URL).send({ name: 'Grandma' }).expect(201)).body;
      await request(fx.app).delete(`${URL}?id=${a.id}`).set('Origin', 'https://evil.example').expect(403);
      expect((fx.readAlbumJson(ALBUM).shareLinks as unknown[]).length).to.equal(1);
    });
  });
});

/** The day after `day` (YYYY-MM-DD), UTC. */
function nextDay(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
}

describe('share links made in the admin, on the public server', function () {
  this.timeout(60_000);
  let root: string;
  let config: Config;
  let gallery: Gallery;
  let adminIndex: AlbumIndex;

  beforeEach(async () => {
    root = makeTempDir('gallery-links-');
    for (const dir of ['albums', 'content', 'cache']) fs.mkdirSync(path.join(root, dir));
    config = loadConfig({ ALBUMS_DIR: 'albums', CONTENT_DIR: 'content', CACHE_DIR: 'cache', WORKERS: '1' }, root);
    gallery = await createGallery(config, { watch: true, log: quietLogger });
    adminIndex = await AlbumIndex.open({ albumsDir: config.albumsDir, watch: false, log: quietLogger });
  });
  afterEach(async () => {
    adminIndex.close();
    await gallery.close();
    removeTempDir(root);
  });

  it('should open the album once made, count its visits for the admin, and close it once revoked', async () => {
    const admin = createAdminApp(config, { index: adminIndex, log: quietLogger });
    await request(admin).post('/api/albums').send({ path: 'family', title: 'Family', password: 'pw' }).expect(201);
    await request(admin)
      .post('/api/photos/family')
      .attach('files', await makeJpeg(), 'a.jpg')
      .expect(201);
    const { id } = (await request(admin).post('/api/share-links/family').send({ name: 'Grandma' }).expect(201)).body as { id: string };
    const cookie = `album-links=${encodeURIComponent(JSON.stringify([id]))}`;
    const thumbnail = () => request(gallery.handler).get('/api/thumbnail?path=family%2Fa.jpg&size=small').set('Cookie', cookie);
    await eventually(async () => (await thumbnail()).status === 200, 8000, 'the public server to see the link');
    await request(gallery.handler).get(`/s/${id}`).expect(200);
    await gallery.linkUsage.flush();
    const listed = await request(admin).get('/api/share-links/family').expect(200);
    expect(listed.body.links[0]).to.deep.include({ id, visits: 1 });
    expect(listed.body.links[0].lastUsed).to.be.a('string');

    await request(admin).delete(`/api/share-links/family?id=${id}`).expect(200);
    await eventually(async () => (await thumbnail()).status === 401, 8000, 'the public server to see the revocation');
    await request(gallery.handler).get(`/s/${id}`).expect(404);
  });

  it("should close every link per person when the album's token is rotated, for a visitor already holding its cookie", async () => {
    const admin = createAdminApp(config, { index: adminIndex, log: quietLogger });
    await request(admin).post('/api/albums').send({ path: 'family', title: 'Family', password: 'pw' }).expect(201);
    await request(admin).post('/api/albums').send({ path: 'family/kids', title: 'Kids' }).expect(201);
    await request(admin)
      .post('/api/photos/family/kids')
      .attach('files', await makeJpeg(), 'k.jpg')
      .expect(201);
    const ids = await Promise.all(
      ['Grandma', 'Uncle'].map(async (name) => ((await request(admin).post('/api/share-links/family').send({ name }).expect(201)).body as { id: string }).id),
    );
    const cookie = `album-links=${encodeURIComponent(JSON.stringify(ids))}`;
    const thumbnail = () => request(gallery.handler).get('/api/thumbnail?path=family%2Fkids%2Fk.jpg&size=small').set('Cookie', cookie);
    await eventually(async () => (await thumbnail()).status === 200, 8000, 'the public server to see the links');
    const page = await request(gallery.handler).get(`/s/${ids[0]}`).expect(200);
    expect(page.text).to.include('<h1>Family</h1>');

    const rotated = await request(admin).post('/api/albums/family?action=rotate-token').expect(200);
    expect(rotated.body.revokedLinks).to.equal(2);
    await eventually(async () => (await thumbnail()).status === 401, 8000, 'the public server to see the rotation');
    for (const id of ids) {
      const gone = await request(gallery.handler).get(`/s/${id}`).expect(404);
      expect(gone.text).to.include('This link has expired or was revoked');
    }
    const held = await request(gallery.handler).get('/photos/family/kids').set('Cookie', cookie).expect(200);
    expect(held.text).to.include('id="password"').and.not.include('k.jpg');
    // The owner's list still shows them, revoked.
    const listed = await request(admin).get('/api/share-links/family').expect(200);
    expect(listed.body.links.map((l: { revoked: string | null }) => typeof l.revoked)).to.deep.equal(['string', 'string']);
  });
});
