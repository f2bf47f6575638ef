import fs from 'node:fs';
import { expect } from 'chai';
import type { Express } from 'express';
import request from 'supertest';
import { createAdminApp } from '../../server/admin/app.js';
import { OwnerPlaces } from '../../server/admin/owner-places.js';
import { AlbumIndex } from '../../server/core/albums/album-index.js';
import { quietLogger } from '../support/capture-logger.js';
import { gradient } from '../support/corpus-images.js';
import { GalleryFixture } from '../support/gallery-fixture.js';
import { CAMERA_GPS } from '../support/located-media.js';

interface Mark {
  lat: number;
  lon: number;
  count: number;
  zoom?: number;
}
interface MapAnswer {
  precision: string;
  maxZoom: number;
  total: number;
  marks: Mark[];
}

/** A garden in Lisbon: 38°43'21.6" N, 9°8'31.2" W (38.722666…, -9.142). */
const GARDEN_GPS = {
  IFD0: { Make: 'Apple', Model: 'iPhone 15' },
  IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '38/1 43/1 216/10', GPSLongitudeRef: 'W', GPSLongitude: '9/1 8/1 312/10' },
};

/**
 * The owner's map on the admin (docs/api.md#admin-server, `GET /api/map`): positions read from
 * real files by the public gallery into the facts records, read from those records by the
 * admin, exact, of every album (README "The map").
 */
