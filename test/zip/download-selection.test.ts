import crypto from 'node:crypto';
import fs from 'node:fs';
import { expect } from 'chai';
import request from 'supertest';
import { newShareLinkId } from '../../server/core/albums/share-links.js';
import { accessCookie, GalleryFixture } from '../support/gallery-fixture.js';
import { gpsImage, gpsOfImage, latitudeBytes } from '../support/located-media.js';
import { writeVideo } from '../support/media-fixtures.js';
import { unzip, unzipTest } from './support.js';

/**
 * The ZIP of chosen files (docs/api.md#get-apidownload-albumpath, `only`) over the real app
 * and a real tree of JPEGs made with sharp and videos made with the shipped ffmpeg: exactly
 * the chosen files, byte for byte, with the exact Content-Length and a valid archive, as a
 * GET and as a form POST; the album ZIP's access rules; a 400 naming an unknown name.
 */
const TRIP = 'trips/lisbon';
const LOCKED = 'trips/secret';
const PARIS = 'trips/paris';
const VIEW_ONLY = { id: newShareLinkId(), name: 'Neighbour', created: new Date().toISOString(), downloads: false };
/** What Chromium sends when a form is submitted (a navigation). */
const BROWSER_NAVIGATION = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8';
const photoNames = Array.from({ length: 30 }, (_, i) => `IMG_${String(i + 1).padStart(4, '0')}.jpg`);
/** Twenty of the thirty, not in album order: the archive keeps the album's. */
const chosen = [...photoNames.filter((_, i) => i % 3 !== 1).slice(0, 20)].reverse();

