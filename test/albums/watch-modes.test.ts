import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { AlbumIndex } from '../../server/core/albums/album-index.js';
import { HomeContentStore } from '../../server/core/home-content.js';
import { PROBE_PREFIX, remoteFilesystemName, remoteFilesystemOf } from '../../server/core/watch/watch-mode.js';
import { loggerInto } from '../support/capture-logger.js';
import { eventually, writeJpeg } from '../support/gallery-fixture.js';
import { makeTempDir, removeTempDir, writeAlbum } from '../support/temp-dir.js';

const POLL_MS = 100;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('watching the album tree (server/core/watch/)', () => {
  let root: string;
  let elsewhere: string;
  let logs: string[];
  let index: AlbumIndex | undefined;

  beforeEach(() => {
    root = makeTempDir();
    elsewhere = makeTempDir();
    logs = [];
    writeAlbum(root, '2024/travel/alps', { title: 'Alps', token: 'tok-alps' });
    writeAlbum(root, '2024/travel/zeta', { title: 'Zeta', token: 'tok-zeta' });
  });

  afterEach(() => {
    index?.close();
    index = undefined;
    removeTempDir(root);
    removeTempDir(elsewhere);
  });

  describe('with WATCH=poll', () => {
    const open = async (extra: Partial<Parameters<typeof AlbumIndex.open>[0]> = {}) =>
      (index = await AlbumIndex.open({
        albumsDir: root,
        watch: true,
        watchSetting: 'poll',
        pollIntervalMs: POLL_MS,
        debounceMs: 20,
        log: loggerInto(logs),
        ...extra,
      }));

    it('should pick up new photos, album.json saved in place, and new or removed albums', async () => {
      const idx = await open();
      expect(idx.watchMode).to.equal('poll');
      await writeJpeg(path.join(root, '2024/travel/alps/new.jpg'));
      await eventually(() => idx.album('2024/travel/alps')!.media.some((m) => m.name === 'new.jpg'), 3000, 'new photo');
      // Written in place (same inode), as some editors save: only the file's own times change.
      const file = path.join(root, '2024/travel/alps/album.json');
      const ino = fs.statSync(file).ino;
      fs.writeFileSync(file, JSON.stringify({ title: 'Alps renamed', token: 'tok-alps' }));
      expect(fs.statSync(file).ino).to.equal(ino);
      await eventually(() => idx.album('2024/travel/alps')!.meta.title === 'Alps renamed', 3000, 'edited title');
      writeAlbum(root, '2021/x/fresh', { title: 'Fresh', token: 'f' });
      await eventually(() => idx.album('2021/x/fresh') !== undefined, 3000, 'new album in a new folder');
      fs.rmSync(path.join(root, '2024/travel/zeta'), { recursive: true });
      await eventually(() => idx.album('2024/travel/zeta') === undefined, 3000, 'removed album');
    });

    it('should not read the tree again while nothing changes', async () => {
      const idx = await open();
      const version = idx.version;
      await sleep(POLL_MS * 6);
      expect(idx.version).to.equal(version);
    });

    it('should see a change made while the tree was being read', async () => {
      // album.json without a token: the scan writes one back, and this seam runs in between,
      // after the album's directory was listed.
      writeAlbum(root, '2024/travel/notoken', { title: 'No token' });
      let added = false;
      const idx = await open({
        beforeTokenWrite: async (file) => {
          if (added) return;
          added = true;
          await writeJpeg(path.join(path.dirname(file), 'late.jpg'));
        },
      });
      expect(added).to.equal(true);
      expect(idx.album('2024/travel/notoken')!.media.map((m) => m.name)).to.deep.equal([]);
      await eventually(() => idx.album('2024/travel/notoken')!.media.some((m) => m.name === 'late.jpg'), 3000, 'the photo added during the scan');
    });
  });

  describe('with WATCH=auto', () => {
    it('should keep file events where they arrive, leaving no canary behind', async () => {
      index = await AlbumIndex.open({ albumsDir: root, watch: true, watchSetting: 'auto', debounceMs: 20, probeTimeoutMs: 2000, log: loggerInto(logs) });
      await sleep(2500);
      expect(index.watchMode).to.equal('events');
      expect(fs.readdirSync(root).filter((n) => n.startsWith(PROBE_PREFIX))).to.deep.equal([]);
      const version = index.version;
      await sleep(300);
      expect(index.version, 'the canary causes no rescan').to.equal(version);
    });

    it('should switch to polling when events do not arrive, and then see changes', async () => {
      // Watchers that are real but deaf to the tree: they watch another directory.
      const deaf = (_dir: string, listener: (event: string, name: string | Buffer | null) => void) => fs.watch(elsewhere, { persistent: false }, listener);
      index = await AlbumIndex.open({
        albumsDir: root,
        watch: true,
        watchSetting: 'auto',
        pollIntervalMs: POLL_MS,
        debounceMs: 20,
        probeTimeoutMs: 300,
        watchDir: deaf,
        log: loggerInto(logs),
      });
      expect(index.watchMode).to.equal('events');
      const idx = index;
      await eventually(() => idx.watchMode === 'poll', 3000, 'the switch to polling');
      expect(
        logs.some((l) => /file events do not arrive .*polling for changes every 0\.1 s/.test(l)),
        logs.join('\n'),
      ).to.equal(true);
      writeAlbum(root, '2020/y/late', { title: 'Late', token: 'l' });
      await eventually(() => idx.album('2020/y/late') !== undefined, 3000, 'an album found by polling');
      expect(fs.readdirSync(root).filter((n) => n.startsWith(PROBE_PREFIX))).to.deep.equal([]);
    });
  });

  describe('remoteFilesystemName', () => {
    it('should name network and FUSE filesystems, and no local one', () => {
      expect(remoteFilesystemName(0x6969)).to.equal('nfs');
      expect(remoteFilesystemName(0xff534d42)).to.equal('cifs');
      expect(remoteFilesystemName(0xfe534d42)).to.equal('smb2');
      expect(remoteFilesystemName(0x65735546)).to.equal('fuse');
      expect(remoteFilesystemName(0x01021997)).to.equal('9p');
      // ext4, tmpfs, overlayfs, btrfs, xfs
      for (const local of [0xef53, 0x01021994, 0x794c7630, 0x9123683e, 0x58465342]) expect(remoteFilesystemName(local)).to.equal(undefined);
    });

    it('should find the temp directory local', async () => {
      expect(await remoteFilesystemOf(root)).to.equal(undefined);
    });
  });
});

describe('watching the content (HomeContentStore)', () => {
  let dir: string;
  let store: HomeContentStore | undefined;

  beforeEach(() => {
    dir = makeTempDir();
  });
  afterEach(() => {
    store?.close();
    removeTempDir(dir);
  });

  it('should reload home.json saved in place when polling', async () => {
    const file = path.join(dir, 'home.json');
    fs.writeFileSync(file, JSON.stringify({ intro: { title: 'Before', body: '' }, cards: [] }));
    store = new HomeContentStore(dir, loggerInto([]));
    await store.load();
    store.watch(20, { setting: 'poll', intervalMs: POLL_MS });
    await sleep(POLL_MS * 3);
    fs.writeFileSync(file, JSON.stringify({ intro: { title: 'After', body: '' }, cards: [] }));
    const s = store;
    await eventually(() => s.content.intro.title === 'After', 3000, 'the new title');
  });
});
