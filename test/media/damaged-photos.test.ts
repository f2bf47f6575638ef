import fs from 'node:fs';
import type { Server } from 'node:http';
import path from 'node:path';
import { expect } from 'chai';
import sharp from 'sharp';
import request from 'supertest';
import { cutInHalf } from '../../scripts/image-fixtures/stills.js';
import { createMediaTestApp, type MediaTestApp, writeCameraJpeg, writeUnreadableJpeg } from '../support/media-fixtures.js';
import { makeTempDir, removeTempDir } from '../support/temp-dir.js';

/** A second is far more than any of these small files takes; a hang would take the deadline. */
const PROMPT_MS = 5000;

/**
 * Damaged photos show what decodes, as browsers show them (issue 25): a phone photo cut
 * short, a GIF or PNG cut short. Only a file nothing can read answers 500, which the page
 * turns into its "cannot show" tile.
 */
describe('damaged photos', function () {
  this.timeout(30_000);
  let root: string;
  let albumsDir: string;
  let media: MediaTestApp;
  let server: Server;
  const file = (name: string) => path.join(albumsDir, 'trip', name);
  const thumbnail = (name: string, size = 'small') => request(server).get(`/api/thumbnail?path=trip/${name}&size=${size}`);

  before(async function () {
    root = makeTempDir('damaged-');
    albumsDir = path.join(root, 'albums');
    await writeCameraJpeg(file('whole.jpg'), 2400, 1600);
    // A phone photo cut short: its EXIF (at the start) is whole, its pixels stop half way.
    fs.writeFileSync(file('cut.jpg'), cutInHalf(fs.readFileSync(file('whole.jpg'))));
    const picture = sharp({ create: { width: 320, height: 240, channels: 3, background: '#3366cc' } });
    fs.writeFileSync(file('cut.gif'), cutInHalf(await picture.clone().gif().toBuffer()));
    fs.writeFileSync(file('cut.png'), cutInHalf(await picture.clone().png({ compressionLevel: 0 }).toBuffer()));
    // A progressive JPEG with a stretch of garbage in its data: libvips stops there, whatever its failOn.
    const progressive = await sharp({ create: { width: 800, height: 600, channels: 3, background: '#000', noise: { type: 'gaussian', mean: 128, sigma: 40 } } })
      .jpeg({ quality: 90, progressive: true })
      .toBuffer();
    for (let i = progressive.length >> 1; i < (progressive.length >> 1) + 2000; i++) progressive[i] = (i * 37) & 0xff;
    fs.writeFileSync(file('garbled.jpg'), progressive);
    await writeUnreadableJpeg(file('unreadable.jpg'));
    fs.writeFileSync(file('text.jpg'), 'not a photo at all');
    media = await createMediaTestApp({ albumsDir, cacheDir: path.join(root, 'cache') });
    server = media.app.listen(0, '127.0.0.1');
  });

  after(async function () {
    server?.close();
    await media?.close();
    removeTempDir(root);
  });

  for (const [name, width, height] of [
    ['cut.jpg', 2400, 1600],
    ['cut.gif', 320, 240],
    ['cut.png', 320, 240],
    ['garbled.jpg', 800, 600],
  ] as const) {
    it(`should make the thumbnails of ${name} from what decodes`, async function () {
      const started = Date.now();
      for (const [size, max] of [
        ['small', 400],
        ['large', 1920],
      ] as const) {
        const res = await thumbnail(name, size).expect(200).expect('Content-Type', 'image/jpeg');
        const meta = await sharp(res.body as Buffer).metadata();
        const scale = Math.min(1, max / width);
        expect([meta.width, meta.height], size).to.deep.equal([Math.round(width * scale), Math.round(height * scale)]);
      }
      expect(Date.now() - started).to.be.below(PROMPT_MS);
    });
  }

  it('should show the top of a phone photo cut short as it was taken', async function () {
    const [whole, cut] = await Promise.all(['whole.jpg', 'cut.jpg'].map(async (name) => (await thumbnail(name).expect(200)).body as Buffer));
    const top = (jpeg: Buffer) => sharp(jpeg).extract({ left: 0, top: 0, width: 400, height: 60 }).greyscale().raw().toBuffer();
    const [a, b] = await Promise.all([top(whole!), top(cut!)]);
    const meanDiff = a.reduce((sum, v, i) => sum + Math.abs(v - b[i]!), 0) / a.length;
    expect(meanDiff).to.be.below(4);
  });

  it('should read the EXIF and size of a phone photo cut short', async function () {
    const res = await request(server).get('/api/exif?path=trip/cut.jpg').expect(200);
    expect(res.body).to.include({ Make: 'Canon', ImageWidth: 2400, ImageHeight: 1600 });
  });

  for (const name of ['unreadable.jpg', 'text.jpg']) {
    it(`should answer 500 for ${name}, which nothing can read`, async function () {
      const res = await thumbnail(name).expect(500);
      expect(res.body).to.deep.equal({ error: 'Could not process the media file' });
    });
  }
});
