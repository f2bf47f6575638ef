import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import type { Express } from 'express';
import request from 'supertest';
import { GalleryFixture } from '../support/gallery-fixture.js';
import { publicAppWithPlaces } from './map-app.js';

/** GET /map, its assets, and the header's link to it, as site.json's map fields say (README "The map"). */
describe('GET /map: the page', function () {
  this.timeout(30_000);
  const fx = new GalleryFixture();
  let app: Express;

  before(async () => {
    await fx.build({ 'trips/lisbon': { meta: { title: 'Lisbon' }, files: ['tram.jpg'] } });
    await fx.start();
    app = publicAppWithPlaces(fx, { 'trips/lisbon/tram.jpg': { lat: 38.7131, lon: -9.1391 } });
  });
  after(() => fx.close());
  afterEach(() => site({}));

  /** Writes site.json and has the gallery read it, as its watcher would. */
  async function site(settings: Record<string, unknown>): Promise<void> {
    fs.writeFileSync(path.join(fx.contentDir, 'site.json'), JSON.stringify(settings));
    await fx.gallery.home.load();
  }

  it('should render the page, in the visitor language, with everything it loads from the gallery itself', async () => {
    const res = await request(app).get('/map').set('Accept-Language', 'de').expect(200).expect('Content-Type', /html/);
    expect(res.headers['cache-control']).to.equal('no-cache');
    expect(res.headers.vary).to.match(/Accept-Language/);
    expect(res.headers['content-security-policy']).to.include("img-src 'self' data: blob:;").and.include("connect-src 'self'");
    expect(res.text).to.include('<title>Karte · Gallery</title>');
    expect(res.text).to.match(/data-leaflet="\/vendor\/leaflet\/leaflet-src\.esm\.js\?v=[0-9a-f]{10}"/);
    expect(res.text).to.match(/data-world="\/vendor\/world-atlas\/countries-50m\.json\?v=[0-9a-f]{10}"/);
    expect(res.text).to.match(/href="\/vendor\/leaflet\/leaflet\.css\?v=[0-9a-f]{10}"/);
    expect(res.text).to.include('data-tiles=""');
    expect(res.text).to.include('etwa einen Kilometer');
    // No address of another host anywhere in the page.
    expect(res.text).not.to.match(/(?:src|href)="(?:https?:)?\/\//);
  });

  it('should serve Leaflet, topojson-client and the countries, cached for a year', async () => {
    for (const url of [
      '/vendor/leaflet/leaflet-src.esm.js',
      '/vendor/leaflet/leaflet.css',
      '/vendor/topojson-client/feature.js',
      '/vendor/world-atlas/countries-50m.json',
    ]) {
      const res = await request(app).get(url).expect(200);
      expect(res.headers['cache-control'], url).to.equal('public, max-age=31536000, immutable');
    }
    const world = await request(app).get('/vendor/world-atlas/countries-50m.json').expect(200);
    expect(world.body.objects.countries.geometries.length).to.be.above(200);
  });

  it('should link to the map from every page header', async () => {
    for (const url of ['/home', '/photos', '/photos/trips/lisbon', '/map']) {
      const res = await request(app).get(url).expect(200);
      expect(res.text, url).to.match(/<nav[^>]*>[\s\S]*<a href="\/map">Map<\/a>/);
    }
  });

  it('should have no map, no link to it and no point with mapPrecision "hidden"', async () => {
    await site({ mapPrecision: 'hidden' });
    await request(app).get('/map').expect(404).expect('Content-Type', /html/);
    const api = await request(app).get('/api/map').expect(404).expect('Content-Type', /json/);
    expect(api.body).to.have.property('error');
    for (const url of ['/home', '/photos', '/photos/trips/lisbon']) {
      const res = await request(app).get(url).expect(200);
      expect(res.text, url).not.to.include('href="/map"');
    }
  });

  it("should let the page load the owner's tile server, say so in its policy, and credit it", async () => {
    await site({ mapTiles: 'https://{s}.tile.openstreetmap.org/{z}/{x}/{y}.png', mapAttribution: '© OpenStreetMap contributors' });
    const res = await request(app).get('/map').expect(200);
    expect(res.headers['content-security-policy']).to.include("img-src 'self' https://*.tile.openstreetmap.org data: blob:;");
    expect(res.text).to.include('data-tiles="https://{s}.tile.openstreetmap.org/{z}/{x}/{y}.png"');
    expect(res.text).to.include('data-attribution="© OpenStreetMap contributors"');
  });

  it('should say how exactly places are shown', async () => {
    await site({ mapPrecision: 'country' });
    expect((await request(app).get('/map').expect(200)).text).to.include('about 100 km');
    await site({ mapPrecision: 'exact' });
    expect((await request(app).get('/map').expect(200)).text).not.to.match(/about (a kilometre|100 km)/);
  });
});
