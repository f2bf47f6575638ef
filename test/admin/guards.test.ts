import { expect } from 'chai';
import request from 'supertest';
import { type AdminFixture, createAdminFixture } from './support/admin-fixture.js';

describe('admin guards', () => {
  let fx: AdminFixture;
  beforeEach(async () => {
    fx = await createAdminFixture();
    await fx.album('2024/travel/lisbon', { title: 'Lisbon', token: 'lisbon-token-0123456789' });
  });
  afterEach(() => fx.close());

  describe('Host header (DNS rebinding)', () => {
    for (const host of ['evil.example', 'evil.example:4444', '127.0.0.2', 'localhost.evil.example', '[::2]', '']) {
      it(`should refuse Host "${host}" with 403 JSON, on the API and on the page`, async () => {
        for (const url of ['/api/albums', '/']) {
          const res = await request(fx.app).get(url).set('Host', host).expect(403).expect('Content-Type', /json/);
          expect(res.body.error).to.match(/localhost, 127\.0\.0\.1 or \[::1\]/);
        }
      });
    }

    for (const host of ['localhost', '127.0.0.1', '[::1]', 'LOCALHOST']) {
      it(`should answer Host "${host}" without a port`, async () => {
        await request(fx.app).get('/api/albums').set('Host', host).expect(200);
      });
    }

    it('should answer loopback names with the port the request arrived on, and refuse another port', async () => {
      const server = fx.app.listen(0, '127.0.0.1');
      await new Promise((resolve) => server.once('listening', resolve));
      try {
        const { port } = server.address() as { port: number };
        for (const name of ['localhost', '127.0.0.1', '[::1]']) {
          await request(server).get('/api/albums').set('Host', `${name}:${port}`).expect(200);
        }
        await request(server)
          .get('/api/albums')
          .set('Host', `localhost:${port + 1}`)
          .expect(403);
      } finally {
        server.close();
      }
    });
  });

  describe('Origin header (cross-site writes)', () => {
    it('should refuse a state-changing request from a foreign origin with 403 JSON and change nothing', async () => {
      const before = fx.readAlbumJson('2024/travel/lisbon');
      for (const origin of ['https://evil.example', 'http://localhost:1', 'null']) {
        const res = await request(fx.app).put('/api/albums/2024/travel/lisbon').set('Origin', origin).send({ title: 'Hacked' }).expect(403);
        expect(res.body.error).to.match(/cross-origin/);
      }
      await request(fx.app).delete('/api/albums/2024/travel/lisbon').set('Origin', 'https://evil.example').expect(403);
      await request(fx.app).post('/api/albums').set('Origin', 'https://evil.example').send({ path: '2024/a/b', title: 'B' }).expect(403);
      expect(fx.readAlbumJson('2024/travel/lisbon')).to.deep.equal(before);
    });

    it('should allow a write from its own origin, and one without Origin (curl)', async () => {
      const server = fx.app.listen(0, '127.0.0.1');
      await new Promise((resolve) => server.once('listening', resolve));
      try {
        const { port } = server.address() as { port: number };
        for (const origin of [`http://127.0.0.1:${port}`, `http://localhost:${port}`, `http://[::1]:${port}`]) {
          await request(server).put('/api/albums/2024/travel/lisbon').set('Origin', origin).send({ order: 1 }).expect(200);
        }
        await request(server).put('/api/albums/2024/travel/lisbon').send({ order: 2 }).expect(200);
      } finally {
        server.close();
      }
      expect(fx.readAlbumJson('2024/travel/lisbon').order).to.equal(2);
    });

    it('should let a cross-origin GET through (the browser keeps the answer from the foreign page)', async () => {
      await request(fx.app).get('/api/albums').set('Origin', 'https://evil.example').expect(200);
    });
  });

  describe('JSON bodies', () => {
    it('should answer a body over 1 MB with 413 JSON', async () => {
      const res = await request(fx.app)
        .put('/api/albums/2024/travel/lisbon')
        .set('Content-Type', 'application/json')
        .send(JSON.stringify({ title: 'x'.repeat(1024 * 1024 + 10) }))
        .expect(413)
        .expect('Content-Type', /json/);
      expect(res.body).to.deep.equal({ error: 'Request body too large' });
      expect(fx.readAlbumJson('2024/travel/lisbon').title).to.equal('Lisbon');
    });

    it('should answer malformed JSON with 400 JSON', async () => {
      const res = await request(fx.app).put('/api/albums/2024/travel/lisbon').set('Content-Type', 'application/json').send('{"title": ').expect(400);
      expect(res.body).to.deep.equal({ error: 'Malformed request body' });
    });

    it('should answer a body that is not JSON with 400 JSON', async () => {
      const res = await request(fx.app).put('/api/albums/2024/travel/lisbon').set('Content-Type', 'text/plain').send('title=x').expect(400);
      expect(res.body.error).to.match(/Expected a JSON body/);
    });

    it('should answer a JSON array with 400 JSON', async () => {
      const res = await request(fx.app).put('/api/albums/2024/travel/lisbon').send([1, 2]).expect(400);
      expect(res.body.error).to.equal('Expected a JSON object body');
    });
  });

  describe('unknown routes', () => {
    it('should answer an unknown /api route with 404 JSON', async () => {
      const res = await request(fx.app).get('/api/nope').expect(404).expect('Content-Type', /json/);
      expect(res.body).to.deep.equal({ error: 'Unknown API endpoint' });
      await request(fx.app).patch('/api/albums').expect(404).expect('Content-Type', /json/);
    });

    it('should answer an unknown page with the 404 page', async () => {
      const res = await request(fx.app).get('/nope').set('Accept', 'text/html').expect(404).expect('Content-Type', /html/);
      expect(res.text).to.include('Page not found');
    });
  });

  describe('response headers', () => {
    it('should send a strict CSP, no framing, nosniff and no X-Powered-By', async () => {
      const res = await request(fx.app).get('/').expect(200);
      expect(res.headers['content-security-policy']).to.include("script-src 'self'").and.include("frame-ancestors 'none'");
      expect(res.headers['content-security-policy']).not.to.include('unsafe-inline');
      expect(res.headers['x-frame-options']).to.equal('DENY');
      expect(res.headers['x-content-type-options']).to.equal('nosniff');
      expect(res.headers).not.to.have.property('x-powered-by');
    });

    it('should mark API answers no-store (they hold passwords)', async () => {
      const res = await request(fx.app).get('/api/albums').expect(200);
      expect(res.headers['cache-control']).to.equal('no-store');
    });
  });
});
