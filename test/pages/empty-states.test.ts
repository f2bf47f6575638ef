import { expect } from 'chai';
import request from 'supertest';
import { GalleryFixture } from '../support/gallery-fixture.js';

/** Empty states speak to visitors, once, and offer a way on (issue 16). */
describe('empty states', () => {
  describe('a gallery without albums', () => {
    const fx = new GalleryFixture();
    after(() => fx.close());

    it('should tell visitors on /photos, without developer words, and lead to the welcome page', async () => {
      await fx.build({});
      await fx.start();
      const html = (await request(fx.gallery.handler).get('/photos').expect(200)).text;
      expect(html).to.include('No albums to show yet').and.include('<a class="button" href="/home">');
      for (const word of ['album.json', '<code>', 'directory', 'folder']) expect(html, word).to.not.include(word);
    });
  });

  describe('an empty album', () => {
    const fx = new GalleryFixture();
    let app: ReturnType<typeof request>;
    before(async () => {
      await fx.build({
        '2024/travel/nothing-yet': { meta: { title: 'Coming soon' } },
        alone: { meta: { title: 'Alone' } },
      });
      await fx.start();
      app = request(fx.gallery.handler);
    });
    after(() => fx.close());

    it('should say it once and link back to the folder it is in', async () => {
      const html = (await app.get('/photos/2024/travel/nothing-yet').expect(200)).text;
      expect(html.match(/No photos here yet/g)).to.have.length(1);
      expect(html.replaceAll('class="empty-state"', '')).to.not.match(/empty/i);
      expect(html).to.not.include('class="album-meta"');
      expect(html).to.include('<a class="button" href="/photos/2024/travel">Back to Travel</a>');
      expect(html).to.not.include('Download ZIP');
    });

    it('should lead from a top-level album back to all albums', async () => {
      expect((await app.get('/photos/alone').expect(200)).text).to.include('<a class="button" href="/photos">Back to all albums</a>');
    });

    it('should say so on its card too, in words for visitors', async () => {
      const html = (await app.get('/photos/2024/travel').expect(200)).text;
      expect(html).to.match(/>Coming soon<\/span>\s*<span class="card__meta">No photos yet</);
    });
  });
});
