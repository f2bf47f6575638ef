import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import request from 'supertest';
import { captureLogger, type LogLine } from '../support/capture-logger.js';
import { GalleryFixture, writeJpeg } from '../support/gallery-fixture.js';
import { gpsImage, gpsOfImage, writeLocatedMovie } from '../support/located-media.js';
import { expect, getRaw, localHeaders, q, unzip, unzipTest } from './support.js';

/**
 * The album ZIP over HTTP once its album is prepared (issue 27): every CRC computed by the
 * preparation (server/media/served-crc.ts) goes into the local headers and none is computed
 * while streaming; a CRC of another version of a file is never written; an album that hides
 * locations carries the CRCs of the bytes it sends.
 */
const ROME = 'trips/rome';
const PARIS = 'trips/paris';
const BIG = 'trips/big';

/** A photo of about 2 MB: noise, which JPEG cannot squeeze. */
async function noisyJpeg(): Promise<Buffer> {
  const noise = { width: 1000, height: 1000, channels: 3 as const, background: '#808080', noise: { type: 'gaussian' as const, mean: 128, sigma: 80 } };
  return sharp({ create: noise }).jpeg({ quality: 98 }).toBuffer();
}

/** The same picture with its number in a JPEG comment: other bytes, same size, still a photo. */
function numbered(jpeg: Buffer, n: number): Buffer {
  const text = Buffer.from(`photo ${String(n).padStart(3, '0')}`, 'latin1');
  const segment = Buffer.alloc(4 + text.length);
  segment.writeUInt16BE(0xfffe, 0);
  segment.writeUInt16BE(2 + text.length, 2);
  text.copy(segment, 4);
  return Buffer.concat([jpeg.subarray(0, 2), segment, jpeg.subarray(2)]);
}

