import fs from 'node:fs';
import { expect } from 'chai';
import request from 'supertest';
import { newShareLinkId } from '../../server/core/albums/share-links.js';
import { accessCookie, GalleryFixture } from '../support/gallery-fixture.js';
import { writeVideo } from '../support/media-fixtures.js';
import { unzip, unzipTest } from './support.js';

/**
 * The ZIP of files chosen across albums on the search and timeline pages
 * (docs/api.md#get-apidownload-selectionfile), over the real app and a real tree of JPEGs made
 * with sharp: exactly the chosen files byte for byte, with the exact Content-Length, as a GET
 * and as a form POST; names unique across albums; each album's own access (401 locked, 403
 * through a "no downloads" link), and nothing of a locked album ever in it.
 */
const LISBON = '2024/lisbon';
const PORTO = '2024/porto';
const PORTO_2023 = '2023/porto';
const SECRET = '2024/secret';
const VIEW_ONLY = { id: newShareLinkId(), name: 'Neighbour', created: new Date().toISOString(), downloads: false };
const FULL_LINK = { id: newShareLinkId(), name: 'Grandma', created: new Date().toISOString(), downloads: true };
const TWELVE = Array.from({ length: 12 }, (_, i) => `DSC_${String(i + 1).padStart(4, '0')}.jpg`);
const BROWSER_NAVIGATION = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8';

