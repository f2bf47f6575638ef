import { expect } from 'chai';
import { GalleryFixture } from '../support/gallery-fixture.js';

describe('library in the gallery: built from the facts records and kept current', function () {
  this.timeout(30_000);
  let fx: GalleryFixture;
  let again: GalleryFixture | undefined;

  beforeEach(async () => {
    fx = await new GalleryFixture().build({ '2024/trip': { meta: { title: 'Trip' }, files: ['a.jpg', 'b.jpg'] } });
    await fx.start();
  });
  afterEach(async () => {
    await again?.gallery.close();
    again = undefined;
    await fx.close();
  });

  it('should hold an album’s files once their facts are saved, and none before', async () => {
    const album = fx.gallery.index.album('2024/trip');
    await fx.gallery.library.ready();
    expect(fx.gallery.library.newest([album!], { limit: 10 }).files).to.deep.equal([]);
    await fx.knownFacts('2024/trip');
    const files = fx.gallery.library.newest([album!], { limit: 10 }).files;
    expect(files.map((f) => f.item.name).sort()).to.deep.equal(['a.jpg', 'b.jpg']);
    expect(files[0]).to.include({ width: 64, height: 48 });
  });

  it('should read the records kept on disk at start', async () => {
    await fx.knownFacts('2024/trip');
    again = new GalleryFixture(fx.root);
    const gallery = await again.start();
    await gallery.library.ready();
    expect(gallery.library.size).to.equal(2);
  });
});
