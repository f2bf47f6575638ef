import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import { type AdminFixture, createAdminFixture, listDir } from './support/admin-fixture.js';

describe('admin /api/home', () => {
  let fx: AdminFixture;
  const homeFile = () => path.join(fx.contentDir, 'home.json');
  const readHome = () => JSON.parse(fs.readFileSync(homeFile(), 'utf8')) as Record<string, unknown>;

  beforeEach(async () => {
    fx = await createAdminFixture();
  });
  afterEach(() => fx.close());

  describe('/api/home/intro', () => {
    it('should answer empty texts while there is no home.json', async () => {
      const res = await request(fx.app).get('/api/home/intro').expect(200);
      expect(res.body).to.deep.equal({ title: '', body: '' });
    });

    it('should write {title, body} into home.json, in the documented shape', async () => {
      const res = await request(fx.app).put('/api/home/intro').send({ title: 'Welcome', body: 'Our photos.' }).expect(200);
      expect(res.body).to.deep.equal({ title: 'Welcome', body: 'Our photos.' });
      expect(readHome()).to.deep.equal({ intro: { title: 'Welcome', body: 'Our photos.' }, cards: [] });
      await request(fx.app).put('/api/home/intro').send({ body: 'Changed.' }).expect(200);
      expect((await request(fx.app).get('/api/home/intro').expect(200)).body).to.deep.equal({ title: 'Welcome', body: 'Changed.' });
    });

    it('should keep keys of home.json it does not know', async () => {
      fs.writeFileSync(homeFile(), JSON.stringify({ intro: { title: 'a', body: 'b' }, cards: [], footer: 'by hand' }));
      await request(fx.app).put('/api/home/intro').send({ title: 'c' }).expect(200);
      expect(readHome()).to.deep.include({ footer: 'by hand' });
    });

    for (const [body, message] of [
      [{ title: 5 }, 'Invalid home intro: title must be a string'],
      [{ subtitle: 'x' }, 'Invalid home intro: unknown field "subtitle"'],
      [{}, 'Invalid home intro: the body names no field to change'],
      [{ title: 'x'.repeat(201) }, 'Invalid home intro: title must be at most 200 characters'],
    ] as const) {
      it(`should answer 400 "${message}" and write nothing`, async () => {
        const res = await request(fx.app).put('/api/home/intro').send(body).expect(400);
        expect(res.body).to.deep.equal({ error: message });
        expect(listDir(fx.contentDir)).to.deep.equal([]);
      });
    }

    it('should answer 500 JSON, and overwrite nothing, when home.json is not a JSON object', async () => {
      fs.writeFileSync(homeFile(), '[oops');
      const res = await request(fx.app).put('/api/home/intro').send({ title: 'x' }).expect(500);
      expect(res.body.error).to.match(/home\.json in CONTENT_DIR is not a JSON object/);
      expect(fs.readFileSync(homeFile(), 'utf8')).to.equal('[oops');
    });
  });

  describe('/api/home/cards', () => {
    it('should add a card with a generated id, list, update, move and delete it', async () => {
      const a = await request(fx.app)
        .post('/api/home/cards')
        .send({ title: 'Travel', description: 'Trips', image: 'travel.jpg', link: '/photos/2024/travel' })
        .expect(201);
      expect(a.body).to.deep.include({ title: 'Travel', description: 'Trips', image: 'travel.jpg', link: '/photos/2024/travel' });
      expect(a.body.id).to.be.a('string').and.not.equal('');
      const b = await request(fx.app).post('/api/home/cards').send({ title: 'Family' }).expect(201);
      expect(b.body).to.deep.equal({ id: b.body.id, title: 'Family', description: '', image: '', link: '' });

      const list = await request(fx.app).get('/api/home/cards').expect(200);
      expect((list.body as Array<{ id: string }>).map((c) => c.id)).to.deep.equal([a.body.id, b.body.id]);

      const put = await request(fx.app).put(`/api/home/cards?id=${a.body.id}`).send({ description: 'All our trips', position: 1 }).expect(200);
      expect(put.body).to.deep.include({ id: a.body.id, title: 'Travel', description: 'All our trips' });
      expect((readHome().cards as Array<{ id: string }>).map((c) => c.id)).to.deep.equal([b.body.id, a.body.id]);

      expect((await request(fx.app).delete(`/api/home/cards?id=${b.body.id}`).expect(200)).body).to.deep.equal({ deleted: b.body.id });
      expect(readHome().cards).to.deep.equal([{ ...a.body, description: 'All our trips' }]);
    });

    it('should answer 400 without id, 404 for an unknown id', async () => {
      expect((await request(fx.app).put('/api/home/cards').send({ title: 'x' }).expect(400)).body.error).to.equal('Missing required parameter: id');
      expect((await request(fx.app).delete('/api/home/cards').expect(400)).body.error).to.equal('Missing required parameter: id');
      expect((await request(fx.app).put('/api/home/cards?id=nope').send({ title: 'x' }).expect(404)).body.error).to.equal('Card not found: nope');
      await request(fx.app).delete('/api/home/cards?id=nope').expect(404);
    });

    for (const [body, message] of [
      [{}, 'Invalid card: title must be a non-empty string'],
      [{ title: 'x', link: 'javascript:alert(1)' }, 'Invalid card: link must be empty, a site path starting with "/" or an http(s) URL'],
      [{ title: 'x', link: '//evil.example/' }, 'Invalid card: link must be empty, a site path starting with "/" or an http(s) URL'],
      [{ title: 'x', link: ' JavaScript:alert(1)' }, 'Invalid card: link must be empty, a site path starting with "/" or an http(s) URL'],
      [{ title: 'x', link: 'data:text/html,hi' }, 'Invalid card: link must be empty, a site path starting with "/" or an http(s) URL'],
      [{ title: 'x', link: '/\\evil.example/' }, 'Invalid card: link must be empty, a site path starting with "/" or an http(s) URL'],
      [{ title: 'x', image: '../secret.jpg' }, 'Invalid card: image must be empty or the file name of an image in the card assets'],
      [{ title: 'x', image: 'https://evil.example/x.jpg' }, 'Invalid card: image must be empty or the file name of an image in the card assets'],
      [{ title: 'x', image: 'scan.tiff' }, 'Invalid card: image must be empty or the file name of an image in the card assets'],
      [{ title: 'x', id: 'mine' }, 'Invalid card: unknown field "id"'],
      [{ title: 'x', colour: 'red' }, 'Invalid card: unknown field "colour"'],
    ] as const) {
      it(`should refuse the card ${JSON.stringify(body)} with 400 and write nothing`, async () => {
        const res = await request(fx.app).post('/api/home/cards').send(body).expect(400);
        expect(res.body).to.deep.equal({ error: message });
        expect(fs.existsSync(homeFile())).to.equal(false);
      });
    }

    it('should refuse to change a card id', async () => {
      const a = await request(fx.app).post('/api/home/cards').send({ title: 'A' }).expect(201);
      const res = await request(fx.app).put(`/api/home/cards?id=${a.body.id}`).send({ id: 'other' }).expect(400);
      expect(res.body.error).to.equal('Invalid card: id cannot be changed');
    });

    it('should keep every card of concurrent additions', async () => {
      await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          request(fx.app)
            .post('/api/home/cards')
            .send({ title: `Card ${i}` })
            .expect(201),
        ),
      );
      expect(readHome().cards).to.have.length(10);
    });
  });
});
