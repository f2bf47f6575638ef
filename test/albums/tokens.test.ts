import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import { AlbumIndex } from '../../server/core/albums/album-index.js';
import { readVersioned, replaceIfUnchanged } from '../../server/core/albums/versioned-file.js';
import { accessCookie, GalleryFixture } from '../support/gallery-fixture.js';
import { makeTempDir, removeTempDir, withReadOnlyDir, writeAlbum } from '../support/temp-dir.js';
import { loggerInto } from '../support/capture-logger.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const readJson = (file: string) => JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;

describe('album tokens live in album.json', () => {
  describe('on the public server', () => {
    const fx = new GalleryFixture();
    let app: ReturnType<typeof request>;
    const album = '2024/trip/lisbon';
    const photo = `/albums/${album}/beach.jpg`;

    beforeEach(async () => {
      await fx.build({ [album]: { meta: { title: 'Lisbon', password: 'old-secret' }, files: ['beach.jpg'] } });
      await fx.start();
      app = request(fx.gallery.handler);
    });
    afterEach(async () => {
      await fx.gallery.close();
      fs.rmSync(fx.albumsDir, { recursive: true, force: true });
    });
    after(() => fx.close());

    it('should write a new token to disk when the token line is deleted, and refuse the old cookie', async () => {
      const first = fx.token(album);
      expect(fx.readAlbumJson(album).token).to.equal(first);
      await app
        .get(photo)
        .set('Cookie', accessCookie([first]))
        .expect(200);

      // The owner deletes the token line and changes the password: old cookies must stop working.
      writeAlbum(fx.albumsDir, album, { title: 'Lisbon', password: 'new-secret' });
      await fx.gallery.index.rescan();

      const second = fx.readAlbumJson(album).token;
      expect(second).to.match(UUID).and.not.equal(first);
      expect(fx.token(album)).to.equal(second);
      await app
        .get(photo)
        .set('Cookie', accessCookie([first]))
        .expect(401);
      await app
        .get(photo)
        .set('Cookie', accessCookie([second as string]))
        .expect(200);
    });

    it('should not open an album re-created at a deleted album’s path for a visitor of the old one', async () => {
      const old = fx.token(album);
      fs.rmSync(fx.path(album), { recursive: true });
      await fx.gallery.index.rescan();
      expect(fx.gallery.index.album(album)).to.equal(undefined);

      await fx.build({ [album]: { meta: { title: 'Someone else’s Lisbon', password: 'other' }, files: ['beach.jpg'] } });
      await fx.gallery.index.rescan();
      expect(fx.readAlbumJson(album).token).to.match(UUID).and.not.equal(old);
      await app
        .get(photo)
        .set('Cookie', accessCookie([old]))
        .expect(401);
    });

    it('should skip an album.json whose token is longer than a cookie may hold, instead of unlocking in vain', async () => {
      const long = 'x'.repeat(300);
      writeAlbum(fx.albumsDir, album, { title: 'Lisbon', password: 'old-secret', token: long });
      await fx.gallery.index.rescan();
      expect(fx.gallery.index.album(album)).to.equal(undefined);
      await app.post('/api/check-password').send({ albumPath: album, password: 'old-secret' }).expect(404);
      // The file is left as the owner wrote it: fixing it (or rotating the token in the admin) brings the album back.
      expect(fx.readAlbumJson(album).token).to.equal(long);
    });

    it('should let a visitor hold a 256-character token: the cookie opens what the unlock granted', async () => {
      const longest = `${'k'.repeat(255)}é`;
      writeAlbum(fx.albumsDir, album, { title: 'Lisbon', password: 'old-secret', token: longest });
      await fx.gallery.index.rescan();
      const res = await app.post('/api/check-password').send({ albumPath: album, password: 'old-secret' }).expect(200);
      const cookie = ([] as string[]).concat(res.headers['set-cookie'] ?? []).map((c) => c.split(';')[0]!);
      await app.get(photo).set('Cookie', cookie).expect(200);
    });

    it('should skip an album.json whose token holds a control character', async () => {
      writeAlbum(fx.albumsDir, album, { title: 'Lisbon', password: 'old-secret', token: 'tab\there-0123456789' });
      await fx.gallery.index.rescan();
      expect(fx.gallery.index.album(album)).to.equal(undefined);
    });
  });

  describe('AlbumIndex write-back', () => {
    let root: string;
    let logs: string[];
    let index: AlbumIndex | undefined;

    beforeEach(() => {
      root = makeTempDir();
      logs = [];
    });
    afterEach(() => {
      index?.close();
      index = undefined;
      removeTempDir(root);
    });

    it('should not lose a hand edit that lands between reading album.json and renaming the new one over it', async () => {
      const dir = writeAlbum(root, '2024/trip/porto', { title: 'Porto' });
      const file = path.join(dir, 'album.json');
      let calls = 0;
      index = await AlbumIndex.open({
        albumsDir: root,
        watch: false,
        log: loggerInto(logs),
        // The owner saves the file in the window: after our read, before our rename.
        beforeTokenWrite: (f) => {
          if (f === file && ++calls === 1) fs.writeFileSync(file, JSON.stringify({ title: 'Porto by night', password: 'late' }));
        },
      });
      expect(calls).to.equal(2);
      const onDisk = readJson(file);
      expect(onDisk).to.include({ title: 'Porto by night', password: 'late' });
      expect(onDisk.token).to.match(UUID);
      const meta = index.album('2024/trip/porto')!.meta;
      expect(meta).to.include({ title: 'Porto by night', password: 'late', token: onDisk.token });
      expect(fs.readdirSync(dir).filter((n) => n.endsWith('.tmp'))).to.deep.equal([]);
    });

    it('should keep a token the owner wrote in the window rather than replace it', async () => {
      const dir = writeAlbum(root, '2024/trip/porto', { title: 'Porto' });
      const file = path.join(dir, 'album.json');
      index = await AlbumIndex.open({
        albumsDir: root,
        watch: false,
        log: loggerInto(logs),
        beforeTokenWrite: () => fs.writeFileSync(file, JSON.stringify({ title: 'Porto', token: 'chosen-by-hand-0123456789' })),
      });
      expect(readJson(file).token).to.equal('chosen-by-hand-0123456789');
      expect(index.album('2024/trip/porto')!.meta.token).to.equal('chosen-by-hand-0123456789');
    });

    it('should keep a memory token only while a read-only album.json stays the same', async () => {
      const dir = writeAlbum(root, '2024/trip/ro', { title: 'RO', password: 'one' });
      const file = path.join(dir, 'album.json');
      await withReadOnlyDir(dir, async () => {
        index = await AlbumIndex.open({ albumsDir: root, watch: false, log: loggerInto(logs) });
        const first = index.album('2024/trip/ro')!.meta.token;
        expect(first).to.match(UUID);
        expect(readJson(file).token).to.equal(undefined);
        expect(logs.join('\n')).to.include('keeping it in memory');

        await index.rescan();
        expect(index.album('2024/trip/ro')!.meta.token).to.equal(first);

        // An edit in place (the directory is read-only, the file is not): a new version, a new token.
        fs.writeFileSync(file, JSON.stringify({ title: 'RO', password: 'two' }));
        await index.rescan();
        const second = index.album('2024/trip/ro')!.meta.token;
        expect(second).to.match(UUID).and.not.equal(first);
      });
      // Writable again: the token in use is the one written, so cookies keep working.
      const inUse = index!.album('2024/trip/ro')!.meta.token;
      await index!.rescan();
      expect(readJson(file).token).to.equal(inUse);
      expect(index!.album('2024/trip/ro')!.meta.token).to.equal(inUse);
    });
  });

  describe('replaceIfUnchanged', () => {
    let dir: string;
    beforeEach(() => (dir = makeTempDir()));
    afterEach(() => removeTempDir(dir));

    it('should replace an unchanged file and refuse one changed since it was read', async () => {
      const file = path.join(dir, 'album.json');
      fs.writeFileSync(file, '{"title":"A"}');
      const read = await readVersioned(file);
      expect(await replaceIfUnchanged(file, read, '{"title":"B"}')).to.equal(true);
      expect(fs.readFileSync(file, 'utf8')).to.equal('{"title":"B"}');

      const stale = await readVersioned(file);
      const edited = await replaceIfUnchanged(file, stale, '{"title":"C"}', () => fs.writeFileSync(file, '{"title":"D"}'));
      expect(edited).to.equal(false);
      expect(fs.readFileSync(file, 'utf8')).to.equal('{"title":"D"}');
      // Same length and content written back over it in the window still counts as a change (a new inode).
      const again = await readVersioned(file);
      const renamed = await replaceIfUnchanged(file, again, '{"title":"E"}', () => {
        fs.writeFileSync(`${file}.hand`, '{"title":"D"}');
        fs.renameSync(`${file}.hand`, file);
      });
      expect(renamed).to.equal(false);
      expect(fs.readdirSync(dir).sort()).to.deep.equal(['album.json']);
    });
  });
});
