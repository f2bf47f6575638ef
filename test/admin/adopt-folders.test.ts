import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import { writeJpeg } from '../support/media-fixtures.js';
import { type AdminFixture, createAdminFixture } from './support/admin-fixture.js';

describe('admin: adopting folders', () => {
  let fx: AdminFixture;

  beforeEach(async () => {
    fx = await createAdminFixture();
    await writeJpeg(path.join(fx.albumsDir, '2019', '2019-07 Lisbon', 'IMG_1.jpg'), 16, 12);
    await writeJpeg(path.join(fx.albumsDir, '2019', '2019-07 Lisbon', 'IMG_2.jpg'), 16, 12);
    await writeJpeg(path.join(fx.albumsDir, 'Été', 'IMG_1.jpg'), 16, 12);
    await fx.album('family', { title: 'Family' });
  });
  afterEach(() => fx.close());

  it('should list the folders of photos that are not albums yet, with the title and date each would get', async () => {
    const res = await request(fx.app).get('/api/adoptable').expect(200);
    expect(res.body).to.deep.equal([
      { path: '2019/2019-07 Lisbon', title: 'Lisbon', date: '2019-07', media: 2 },
      { path: 'Été', title: 'Été', date: null, media: 1 },
    ]);
  });

  it('should make albums of the folders chosen, with a password, and list them as albums at once', async () => {
    const res = await request(fx.app)
      .post('/api/adopt')
      .send({ paths: ['2019/2019-07 Lisbon'], password: 'grandma' })
      .expect(200);
    expect(res.body).to.deep.equal({ adopted: ['2019/2019-07 Lisbon'], skipped: [] });
    expect(fx.readAlbumJson('2019/2019-07 Lisbon')).to.include({ title: 'Lisbon', date: '2019-07', password: 'grandma' });
    const albums = (await request(fx.app).get('/api/albums').expect(200)).body as { path: string; protected: boolean }[];
    expect(albums.find((a) => a.path === '2019/2019-07 Lisbon')).to.include({ protected: true });
    expect((await request(fx.app).get('/api/adoptable').expect(200)).body.map((f: { path: string }) => f.path)).to.deep.equal(['Été']);
  });

  it('should report a folder that is no longer adoptable and adopt the rest', async () => {
    fs.writeFileSync(path.join(fx.albumsDir, 'Été', 'album.json'), '{"title": "Summer, by hand"}');
    const res = await request(fx.app)
      .post('/api/adopt')
      .send({ paths: ['Été', '2019/2019-07 Lisbon', 'family', 'nowhere'], hidden: true })
      .expect(200);
    expect(res.body.adopted).to.deep.equal(['2019/2019-07 Lisbon']);
    expect(res.body.skipped.map((s: { path: string }) => s.path).sort()).to.deep.equal(['family', 'nowhere', 'Été']);
    expect(fx.readAlbumJson('Été')).to.include({ title: 'Summer, by hand' }).and.not.have.property('hidden');
    expect(fx.readAlbumJson('2019/2019-07 Lisbon')).to.include({ title: 'Lisbon', date: '2019-07', hidden: true });
  });

  for (const [body, message] of [
    [{}, 'Invalid adoption: paths must be a list of 1 to 100000 folder paths'],
    [{ paths: ['../x'] }, 'Invalid parameter: paths contains a ".." segment'],
    [{ paths: ['.trash/x'] }, 'Invalid adoption: ".trash/x" is a hidden folder'],
    [{ paths: ['Été'], password: '' }, 'Invalid adoption: password must be a non-empty string, or absent'],
    [{ paths: ['Été'], hidden: 'yes' }, 'Invalid adoption: hidden must be a boolean'],
    [{ paths: ['Été'], title: 'x' }, 'Invalid adoption: unknown field "title"'],
  ] as const) {
    it(`should refuse ${JSON.stringify(body)} with 400 and write nothing`, async () => {
      const res = await request(fx.app).post('/api/adopt').send(body).expect(400);
      expect(res.body).to.deep.equal({ error: message });
      expect(fs.existsSync(path.join(fx.albumsDir, 'Été', 'album.json'))).to.equal(false);
    });
  }
});
