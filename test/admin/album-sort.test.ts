import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import { AlbumRecordError, parseAlbumRecord } from '../../server/core/albums/album-record.js';
import { type AdminFixture, createAdminFixture } from './support/admin-fixture.js';

/** album.json's `sort` (docs/api.md#albumjson): "name" (the default) or "date". */
describe('album.json "sort"', () => {
  describe('parseAlbumRecord', () => {
    it('should default to name order', () => {
      expect(parseAlbumRecord('{"title":"T"}').sort).to.equal('name');
      expect(parseAlbumRecord('{"title":"T","sort":null}').sort).to.equal('name');
    });

    it('should accept "name" and "date"', () => {
      expect(parseAlbumRecord('{"title":"T","sort":"name"}').sort).to.equal('name');
      expect(parseAlbumRecord('{"title":"T","sort":"date"}').sort).to.equal('date');
    });

    for (const bad of ['"Date"', '"newest"', '""', '1', 'true', '["date"]']) {
      it(`should refuse ${bad}, naming the field and its values`, () => {
        expect(() => parseAlbumRecord(`{"title":"T","sort":${bad}}`))
          .to.throw(AlbumRecordError)
          .with.property('message', 'sort must be one of name, date');
      });
    }
  });

  describe('the admin API', () => {
    let fx: AdminFixture;
    const ALBUM = '2024/family';
    const url = `/api/albums/${ALBUM}`;
    beforeEach(async () => {
      fx = await createAdminFixture();
      await fx.album(ALBUM, { title: 'Family', style: 'masonry', token: 'family-token-0123456789' });
    });
    afterEach(() => fx.close());

    it('should show the default as "name"', async () => {
      const res = await request(fx.app).get(url).expect(200);
      expect(res.body.sort).to.equal('name');
    });

    it('should write "sort": "date" after the style, and remove it again with null', async () => {
      const put = await request(fx.app).put(url).send({ sort: 'date' }).expect(200);
      expect(put.body.sort).to.equal('date');
      const file = path.join(fx.albumsDir, ...ALBUM.split('/'), 'album.json');
      expect(Object.keys(JSON.parse(fs.readFileSync(file, 'utf8')))).to.deep.equal(['title', 'style', 'sort', 'token']);
      expect(fx.readAlbumJson(ALBUM)).to.include({ sort: 'date' });

      const cleared = await request(fx.app).put(url).send({ sort: null }).expect(200);
      expect(cleared.body.sort).to.equal('name');
      expect(fx.readAlbumJson(ALBUM)).to.not.have.property('sort');
    });

    it('should refuse another value with 400 and leave album.json as it was', async () => {
      const file = path.join(fx.albumsDir, ...ALBUM.split('/'), 'album.json');
      const before = fs.readFileSync(file, 'utf8');
      const res = await request(fx.app).put(url).send({ sort: 'newest' }).expect(400).expect('Content-Type', /json/);
      expect(res.body).to.deep.equal({ error: 'Invalid album metadata: sort must be one of name, date' });
      expect(fs.readFileSync(file, 'utf8')).to.equal(before);
    });

    it('should create an album sorted by date', async () => {
      const res = await request(fx.app).post('/api/albums').send({ path: '2024/new', title: 'New', sort: 'date' }).expect(201);
      expect(res.body.sort).to.equal('date');
      expect(fx.readAlbumJson('2024/new')).to.include({ sort: 'date' });
    });
  });
});
