import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import { readProgress, STALE_AFTER_MS, writeProgress } from '../../server/media/preparation-progress.js';
import { type AdminFixture, createAdminFixture } from './support/admin-fixture.js';

describe('admin GET /api/preparation', () => {
  let fx: AdminFixture;
  beforeEach(async () => {
    fx = await createAdminFixture();
    await fx.album('2024/lisbon', { title: 'Lisbon' });
  });
  afterEach(() => fx.close());

  it('should say nothing is being prepared when no gallery process wrote its progress', async () => {
    const res = await request(fx.app).get('/api/preparation').expect(200);
    expect(res.body).to.deep.equal({ working: false, albumsWaiting: 0, current: null, secondsLeft: null });
    expect(res.headers['cache-control']).to.equal('no-store');
  });

  it('should tell the album under way, how far, and the time it still needs at the recent rate', async () => {
    await writeProgress(fx.cacheDir, { albumsWaiting: 3, current: { path: '2024/lisbon', done: 312, total: 500 }, filesPrepared: 312, rate: 2 });
    const res = await request(fx.app).get('/api/preparation').expect(200);
    expect(res.body).to.deep.equal({
      working: true,
      albumsWaiting: 3,
      current: { path: '2024/lisbon', title: 'Lisbon', done: 312, total: 500 },
      secondsLeft: 94,
    });
  });

  it('should leave out the progress of a process that stopped writing it', async () => {
    await writeProgress(fx.cacheDir, { albumsWaiting: 1, current: { path: '2024/lisbon', done: 1, total: 5 }, filesPrepared: 1, rate: 1 });
    expect(await readProgress(fx.cacheDir, Date.now() + STALE_AFTER_MS + 1)).to.deep.equal([]);
    // A file that is not a progress at all is left out too.
    fs.writeFileSync(path.join(fx.cacheDir, 'preparation', '1.json'), '{"version": 1, "albumsWaiting": "many"}');
    expect((await readProgress(fx.cacheDir)).map((p) => p.pid)).to.deep.equal([process.pid]);
  });
});
