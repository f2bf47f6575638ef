import fs from 'node:fs';
import { expect } from 'chai';
import request from 'supertest';
import { readAlbumFacts } from '../../server/media/dimensions-file.js';
import { jpegExiftool } from '../support/corpus-images.js';
import { GalleryFixture } from '../support/gallery-fixture.js';
import { movIphoneKeys } from '../support/corpus-movies.js';

/**
 * The camera, the position and the places are the server's own (docs/api.md#what-is-known-of-a-file):
 * no existing page or API sends them, whatever the album's settings.
 */
describe('the camera, position and places of a file, once known', function () {
  this.timeout(60_000);
  let fx: GalleryFixture;

  before(async () => {
    fx = await new GalleryFixture().build({ '2025/lisbon': { meta: { title: 'A trip' } } });
    await jpegExiftool(fx.path('2025/lisbon/belem.jpg'));
    await movIphoneKeys(fx.path('2025/lisbon/clip.mov'));
    await fx.start();
    await fx.knownFacts('2025/lisbon');
  });
  after(() => fx.close());

  it('should be kept in the album facts record', async () => {
    const facts = await readAlbumFacts(fx.gallery.facts.fileOf('2025/lisbon'));
    expect(facts.get('belem.jpg')?.places).to.include('Portugal');
    expect(facts.get('clip.mov')).to.include({ camera: 'Apple iPhone 15' });
    expect(fs.existsSync(fx.gallery.facts.fileOf('2025/lisbon'))).to.equal(true);
  });

  for (const url of [
    '/photos/2025/lisbon',
    '/api/album-media?path=2025/lisbon&page=1',
    '/api/exif?path=2025/lisbon/belem.jpg',
    '/api/video-info?path=2025/lisbon/clip.mov',
  ]) {
    it(`should not be sent by ${url}`, async () => {
      const res = await request(fx.gallery.handler).get(url).expect(200);
      const body = res.text;
      for (const told of ['Lisbon', 'Lisboa', 'Portugal', 'Belem', 'Portogallo', '38.71', '-9.13', 'iPhone 15', '"position"', '"places"', '"camera"']) {
        expect(body, `${url} tells ${told}`).to.not.include(told);
      }
    });
  }
});
