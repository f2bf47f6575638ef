import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import { thumbHashToAverageRGBA } from 'thumbhash';
import { GalleryFixture } from '../support/gallery-fixture.js';
import { writeUnreadableJpeg } from '../support/media-fixtures.js';

const HEIC = path.join(import.meta.dirname, '..', 'fixtures', 'heic', 'IMG_5195.HEIC');

/** The tile's data-th on the album page, by file name; undefined when the tile has none. */
function tilePlaceholders(html: string): Map<string, string | undefined> {
  const tiles = new Map<string, string | undefined>();
  for (const [, li, name] of html.matchAll(/<li class="media__item[^"]*"([^>]*)>\s*<a class="media__link"[^>]* data-name="([^"]+)"/g)) {
    tiles.set(name!, /data-th="([^"]+)"/.exec(li!)?.[1]);
  }
  return tiles;
}

/**
 * ThumbHash placeholders (docs/api.md#placeholders) through the real gallery: made by the
 * dimensions pass, inlined in the page per tile and given to the lightbox's API.
 */
describe('tile placeholders', function () {
  this.timeout(30_000);
  const fx = new GalleryFixture();
  let app: ReturnType<typeof request>;

  before(async function () {
    await fx.build({ '2024/trip': { meta: { title: 'Trip' }, files: ['a.jpg', 'b.jpg'] } });
    await writeUnreadableJpeg(fx.path('2024/trip/broken.jpg'));
    fs.copyFileSync(HEIC, fx.path('2024/trip/phone.HEIC'));
    // Prepared as the gallery does once files arrive: a page never waits for the facts it shows.
    await fx.start({ env: { WORKERS: '2', PREPARE: 'on' }, backgroundDelayMs: 0 });
    await fx.gallery.preparer!.idle();
    app = request(fx.gallery.handler);
  });
  after(() => fx.close());

  it('should inline a ThumbHash per photo in the album page', async () => {
    const res = await app.get('/photos/2024/trip').expect(200);
    const tiles = tilePlaceholders(res.text);
    expect([...tiles.keys()].sort()).to.deep.equal(['a.jpg', 'b.jpg', 'broken.jpg', 'phone.HEIC']);
    for (const name of ['a.jpg', 'b.jpg']) expect(tiles.get(name), name).to.match(/^[A-Za-z0-9+/]{8,64}={0,2}$/);
    // The two fixtures differ in hue, and so do their placeholders.
    expect(tiles.get('a.jpg')).to.not.equal(tiles.get('b.jpg'));
  });

  it('should give a photo nothing can read no placeholder and still render its tile', async () => {
    const res = await app.get('/photos/2024/trip').expect(200);
    const tiles = tilePlaceholders(res.text);
    expect(tiles.has('broken.jpg')).to.equal(true);
    expect(tiles.get('broken.jpg')).to.equal(undefined);
  });

  it('should give a HEIC no placeholder (it is not decoded for the page)', async () => {
    const res = await app.get('/photos/2024/trip').expect(200);
    expect(tilePlaceholders(res.text).get('phone.HEIC')).to.equal(undefined);
  });

  it('should give the same ThumbHashes in /api/album-media, null where there is none', async () => {
    const page = tilePlaceholders((await app.get('/photos/2024/trip').expect(200)).text);
    const res = await app.get('/api/album-media?path=2024/trip').expect(200);
    const byName = new Map<string, unknown>(res.body.items.map((i: { name: string; thumbHash: unknown }) => [i.name, i.thumbHash]));
    expect(byName.get('a.jpg')).to.equal(page.get('a.jpg'));
    expect(byName.get('b.jpg')).to.equal(page.get('b.jpg'));
    expect(byName.get('broken.jpg')).to.equal(null);
    expect(byName.get('phone.HEIC')).to.equal(null);
    const { a } = thumbHashToAverageRGBA(Buffer.from(byName.get('a.jpg') as string, 'base64'));
    expect(a).to.be.closeTo(1, 0.01);
  });

  it('should answer the unreadable photo’s thumbnail with 500, the error the tile turns into "cannot show"', async () => {
    const page = (await app.get('/photos/2024/trip').expect(200)).text;
    const src = /data-name="broken\.jpg"[^>]*>\s*<picture>[\s\S]*?<img src="([^"]+)"/.exec(page)?.[1]?.replaceAll('&amp;', '&');
    expect(src).to.be.a('string');
    const res = await app.get(src!).expect(500).expect('Cache-Control', 'no-store');
    expect(res.body).to.have.property('error').that.is.a('string');
  });
});
