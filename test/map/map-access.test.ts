import { expect } from 'chai';
import cookieParser from 'cookie-parser';
import express from 'express';
import request from 'supertest';
import { newShareLinkId } from '../../server/core/albums/share-links.js';
import { DEFAULT_SITE_SETTINGS, type MapPrecision, type SiteSettings } from '../../server/core/site-settings.js';
import { apiNotFound, errorHandler } from '../../server/http/error-handler.js';
import { createPasswordLimiter } from '../../server/public/access/password-limiter.js';
import { visitorMiddleware } from '../../server/public/access/visitor.js';
import { createMapRouter } from '../../server/public/routes/map-routes.js';
import { quietLogger } from '../support/capture-logger.js';
import { accessCookie, GalleryFixture } from '../support/gallery-fixture.js';
import { placesFrom } from './map-app.js';

/** Where each photo was taken, exactly (to the tenth of a metre: finer than any answer may be). */
const TAKEN_AT: Readonly<Record<string, { lat: number; lon: number }>> = {
  'trips/lisbon/tram.jpg': { lat: 38.713_148_7, lon: -9.139_134_2 },
  'trips/lisbon/castle.jpg': { lat: 38.714_219_3, lon: -9.140_521_8 },
  'trips/paris/tower.jpg': { lat: 48.858_372_1, lon: 2.294_481_3 },
  'trips/porto/bridge.jpg': { lat: 41.149_612_4, lon: -8.610_918_7 },
  'family/rome/forum.jpg': { lat: 41.890_212_8, lon: 12.492_231_9 },
  'family/home/garden.jpg': { lat: 52.520_008_1, lon: 13.404_954_3 },
  'family/home/kitchen/stove.jpg': { lat: 52.520_108_1, lon: 13.404_854_3 },
  'family/secret/lake.jpg': { lat: 59.329_323_5, lon: 18.068_580_8 },
};

const places = placesFrom(TAKEN_AT);

const link = (extra: Record<string, unknown> = {}) => ({ id: newShareLinkId(), name: 'Grandma', created: '2024-05-01T10:00:00Z', downloads: true, ...extra });
const grandmas = link();
const revoked = link({ revoked: '2024-06-01T00:00:00Z' });
const expired = link({ expires: '2020-01-01' });
const secretLink = link();
const linksCookie = (ids: string[]) => `album-links=${encodeURIComponent(JSON.stringify(ids))}`;

const LISBON = { lat: 38.71, lon: -9.14 };
const PARIS = { lat: 48.86, lon: 2.29 };
const PORTO = { lat: 41.15, lon: -8.61 };
const ROME = { lat: 41.89, lon: 12.49 };
const STOCKHOLM = { lat: 59.33, lon: 18.07 };

/** The decimals of a served number: what a visitor could read off it. */
const decimals = (n: number) => (String(n).split('.')[1] ?? '').length;

interface Mark {
  lat: number;
  lon: number;
  count: number;
  zoom?: number;
}