describe('GET /api/download-album of a prepared album', function () {
  this.timeout(120_000);
  const fx = new GalleryFixture();
  let logged: LogLine[];
  let app: ReturnType<typeof request>;
  let server: http.Server;
  let base: string;

  before(async () => {
    await fx.build({
      [ROME]: { meta: { title: 'Rome' }, files: ['a.jpg', 'b.jpg', 'c.jpg'] },
      [PARIS]: { meta: { title: 'Paris', hideLocation: true } },
      [BIG]: { meta: { title: 'Big' } },
    });
    await writeJpeg(fx.path(ROME, 'été.jpg'), 80, 60, 200);
    // Whole seconds, which a test can give a new file exactly (utimes rounds what it is given).
    for (const [i, name] of ['a.jpg', 'b.jpg', 'c.jpg', 'été.jpg'].entries())
      fs.utimesSync(fx.path(ROME, name), new Date(2024, 4, 1, 12, 0, i), new Date(2024, 4, 1, 12, 0, i));
    fs.writeFileSync(fx.path(PARIS, 'photo.jpg'), await gpsImage('jpeg'));
    await writeLocatedMovie(fx.path(PARIS, 'clip.mov'), 'iphone');
    const noisy = await noisyJpeg();
    for (let i = 1; i <= 20; i++) fs.writeFileSync(fx.path(BIG, `IMG_${String(i).padStart(2, '0')}.jpg`), numbered(noisy, i));
    const captured = captureLogger();
    logged = captured.lines;
    await fx.start({ backgroundDelayMs: 0, log: captured.logger, env: { PREPARE: 'on' } });
    await fx.gallery.preparer!.idle();
    app = request(fx.gallery.handler);
    server = http.createServer(fx.gallery.handler);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  after(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await fx.close();
  });

  beforeEach(() => {
    logged.length = 0;
  });

  it('should carry each CRC in its local header, no data descriptor, and hold the files byte for byte', async () => {
    const res = await getRaw(base + q(ROME));
    expect(res.status).to.equal(200);
    expect(Number(res.headers['content-length'])).to.equal(res.body.length);
    // A streaming reader walks it from the start: every entry's sizes and CRC come before its data.
    const headers = localHeaders(res.body);
    expect(headers.map((h) => h.name)).to.deep.equal(['a.jpg', 'b.jpg', 'c.jpg', 'été.jpg']);
    const entries = await unzip(res.body);
    for (const h of headers) {
      expect(h.crc32, h.name).to.equal(entries.get(h.name)?.crc32);
      expect(entries.get(h.name)?.data.equals(fs.readFileSync(fx.path(ROME, h.name))), h.name).to.equal(true);
    }
    await unzipTest(res.body);
  });

  it('should answer HEAD with the same exact length', async () => {
    const get = await getRaw(base + q(ROME));
    const head = await app.head(q(ROME)).expect(200);
    expect(head.headers['content-length']).to.equal(String(get.body.length));
  });

  it('should carry, for an album that hides locations, the CRCs of the bytes it sends', async () => {
    const res = await getRaw(`${base + q(PARIS)}&videos=1`);
    expect(res.status).to.equal(200);
    expect(localHeaders(res.body).map((h) => h.name)).to.deep.equal(['clip.mov', 'photo.jpg']);
    await unzipTest(res.body);
    const entries = await unzip(res.body);
    for (const name of ['photo.jpg', 'clip.mov']) {
      const served = (await app.get(`/albums/${PARIS}/${name}`).buffer(true).parse(rawBody).expect(200)).body as Buffer;
      expect(entries.get(name)?.data.equals(served), name).to.equal(true);
      expect(served.equals(fs.readFileSync(fx.path(PARIS, name))), `${name} is patched`).to.equal(false);
    }
    expect((await gpsOfImage(entries.get('photo.jpg')!.data)).tags.size).to.equal(0);
  });

  describe('with a file replaced after the preparation', () => {
    /** Writes `bytes` in place of the file by a rename, as editors and rsync do, then gives it `mtime`. */
    function replace(name: string, bytes: Buffer, mtime?: Date): void {
      const file = fx.path(ROME, name);
      fs.writeFileSync(`${file}.new`, bytes);
      if (mtime) fs.utimesSync(`${file}.new`, mtime, mtime);
      fs.renameSync(`${file}.new`, file);
    }

    it('should never write its old CRC, even when the new file has the size and mtime of the old one', async () => {
      const file = fx.path(ROME, 'b.jpg');
      const old = fs.statSync(file);
      // Other bytes of the same length, dated as the old file: only the inode tells them apart.
      const bytes = Buffer.from(fs.readFileSync(file).map((byte, i) => (i > 600 ? 255 - byte : byte)));
      replace('b.jpg', bytes, old.mtime);
      expect([fs.statSync(file).size, fs.statSync(file).mtimeMs]).to.deep.equal([old.size, old.mtimeMs]);
      const res = await getRaw(base + q(ROME));
      expect(Number(res.headers['content-length'])).to.equal(res.body.length);
      // Written the way of an album not prepared: the CRCs computed as the files are sent.
      expect(() => localHeaders(res.body)).to.throw(/a data descriptor follows its data/);
      await unzipTest(res.body);
      expect((await unzip(res.body)).get('b.jpg')?.data.equals(bytes)).to.equal(true);
    });

    it('should never write its old CRC when the new file has another size', async () => {
      await writeJpeg(fx.path(ROME, 'c.new.jpg'), 90, 70, 300);
      replace('c.jpg', fs.readFileSync(fx.path(ROME, 'c.new.jpg')));
      fs.rmSync(fx.path(ROME, 'c.new.jpg'));
      const res = await getRaw(base + q(ROME));
      expect(() => localHeaders(res.body)).to.throw(/a data descriptor follows its data/);
      await unzipTest(res.body);
    });
  });

  it('should fail the response when a file is written to while the album is being sent', async () => {
    const res = await new Promise<{ complete: boolean; received: number; length: number; first: Buffer }>((resolve, reject) => {
      http
        .get(base + q(BIG), { agent: false }, (res) => {
          let received = 0;
          let first: Buffer = Buffer.alloc(0);
          res.once('data', (chunk: Buffer) => {
            first = chunk;
            // The same length, other bytes, in place: the last photo is not the version its CRC is of.
            const fd = fs.openSync(fx.path(BIG, 'IMG_20.jpg'), 'r+');
            fs.writeSync(fd, Buffer.alloc(1000, 0x20), 0, 1000, 5000);
            fs.closeSync(fd);
            const later = new Date(Date.now() + 5000);
            fs.utimesSync(fx.path(BIG, 'IMG_20.jpg'), later, later);
          });
          res.on('data', (c: Buffer) => (received += c.length));
          res.on('error', () => {});
          res.on('close', () => resolve({ complete: res.complete, received, length: Number(res.headers['content-length']), first }));
        })
        .on('error', reject);
    });
    // It was on its way with the CRCs known: the first local header has no data descriptor.
    expect(res.first.readUInt16LE(6) & 0x08).to.equal(0);
    expect(res.complete).to.equal(false);
    expect(res.received).to.be.below(res.length);
    const failure = logged.find((l) => l.err?.type === 'SourceChangedError');
    expect(failure?.err?.message).to.match(/IMG_20\.jpg: changed since the archive was planned/);
    expect((await getRaw(base + q(PARIS))).status).to.equal(200);
  });
});

function rawBody(res: request.Response, done: (err: Error | null, body: Buffer) => void): void {
  const chunks: Buffer[] = [];
  res.on('data', (c: Buffer) => chunks.push(c));
  res.on('end', () => done(null, Buffer.concat(chunks)));
}
