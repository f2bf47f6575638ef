import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import request from 'supertest';
import type { AlbumIndex } from '../../server/core/albums/album-index.js';
import { attachmentDisposition } from '../../server/public/routes/download.js';
import {
  SECRET_TOKEN,
  close,
  createTestApp,
  expect,
  eventually,
  getRaw,
  listen,
  makeTempDir,
  openFds,
  q,
  unzip,
  writeAlbum,
  writeRandomImages,
} from './support.js';
import { captureLogger, type LogLine } from '../support/capture-logger.js';

describe('GET /api/download-album', function () {
  let root: string;
  let logged: LogLine[];
  let server: http.Server;
  let base: string;
  let index: AlbumIndex;
  const trip: Record<string, Buffer> = {
    'IMG_10.jpg': crypto.randomBytes(3000),
    'IMG_2.jpg': crypto.randomBytes(5000),
    'IMG_1.JPG': crypto.randomBytes(1234),
    'photo.png': crypto.randomBytes(777),
    'empty.gif': Buffer.alloc(0),
  };
  // DOS times have a 2-second resolution.
  const takenAt = new Date(2021, 5, 15, 10, 20, 30);

  before(async function () {
    root = makeTempDir();
    const tripDir = writeAlbum(
      root,
      '2024/trip',
      { title: 'Trip' },
      {
        ...trip,
        'notes.txt': 'not a photo',
        'clip.mp4': 'not an image',
        '.hidden.jpg': 'dotfile',
      },
    );
    for (const name of Object.keys(trip)) fs.utimesSync(path.join(tripDir, name), takenAt, takenAt);
    writeAlbum(root, '2024/trip/child', { title: 'Child' }, { 'c.jpg': 'child photo' });
    writeAlbum(root, '2024/Été à Zürich', { title: 'Summer' }, { 'café ☕.jpg': 'coffee', '日本 "1".png': 'japan' });
    writeAlbum(root, '2024/secret', { title: 'Secret', password: 'pw', token: SECRET_TOKEN }, { 's.jpg': 'secret' });
    writeAlbum(root, '2024/no-photos', { title: 'Nothing' }, { 'clip.mp4': 'video only' });
    fs.mkdirSync(path.join(root, '2024/not-an-album'));
    const captured = captureLogger();
    logged = captured.lines;
    const test = await createTestApp(root, { log: captured.logger });
    index = test.index;
    ({ server, base } = await listen(test.app));
  });

  beforeEach(function () {
    logged.length = 0;
  });

  after(async function () {
    await close(server);
    fs.rmSync(root, { recursive: true, force: true });
  });

  describe('with a public album', function () {
    it("should answer a ZIP of the album's own images in album order, byte for byte", async function () {
      const res = await getRaw(base + q('2024/trip'));
      expect(res.status).to.equal(200);
      const entries = await unzip(res.body);
      // No child album, no album.json, no video, no text file, no dotfile.
      expect([...entries.keys()]).to.deep.equal(['empty.gif', 'IMG_1.JPG', 'IMG_2.jpg', 'IMG_10.jpg', 'photo.png']);
      for (const [name, data] of Object.entries(trip)) expect(entries.get(name)?.data.equals(data), name).to.equal(true);
    });

    it('should send exactly Content-Length bytes', async function () {
      const res = await getRaw(base + q('2024/trip'));
      expect(res.complete).to.equal(true);
      expect(Number(res.headers['content-length'])).to.equal(res.body.length);
    });

    it('should set type, attachment name and caching headers', async function () {
      const res = await getRaw(base + q('2024/trip'));
      expect(res.headers['content-type']).to.equal('application/zip');
      expect(res.headers['content-disposition']).to.equal('attachment; filename="trip.zip"');
      expect(res.headers['cache-control']).to.equal('no-cache');
    });

    it("should date the entries with the files' modification times", async function () {
      const entries = await unzip((await getRaw(base + q('2024/trip'))).body);
      expect(entries.get('IMG_2.jpg')?.mtime.getTime()).to.equal(takenAt.getTime());
    });

    it('should answer HEAD with the same headers and no body', async function () {
      const get = await getRaw(base + q('2024/trip'));
      const res = await request(server).head(q('2024/trip')).expect(200);
      expect(res.headers['content-length']).to.equal(get.headers['content-length']);
      expect(res.headers['content-type']).to.equal('application/zip');
    });

    it('should answer a valid empty ZIP for an album without images', async function () {
      const res = await getRaw(base + q('2024/no-photos'));
      expect(res.status).to.equal(200);
      expect(res.body.length).to.equal(22);
      expect((await unzip(res.body)).size).to.equal(0);
    });
  });

  describe('with non-ASCII names', function () {
    it('should give the UTF-8 name in filename* and an ASCII fallback', async function () {
      const res = await getRaw(base + q('2024/Été à Zürich'));
      expect(res.headers['content-disposition']).to.equal(
        'attachment; filename="Ete a Zurich.zip"; filename*=UTF-8\'\'%C3%89t%C3%A9%20%C3%A0%20Z%C3%BCrich.zip',
      );
    });

    it('should keep the entry names in UTF-8 and send exactly Content-Length bytes', async function () {
      const res = await getRaw(base + q('2024/Été à Zürich'));
      expect(Number(res.headers['content-length'])).to.equal(res.body.length);
      const entries = await unzip(res.body);
      expect([...entries.keys()]).to.deep.equal(['café ☕.jpg', '日本 "1".png']);
      expect(entries.get('café ☕.jpg')?.utf8Flag).to.equal(true);
      expect(entries.get('café ☕.jpg')?.data.toString()).to.equal('coffee');
    });
  });

  describe('with a protected album', function () {
    it('should answer 401 without a token', async function () {
      const res = await request(server).get(q('2024/secret')).expect(401);
      expect(res.body).to.have.property('error').that.is.a('string');
    });

    it('should answer 401 with a wrong token', async function () {
      await request(server).get(q('2024/secret')).set('X-Album-Token', 'nope').expect(401);
    });

    it('should answer the ZIP with the X-Album-Token header, never cacheable', async function () {
      const res = await getRaw(base + q('2024/secret'), { 'X-Album-Token': SECRET_TOKEN });
      expect(res.status).to.equal(200);
      expect(res.headers['cache-control']).to.equal('private, no-store');
      expect((await unzip(res.body)).get('s.jpg')?.data.toString()).to.equal('secret');
    });
  });

  describe('with a bad path', function () {
    it('should answer 404 for an unknown album', async function () {
      const res = await request(server).get(q('2024/nowhere')).expect(404);
      expect(res.body).to.have.property('error');
    });

    it('should answer 404 for a folder that is not an album', async function () {
      await request(server).get(q('2024/not-an-album')).expect(404);
    });

    for (const bad of ['../x', '2024/../../etc', '/etc']) {
      it(`should answer 400 for "${bad}"`, async function () {
        const res = await request(server).get(q(bad)).expect(400);
        expect(res.body).to.have.property('error');
      });
    }

    it('should answer 400 without a path', async function () {
      const res = await request(server).get('/api/download-album').expect(400);
      expect(res.body.error).to.equal('Missing required parameter: path');
    });
  });

  describe('with a large album', function () {
    let bigDir: string;

    beforeEach(async function () {
      // Fresh each time: the tests below damage it. 20 × 2 MB is well past what the
      // pipeline buffers, so the end of the album is never read before the tests act.
      bigDir = path.join(root, '2024', 'big');
      fs.rmSync(bigDir, { recursive: true, force: true });
      writeAlbum(root, '2024/big', { title: 'Big' });
      writeRandomImages(bigDir, 20, 2 * 1024 * 1024);
      await index.rescan();
    });

    it('should close every file and keep serving when the client goes away', async function () {
      const before = openFds();
      await new Promise<void>((resolve, reject) => {
        const req = http.get(base + q('2024/big'), { agent: false }, (res) => {
          res.once('data', () => {
            req.destroy();
            resolve();
          });
        });
        req.on('error', (err) => (req.destroyed ? undefined : reject(err)));
      });
      expect(await eventually(() => openFds() <= before), 'file descriptors back to their count').to.equal(true);
      expect(logged, 'a closed tab is not an error').to.deep.equal([]);
      const next = await getRaw(base + q('2024/trip'));
      expect(next.status).to.equal(200);
      expect((await unzip(next.body)).size).to.equal(5);
    });

    it('should fail the response, not the server, when a file disappears mid-download', async function () {
      const res = await new Promise<{ complete: boolean; received: number; length: number }>((resolve, reject) => {
        http
          .get(base + q('2024/big'), { agent: false }, (res) => {
            let received = 0;
            res.once('data', () => fs.rmSync(path.join(bigDir, 'IMG_20.jpg')));
            res.on('data', (c: Buffer) => (received += c.length));
            res.on('error', () => {});
            res.on('close', () => resolve({ complete: res.complete, received, length: Number(res.headers['content-length']) }));
          })
          .on('error', reject);
      });
      expect(res.complete).to.equal(false);
      expect(res.received).to.be.below(res.length);
      expect(logged).to.have.length(1);
      expect(logged[0]?.err?.type).to.equal('SourceChangedError');
      expect((await getRaw(base + q('2024/trip'))).status).to.equal(200);
    });

    it('should fail the response when a file changes size mid-download', async function () {
      const res = await new Promise<{ complete: boolean; received: number; length: number }>((resolve, reject) => {
        http
          .get(base + q('2024/big'), { agent: false }, (res) => {
            let received = 0;
            res.once('data', () => fs.truncateSync(path.join(bigDir, 'IMG_20.jpg'), 10));
            res.on('data', (c: Buffer) => (received += c.length));
            res.on('error', () => {});
            res.on('close', () => resolve({ complete: res.complete, received, length: Number(res.headers['content-length']) }));
          })
          .on('error', reject);
      });
      expect(res.complete).to.equal(false);
      expect(res.received).to.be.below(res.length);
      expect(logged[0]?.err?.message).to.match(/IMG_20\.jpg: size changed/);
    });
  });
});

describe('attachmentDisposition()', function () {
  it('should quote a plain ASCII name', function () {
    expect(attachmentDisposition('trip 2024.zip')).to.equal('attachment; filename="trip 2024.zip"');
  });

  it('should make quotes, backslashes and control characters safe in the fallback', function () {
    expect(attachmentDisposition('a"b\\c\u0007d.zip')).to.equal('attachment; filename="a_b_c_d.zip"; filename*=UTF-8\'\'a%22b%5Cc%07d.zip');
  });

  it('should encode the characters RFC 8187 does not allow bare', function () {
    expect(attachmentDisposition("l'été (1)*.zip")).to.equal("attachment; filename=\"l'ete (1)*.zip\"; filename*=UTF-8''l%27%C3%A9t%C3%A9%20%281%29%2A.zip");
  });

  it('should add filename* when the name looks percent-encoded', function () {
    expect(attachmentDisposition('100%25.zip')).to.equal('attachment; filename="100%25.zip"; filename*=UTF-8\'\'100%2525.zip');
  });
});