describe('the ZIP of files chosen across albums (/api/download-selection)', function () {
  this.timeout(120_000);
  const fx = new GalleryFixture();
  let app: ReturnType<typeof request>;

  before(async () => {
    await fx.build({
      [LISBON]: { meta: { title: 'Lisbon' }, files: ['IMG_0001.jpg', 'IMG_0002.jpg', 'tram.jpg'] },
      [PORTO]: { meta: { title: 'Porto' }, files: ['IMG_0001.jpg', 'img_0002.JPG', 'bridge.jpg'] },
      [PORTO_2023]: { meta: { title: 'Porto 2023' }, files: ['IMG_0001.jpg'] },
      // Two cameras' rolls, with the same names: every one of them takes its album's folder.
      '2022/alps': { meta: { title: 'Alps' }, files: TWELVE },
      '2022/coast': { meta: { title: 'Coast' }, files: TWELVE },
      [SECRET]: { meta: { title: 'Secret', password: 'pw', token: 't-secret', shareLinks: [VIEW_ONLY, FULL_LINK] }, files: ['s1.jpg', 's2.jpg'] },
    });
    // LIVE_1.MOV beside LIVE_1.jpg is its Live Photo movie: it comes with its still.
    fs.copyFileSync(fx.path(LISBON, 'tram.jpg'), fx.path(LISBON, 'LIVE_1.jpg'));
    await writeVideo(fx.path(LISBON, 'LIVE_1.MOV'), { seconds: 1 });
    // A link in an open album to a locked album's photo: it leads only where its target's album opens.
    fs.symlinkSync(fx.path(SECRET, 's1.jpg'), fx.path(LISBON, 'peek.jpg'));
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
  const query = (paths: readonly string[]) => `/api/download-selection?${paths.map((p) => `file=${encodeURIComponent(p)}`).join('&')}`;
  const form = (paths: readonly string[]) => new URLSearchParams(paths.map((p) => ['file', p])).toString();
  const getZip = (paths: readonly string[], cookie?: string) => {
    const r = app.get(query(paths));
    return binary(cookie ? r.set('Cookie', cookie) : r);
  };
  const postZip = (paths: readonly string[]) => binary(app.post('/api/download-selection').type('form').set('Sec-Fetch-Site', 'same-origin').send(form(paths)));
  const linkCookie = (id: string) => `album-links=${encodeURIComponent(JSON.stringify([id]))}`;

  describe('three photos from two albums', () => {
    const chosen = [`${LISBON}/tram.jpg`, `${PORTO}/bridge.jpg`, `${LISBON}/IMG_0002.jpg`];

    it('should hold exactly those files, byte for byte, with the exact Content-Length, and pass unzip -t', async () => {
      const res = await getZip(chosen).expect(200);
      const zip = res.body as Buffer;
      expect(res.headers['content-type']).to.equal('application/zip');
      expect(res.headers['content-disposition']).to.equal('attachment; filename="photos.zip"');
      expect(res.headers['cache-control']).to.equal('no-cache');
      expect(Number(res.headers['content-length'])).to.equal(zip.length);
      const entries = await unzip(zip);
      // Albums in the order first named, each in its own order.
      expect([...entries.keys()]).to.deep.equal(['IMG_0002.jpg', 'tram.jpg', 'bridge.jpg']);
      expect(entries.get('tram.jpg')!.data.equals(fs.readFileSync(fx.path(LISBON, 'tram.jpg')))).to.equal(true);
      expect(entries.get('bridge.jpg')!.data.equals(fs.readFileSync(fx.path(PORTO, 'bridge.jpg')))).to.equal(true);
      await unzipTest(zip);
    });

    it('should answer a form POST with the same archive, and HEAD with its length', async () => {
      const get = await getZip(chosen).expect(200);
      const post = await postZip(chosen).expect(200);
      expect((post.body as Buffer).equals(get.body as Buffer)).to.equal(true);
      const head = await app.head(query(chosen)).expect(200);
      expect(head.headers['content-length']).to.equal(String((get.body as Buffer).length));
    });
  });

  it('should hold exactly 20 chosen of two albums of 12, with the exact Content-Length, and pass unzip -t', async () => {
    const chosen = [...TWELVE.slice(0, 10).map((n) => `2022/alps/${n}`), ...TWELVE.slice(2).map((n) => `2022/coast/${n}`)];
    const res = await postZip(chosen).expect(200);
    const zip = res.body as Buffer;
    expect(Number(res.headers['content-length'])).to.equal(zip.length);
    const entries = await unzip(zip);
    // DSC_0003 to DSC_0010 are chosen in both albums and take their folder; the others keep their names.
    const entryOf = (p: string) => {
      const [, album, name] = /^2022\/(\w+)\/(.+)$/.exec(p)!;
      return /DSC_00(0[3-9]|10)/.test(name!) ? `${album} - ${name}` : name!;
    };
    expect([...entries.keys()]).to.deep.equal(chosen.map(entryOf));
    for (const p of chosen) expect(entries.get(entryOf(p))!.data.equals(fs.readFileSync(fx.path(p))), p).to.equal(true);
    await unzipTest(zip);
  });

  describe('entry names', () => {
    it('should prefix a name two albums hold (case aside) with its album folder, and number what is still taken twice', async () => {
      const paths = [
        `${LISBON}/IMG_0001.jpg`,
        `${PORTO}/IMG_0001.jpg`,
        `${PORTO_2023}/IMG_0001.jpg`,
        `${LISBON}/IMG_0002.jpg`,
        `${PORTO}/img_0002.JPG`,
        `${PORTO}/bridge.jpg`,
      ];
      const res = await getZip(paths).expect(200);
      const entries = await unzip(res.body as Buffer);
      expect([...entries.keys()]).to.deep.equal([
        'lisbon - IMG_0001.jpg',
        'lisbon - IMG_0002.jpg',
        'bridge.jpg',
        'porto - IMG_0001.jpg',
        'porto - img_0002.JPG',
        'porto - IMG_0001 (2).jpg',
      ]);
      expect(entries.get('porto - IMG_0001.jpg')!.data.equals(fs.readFileSync(fx.path(PORTO, 'IMG_0001.jpg')))).to.equal(true);
      expect(entries.get('porto - IMG_0001 (2).jpg')!.data.equals(fs.readFileSync(fx.path(PORTO_2023, 'IMG_0001.jpg')))).to.equal(true);
      expect(Number(res.headers['content-length'])).to.equal((res.body as Buffer).length);
      await unzipTest(res.body as Buffer);
    });

    it('should bring a Live Photo still with its movie, and hold a file named twice once', async () => {
      const entries = await unzip((await getZip([`${LISBON}/LIVE_1.jpg`, `${PORTO}/bridge.jpg`, `${LISBON}/LIVE_1.jpg`]).expect(200)).body as Buffer);
      expect([...entries.keys()]).to.deep.equal(['LIVE_1.jpg', 'LIVE_1.MOV', 'bridge.jpg']);
    });
  });

  describe('access, album by album', () => {
    it("should refuse a choice holding a locked album's file with 401, whether the file exists or not, and never stream", async () => {
      const real = await app
        .get(query([`${LISBON}/tram.jpg`, `${SECRET}/s1.jpg`]))
        .expect(401)
        .expect('Content-Type', /json/);
      const made = await app.get(query([`${LISBON}/tram.jpg`, `${SECRET}/made-up.jpg`])).expect(401);
      expect(real.body).to.deep.equal(made.body);
      expect(real.body).to.deep.equal({ error: 'This album is protected: unlock it first' });
      expect(real.headers['content-disposition']).to.equal(undefined);
      await app
        .post('/api/download-selection')
        .type('form')
        .send(form([`${SECRET}/s1.jpg`]))
        .expect(401);
    });

    it("should never hold a locked album's file through a link in an open album", async () => {
      const res = await app.get(query([`${LISBON}/tram.jpg`, `${LISBON}/peek.jpg`])).expect(400);
      expect(res.body).to.deep.equal({ error: `Not a file you may download: ${LISBON}/peek.jpg`, file: `${LISBON}/peek.jpg` });
      // Opened with the locked album's token, the link leads to its photo.
      const opened = await getZip([`${LISBON}/peek.jpg`], accessCookie(['t-secret'])).expect(200);
      const entries = await unzip(opened.body as Buffer);
      expect(entries.get('peek.jpg')!.data.equals(fs.readFileSync(fx.path(SECRET, 's1.jpg')))).to.equal(true);
      expect(opened.headers['cache-control']).to.equal('private, no-store');
    });

    it("should hold a locked album's file only for a visitor who opened it, then privately", async () => {
      const res = await getZip([`${LISBON}/tram.jpg`, `${SECRET}/s2.jpg`], accessCookie(['t-secret'])).expect(200);
      expect(res.headers['cache-control']).to.equal('private, no-store');
      expect([...(await unzip(res.body as Buffer)).keys()]).to.deep.equal(['tram.jpg', 's2.jpg']);
      const byLink = await getZip([`${SECRET}/s1.jpg`], linkCookie(FULL_LINK.id)).expect(200);
      expect([...(await unzip(byLink.body as Buffer)).keys()]).to.deep.equal(['s1.jpg']);
    });

    it('should refuse through a "no downloads" link with 403 and its reason, as JSON and as the page a browser gets', async () => {
      const reason = 'This share link does not allow downloads: ask the person who sent it for the original';
      const json = await app
        .get(query([`${LISBON}/tram.jpg`, `${SECRET}/s1.jpg`]))
        .set('Cookie', linkCookie(VIEW_ONLY.id))
        .expect(403)
        .expect('Content-Type', /json/);
      expect(json.body).to.deep.equal({ error: reason });
      const page = await app
        .post('/api/download-selection')
        .type('form')
        .set('Cookie', linkCookie(VIEW_ONLY.id))
        .set('Accept', BROWSER_NAVIGATION)
        .set('Sec-Fetch-Mode', 'navigate')
        .set('Sec-Fetch-Site', 'same-origin')
        .send(form([`${SECRET}/s1.jpg`]))
        .expect(403)
        .expect('Content-Type', /html/);
      expect(page.text).to.include('This share link does not allow downloads');
    });

    it('should refuse a form posted from another site before looking at any album', async () => {
      const res = await app
        .post('/api/download-selection')
        .type('form')
        .set('Sec-Fetch-Site', 'cross-site')
        .send(form([`${LISBON}/tram.jpg`]))
        .expect(403);
      expect(res.body.error).to.match(/another site/);
    });
  });

  describe('errors', () => {
    it('should answer 400 JSON naming a path that is no file of its album, nothing streamed', async () => {
      for (const p of [`${LISBON}/nope.jpg`, `${LISBON}/album.json`, `${LISBON}/bridge.jpg`]) {
        const res = await app
          .get(query([`${PORTO}/bridge.jpg`, p]))
          .expect(400)
          .expect('Content-Type', /json/);
        expect(res.body, p).to.deep.equal({ error: `Not a file you may download: ${p}`, file: p });
        expect(res.headers['content-disposition']).to.equal(undefined);
      }
    });

    it('should answer 400 without a file, for an empty one or a folder, and 404 for an unknown album', async () => {
      expect((await app.get('/api/download-selection').expect(400)).body).to.deep.equal({ error: 'Missing required parameter: file' });
      await app.get('/api/download-selection?file=').expect(400);
      await app.get(query(['2024/'])).expect(400);
      await app.get(query(['2024/nowhere/IMG_0001.jpg'])).expect(404);
      await app.get(query(['../outside/IMG_0001.jpg'])).expect(400);
    });
  });
});
