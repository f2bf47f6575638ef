import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import { type AdminFixture, createAdminFixture, listDir } from './support/admin-fixture.js';

/** A real iPhone HEIC (CC BY-SA 4.0, see test/fixtures/heic/ATTRIBUTION.md). */
const IPHONE = path.join(import.meta.dirname, '..', 'fixtures', 'heic', 'IMG_5195.HEIC');

describe('admin upload of HEIC photos', function () {
  this.timeout(30_000);
  let fx: AdminFixture;
  let albumDir: string;

  before(async () => {
    fx = await createAdminFixture({ maxUploadBytes: 4 * 1024 * 1024 });
    albumDir = await fx.album('2024/phone', { title: 'Phone', token: 'phone-token-0123456789' });
  });
  after(() => fx.close());

  it('should accept a real HEIC after decoding it, keeping its bytes', async () => {
    const res = await request(fx.app).post('/api/photos/2024/phone').attach('files', IPHONE, 'IMG_5195.HEIC').expect(201);
    expect(res.body.results).to.deep.equal([{ name: 'IMG_5195.HEIC', ok: true, file: 'IMG_5195.HEIC', kind: 'image', size: fs.statSync(IPHONE).size }]);
    expect(Buffer.compare(fs.readFileSync(path.join(albumDir, 'IMG_5195.HEIC')), fs.readFileSync(IPHONE))).to.equal(0);
  });

  it('should refuse a HEIC whose pixels cannot be decoded, and a text file named .heic, leaving the album as it was', async () => {
    const before = listDir(albumDir);
    const res = await request(fx.app)
      .post('/api/photos/2024/phone')
      .attach('files', fs.readFileSync(IPHONE).subarray(0, 20_000), 'cut.heic')
      .attach('files', Buffer.from('not a photo\n'.repeat(40)), 'text.HEIC')
      .expect(400);
    expect(res.body.results).to.deep.equal([
      { name: 'cut.heic', ok: false, error: 'Not a decodable image' },
      { name: 'text.HEIC', ok: false, error: 'Not a decodable image' },
    ]);
    expect(listDir(albumDir)).to.deep.equal(before);
  });
});