describe('the ZIP of chosen files (only=)', function () {
  this.timeout(120_000);
  const fx = new GalleryFixture();
  let app: ReturnType<typeof request>;

  before(async () => {
    await fx.build({
      [TRIP]: { meta: { title: 'Lisbon' }, files: [...photoNames, 'notes.txt'] },
      [LOCKED]: { meta: { title: 'Secret', password: 'pw', token: 't-secret', shareLinks: [VIEW_ONLY] }, files: ['s1.jpg', 's2.jpg'] },
      [PARIS]: { meta: { title: 'Paris', hideLocation: true } },
      'trips/other': { meta: { title: 'Other' }, files: ['elsewhere.jpg'] },
    });
    // LIVE_1.MOV beside LIVE_1.jpg is its Live Photo movie; clip.mp4 a video of its own.
    fs.copyFileSync(fx.path(TRIP, 'IMG_0001.jpg'), fx.path(TRIP, 'LIVE_1.jpg'));
    await writeVideo(fx.path(TRIP, 'LIVE_1.MOV'), { seconds: 1 });
    await writeVideo(fx.path(TRIP, 'clip.mp4'), { seconds: 1 });
    fs.copyFileSync(fx.path(TRIP, 'IMG_0002.jpg'), fx.path(TRIP, '.hidden.jpg'));
    fs.writeFileSync(fx.path(PARIS, 'located.jpg'), await gpsImage('jpeg'));
    fs.writeFileSync(fx.path(PARIS, 'plain.jpg'), fs.readFileSync(fx.path(TRIP, 'IMG_0003.jpg')));
    await fx.start({ env: { WORKERS: '1' } });
    app = request(fx.gallery.handler);
  });
  after(() => fx.close());

  const binary = (r: request.Test) =>
    r.buffer(true).parse((res, done) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => done(null, Buffer.concat(chunks)));
    });
  const selectionQuery = (albumPath: string, names: readonly string[]) =>
    `/api/download-album?path=${encodeURIComponent(albumPath)}${names.map((n) => `&only=${encodeURIComponent(n)}`).join('')}`;
  const getSelection = (albumPath: string, names: readonly string[]) => binary(app.get(selectionQuery(albumPath, names)));
  const form = (albumPath: string, names: readonly string[]) => {
    const body = new URLSearchParams({ path: albumPath });
    for (const n of names) body.append('only', n);
    return body.toString();
  };
  const postSelection = (albumPath: string, names: readonly string[]) =>
    binary(app.post('/api/download-album').type('form').set('Sec-Fetch-Site', 'same-origin').send(form(albumPath, names)));
  /** The album's own order, as its whole ZIP (with videos) lists its files. */
  async function albumOrder(albumPath: string): Promise<string[]> {
    const res = await binary(app.get(`/api/download-album?path=${encodeURIComponent(albumPath)}&videos=1`)).expect(200);
    return [...(await unzip(res.body as Buffer)).keys()];
  }

  describe('GET with 20 chosen photos', () => {
    it('should hold exactly those 20, in album order, byte for byte, with the exact Content-Length, and pass unzip -t', async () => {
      const res = await getSelection(TRIP, chosen).expect(200);
      const zip = res.body as Buffer;
      expect(res.headers['content-type']).to.equal('application/zip');
      expect(res.headers['content-disposition']).to.equal('attachment; filename="lisbon.zip"');
      expect(Number(res.headers['content-length'])).to.equal(zip.length);
      const entries = await unzip(zip);
      expect(entries.size).to.equal(20);
      const order = await albumOrder(TRIP);
      expect([...entries.keys()]).to.deep.equal(order.filter((n) => chosen.includes(n)));
      for (const [name, entry] of entries) expect(entry.data.equals(fs.readFileSync(fx.path(TRIP, name))), name).to.equal(true);
      await unzipTest(zip);
    });

    it('should answer HEAD with the same length and no body', async () => {
      const get = await getSelection(TRIP, chosen).expect(200);
      const head = await app.head(selectionQuery(TRIP, chosen)).expect(200);
      expect(head.headers['content-length']).to.equal(String((get.body as Buffer).length));
    });
  });

  describe('POST of the same fields as a form', () => {
    it('should answer the same archive, byte for byte', async () => {
      const get = await getSelection(TRIP, chosen).expect(200);
      const post = await postSelection(TRIP, chosen).expect(200);
      expect(post.headers['content-length']).to.equal(get.headers['content-length']);
      expect(post.headers['content-disposition']).to.equal('attachment; filename="lisbon.zip"');
      expect((post.body as Buffer).equals(get.body as Buffer)).to.equal(true);
      await unzipTest(post.body as Buffer);
    });

    it('should take a selection longer than any address (1,100 names of a 1,100-file album)', async () => {
      const names = Array.from({ length: 1100 }, (_, i) => `p${i}.jpg`);
      const big = 'trips/big';
      fs.mkdirSync(fx.path(big));
      fs.writeFileSync(fx.path(big, 'album.json'), JSON.stringify({ title: 'Big' }));
      for (const n of names) fs.writeFileSync(fx.path(big, n), crypto.randomBytes(64));
      await fx.gallery.index.rescan();
      const res = await postSelection(big, names.slice(0, 1050)).expect(200);
      expect(Number(res.headers['content-length'])).to.equal((res.body as Buffer).length);
      expect((await unzip(res.body as Buffer)).size).to.equal(1050);
    });

    it('should refuse a form posted from another site, before reading the album', async () => {
      for (const [header, value] of [
        ['Sec-Fetch-Site', 'cross-site'],
        ['Origin', 'https://evil.example'],
      ] as const) {
        const res = await app.post('/api/download-album').type('form').set(header, value).send(form(TRIP, chosen)).expect(403).expect('Content-Type', /json/);
        expect(res.body.error).to.match(/another site/);
        expect(res.headers['content-disposition']).to.equal(undefined);
      }
    });

    it('should refuse a body that is not a form, and one over 100 KB', async () => {
      await app
        .post('/api/download-album')
        .set('Content-Type', 'application/json')
        .send(JSON.stringify({ path: TRIP, only: chosen }))
        .expect(400);
      const long = form(
        TRIP,
        Array.from({ length: 12_000 }, (_, i) => `IMG_${i}.jpg`),
      );
      expect(long.length).to.be.above(100_000);
      const res = await app.post('/api/download-album').type('form').send(long).expect(413);
      expect(res.body).to.have.property('error');
    });
  });

  describe('what a chosen name brings', () => {
    it('should collapse duplicates, bring a Live Photo still with its movie, and hold a chosen video', async () => {
      const names = ['IMG_0005.jpg', 'LIVE_1.jpg', 'clip.mp4', 'IMG_0005.jpg', 'LIVE_1.jpg'];
      const entries = await unzip((await getSelection(TRIP, names).expect(200)).body as Buffer);
      expect([...entries.keys()].sort()).to.deep.equal(['IMG_0005.jpg', 'LIVE_1.MOV', 'LIVE_1.jpg', 'clip.mp4']);
      expect(entries.get('LIVE_1.MOV')!.data.equals(fs.readFileSync(fx.path(TRIP, 'LIVE_1.MOV')))).to.equal(true);
    });

    it('should hold a Live Photo movie once when it is named beside its still, and alone when named alone', async () => {
      const both = await unzip((await getSelection(TRIP, ['LIVE_1.MOV', 'LIVE_1.jpg']).expect(200)).body as Buffer);
      expect([...both.keys()]).to.deep.equal(['LIVE_1.jpg', 'LIVE_1.MOV']);
      const movie = await unzip((await getSelection(TRIP, ['LIVE_1.MOV']).expect(200)).body as Buffer);
      expect([...movie.keys()]).to.deep.equal(['LIVE_1.MOV']);
    });

    it('should patch locations out of the chosen photos of an album that hides them, with the CRCs of the bytes sent', async () => {
      const res = await getSelection(PARIS, ['located.jpg']).expect(200);
      const zip = res.body as Buffer;
      expect(Number(res.headers['content-length'])).to.equal(zip.length);
      const entries = await unzip(zip);
      expect([...entries.keys()]).to.deep.equal(['located.jpg']);
      const photo = entries.get('located.jpg')!.data;
      expect(photo.length).to.equal(fs.statSync(fx.path(PARIS, 'located.jpg')).size);
      expect(photo.indexOf(latitudeBytes())).to.equal(-1);
      expect((await gpsOfImage(photo)).tags.size).to.equal(0);
      await unzipTest(zip);
    });
  });

  describe('errors', () => {
    it('should answer 400 JSON naming a file that is not in the album, nothing streamed', async () => {
      for (const name of ['nope.jpg', 'notes.txt', 'album.json', '.hidden.jpg', 'elsewhere.jpg', '../other/elsewhere.jpg', 'child/x.jpg']) {
        const res = await app
          .get(selectionQuery(TRIP, ['IMG_0001.jpg', name]))
          .expect(400)
          .expect('Content-Type', /json/);
        expect(res.body, name).to.deep.equal({ error: `Not a file of this album: ${name}`, file: name });
        expect(res.headers['content-disposition']).to.equal(undefined);
      }
      const posted = await app
        .post('/api/download-album')
        .type('form')
        .send(form(TRIP, ['nope.jpg']))
        .expect(400);
      expect(posted.body.file).to.equal('nope.jpg');
    });

    it('should answer 400 for an empty name, and 400/404 for a missing or unknown album', async () => {
      await app.get(`/api/download-album?path=${encodeURIComponent(TRIP)}&only=`).expect(400);
      await app.get('/api/download-album?only=IMG_0001.jpg').expect(400);
      await app.get(selectionQuery('trips/none', ['IMG_0001.jpg'])).expect(404);
    });

    it('should answer a locked album with 401 whether the names exist or not, and the chosen files with its token', async () => {
      const real = await app.get(selectionQuery(LOCKED, ['s1.jpg'])).expect(401);
      const made = await app.get(selectionQuery(LOCKED, ['made-up.jpg'])).expect(401);
      expect(real.body).to.deep.equal(made.body);
      await app
        .post('/api/download-album')
        .type('form')
        .send(form(LOCKED, ['s1.jpg']))
        .expect(401);
      const res = await binary(app.get(selectionQuery(LOCKED, ['s2.jpg'])).set('Cookie', accessCookie(['t-secret']))).expect(200);
      expect(res.headers['cache-control']).to.equal('private, no-store');
      expect([...(await unzip(res.body as Buffer)).keys()]).to.deep.equal(['s2.jpg']);
    });

    it('should refuse a "no downloads" share link with its reason, as JSON and as the page a browser gets', async () => {
      const cookie = `album-links=${encodeURIComponent(JSON.stringify([VIEW_ONLY.id]))}`;
      const reason = 'This share link does not allow downloads: ask the person who sent it for the original';
      const json = await app
        .get(selectionQuery(LOCKED, ['s1.jpg']))
        .set('Cookie', cookie)
        .expect(403);
      expect(json.body).to.deep.equal({ error: reason });
      const page = await app
        .post('/api/download-album')
        .type('form')
        .set('Cookie', cookie)
        .set('Accept', BROWSER_NAVIGATION)
        .set('Sec-Fetch-Mode', 'navigate')
        .set('Sec-Fetch-Site', 'same-origin')
        .send(form(LOCKED, ['s1.jpg']))
        .expect(403)
        .expect('Content-Type', /html/);
      expect(page.text).to.include('This share link does not allow downloads').and.include(`href="/photos/${LOCKED}"`);
    });
  });

  it('should keep the whole album ZIP as it was: photos only without only=', async () => {
    const entries = await unzip((await binary(app.get(`/api/download-album?path=${encodeURIComponent(TRIP)}`)).expect(200)).body as Buffer);
    expect([...entries.keys()].sort()).to.deep.equal([...photoNames, 'LIVE_1.MOV', 'LIVE_1.jpg'].sort());
  });
});
