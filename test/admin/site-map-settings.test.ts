import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import { type AdminFixture, createAdminFixture, listDir } from './support/admin-fixture.js';

/**
 * The map's settings through the admin's `PUT /api/site` (the Site tab, README "The map"):
 * checked by server/core/site-settings.ts, saved to CONTENT_DIR/site.json, refused with JSON
 * naming each field so the page can show it next to that field.
 */
describe('admin /api/site: the map settings', () => {
  let fx: AdminFixture;
  const siteFile = () => path.join(fx.contentDir, 'site.json');
  const readSite = () => JSON.parse(fs.readFileSync(siteFile(), 'utf8')) as Record<string, unknown>;

  beforeEach(async () => {
    fx = await createAdminFixture();
  });
  afterEach(() => fx.close());

  it('should save the precision, the tile server (trimmed) and its credit, and answer them', async () => {
    const res = await request(fx.app)
      .put('/api/site')
      .send({ mapPrecision: 'exact', mapTiles: '  https://{s}.tile.example.org/{z}/{x}/{y}{r}.png ', mapAttribution: ' © Example maps ' })
      .expect(200);
    const saved = { mapPrecision: 'exact', mapTiles: 'https://{s}.tile.example.org/{z}/{x}/{y}{r}.png', mapAttribution: '© Example maps' };
    expect(res.body).to.include(saved);
    expect(readSite()).to.deep.equal(saved);
    expect((await request(fx.app).get('/api/site').expect(200)).body).to.include(saved);
  });

  for (const precision of ['exact', 'city', 'country', 'hidden']) {
    it(`should save mapPrecision "${precision}"`, async () => {
      await request(fx.app).put('/api/site').send({ mapPrecision: precision }).expect(200);
      expect(readSite()).to.deep.equal({ mapPrecision: precision });
    });
  }

  it('should go back to the bundled world map and no credit when both are sent as null', async () => {
    fs.writeFileSync(siteFile(), JSON.stringify({ name: 'Ours', mapTiles: 'https://tile.example.org/{z}/{x}/{y}.png', mapAttribution: '© Example' }));
    const res = await request(fx.app).put('/api/site').send({ mapTiles: null, mapAttribution: null }).expect(200);
    expect(res.body).to.include({ mapTiles: '', mapAttribution: '' });
    expect(readSite()).to.deep.equal({ name: 'Ours' });
  });

  const refused: [Record<string, unknown>, string][] = [
    [{ mapPrecision: 'street' }, 'mapPrecision must be one of exact, city, country, hidden'],
    [{ mapPrecision: 1 }, 'mapPrecision must be a string'],
    [{ mapTiles: 'http://tile.example.org/{z}/{x}/{y}.png' }, 'mapTiles must be an https URL template'],
    [{ mapTiles: 'https://tile.example.org/{z}/{x}.png' }, 'mapTiles must be an https URL template'],
    [{ mapTiles: 'https://tile.example.org/{z}/{x}/{y}.png?key={key}' }, 'mapTiles must be an https URL template'],
    [{ mapTiles: 'https://tile.example.org/{z}/{x}/{y}.png" onerror="x' }, 'mapTiles must be an https URL template'],
    [{ mapTiles: 'javascript:alert(1)//{z}/{x}/{y}' }, 'mapTiles must be an https URL template'],
    [{ mapAttribution: 'x'.repeat(201) }, 'mapAttribution must be at most 200 characters'],
    [{ mapAttribution: '© Example\nmaps' }, 'mapAttribution must not contain control characters'],
  ];
  for (const [body, message] of refused) {
    it(`should answer 400 JSON (${message}) for ${JSON.stringify(body).slice(0, 80)} and leave site.json untouched`, async () => {
      fs.writeFileSync(siteFile(), '{"mapPrecision": "city"}\n');
      const res = await request(fx.app).put('/api/site').send(body).expect(400).expect('Content-Type', /json/);
      expect(res.body).to.have.keys('error');
      expect(res.body.error)
        .to.match(/^Invalid site settings: /)
        .and.include(message);
      expect(fs.readFileSync(siteFile(), 'utf8')).to.equal('{"mapPrecision": "city"}\n');
      expect(listDir(fx.contentDir)).to.deep.equal(['site.json']);
    });
  }

  it('should name each refused field first, every one at once, so the page can put each by its field', async () => {
    const res = await request(fx.app)
      .put('/api/site')
      .send({ mapPrecision: 'country', mapTiles: 'http://x.example/{z}/{x}/{y}', mapAttribution: 'a\u0007b' })
      .expect(400);
    const problems = (res.body.error as string).replace(/^Invalid site settings: /, '').split('; ');
    expect(problems.map((problem) => problem.split(' ')[0])).to.deep.equal(['mapTiles', 'mapAttribution']);
    expect(listDir(fx.contentDir), 'not even the good field is written').to.deep.equal([]);
  });

  it('should refuse a change from another origin (403) and write nothing', async () => {
    await request(fx.app).put('/api/site').set('Origin', 'https://evil.example').send({ mapPrecision: 'exact' }).expect(403);
    await request(fx.app).put('/api/site').set('Host', 'evil.example').send({ mapPrecision: 'exact' }).expect(403);
    expect(listDir(fx.contentDir)).to.deep.equal([]);
  });
});
