import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import { type AdminFixture, createAdminFixture, makeJpeg, makeMp4 } from './support/admin-fixture.js';

describe('admin page and previews', () => {
  let fx: AdminFixture;
  let albumDir: string;
  beforeEach(async () => {
    fx = await createAdminFixture();
    albumDir = await fx.album('2024/travel/lisbon', { title: 'Lisbon', password: 'sesame', token: 'lisbon-token-0123456789' });
    fs.writeFileSync(path.join(albumDir, 'IMG 1.jpg'), await makeJpeg());
    fs.writeFileSync(path.join(albumDir, 'clip.mp4'), await makeMp4());
    fs.writeFileSync(path.join(albumDir, '.secret.jpg'), await makeJpeg());
    fs.writeFileSync(path.join(albumDir, 'notes.txt'), 'text');
  });
  afterEach(() => fx.close());

  describe('GET /', () => {
    it('should render the UI shell, its script as a file (no inline script: its words are a JSON data block)', async () => {
      const res = await request(fx.app).get('/').expect(200).expect('Content-Type', /html/);
      expect(res.text).to.include('<script type="module" src="/assets/admin/main.js"></script>');
      expect(res.text).not.to.match(/<script(?![^>]*\b(?:src=|type="application\/json"))[^>]*>/);
      expect(res.text).not.to.match(/\son[a-z]+=/i);
      expect(res.text).to.include('data-public-base-url="http://localhost:3999"');
      expect(res.text).to.include('<html lang="en" dir="ltr">').and.include('<h1>Gallery admin</h1>');
      expect(res.headers.vary).to.match(/Accept-Language/);
    });

    it('should be in German for a German browser, English for any language it is not written in', async () => {
      const german = await request(fx.app).get('/').set('Accept-Language', 'de-AT, en;q=0.5').expect(200);
      expect(german.text).to.include('<html lang="de" dir="ltr">').and.include('<h1>Galerie-Verwaltung</h1>');
      const strings = JSON.parse(/<script type="application\/json" id="strings">([^<]*)<\/script>/.exec(german.text)![1]!) as {
        locale: string;
        strings: Record<string, string>;
      };
      expect(strings.locale).to.equal('de');
      expect(strings.strings['share.make']).to.equal('Link erstellen');
      for (const language of ['fr', 'ar', 'ja']) {
        const res = await request(fx.app).get('/').set('Accept-Language', language).expect(200);
        expect(res.text, language).to.include('<html lang="en" dir="ltr">');
      }
      // The scripts read their words with the public site's reader.
      await request(fx.app)
        .get('/assets/strings.js')
        .expect(200)
        .expect('Content-Type', /javascript/);
    });

    it('should serve the script modules and the stylesheet', async () => {
      const res = await request(fx.app)
        .get('/assets/admin/main.js')
        .expect(200)
        .expect('Content-Type', /javascript/);
      for (const m of res.text.matchAll(/from '\.\/([a-z-]+\.js)'/g)) {
        await request(fx.app).get(`/assets/admin/${m[1]}`).expect(200);
      }
      await request(fx.app).get('/assets/admin/admin.css').expect(200).expect('Content-Type', /css/);
      await request(fx.app).get('/assets/admin/nope.js').expect(404);
    });

    it('should serve the module the scripts share with the public site, which dom.js imports', async () => {
      const dom = await request(fx.app).get('/assets/admin/dom.js').expect(200);
      expect(dom.text).to.include("from '../byte-size.js'");
      const shared = await request(fx.app)
        .get('/assets/byte-size.js')
        .expect(200)
        .expect('Content-Type', /javascript/);
      expect(shared.headers['cache-control']).to.equal('no-cache');
      expect(shared.text).to.include('export function formatBytes');
      // Nothing else of the public site's scripts.
      await request(fx.app).get('/assets/lightbox.js').expect(404);
    });
  });

  describe('GET /media/{path}', () => {
    it('should serve an original photo and video of an album', async () => {
      await request(fx.app).get('/media/2024/travel/lisbon/IMG%201.jpg').expect(200).expect('Content-Type', 'image/jpeg');
      await request(fx.app).get('/media/2024/travel/lisbon/clip.mp4').expect(200).expect('Content-Type', 'video/mp4');
    });

    it('should never serve album.json, hidden files or other types', async () => {
      for (const url of [
        '/media/2024/travel/lisbon/album.json',
        '/media/2024/travel/lisbon/.secret.jpg',
        '/media/2024/travel/lisbon/notes.txt',
        '/media/2024/travel/lisbon/none.jpg',
      ]) {
        await request(fx.app).get(url).expect(404);
      }
    });

    it('should answer 400 for traversal', async () => {
      await request(fx.app).get('/media/../albums/2024/travel/lisbon/IMG%201.jpg').expect(400);
      await request(fx.app).get('/media/2024/travel/lisbon/%2E%2E/%2E%2E/x.jpg').expect(400);
    });

    it('should refuse a symlink that leads out of the albums directory', async () => {
      const outside = path.join(fx.root, 'outside.jpg');
      fs.writeFileSync(outside, await makeJpeg());
      fs.symlinkSync(outside, path.join(albumDir, 'link.jpg'));
      await request(fx.app).get('/media/2024/travel/lisbon/link.jpg').expect(404);
    });
  });
});
