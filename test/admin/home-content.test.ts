import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import { type AdminFixture, createAdminFixture, listDir, makeJpeg } from './support/admin-fixture.js';

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
      fs.mkdirSync(path.join(fx.contentDir, 'assets', 'cards'), { recursive: true });
      fs.writeFileSync(path.join(fx.contentDir, 'assets', 'cards', 'travel.jpg'), await makeJpeg());
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
      [{ title: 'x', link: 'http:evil.example' }, 'Invalid card: link must be empty, a site path starting with "/" or an http(s) URL'],
      [{ title: 'x', link: 'https:/evil.example' }, 'Invalid card: link must be empty, a site path starting with "/" or an http(s) URL'],
      [{ title: 'x', link: 'ftp://files.example/' }, 'Invalid card: link must be empty, a site path starting with "/" or an http(s) URL'],
      [{ title: 'x', image: 'missing.jpg' }, 'Invalid card: image "missing.jpg" is not one of the card images (upload it under Site images first)'],
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

  describe('/api/home/hero', () => {
    const heroDir = () => path.join(fx.contentDir, 'assets', 'hero');
    beforeEach(async () => {
      fs.mkdirSync(heroDir(), { recursive: true });
      for (const name of ['b-lisbon.jpg', 'a-alps.jpg', 'c-sea.png']) fs.writeFileSync(path.join(heroDir(), name), await makeJpeg());
    });

    it('should show the first image by name until one is chosen, then the chosen one, and go back with null', async () => {
      expect((await request(fx.app).get('/api/home/hero').expect(200)).body).to.deep.equal({ image: null, shown: 'a-alps.jpg' });
      const chosen = await request(fx.app).put('/api/home/hero').send({ image: 'b-lisbon.jpg' }).expect(200);
      expect(chosen.body).to.deep.equal({ image: 'b-lisbon.jpg', shown: 'b-lisbon.jpg' });
      expect(readHome()).to.include({ hero: 'b-lisbon.jpg' });
      // Deleted, the choice falls back to the first (the public page does the same).
      fs.rmSync(path.join(heroDir(), 'b-lisbon.jpg'));
      expect((await request(fx.app).get('/api/home/hero').expect(200)).body).to.deep.equal({ image: 'b-lisbon.jpg', shown: 'a-alps.jpg' });
      expect((await request(fx.app).put('/api/home/hero').send({ image: null }).expect(200)).body).to.deep.equal({ image: null, shown: 'a-alps.jpg' });
      expect(readHome()).to.not.have.property('hero');
    });

    it('should keep the intro and cards when the hero is chosen', async () => {
      await request(fx.app).put('/api/home/intro').send({ title: 'Hello' }).expect(200);
      await request(fx.app).put('/api/home/hero').send({ image: 'c-sea.png' }).expect(200);
      expect(readHome()).to.deep.include({ intro: { title: 'Hello', body: '' }, hero: 'c-sea.png' });
    });

    for (const [body, message] of [
      [{}, 'Invalid hero: the body must give "image" (a hero image\'s file name, or null)'],
      [{ image: 'missing.jpg' }, 'Invalid hero: "missing.jpg" is not one of the hero images'],
      [{ image: '../home.json' }, 'Invalid hero: "../home.json" is not one of the hero images'],
      [{ image: '.hidden.jpg' }, 'Invalid hero: ".hidden.jpg" is not one of the hero images'],
      [{ image: 5 }, 'Invalid hero: image must be a file name or null'],
      [{ image: 'a-alps.jpg', extra: 1 }, 'Invalid hero: unknown field "extra"'],
    ] as const) {
      it(`should refuse ${JSON.stringify(body)} with 400 and write nothing`, async () => {
        fs.writeFileSync(path.join(heroDir(), '.hidden.jpg'), 'x');
        const res = await request(fx.app).put('/api/home/hero').send(body).expect(400);
        expect(res.body).to.deep.equal({ error: message });
        expect(fs.existsSync(homeFile())).to.equal(false);
      });
    }
  });

  describe('card images', () => {
    it('should take an image of the card assets only, on a change too, and write nothing otherwise', async () => {
      const cards = path.join(fx.contentDir, 'assets', 'cards');
      fs.mkdirSync(cards, { recursive: true });
      fs.writeFileSync(path.join(cards, 'sea (1).jpg'), await makeJpeg());
      const card = await request(fx.app).post('/api/home/cards').send({ title: 'Sea', image: 'sea (1).jpg' }).expect(201);
      const before = fs.readFileSync(homeFile(), 'utf8');
      const res = await request(fx.app).put(`/api/home/cards?id=${card.body.id}`).send({ image: 'gone.jpg' }).expect(400);
      expect(res.body.error).to.equal('Invalid card: image "gone.jpg" is not one of the card images (upload it under Site images first)');
      expect(fs.readFileSync(homeFile(), 'utf8')).to.equal(before);
      await request(fx.app).put(`/api/home/cards?id=${card.body.id}`).send({ image: '' }).expect(200);
    });
  });
});
