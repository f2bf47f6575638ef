import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import { exifBombJpeg } from '../support/exif-bomb.js';
import { type AdminFixture, createAdminFixture } from './support/admin-fixture.js';

describe('admin upload of a JPEG with a hostile EXIF block', function () {
  let fx: AdminFixture;
  let albumDir: string;

  beforeEach(async function () {
    fx = await createAdminFixture({ maxUploadBytes: 1024 * 1024 });
    albumDir = await fx.album('2024/travel/lisbon', { title: 'Lisbon', token: 'lisbon-token-0123456789' });
  });
  afterEach(() => fx.close());

  it('should store it after bounded work: its pixels are fine and the gallery reads its EXIF safely', async function () {
    const started = Date.now();
    const res = await request(fx.app)
      .post('/api/photos/2024/travel/lisbon')
      .attach('files', await exifBombJpeg(), 'bomb.jpg');
    expect(Date.now() - started).to.be.below(2000);
    expect(res.status).to.equal(201);
    expect(res.body.stored).to.equal(1);
    expect(fs.existsSync(path.join(albumDir, 'bomb.jpg'))).to.equal(true);
  });
});
