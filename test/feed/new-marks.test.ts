import fs from 'node:fs';
import { expect } from 'chai';
import request from 'supertest';
import { GalleryFixture } from '../support/gallery-fixture.js';

/**
 * What the pages tell the browser's "new" marks (views/assets/new-marks.js): each tile's and
 * each open card's arrival (docs/api.md#feeds), and nothing of a locked album.
 */
describe('new marks: arrivals on the pages', function () {
  const fx = new GalleryFixture();
  before(async () => {
    await (
      await fx.build({
        '2024/trip': { meta: { title: 'Trip' }, files: ['a.jpg', 'b.jpg'] },
        '2024/locked': { meta: { title: 'Locked', password: 'pw' }, files: ['s.jpg'] },
      })
    ).start();
  });
  after(() => fx.close());
  const arrival = (file: string) => Math.floor(fs.statSync(fx.path(file)).ctimeMs);

  it("should give each tile of an album its file's arrival", async () => {
    const html = (await request(fx.gallery.handler).get('/photos/2024/trip').expect(200)).text;
    const tiles = [...html.matchAll(/<a class="media__link" href="[^"]*" data-index="\d+" data-name="([^"]+)"[^>]* data-added="(\d+)">/g)];
    expect(tiles.map((m) => [m[1], Number(m[2])])).to.deep.equal([
      ['a.jpg', arrival('2024/trip/a.jpg')],
      ['b.jpg', arrival('2024/trip/b.jpg')],
    ]);
  });

  it("should give an open album's card its newest arrival, and a padlock none", async () => {
    const html = (await request(fx.gallery.handler).get('/photos').expect(200)).text;
    const cards = [...html.matchAll(/<li class="card( card--locked)?"><a href="[^"]*"( data-added="(\d+)")?>/g)];
    expect(cards.map((m) => [m[1] === undefined ? 'open' : 'locked', m[3] === undefined ? undefined : Number(m[3])])).to.deep.equal([
      ['locked', undefined],
      ['open', Math.max(arrival('2024/trip/a.jpg'), arrival('2024/trip/b.jpg'))],
    ]);
  });
});
