import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import { type AdminFixture, createAdminFixture, listDir } from './support/admin-fixture.js';

describe('admin /api/site', () => {
  let fx: AdminFixture;
  const siteFile = () => path.join(fx.contentDir, 'site.json');
  const readSite = () => JSON.parse(fs.readFileSync(siteFile(), 'utf8')) as Record<string, unknown>;

  beforeEach(async () => {
    fx = await createAdminFixture();
  });
  afterEach(() => fx.close());

  describe('GET', () => {
    it('should answer the defaults and warn while there is no site.json', async () => {
      const res = await request(fx.app).get('/api/site').expect(200).expect('Cache-Control', 'no-store');
      expect(res.body).to.deep.include({ name: 'Gallery', subtitle: 'Photos and videos, kept private.', accent: '#e8b86b', publicUrl: null });
      expect(res.body.publicUrlWarning).to.match(/not set/);
      expect(listDir(fx.contentDir)).to.deep.equal([]);
    });
  });

  describe('PUT', () => {
    it('should store the settings, normalised, and answer them without a warning', async () => {
      const res = await request(fx.app)
        .put('/api/site')
        .send({ name: '  The Silvas ', subtitle: 'Our family, since 1998', accent: '#3A8', publicUrl: 'https://photos.example.com/' })
        .expect(200);
      expect(res.body).to.deep.equal({
        name: 'The Silvas',
        subtitle: 'Our family, since 1998',
        accent: '#33aa88',
        publicUrl: 'https://photos.example.com',
        language: 'en',
        mapPrecision: 'city',
        mapTiles: '',
        mapAttribution: '',
        publicUrlWarning: null,
      });
      expect(readSite()).to.deep.equal({ name: 'The Silvas', subtitle: 'Our family, since 1998', accent: '#33aa88', publicUrl: 'https://photos.example.com' });
      expect((await request(fx.app).get('/api/site').expect(200)).body).to.deep.equal(res.body);
      expect(listDir(fx.contentDir), 'no temp file left behind').to.deep.equal(['site.json']);
    });

    it('should change only the fields sent, keep unknown keys of the file, and remove a field sent as null', async () => {
      fs.writeFileSync(siteFile(), JSON.stringify({ name: 'Ours', accent: '#112233', note: 'by hand' }));
      await request(fx.app).put('/api/site').send({ subtitle: 'Hello' }).expect(200);
      expect(readSite()).to.deep.equal({ name: 'Ours', accent: '#112233', note: 'by hand', subtitle: 'Hello' });
      const res = await request(fx.app).put('/api/site').send({ accent: null, publicUrl: '' }).expect(200);
      expect(res.body.accent).to.equal('#e8b86b');
      expect(readSite()).to.deep.equal({ name: 'Ours', note: 'by hand', subtitle: 'Hello' });
    });

    for (const url of ['http://localhost:3000', 'http://127.0.0.1:3000', 'http://[::1]:3000', 'http://gallery.localhost']) {
      it(`should store ${url} but warn that it only works on this computer`, async () => {
        const res = await request(fx.app).put('/api/site').send({ publicUrl: url }).expect(200);
        expect(res.body.publicUrl).to.equal(url);
        expect(res.body.publicUrlWarning).to.match(/only works on this computer/);
      });
    }

    const refused: [Record<string, unknown> | string, string][] = [
      [{ publicUrl: 'photos.example.com' }, 'publicUrl must be an absolute http(s) address'],
      [{ publicUrl: 'javascript:alert(1)' }, 'publicUrl must be an absolute http(s) address'],
      [{ publicUrl: 'ftp://photos.example.com' }, 'publicUrl must be an absolute http(s) address'],
      [{ publicUrl: 'https://photos.example.com/gallery' }, 'publicUrl must be an absolute http(s) address'],
      [{ publicUrl: 'https://user:pw@photos.example.com' }, 'publicUrl must be an absolute http(s) address'],
      [{ publicUrl: 'https://photos.example.com/?x=1' }, 'publicUrl must be an absolute http(s) address'],
      [{ publicUrl: 'https://photos.exa\nmple.com' }, 'publicUrl must be an absolute http(s) address'],
      [{ publicUrl: 5 }, 'publicUrl must be a string'],
      [{ accent: 'red' }, 'accent must be a hex colour'],
      [{ accent: '#12345' }, 'accent must be a hex colour'],
      [{ accent: '#e8b86b; background: url(x)' }, 'accent must be a hex colour'],
      [{ name: '   ' }, 'name must be a non-empty string'],
      [{ name: 'x'.repeat(61) }, 'name must be at most 60 characters'],
      [{ name: 'a\u0007b' }, 'name must not contain control characters'],
      [{ subtitle: 'x'.repeat(201) }, 'subtitle must be at most 200 characters'],
      [{ colour: '#fff' }, 'unknown field "colour"'],
      [{}, 'the body names no field to change'],
      [{ name: 'Fine', accent: 'nope' }, 'accent must be a hex colour'],
    ];
    for (const [body, message] of refused) {
      it(`should answer 400 (${message}) for ${JSON.stringify(body)} and leave site.json untouched`, async () => {
        fs.writeFileSync(siteFile(), '{"name": "Before"}\n');
        const res = await request(fx.app).put('/api/site').send(body).expect(400);
        expect(res.body.error).to.be.a('string').and.include('Invalid site settings: ').and.include(message);
        expect(fs.readFileSync(siteFile(), 'utf8')).to.equal('{"name": "Before"}\n');
        expect(listDir(fx.contentDir)).to.deep.equal(['site.json']);
      });
    }

    it('should list every problem of a body at once', async () => {
      const res = await request(fx.app).put('/api/site').send({ name: '', accent: 'blue' }).expect(400);
      expect(res.body).to.deep.equal({ error: 'Invalid site settings: name must be a non-empty string; accent must be a hex colour such as "#e8b86b"' });
      expect(listDir(fx.contentDir)).to.deep.equal([]);
    });

    it('should answer 400 for a body that is not a JSON object, writing nothing', async () => {
      await request(fx.app).put('/api/site').set('Content-Type', 'application/json').send('["x"]').expect(400);
      await request(fx.app).put('/api/site').set('Content-Type', 'application/json').send('{bad').expect(400);
      await request(fx.app).put('/api/site').set('Content-Type', 'text/plain').send('name=x').expect(400);
      expect(listDir(fx.contentDir)).to.deep.equal([]);
    });

    it('should answer 500 JSON, and overwrite nothing, when site.json is not a JSON object', async () => {
      fs.writeFileSync(siteFile(), '[oops');
      const res = await request(fx.app).put('/api/site').send({ name: 'x' }).expect(500);
      expect(res.body.error).to.match(/site\.json in CONTENT_DIR is not a JSON object/);
      expect(fs.readFileSync(siteFile(), 'utf8')).to.equal('[oops');
    });

    it('should refuse a write from another origin (403) and change nothing', async () => {
      await request(fx.app).put('/api/site').set('Origin', 'https://evil.example').send({ name: 'Pwned' }).expect(403);
      expect(listDir(fx.contentDir)).to.deep.equal([]);
    });

    it('should lose no edit when several arrive at once', async () => {
      await Promise.all([
        request(fx.app).put('/api/site').send({ name: 'One' }).expect(200),
        request(fx.app).put('/api/site').send({ subtitle: 'Two' }).expect(200),
        request(fx.app).put('/api/site').send({ accent: '#333333' }).expect(200),
        request(fx.app).put('/api/site').send({ publicUrl: 'https://a.example' }).expect(200),
      ]);
      expect(readSite()).to.deep.equal({ name: 'One', subtitle: 'Two', accent: '#333333', publicUrl: 'https://a.example' });
    });
  });
});
