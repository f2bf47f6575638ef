import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import type { Express } from 'express';
import request from 'supertest';
import { createAdminApp } from '../../server/admin/app.js';
import { AlbumIndex } from '../../server/core/albums/album-index.js';
import { type Config, loadConfig } from '../../server/core/config.js';
import { type Gallery, createGallery } from '../../server/gallery.js';
import { makeTempDir, removeTempDir } from '../support/temp-dir.js';
import { makeJpeg } from './support/admin-fixture.js';
import { quietLogger } from '../support/capture-logger.js';
import { eventuallyPasses } from '../support/eventually-passes.js';

describe('admin and public server on one tree', function () {
  this.timeout(60_000);
  let root: string;
  let config: Config;
  let adminIndex: AlbumIndex;
  let admin: Express;
  let gallery: Gallery;

  beforeEach(async () => {
    root = makeTempDir('gallery-admin-public-');
    for (const dir of ['albums', 'content', 'cache']) fs.mkdirSync(path.join(root, dir));
    config = loadConfig({ ALBUMS_DIR: 'albums', CONTENT_DIR: 'content', CACHE_DIR: 'cache', ADMIN_PORT: '0', PORT: '0', WORKERS: '1' }, root);
    // The public server watches the tree, as in production; the admin rescans its own index after each write.
    gallery = await createGallery(config, { watch: true, log: quietLogger });
    adminIndex = await AlbumIndex.open({ albumsDir: config.albumsDir, watch: false, log: quietLogger });
    admin = createAdminApp(config, { index: adminIndex, log: quietLogger });
  });

  afterEach(async () => {
    adminIndex.close();
    await gallery.close();
    removeTempDir(root);
  });

  it('should show an album created and filled through the admin, without a restart', async () => {
    await request(admin).post('/api/albums').send({ path: '2024/travel/lisbon', title: 'Lisbon by the sea' }).expect(201);
    await request(admin)
      .post('/api/photos/2024/travel/lisbon')
      .attach('files', await makeJpeg(), 'Beach Day.JPG')
      .expect(201);
    await eventuallyPasses(async () => {
      const res = await request(gallery.handler).get('/photos/2024/travel/lisbon').expect(200);
      expect(res.text).to.include('Lisbon by the sea');
      expect(res.text).to.include('Beach%20Day.JPG');
    });
  });

  it('should lock an album given a password through the admin, and open it with its share link once allowed', async () => {
    await request(admin).post('/api/albums').send({ path: '2024/family/xmas', title: 'Christmas' }).expect(201);
    await request(admin)
      .post('/api/photos/2024/family/xmas')
      .attach('files', await makeJpeg(), 'tree.jpg')
      .expect(201);
    const locked = await request(admin).put('/api/albums/2024/family/xmas').send({ password: 'sesame', allowAnonymous: true }).expect(200);
    await eventuallyPasses(async () => {
      const res = await request(gallery.handler).get('/photos/2024/family/xmas').expect(200);
      expect(res.text).to.include('Christmas');
      expect(res.text).not.to.include('tree.jpg');
    });
    const shared = await request(gallery.handler).get(locked.body.sharePath).expect(200);
    expect(shared.text).to.include('tree.jpg');

    // Rotating the token revokes the link given out before.
    const rotated = await request(admin).post('/api/albums/2024/family/xmas?action=rotate-token').expect(200);
    await eventuallyPasses(async () => {
      const old = await request(gallery.handler).get(locked.body.sharePath).expect(200);
      expect(old.text).not.to.include('tree.jpg');
    });
    expect((await request(gallery.handler).get(rotated.body.sharePath).expect(200)).text).to.include('tree.jpg');
  });

  it('should serve albums the admin creates at any depth, nested on /photos', async () => {
    await request(admin).post('/api/albums').send({ path: 'holidays', title: 'Holidays at home' }).expect(201);
    await request(admin).post('/api/albums').send({ path: 'holidays/kids', title: 'The kids' }).expect(201);
    await request(admin).post('/api/albums').send({ path: '2024/lisbon', title: 'Lisbon in two' }).expect(201);
    await request(admin)
      .post('/api/photos/holidays/kids')
      .attach('files', await makeJpeg(), 'swing.jpg')
      .expect(201);
    await eventuallyPasses(async () => {
      const photos = (await request(gallery.handler).get('/photos').expect(200)).text;
      expect(photos).to.include('Holidays at home').and.include('Lisbon in two').and.not.include('No albums yet');
      expect(photos.indexOf('Holidays at home')).to.be.lessThan(photos.indexOf('The kids'));
      const kids = await request(gallery.handler).get('/photos/holidays/kids').expect(200);
      expect(kids.text).to.include('swing.jpg');
    });
    expect((await request(gallery.handler).get('/photos/holidays').expect(200)).text).to.include('The kids');
  });

  it('should drop an album deleted through the admin', async () => {
    await request(admin).post('/api/albums').send({ path: '2024/travel/porto', title: 'Porto' }).expect(201);
    await eventuallyPasses(async () => {
      await request(gallery.handler).get('/photos/2024/travel/porto').expect(200);
    });
    await request(admin).delete('/api/albums/2024/travel/porto').expect(200);
    await eventuallyPasses(async () => {
      await request(gallery.handler).get('/photos/2024/travel/porto').expect(404);
    });
  });

  it('should show the home intro and cards written by the admin', async () => {
    await request(admin).put('/api/home/intro').send({ title: 'Our little gallery', body: 'Hello' }).expect(200);
    await request(admin).post('/api/home/cards').send({ title: 'Summer trips', description: 'Sun', link: '/photos/2024' }).expect(201);
    await eventuallyPasses(async () => {
      const res = await request(gallery.handler).get('/home').expect(200);
      expect(res.text).to.include('Our little gallery');
      expect(res.text).to.include('Summer trips');
    });
  });
});
