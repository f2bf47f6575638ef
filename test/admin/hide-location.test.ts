import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import { gpsImage, gpsOfImage } from '../support/located-media.js';
import { type AdminFixture, createAdminFixture } from './support/admin-fixture.js';

const PARENT = '2024/paris';
const CHILD = '2024/paris/day-1';

describe('admin: hideLocation (docs/api.md#location-privacy)', () => {
  let fx: AdminFixture;
  let photo: Buffer;
  beforeEach(async () => {
    fx = await createAdminFixture();
    photo = await gpsImage('jpeg');
    const dir = await fx.album(PARENT, { title: 'Paris', token: 'paris-token-0123456789' });
    fs.writeFileSync(path.join(dir, 'photo.jpg'), photo);
    await fx.album(CHILD, { title: 'Day 1', token: 'day-one-token-0123456789' });
  });
  afterEach(() => fx.close());

  const albumUrl = (p: string) => `/api/albums/${p}`;

  it('should show no setting of its own and the inherited value off by default', async () => {
    const res = await request(fx.app).get(albumUrl(CHILD)).expect(200);
    expect(res.body).to.deep.include({ hideLocation: null, inheritedHideLocation: false });
  });

  it('should store the switch in album.json and show it inherited by the child, in the detail and the list', async () => {
    const res = await request(fx.app).put(albumUrl(PARENT)).send({ hideLocation: true }).expect(200);
    expect(res.body).to.deep.include({ hideLocation: true, inheritedHideLocation: false });
    expect(fx.readAlbumJson(PARENT)).to.include({ hideLocation: true });
    const child = await request(fx.app).get(albumUrl(CHILD)).expect(200);
    expect(child.body).to.deep.include({ hideLocation: null, inheritedHideLocation: true });
    const list = await request(fx.app).get('/api/albums').expect(200);
    const byPath = Object.fromEntries((list.body as Array<{ path: string }>).map((a) => [a.path, a]));
    expect(byPath[CHILD]).to.deep.include({ hideLocation: null, inheritedHideLocation: true });
    expect(byPath[PARENT]).to.deep.include({ hideLocation: true, inheritedHideLocation: false });
  });

  it('should let a child say false under a parent that hides, and go back to inheriting with null', async () => {
    await request(fx.app).put(albumUrl(PARENT)).send({ hideLocation: true }).expect(200);
    const off = await request(fx.app).put(albumUrl(CHILD)).send({ hideLocation: false }).expect(200);
    expect(off.body).to.deep.include({ hideLocation: false, inheritedHideLocation: true });
    expect(fx.readAlbumJson(CHILD)).to.include({ hideLocation: false });
    await request(fx.app).put(albumUrl(CHILD)).send({ hideLocation: null }).expect(200);
    expect(fx.readAlbumJson(CHILD)).to.not.have.property('hideLocation');
  });

  it('should refuse a value that is not a boolean and leave album.json as it was', async () => {
    const before = fs.readFileSync(path.join(fx.albumsDir, PARENT, 'album.json'));
    const res = await request(fx.app).put(albumUrl(PARENT)).send({ hideLocation: 'yes' }).expect(400);
    expect(res.body.error).to.equal('Invalid album metadata: hideLocation must be a boolean');
    expect(fs.readFileSync(path.join(fx.albumsDir, PARENT, 'album.json')).equals(before)).to.equal(true);
  });

  it('should preview the true file, GPS included, in an album that hides locations', async () => {
    await request(fx.app).put(albumUrl(PARENT)).send({ hideLocation: true }).expect(200);
    const res = await request(fx.app).get(`/media/${PARENT}/photo.jpg`).expect(200);
    expect((res.body as Buffer).equals(photo)).to.equal(true);
    expect((await gpsOfImage(res.body as Buffer)).tags.size).to.be.above(3);
  });
});
