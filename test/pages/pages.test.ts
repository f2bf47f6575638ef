import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import { accessCookie, eventually, GalleryFixture, writeJpeg } from '../support/gallery-fixture.js';

describe('pages', () => {
  const fx = new GalleryFixture();
  let app: ReturnType<typeof request>;

  before(async () => {
    await fx.build({
      '2024/travel/lisbon': { meta: { title: 'Lisbon', order: 1 }, files: ['IMG_2.jpg', 'IMG_10.jpg', 'IMG_1.jpg'] },
      '2024/travel/porto': { meta: { title: 'Porto', order: 2, style: 'masonry' }, files: ['p.jpg'] },
      '2024/travel/secret-trip': { meta: { title: 'Secret trip', password: 'pw' }, files: ['secret-photo.jpg'] },
      '2024/travel/hidden-one': { meta: { title: 'Hidden album', hidden: true }, files: ['h.jpg'] },
      '2024/travel/hidden-one/below': { meta: { title: 'Below hidden' }, files: ['b.jpg'] },
      '2023/best/collection': { meta: { title: 'Best of', isCollection: true } },
      '2023/only-hidden/secret-stash': { meta: { title: 'Stash', hidden: true }, files: ['x.jpg'] },
      '2023/best/collection/sunsets': { meta: { title: 'Sunsets' }, files: ['s1.jpg'] },
    });
    fs.writeFileSync(
      path.join(fx.contentDir, 'home.json'),
      JSON.stringify({
        intro: { title: 'Our pictures', body: 'First paragraph.\n\nSecond paragraph.' },
        cards: [{ id: 'c1', title: 'Lisbon card', description: 'Sunny', image: 'l.jpg', link: '/photos/2024/travel/lisbon' }],
      }),
    );
    await fx.start({ watch: true });
    app = request(fx.gallery.handler);
  });
  after(() => fx.close());

  describe('GET /', () => {
    it('should render the landing page with security headers', async () => {
      const res = await app.get('/').expect(200).expect('Content-Type', /html/);
      expect(res.text).to.include('Our pictures').and.include('href="/photos"');
      expect(res.headers['content-security-policy']).to.include("script-src 'self'").and.include("default-src 'self'");
      expect(res.headers['referrer-policy']).to.equal('same-origin');
      expect(res.headers['x-content-type-options']).to.equal('nosniff');
      expect(res.headers['x-powered-by']).to.equal(undefined);
      expect(res.text).to.not.match(/<script(?![^>]*\b(?:src=|type="application\/json"))/);
    });
  });

  describe('GET /home', () => {
    it('should show the intro and the cards of home.json', async () => {
      const res = await app.get('/home').expect(200);
      expect(res.text).to.include('<h1>Our pictures</h1>').and.include('<p>Second paragraph.</p>');
      expect(res.text).to.include('Lisbon card').and.include('href="/photos/2024/travel/lisbon"').and.include('/content/cards/l.jpg');
    });
  });

  describe('static pages', () => {
    it('should send an ETag and answer If-None-Match with 304', async () => {
      for (const url of ['/', '/home', '/photos']) {
        const first = await app.get(url).expect(200);
        expect(first.headers.etag, url).to.match(/^"/);
        await app.get(url).set('If-None-Match', first.headers.etag!).expect(304);
      }
    });

    it('should render once and serve the same bytes to every visitor', async () => {
      const a = await app.get('/photos');
      const b = await app.get('/photos').set('Cookie', 'album-access=%5B%22x%22%5D');
      expect(a.text).to.equal(b.text);
    });

    it('should render again when home.json changes', async () => {
      const before = await app.get('/home');
      const file = path.join(fx.contentDir, 'home.json');
      const tmp = `${file}.tmp`;
      fs.writeFileSync(tmp, JSON.stringify({ intro: { title: 'Changed intro', body: '' }, cards: [] }));
      fs.renameSync(tmp, file);
      await eventually(async () => (await app.get('/home')).text.includes('Changed intro'), 5000, 'new intro');
      const after = await app.get('/home');
      expect(after.headers.etag).to.not.equal(before.headers.etag);
    });
  });

  describe('GET /photos', () => {
    it('should list years, categories and albums', async () => {
      const res = await app.get('/photos').expect(200);
      const t = res.text;
      expect(t.indexOf('>2024<')).to.be.lessThan(t.indexOf('>2023<'));
      // A folder without folder.json is shown under its name with a capital.
      expect(t).to.include('>Travel<').and.include('Lisbon').and.include('Porto').and.include('Best of');
      expect(t.indexOf('Lisbon')).to.be.lessThan(t.indexOf('Porto'));
      expect(t).to.match(/\/api\/thumbnail\?path=2024%2Ftravel%2Flisbon%2FIMG_1\.jpg&amp;size=small&amp;v=\d+/);
    });

    it('should leave out hidden albums and everything below them', async () => {
      const res = await app.get('/photos');
      expect(res.text).to.not.include('Hidden album').and.not.include('Below hidden').and.not.include('hidden-one');
      // A folder holding only hidden albums is not listed either.
      expect(res.text).to.not.include('only-hidden').and.not.include('Stash');
    });

    it('should show a protected album with a lock and never its cover', async () => {
      const res = await app.get('/photos');
      expect(res.text).to.include('Secret trip').and.include('card--locked');
      expect(res.text).to.not.include('secret-photo');
    });

    it('should show a new album after it appears on disk', async () => {
      const dir = fx.path('2022/new/fresh');
      fs.mkdirSync(dir, { recursive: true });
      await writeJpeg(path.join(dir, 'f.jpg'));
      fs.writeFileSync(path.join(dir, 'album.json'), JSON.stringify({ title: 'Fresh album' }));
      await eventually(async () => (await app.get('/photos')).text.includes('Fresh album'), 5000, 'fresh album');
    });
  });

  describe('GET /photos/{album}', () => {
    it('should render breadcrumbs, title and media in natural order with srcset and versions', async () => {
      const res = await app.get('/photos/2024/travel/lisbon').expect(200);
      const t = res.text;
      expect(t).to.include('<h1>Lisbon</h1>');
      expect(t).to.include('href="/photos">Photos</a>').and.include('href="/photos/2024/travel">Travel</a>');
      const order = ['IMG_1.jpg', 'IMG_2.jpg', 'IMG_10.jpg'].map((n) => t.indexOf(`data-name="${n}"`));
      expect(order.every((i) => i > 0)).to.equal(true);
      expect(order).to.deep.equal([...order].sort((a, b) => a - b));
      // The original's mtime, size and inode: a replaced photo gets a new URL even with an old mtime.
      const stat = fs.statSync(fx.path('2024/travel/lisbon/IMG_1.jpg'));
      const version = `${Math.floor(stat.mtimeMs)}-${stat.size.toString(36)}-${stat.ino.toString(36)}`;
      expect(t).to.include(`/api/thumbnail?path=2024%2Ftravel%2Flisbon%2FIMG_1.jpg&amp;size=small&amp;v=${version}`);
      expect(t).to.match(/srcset="[^"]*size=small[^"]* 400w, [^"]*size=medium[^"]* 1200w, [^"]*size=large[^"]* 1920w"/);
      expect(t).to.include('href="/albums/2024/travel/lisbon/IMG_1.jpg"');
      expect(t).to.include('media--grid').and.include('/api/download-album?path=2024%2Ftravel%2Flisbon');
      expect(res.headers['cache-control']).to.equal('no-cache');
    });

    it('should use the album style', async () => {
      expect((await app.get('/photos/2024/travel/porto')).text).to.include('media--masonry');
    });

    it('should show a collection with its child albums as cards', async () => {
      const res = await app.get('/photos/2023/best/collection').expect(200);
      expect(res.text).to.include('Sunsets').and.include('class="card');
    });

    it('should render a hidden album reachable by URL', async () => {
      await app.get('/photos/2024/travel/hidden-one').expect(200);
    });

    it('should render a folder page listing its albums', async () => {
      const res = await app.get('/photos/2024/travel').expect(200);
      expect(res.text).to.include('Lisbon').and.include('Porto').and.not.include('Hidden album');
    });

    for (const url of [
      '/photos/2024/travel/nope',
      '/photos/.hidden',
      '/photos/2024/travel/lisbon?page=2',
      '/photos/2024/travel/lisbon?page=0',
      '/photos/2024/travel/lisbon?page=abc',
      '/nope',
    ]) {
      it(`should answer ${url} with the 404 page`, async () => {
        const res = await app.get(url).expect(404).expect('Content-Type', /html/);
        expect(res.text).to.include('404');
      });
    }

    it('should answer a traversal attempt with 400', async () => {
      await app.get('/photos/..%2f..%2fetc').expect(400);
    });

    it('should answer an unknown API route with 404 JSON', async () => {
      const res = await app.get('/api/nothing-here').expect(404).expect('Content-Type', /json/);
      expect(res.body).to.deep.equal({ error: 'Unknown API endpoint' });
    });
  });

  describe('an album tree of albums inside albums', () => {
    const tree = new GalleryFixture();
    let treeApp: ReturnType<typeof request>;
    let photos: string;
    before(async function () {
      this.timeout(30_000);
      // Only albums at the top level: no year or category folders.
      await tree.build({
        holidays: { meta: { title: 'Holidays' }, files: ['h1.jpg'] },
        'holidays/kids': { meta: { title: 'Kids' }, files: ['k.jpg'] },
        'holidays/kids/beach': { meta: { title: 'Beach day' }, files: ['b.jpg'] },
        'holidays/plain/sub': { meta: { title: 'Sub in a folder' }, files: ['sub.jpg'] },
        'holidays/hush': { meta: { title: 'Hushed', hidden: true }, files: ['hu.jpg'] },
        'holidays/hush/under': { meta: { title: 'Under hushed' } },
        'holidays/locked-kid': { meta: { title: 'Locked kid', password: 'pw' }, files: ['lk.jpg'] },
        'holidays/locked-kid/grandkid': { meta: { title: 'Grandkid title' }, files: ['gk.jpg'] },
        'holidays/corner/open': { meta: { title: 'Open corner' } },
        'holidays/corner/locked-in': { meta: { title: 'Locked in', password: 'pw' } },
        'holidays/corner/locked-in/one': { meta: { title: 'One' } },
        'holidays/corner/locked-in/two': { meta: { title: 'Two' } },
        'holidays/corner/hush/three': { meta: { title: 'Three', hidden: true } },
        vault: { meta: { title: 'Vault', password: 'pw', allowAnonymous: true }, files: ['vault-cover.jpg'] },
        'vault/2024/inside': { meta: { title: 'Inside the vault' }, files: ['inside-photo.jpg'] },
        'vault/2024/deeper/more': { meta: { title: 'Deeper album' }, files: ['deep.jpg'] },
        'vault/open-kid/extra/leaf': { meta: { title: 'Leaf below a passwordless child' } },
        'vault/open-kid': { meta: { title: 'Open kid' } },
      });
      await tree.start();
      treeApp = request(tree.gallery.handler);
      photos = (await treeApp.get('/photos').expect(200)).text;
    });
    after(() => tree.close());

    describe('GET /photos', () => {
      it('should not say the tree is empty when its top level holds albums', () => {
        expect(photos).to.include('Holidays').and.not.include('No albums yet');
      });

      it('should list child albums nested under their parent, at any depth', () => {
        for (const title of ['Kids', 'Beach day', 'Sub in a folder']) expect(photos, title).to.include(title);
        expect(photos.indexOf('>Holidays<')).to.be.lessThan(photos.indexOf('>Kids<'));
        expect(photos.indexOf('>Kids<')).to.be.lessThan(photos.indexOf('>Beach day<'));
        expect(photos).to.match(/href="\/photos\/holidays\/kids\/beach"/);
      });

      it('should leave out hidden child albums and everything below them', () => {
        expect(photos).to.not.include('Hushed').and.not.include('Under hushed').and.not.include('holidays/hush');
      });

      it('should show a locked child album with its lock, and nothing below it', () => {
        expect(photos).to.include('Locked kid').and.not.include('Grandkid title').and.not.include('grandkid').and.not.include('lk.jpg');
      });

      it('should show a locked top-level album with its lock, and none of its folders, albums or cover', () => {
        expect(photos).to.match(/<li class="card card--locked">\s*<a href="\/photos\/vault">/);
        for (const leak of ['vault-cover', 'Inside the vault', 'inside-photo', 'Deeper album', 'Open kid', 'Leaf below', 'vault/2024', 'vault%2F']) {
          expect(photos, leak).to.not.include(leak);
        }
      });
    });

    describe('GET /photos/{folder} below a protected album', () => {
      for (const url of ['/photos/vault/2024', '/photos/vault/2024/deeper', '/photos/vault/open-kid/extra']) {
        it(`should answer ${url} with the password form of the blocking album, not the albums inside`, async () => {
          const res = await treeApp.get(url).expect(200);
          expect(res.headers['cache-control']).to.equal('no-store');
          expect(res.text).to.include('<input type="hidden" name="albumPath" value="vault">').and.include('Vault');
          expect(res.text).to.include(`<input type="hidden" name="returnUrl" value="${url}">`);
          for (const leak of ['Inside the vault', 'inside-photo', 'Deeper album', 'deep.jpg', 'Leaf below', 'vault-cover', '/api/thumbnail', 'class="card']) {
            expect(res.text, leak).to.not.include(leak);
          }
        });
      }

      it('should list the albums to a visitor holding the token, without storing the page', async () => {
        const res = await treeApp
          .get('/photos/vault/2024')
          .set('Cookie', accessCookie([tree.token('vault')]))
          .expect(200);
        expect(res.text).to.include('Inside the vault').and.include('deeper');
        expect(res.headers['cache-control']).to.equal('no-store');
      });

      it('should open with a share link of the blocking album and keep its token in the cookie', async () => {
        const res = await treeApp.get(`/photos/vault/2024?token=${tree.token('vault')}`).expect(200);
        expect(res.text).to.include('Inside the vault').and.include('/assets/album.js');
        expect(String(res.headers['set-cookie'])).to.include('album-access=');
      });

      it('should not count the albums inside a locked or hidden album on a folder card', async () => {
        const res = await treeApp.get('/photos/holidays').expect(200);
        expect(res.text).to.match(/>Corner<\/span>\s*<span class="card__meta">2 albums</);
      });

      it('should still list the albums of a public folder, with no-cache', async () => {
        const res = await treeApp.get('/photos/holidays/plain').expect(200);
        expect(res.text).to.include('Sub in a folder');
        expect(res.headers['cache-control']).to.equal('no-cache');
      });
    });
  });

  describe('a large album', () => {
    const big = new GalleryFixture();
    let bigApp: ReturnType<typeof request>;
    before(async function () {
      this.timeout(60_000);
      await big.build({ '2024/big/many': { meta: { title: 'Many' }, files: ['seed.jpg'] } });
      const seed = fs.readFileSync(big.path('2024/big/many/seed.jpg'));
      fs.rmSync(big.path('2024/big/many/seed.jpg'));
      for (let i = 1; i <= 450; i++) fs.writeFileSync(big.path(`2024/big/many/IMG_${i}.jpg`), seed);
      await big.start();
      bigApp = request(big.gallery.handler);
    });
    after(() => big.close());

    it('should hold at most 200 media per page and link the pages', async () => {
      const p1 = await bigApp.get('/photos/2024/big/many').expect(200);
      expect(p1.text.match(/data-name="/g)).to.have.length(200);
      expect(p1.text).to.include('data-name="IMG_1.jpg"').and.include('data-name="IMG_200.jpg"').and.not.include('data-name="IMG_201.jpg"');
      expect(p1.text).to.include('href="/photos/2024/big/many?page=2"').and.include('Page 1 of 3');
      const p3 = await bigApp.get('/photos/2024/big/many?page=3').expect(200);
      expect(p3.text.match(/data-name="/g)).to.have.length(50);
      expect(p3.text).to.include('data-name="IMG_450.jpg"').and.include('href="/photos/2024/big/many?page=2"');
      await bigApp.get('/photos/2024/big/many?page=4').expect(404);
    });
  });
});