describe('admin GET /api/map (the owner’s places, exact)', () => {
  let fx: GalleryFixture;
  let adminIndex: AlbumIndex;
  let admin: Express;

  before(async () => {
    fx = await new GalleryFixture().build({
      'trips/paris': { meta: { title: 'Paris' } },
      'family/home': { meta: { title: 'Home', password: 'pw' } },
      'family/garden': { meta: { title: 'Garden', hideLocation: true } },
      'trips/best-of': { meta: { title: 'Best of' } },
    });
    fs.writeFileSync(fx.path('trips/paris/eiffel.jpg'), await gradient('jpeg', CAMERA_GPS));
    fs.writeFileSync(fx.path('family/home/kitchen.jpg'), await gradient('jpeg', GARDEN_GPS));
    fs.writeFileSync(fx.path('family/garden/roses.jpg'), await gradient('jpeg', GARDEN_GPS));
    // A public album showing the locked one's photo through a symlink: counted once, under its own album.
    fs.symlinkSync('../../family/home/kitchen.jpg', fx.path('trips/best-of/kitchen.jpg'));
    // Visitors get the map rounded to about 100 km: the owner's stays exact.
    fs.writeFileSync(`${fx.contentDir}/site.json`, JSON.stringify({ mapPrecision: 'country' }));
    await fx.start();
    for (const album of ['trips/paris', 'family/home', 'family/garden', 'trips/best-of']) {
      await fx.knownFacts(album);
      await fx.gallery.facts.save(fx.gallery.index.album(album)!);
    }
    // The admin process: its own index over the same tree, no library, the same CACHE_DIR.
    adminIndex = await AlbumIndex.open({ albumsDir: fx.albumsDir, watch: false, log: quietLogger });
    admin = createAdminApp(fx.config, { index: adminIndex, log: quietLogger });
  });
  after(async () => {
    adminIndex.close();
    await fx.close();
  });

  const ownerMap = async (query = '') => (await request(admin).get(`/api/map${query}`).expect(200).expect('Cache-Control', 'no-store')).body as MapAnswer;

  it('should count every positioned photo of every album, a locked one and one that hides locations included, once each', async () => {
    const answer = await ownerMap();
    expect(answer).to.include({ precision: 'exact', maxZoom: 18, total: 3 });
    expect(answer.marks.reduce((sum, mark) => sum + mark.count, 0)).to.equal(3);
  });

  it('should give the locked album’s position exactly (five decimals), apart from the public one', async () => {
    const { marks } = await ownerMap('?zoom=18');
    const sorted = [...marks].sort((a, b) => a.lat - b.lat);
    // The kitchen (locked) and the roses (hiding locations) share the garden's spot.
    expect(sorted).to.deep.equal([
      { lat: 38.72267, lon: -9.142, count: 2 },
      { lat: 48.85833, lon: 2.29444, count: 1 },
    ]);
  });

  it('should answer only what lies in bbox', async () => {
    const { marks, total } = await ownerMap('?bbox=-10,38,-9,39&zoom=18');
    expect(total, 'the whole map’s count').to.equal(3);
    expect(marks).to.deep.equal([{ lat: 38.72267, lon: -9.142, count: 2 }]);
  });

  it('should list the photos at one exact spot, the locked album’s and the one hiding locations included', async () => {
    const res = await request(admin).get('/api/map/photos?lat=38.722666&lon=-9.142001').expect(200).expect('Cache-Control', 'no-store');
    expect(res.body).to.deep.equal({
      lat: 38.72267,
      lon: -9.142,
      total: 2,
      photos: [
        { album: 'family/garden', albumTitle: 'Garden', name: 'roses.jpg', kind: 'image', preview: '/previews/albums/family/garden/roses.jpg?size=small' },
        { album: 'family/home', albumTitle: 'Home', name: 'kitchen.jpg', kind: 'image', preview: '/previews/albums/family/home/kitchen.jpg?size=small' },
      ],
    });
    // A metre away is another spot.
    expect((await request(admin).get('/api/map/photos?lat=38.72268&lon=-9.142').expect(200)).body).to.include({ total: 0 });
    for (const query of ['', '?lat=38.7', '?lat=x&lon=1', '?lat=91&lon=0']) {
      const bad = await request(admin).get(`/api/map/photos${query}`).expect(400).expect('Content-Type', /json/);
      expect(bad.body).to.deep.equal({ error: 'Invalid parameter: lat and lon must be numbers in degrees' });
    }
  });

  it('should leave the visitors’ map as the owner set it: public photos only, rounded', async () => {
    const visitors = (await request(fx.gallery.handler).get('/api/map').expect(200)).body as MapAnswer;
    expect(visitors).to.include({ precision: 'country', total: 1 });
    expect(visitors.marks).to.deep.equal([{ lat: 49, lon: 2, count: 1 }]);
  });

  it('should answer 400 JSON for a bbox or zoom that is not one', async () => {
    for (const query of ['?bbox=1,2,3', '?bbox=a,b,c,d', '?zoom=-1', '?zoom=x']) {
      const res = await request(admin).get(`/api/map${query}`).expect(400).expect('Content-Type', /json/);
      expect(res.body.error).to.match(/^Invalid parameter: (bbox|zoom)/);
    }
  });

  it('should read a record again only when the public server saved it anew (owner-places.ts)', async () => {
    const places = new OwnerPlaces({ index: adminIndex, cacheDir: fx.cacheDir });
    expect(await places.update(), 'the first look reads every record').to.equal(true);
    expect([...places.positioned()].map((file) => `${file.album.path}/${file.item.name}`).sort()).to.deep.equal([
      'family/garden/roses.jpg',
      'family/home/kitchen.jpg',
      'trips/paris/eiffel.jpg',
    ]);
    expect(await places.update(), 'nothing changed').to.equal(false);
    // A new photo: the public server reads it and saves the album's record; the admin rescans its tree.
    fs.writeFileSync(fx.path('trips/paris/louvre.jpg'), await gradient('jpeg', CAMERA_GPS));
    await fx.gallery.index.rescan();
    await fx.knownFacts('trips/paris');
    await fx.gallery.facts.save(fx.gallery.index.album('trips/paris')!);
    await adminIndex.rescan();
    expect(await places.update()).to.equal(true);
    expect(
      [...places.positioned()]
        .filter((file) => file.album.path === 'trips/paris')
        .map((file) => file.item.name)
        .sort(),
    ).to.deep.equal(['eiffel.jpg', 'louvre.jpg']);
  });

  it('should answer only a loopback Host, as every admin route', async () => {
    for (const [host, url] of [
      ['evil.example', '/api/map'],
      ['photos.example.com', '/api/map?zoom=18'],
      ['192.168.1.20', '/api/map/photos?lat=38.72267&lon=-9.142'],
    ] as const) {
      const res = await request(admin).get(url).set('Host', host).expect(403).expect('Content-Type', /json/);
      expect(res.body).to.have.keys('error');
      expect(JSON.stringify(res.body)).not.to.match(/38\.7|48\.8/);
    }
    for (const host of ['localhost', '127.0.0.1', '[::1]']) await request(admin).get('/api/map').set('Host', host).expect(200);
  });
});
