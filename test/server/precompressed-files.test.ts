import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { expect } from 'chai';
import express from 'express';
import request from 'supertest';
import { fixedFileCopies, fixedFiles, PrecompressedFiles } from '../../server/http/precompressed-files.js';
import { ROOT_DIR, VIEWS_DIR } from '../../server/core/root-dir.js';
import { GalleryFixture } from '../support/gallery-fixture.js';
import { makeTempDir, removeTempDir } from '../support/temp-dir.js';

/** The body as a Buffer, decoded (superagent decodes brotli and gzip before any parser). */
const bytesOf = (res: request.Response, done: (err: Error | null, body: Buffer) => void) => {
  const chunks: Buffer[] = [];
  res.on('data', (c: Buffer) => chunks.push(c));
  res.on('end', () => done(null, Buffer.concat(chunks)));
};

const variesByEncoding = (res: request.Response) => /\baccept-encoding\b/i.test(res.headers.vary ?? '');

/** What the compression middleware sends of a file on the fly: brotli quality 4, gzip's default. */
const onTheFly = (file: Buffer) => ({
  br: zlib.brotliCompressSync(file, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } }).length,
  gzip: zlib.gzipSync(file).length,
});

/** docs/api.md#compression: the site's fixed files sent from copies compressed once at the strongest setting. */
describe('precompressed fixed files', () => {
  describe('in the public app', () => {
    const fx = new GalleryFixture();
    let app: ReturnType<typeof request>;
    let assets: { url: string; file: string }[];

    before(async function () {
      this.timeout(60_000);
      await fx.build({ '2024/trip': { meta: { title: 'Trip' }, files: ['IMG_1.jpg', 'IMG_2.jpg'] } });
      await fx.start();
      app = request(fx.gallery.handler);
      const page = (await app.get('/photos/2024/trip').expect(200)).text;
      const css = /href="(\/assets\/site\.css\?v=[^"]+)"/.exec(page)![1]!;
      assets = [
        { url: css, file: path.join(VIEWS_DIR, 'assets', 'site.css') },
        { url: '/assets/lightbox.js', file: path.join(VIEWS_DIR, 'assets', 'lightbox.js') },
        { url: '/vendor/photoswipe/photoswipe.esm.min.js', file: path.join(ROOT_DIR, 'node_modules', 'photoswipe', 'dist', 'photoswipe.esm.min.js') },
      ];
      // The first request for each has its copies made; the requests of the tests get them.
      for (const { url } of assets) await app.get(url).set('Accept-Encoding', 'br').expect(200);
      await fixedFileCopies.settled();
    });
    after(() => fx.close());

    for (const encoding of ['br', 'gzip'] as const) {
      it(`should send ${encoding} at the strongest setting, decoding to the file, with the file's headers`, async () => {
        for (const { url, file } of assets) {
          const bytes = fs.readFileSync(file);
          const plain = await app.get(url).set('Accept-Encoding', 'identity').expect(200);
          const offered = encoding === 'gzip' ? 'br;q=0, gzip' : 'gzip, deflate, br, zstd';
          const res = await app.get(url).set('Accept-Encoding', offered).buffer(true).parse(bytesOf).expect(200);
          // The Content-Length is what went over the wire; the body is decoded by then.
          const sent = Number(res.headers['content-length']);
          expect(res.headers['content-encoding'], url).to.equal(encoding);
          expect((res.body as Buffer).equals(bytes), url).to.equal(true);
          if (encoding === 'br') expect(sent, url).to.be.lessThan(onTheFly(bytes).br);
          else expect(sent, url).to.be.at.most(onTheFly(bytes).gzip);
          expect(variesByEncoding(res), url).to.equal(true);
          for (const header of [
            'content-type',
            'etag',
            'last-modified',
            'cache-control',
            'x-content-type-options',
            'referrer-policy',
            'content-security-policy',
          ]) {
            expect(res.headers[header], `${url} ${header}`).to.equal(plain.headers[header]);
          }
          expect(res.headers['cache-control'], url).to.equal('public, max-age=31536000, immutable');
        }
      });
    }

    it('should send the file as it is to a browser that takes neither', async () => {
      for (const { url, file } of assets) {
        const res = await app.get(url).set('Accept-Encoding', 'identity').buffer(true).parse(bytesOf).expect(200);
        expect(res.headers['content-encoding'], url).to.equal(undefined);
        expect((res.body as Buffer).equals(fs.readFileSync(file)), url).to.equal(true);
        expect(variesByEncoding(res), url).to.equal(true);
      }
    });

    it('should answer 304 to a browser that has the file, whichever way it came', async () => {
      for (const { url } of assets) {
        const first = await app.get(url).set('Accept-Encoding', 'br').expect(200);
        expect(first.headers['content-encoding'], url).to.equal('br');
        for (const encoding of ['br', 'gzip', 'identity']) {
          await app.get(url).set('Accept-Encoding', encoding).set('If-None-Match', first.headers.etag!).expect(304);
          await app.get(url).set('Accept-Encoding', encoding).set('If-Modified-Since', first.headers['last-modified']!).expect(304);
        }
      }
    });

    it('should answer HEAD with the length of the copy, and a Range with the bytes of the file', async () => {
      const { url, file } = assets[1]!;
      const bytes = fs.readFileSync(file);
      const copy = await app.get(url).set('Accept-Encoding', 'br').buffer(true).parse(bytesOf).expect(200);
      const head = await app.head(url).set('Accept-Encoding', 'br').expect(200);
      expect(head.headers['content-encoding']).to.equal('br');
      expect(head.headers['content-length']).to.equal(copy.headers['content-length']);
      const range = await app.get(url).set('Accept-Encoding', 'br').set('Range', 'bytes=100-299').buffer(true).parse(bytesOf).expect(206);
      expect(range.headers['content-range']).to.equal(`bytes 100-299/${bytes.length}`);
      expect((range.body as Buffer).equals(bytes.subarray(100, 300))).to.equal(true);
    });

    it('should never encode media: thumbnails and originals', async () => {
      for (const url of ['/api/thumbnail?path=2024%2Ftrip%2FIMG_1.jpg&size=small', '/albums/2024/trip/IMG_1.jpg']) {
        for (let i = 0; i < 2; i++) {
          const res = await app.get(url).set('Accept-Encoding', 'br, gzip').buffer(true).parse(bytesOf).expect(200);
          expect(res.headers['content-encoding'], url).to.equal(undefined);
          expect(variesByEncoding(res), url).to.equal(false);
          expect(Number(res.headers['content-length']), url).to.equal((res.body as Buffer).length);
        }
      }
    });
  });

  describe('over a folder of its own', () => {
    let dir: string;
    let store: PrecompressedFiles;
    let app: ReturnType<typeof request>;
    /** A script of `n` lines, well over a kilobyte, different for each `n`. */
    const script = (n: number) => Array.from({ length: n }, (_, i) => `export const line${i} = ${i * n};\n`).join('');

    beforeEach(() => {
      dir = makeTempDir();
      store = new PrecompressedFiles();
      const server = express();
      server.use(
        '/assets',
        fixedFiles(
          dir,
          {
            maxAgeSeconds: 60,
            immutable: false,
            setHeaders: (res, file) => {
              res.type(path.extname(file));
              if (file.endsWith('.svg')) res.set('Content-Security-Policy', "default-src 'none'");
            },
          },
          store,
        ),
      );
      app = request(server);
    });
    afterEach(() => removeTempDir(dir));

    /** Asks once (its copies are made), waits for them, then asks for the brotli one. */
    const brotliAnswer = async (url: string) => {
      await app.get(url).set('Accept-Encoding', 'br').expect(200);
      await store.settled();
      return app.get(url).set('Accept-Encoding', 'br').buffer(true).parse(bytesOf).expect(200);
    };

    it('should answer the first request from the file, and the next from its copy', async () => {
      fs.writeFileSync(path.join(dir, 'a.js'), script(200));
      const first = await app.get('/assets/a.js').set('Accept-Encoding', 'br').expect(200);
      // No compression middleware in this app: before the copy, the file as express.static sends it.
      expect(first.headers['content-encoding']).to.equal(undefined);
      const copy = await brotliAnswer('/assets/a.js');
      expect(copy.headers['content-encoding']).to.equal('br');
      expect(copy.headers['cache-control']).to.equal('public, max-age=60');
      expect(copy.headers.etag).to.equal(first.headers.etag);
      expect((copy.body as Buffer).toString()).to.equal(script(200));
    });

    it('should make the copies again of a file changed on disk', async () => {
      const file = path.join(dir, 'a.js');
      fs.writeFileSync(file, script(200));
      const before = await brotliAnswer('/assets/a.js');
      fs.writeFileSync(file, script(300));
      fs.utimesSync(file, new Date(), new Date(Date.now() + 5000));
      const changed = await app.get('/assets/a.js').set('Accept-Encoding', 'br').expect(200);
      expect(changed.headers['content-encoding'], 'the old copy is never sent for the new file').to.equal(undefined);
      expect(changed.text).to.equal(script(300));
      const after = await brotliAnswer('/assets/a.js');
      expect(after.headers.etag).to.not.equal(before.headers.etag);
      expect((after.body as Buffer).toString()).to.equal(script(300));
    });

    it("should give an SVG its setHeaders' headers, compressed", async () => {
      const circles = Array.from({ length: 60 }, (_, i) => `<circle cx="${i}" cy="${i}" r="${i}"/>`).join('');
      fs.writeFileSync(path.join(dir, 'icon.svg'), `<svg xmlns="http://www.w3.org/2000/svg">${circles}</svg>`);
      const res = await brotliAnswer('/assets/icon.svg');
      expect(res.headers['content-encoding']).to.equal('br');
      expect(res.headers['content-type']).to.match(/^image\/svg\+xml/);
      expect(res.headers['content-security-policy']).to.equal("default-src 'none'");
    });

    it('should leave small files, media, dotfiles, paths out of the folder and missing files to express.static', async () => {
      fs.writeFileSync(path.join(dir, 'small.js'), 'export const a = 1;\n');
      fs.writeFileSync(path.join(dir, 'photo.jpg'), Buffer.alloc(4096, 7));
      fs.writeFileSync(path.join(dir, '.secret.js'), script(200));
      fs.writeFileSync(path.join(path.dirname(dir), 'outside.js'), script(200));
      for (const url of ['/assets/small.js', '/assets/photo.jpg']) {
        const res = await brotliAnswer(url);
        expect(res.headers['content-encoding'], url).to.equal(undefined);
      }
      for (const url of ['/assets/.secret.js', '/assets/%2e%2e/outside.js', '/assets/missing.js']) {
        await app.get(url).set('Accept-Encoding', 'br').expect(404);
      }
      await store.settled();
      expect(store.bytes).to.equal(0);
      fs.rmSync(path.join(path.dirname(dir), 'outside.js'));
    });

    it('should keep no more than its bound, dropping the oldest copies first', async () => {
      const bounded = new PrecompressedFiles(2500);
      fs.writeFileSync(path.join(dir, 'a.js'), script(200));
      fs.writeFileSync(path.join(dir, 'b.js'), script(201));
      for (const name of ['a.js', 'b.js']) {
        const file = path.join(dir, name);
        bounded.copiesOf(file, fs.statSync(file));
        await bounded.settled();
      }
      const b = path.join(dir, 'b.js');
      expect(bounded.copiesOf(b, fs.statSync(b))?.br).to.be.instanceOf(Buffer);
      expect(bounded.bytes).to.be.greaterThan(0).and.at.most(2500);
      const a = path.join(dir, 'a.js');
      expect(bounded.copiesOf(a, fs.statSync(a))).to.equal(undefined);
      await bounded.settled();
    });
  });
});
