import path from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import { GalleryFixture, writeJpeg } from '../support/gallery-fixture.js';
import { writeAlbum } from '../support/temp-dir.js';

/**
 * A page never waits for facts (issue 27): an album visited before it is prepared answers at
 * once, without the sizes it does not know yet, and the first render after its preparation
 * replaces that page.
 */
describe('an album page during and after its preparation', function () {
  this.timeout(60_000);
  const fx = new GalleryFixture();
  const ALBUM = '2024/new';
  after(() => fx.close());

  before(async () => {
    await fx.build({});
    const dir = writeAlbum(fx.albumsDir, ALBUM, { title: 'Just copied' });
    for (let i = 0; i < 12; i++) await writeJpeg(path.join(dir, `p${i}.jpg`), 2400, 1600, i * 25);
    await fx.start({ env: { PREPARE: 'on', WORKERS: '1' }, backgroundDelayMs: 0 });
  });

  const sizedTiles = (html: string) => (html.match(/<img [^>]*\bwidth="\d+"/g) ?? []).length;

  it('should answer at once with what is known, then be replaced by the page of the prepared album', async () => {
    const app = request(fx.gallery.handler);
    const started = performance.now();
    const early = await app.get(`/photos/${ALBUM}`).expect(200);
    const took = performance.now() - started;
    expect(took, 'no wait for the reads').to.be.below(1500);
    expect(early.text).to.include('data-name="p11.jpg"');
    expect(sizedTiles(early.text), 'sizes not known yet').to.be.below(12);
    expect(fx.gallery.preparer!.isPrepared(ALBUM)).to.equal(false);

    await fx.gallery.preparer!.idle();
    // A page made before the facts came is kept a moment only (it was not final).
    let late = early;
    const until = Date.now() + 10_000;
    while (late.headers.etag === early.headers.etag && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      late = await app.get(`/photos/${ALBUM}`).expect(200);
    }
    expect(late.headers.etag).to.not.equal(early.headers.etag);
    expect(sizedTiles(late.text)).to.equal(12);
    expect((late.text.match(/ data-th="/g) ?? []).length, 'a placeholder per tile').to.equal(12);
  });
});