describe('GET /api/map and /api/map/photos: only what the visitor may open, rounded', function () {
  this.timeout(30_000);
  const fx = new GalleryFixture();
  let settings: SiteSettings = DEFAULT_SITE_SETTINGS;
  let app: express.Express;

  before(async () => {
    await fx.build({
      'trips/lisbon': { meta: { title: 'Lisbon' }, files: ['tram.jpg', 'castle.jpg'] },
      'trips/paris': { meta: { title: 'Paris', password: 'pw', token: 't-paris' }, files: ['tower.jpg'] },
      'trips/porto': { meta: { title: 'Porto', password: 'pp', allowAnonymous: true, token: 'share-porto' }, files: ['bridge.jpg'] },
      'family/rome': { meta: { title: 'Rome', password: 'rr', token: 't-rome', shareLinks: [grandmas, revoked, expired] }, files: ['forum.jpg'] },
      'family/home': { meta: { title: 'Home', hideLocation: true }, files: ['garden.jpg'] },
      'family/home/kitchen': { meta: { title: 'Kitchen' }, files: ['stove.jpg'] },
      'family/secret': { meta: { title: 'Secret', hidden: true, token: 't-secret', shareLinks: [secretLink] }, files: ['lake.jpg'] },
    });
    await fx.start();
    app = express();
    app.use(cookieParser());
    app.use(visitorMiddleware(createPasswordLimiter(), false));
    app.use(createMapRouter({ index: fx.gallery.index, places, settings: () => settings }));
    app.use('/api', apiNotFound);
    app.use(errorHandler({ log: quietLogger }));
  });
  after(() => fx.close());
  afterEach(() => {
    settings = DEFAULT_SITE_SETTINGS;
  });

  const precision = (mapPrecision: MapPrecision) => {
    settings = { ...DEFAULT_SITE_SETTINGS, mapPrecision };
  };

  /** Every mark at the map's closest zoom: each spot on its own. */
  async function spots(query = '', headers: Record<string, string> = {}) {
    const res = await request(app).get(`/api/map?zoom=18${query}`).set(headers).expect(200).expect('Content-Type', /json/);
    expect(res.headers['cache-control']).to.equal('private, no-store');
    const marks = res.body.marks as Mark[];
    return { total: res.body.total as number, marks, places: marks.map(({ lat, lon }) => ({ lat, lon })), raw: res.text };
  }

  for (const [state, query, headers, expected] of [
    ['an anonymous visitor', '', {}, [LISBON]],
    ['a password cookie', '', { Cookie: accessCookie(['t-paris']) }, [LISBON, PARIS]],
    ["an album's share token in the address", '&token=share-porto', {}, [LISBON, PORTO]],
    ['a per-person share link', '', { Cookie: linksCookie([grandmas.id]) }, [LISBON, ROME]],
    ['a revoked share link', '', { Cookie: linksCookie([revoked.id]) }, [LISBON]],
    ['an expired share link', '', { Cookie: linksCookie([expired.id]) }, [LISBON]],
    ['the token of a hidden album', '', { Cookie: accessCookie(['t-secret']) }, [LISBON, STOCKHOLM]],
    ['the link of a hidden album', '', { Cookie: linksCookie([secretLink.id]) }, [LISBON, STOCKHOLM]],
    ['a wrong token', '&token=guess', { Cookie: accessCookie(['nope']) }, [LISBON]],
  ] as const) {
    it(`should show ${state} exactly the places of the albums it opens, never of hideLocation albums`, async () => {
      const answer = await spots(query, headers);
      expect(answer.places).to.have.deep.members(expected);
      // Lisbon's two photos are one spot at ~1 km; every other album holds one photo.
      expect(answer.total).to.equal(expected.length + 1);
      expect(answer.marks.map((m) => m.count).reduce((a, b) => a + b, 0)).to.equal(answer.total);
      for (const mark of answer.marks) expect([decimals(mark.lat), decimals(mark.lon)]).to.satisfy(([a, b]: number[]) => a! <= 2 && b! <= 2);
      // Berlin (the hideLocation album and its child) is never there, whoever asks.
      expect(answer.raw).not.to.match(/52\.5|13\.4/);
    });
  }

  it('should count only what the visitor may open in a cluster of the whole world', async () => {
    const world = await request(app).get('/api/map?zoom=0').expect(200);
    expect((world.body.marks as Mark[]).map((m) => m.count).reduce((a, b) => a + b, 0)).to.equal(2);
    const unlocked = await request(app)
      .get('/api/map?zoom=0')
      .set('Cookie', `${accessCookie(['t-paris', 't-rome'])}; ${linksCookie([secretLink.id])}`)
      .expect(200);
    expect((unlocked.body.marks as Mark[]).map((m) => m.count).reduce((a, b) => a + b, 0)).to.equal(5);
  });

  describe('the photos of a spot', () => {
    it('should list the photos at a rounded spot, newest first, each opening its album at the photo', async () => {
      const res = await request(app).get('/api/map/photos?lat=38.71&lon=-9.14').expect(200);
      expect(res.headers['cache-control']).to.equal('private, no-store');
      expect(res.body).to.include({ lat: 38.71, lon: -9.14, total: 2 });
      expect(res.body.photos.map((p: { name: string }) => p.name)).to.have.members(['tram.jpg', 'castle.jpg']);
      expect(res.body.photos[0]).to.include({ album: 'trips/lisbon', albumTitle: 'Lisbon', kind: 'image' });
      expect(res.body.photos[0].url).to.match(/^\/photos\/trips\/lisbon#photo=(tram|castle)\.jpg$/);
      expect(res.body.photos[0].thumbnail).to.match(/^\/api\/thumbnail\?path=trips%2Flisbon%2F(tram|castle)\.jpg&size=small$/);
    });

    it('should answer a locked spot exactly as an empty one', async () => {
      const locked = await request(app).get(`/api/map/photos?lat=${PARIS.lat}&lon=${PARIS.lon}`).expect(200);
      const empty = await request(app).get('/api/map/photos?lat=48.87&lon=2.29').expect(200);
      expect(locked.body).to.deep.equal({ ...empty.body, lat: PARIS.lat });
      expect(locked.body.total).to.equal(0);
      expect(locked.text).not.to.match(/paris|tower/i);
      const opened = await request(app)
        .get(`/api/map/photos?lat=${PARIS.lat}&lon=${PARIS.lon}`)
        .set('Cookie', accessCookie(['t-paris']))
        .expect(200);
      expect(opened.body.photos.map((p: { name: string }) => p.name)).to.deep.equal(['tower.jpg']);
    });

    it('should never list a photo of an album that hides locations, even at its exact spot', async () => {
      precision('exact');
      const res = await request(app).get('/api/map/photos?lat=52.52001&lon=13.40495').expect(200);
      expect(res.body.total).to.equal(0);
    });

    it('should answer 400 JSON for a spot that is not one', async () => {
      for (const q of ['', '?lat=1', '?lat=x&lon=1', '?lat=95&lon=1', '?lat=1e3&lon=1']) {
        const res = await request(app).get(`/api/map/photos${q}`).expect(400).expect('Content-Type', /json/);
        expect(res.body.error).to.equal('Invalid parameter: lat and lon must be numbers in degrees');
      }
    });
  });

  describe("the owner's precision (site.json mapPrecision)", () => {
    it('should give exact positions to five decimals with "exact"', async () => {
      precision('exact');
      const answer = await spots();
      expect(answer.places).to.deep.include({ lat: 38.71315, lon: -9.13913 });
      expect(answer.places).to.deep.include({ lat: 38.71422, lon: -9.14052 });
    });

    it('should give whole degrees with "country"', async () => {
      precision('country');
      const res = await request(app)
        .get('/api/map?zoom=18')
        .set('Cookie', accessCookie(['t-paris']))
        .expect(200);
      expect(res.body).to.include({ precision: 'country', maxZoom: 7, total: 3 });
      expect((res.body.marks as Mark[]).map(({ lat, lon }) => ({ lat, lon }))).to.have.deep.members([
        { lat: 39, lon: -9 },
        { lat: 49, lon: 2 },
      ]);
    });

    it('should have no map at all with "hidden": 404 JSON on both', async () => {
      precision('hidden');
      for (const url of ['/api/map', '/api/map?zoom=3', '/api/map/photos?lat=38.71&lon=-9.14']) {
        const res = await request(app)
          .get(url)
          .set('Cookie', accessCookie(['t-paris']))
          .expect(404)
          .expect('Content-Type', /json/);
        expect(res.body).to.have.property('error');
      }
    });
  });

  describe('the query', () => {
    it('should answer only the marks inside bbox', async () => {
      const res = await request(app)
        .get('/api/map?zoom=10&bbox=-10,38,-9,39')
        .set('Cookie', accessCookie(['t-paris']))
        .expect(200);
      expect((res.body.marks as Mark[]).map(({ lat, lon }) => ({ lat, lon }))).to.deep.equal([LISBON]);
    });

    it('should take a bbox past ±180 (a world Leaflet repeats)', async () => {
      const res = await request(app).get('/api/map?zoom=1&bbox=-400,-85,400,85').expect(200);
      expect(res.body.total).to.equal(2);
    });

    it('should answer 400 JSON for a bbox or zoom that is not one', async () => {
      for (const q of ['bbox=1,2,3', 'bbox=a,b,c,d', 'bbox=10,0,-10,5', 'bbox=0,95,1,96', 'zoom=-1', 'zoom=1.5', 'zoom=abc']) {
        const res = await request(app).get(`/api/map?${q}`).expect(400).expect('Content-Type', /json/);
        expect(res.body.error).to.match(/^Invalid parameter: (bbox|zoom)/);
      }
    });
  });
});
