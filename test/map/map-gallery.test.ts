import fs from 'node:fs';
import { expect } from 'chai';
import request from 'supertest';
import { gradient } from '../support/corpus-images.js';
import { GalleryFixture } from '../support/gallery-fixture.js';
import { CAMERA_GPS } from '../support/located-media.js';

/**
 * The map over the real gallery: positions read from real files into the facts, followed by the
 * library, rounded by the map (README "The map"). What no visitor may see of a place: an album
 * that hides locations, and a file shown in a public album through a symlink into one.
 */
describe('the map over the real gallery (facts → library → /api/map)', () => {
  let fx: GalleryFixture;

  before(async () => {
    fx = await new GalleryFixture().build({
      'trips/paris': { meta: { title: 'Paris' } },
      'trips/home': { meta: { title: 'Home', hideLocation: true } },
      'trips/best-of': { meta: { title: 'Best of' } },
      'trips/locked': { meta: { title: 'Locked', password: 'pw' } },
    });
    const located = await gradient('jpeg', CAMERA_GPS);
    fs.writeFileSync(fx.path('trips/paris/eiffel.jpg'), located);
    fs.writeFileSync(fx.path('trips/home/garden.jpg'), located);
    fs.writeFileSync(fx.path('trips/locked/secret.jpg'), located);
    // The owner's best-of album shows the garden photo through a link to its home album.
    fs.symlinkSync('../home/garden.jpg', fx.path('trips/best-of/garden.jpg'));
    // ...and the locked album's photo, which only those who unlocked it may see.
    fs.symlinkSync('../locked/secret.jpg', fx.path('trips/best-of/secret.jpg'));
    await fx.start();
    for (const album of ['trips/paris', 'trips/home', 'trips/best-of', 'trips/locked']) {
      await fx.knownFacts(album);
      await fx.gallery.facts.save(fx.gallery.index.album(album)!);
    }
    await fx.gallery.library.ready();
  });
  after(() => fx.close());

  const marks = async () =>
    (await request(fx.gallery.handler).get('/api/map').expect(200)).body as { total: number; marks: { lat: number; lon: number; count: number }[] };

  it('should show the public photo, rounded to about a kilometre, and nothing else', async () => {
    const answer = await marks();
    expect(answer.total).to.equal(1);
    const [mark] = answer.marks;
    // 48°51'30" N, 2°17'40" E, rounded to two decimals.
    expect(mark).to.include({ lat: 48.86, lon: 2.29, count: 1 });
  });

  it('should keep no place for a file shown through a symlink into an album that hides locations', async () => {
    const best = fx.gallery.index.album('trips/best-of')!;
    expect([...fx.gallery.library.positioned([best])]).to.have.length(0);
    expect(fx.gallery.library.search([best], 'paris', 1).total).to.equal(0);
  });

  it('should list a file shown through a symlink only under its own album, by its own access (search, timeline)', async () => {
    const best = fx.gallery.index.album('trips/best-of')!;
    expect(fx.gallery.library.newest([best], { limit: 10 }).files).to.have.length(0);
    expect(fx.gallery.library.search([best], 'secret', 1).total).to.equal(0);
    const found = (await request(fx.gallery.handler).get('/api/search?q=secret').expect(200)).body as { total: number };
    expect(found.total).to.equal(0);
  });
});
