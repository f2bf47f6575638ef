import { expect } from 'chai';
import request from 'supertest';
import { type AdminFixture, createAdminFixture } from './support/admin-fixture.js';

/** An answer's body as text, whatever its type (supertest leaves images unread). */
const asText = (res: request.Response, done: (err: Error | null, body: string) => void) => {
  let text = '';
  res.on('data', (chunk: Buffer) => {
    text += chunk.toString();
  });
  res.on('end', () => done(null, text));
};

describe('admin: the overview of links and their QR codes', () => {
  let fx: AdminFixture;
  beforeEach(async () => {
    fx = await createAdminFixture();
    await fx.album('2024/family', { title: 'Family', password: 'pw', token: 'family-token-0123456789' });
    await fx.album('2024/family/kids', { title: 'Kids', password: 'kids-pw', token: 'kids-token-0123456789' });
    await fx.album('2024/open', { title: 'Open to all', token: 'open-token-0123456789' });
  });
  afterEach(() => fx.close());

  describe('GET /api/share-links', () => {
    it('should list every album holding links, each link as the album’s own list shows it', async () => {
      const grandma = (await request(fx.app).post('/api/share-links/2024/family').send({ name: 'Grandma' }).expect(201)).body;
      const aunt = (await request(fx.app).post('/api/share-links/2024/family/kids').send({ name: 'Aunt', downloads: false }).expect(201)).body;
      const all = await request(fx.app).get('/api/share-links').expect(200);
      expect(all.body).to.deep.equal({
        albums: [
          { path: '2024/family', links: [grandma] },
          { path: '2024/family/kids', links: [aunt] },
        ],
      });
      const one = await request(fx.app).get('/api/share-links/2024/family').expect(200);
      expect(one.body.links).to.deep.equal(all.body.albums[0].links);
    });

    it('should list none when no album has links', async () => {
      expect((await request(fx.app).get('/api/share-links').expect(200)).body).to.deep.equal({ albums: [] });
    });
  });

  describe('GET /api/qr', () => {
    it('should draw the QR code of a link as SVG, never cached', async () => {
      const res = await request(fx.app)
        .get('/api/qr')
        .query({ text: 'https://photos.example.com/s/AbCdEfGhIjKlMnOpQrStUvWx' })
        .buffer(true)
        .parse(asText)
        .expect(200);
      expect(res.headers['content-type']).to.match(/^image\/svg\+xml/);
      expect(res.headers['cache-control']).to.equal('no-store');
      const svg = res.body as string;
      expect(svg).to.match(/^<svg [^>]*viewBox="0 0 (\d+) \1"/);
      // A different address draws a different code.
      const other = await request(fx.app)
        .get('/api/qr')
        .query({ text: 'https://photos.example.com/s/ZyXwVuTsRqPoNmLkJiHgFeDc' })
        .buffer(true)
        .parse(asText)
        .expect(200);
      expect(other.body).to.be.a('string').and.not.equal(svg);
    });

    it('should refuse a missing or an overlong text with 400', async () => {
      expect((await request(fx.app).get('/api/qr').expect(400)).body).to.deep.equal({ error: 'Missing required parameter: text' });
      expect(
        (
          await request(fx.app)
            .get('/api/qr')
            .query({ text: 'x'.repeat(1001) })
            .expect(400)
        ).body,
      ).to.deep.equal({
        error: 'Invalid parameter: text must be at most 1000 characters',
      });
    });
  });
});
