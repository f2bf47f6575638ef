import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { createMediaLocator } from '../../server/core/access/media-location.js';
import { AlbumIndex } from '../../server/core/albums/album-index.js';
import { filesOf } from '../../server/core/albums/live-photos.js';
import { dimensionsFile } from '../../server/core/media-catalogue.js';
import { DimensionsCache } from '../../server/media/dimensions.js';
import { readAlbumFacts, type Stored, writeAlbumFacts } from '../../server/media/dimensions-file.js';
import { createLivePhotoIds, type LivePhotoIds } from '../../server/media/live-photo-ids.js';
import { createMediaPool, type MediaPool } from '../../server/media/pool.js';
import { MediaStats } from '../../server/public/pages/media-stats.js';
import { quietLogger } from '../support/capture-logger.js';
import { writeLiveMovie, writeLiveStill } from '../support/live-photo-files.js';
import { makeTempDir, removeTempDir, writeAlbum } from '../support/temp-dir.js';

/**
 * Where the Live Photos' identifiers are kept (server/media/live-photo-ids.ts): in each file's
 * entry of its album's facts record (server/media/dimensions-file.ts `Stored.contentId`),
 * written by the one store of that record, so a restart reads nothing again and an album's
 * preparation and its identifier pass never lose each other's fields.
 */
describe('Live Photo identifiers in the facts record', function () {
  this.timeout(60_000);
  const ID_1 = 'A1B2C3D4-1111-4222-8333-444455556666';
  const ID_2 = 'A1B2C3D4-2222-4333-8444-555566667777';
  const ID_3 = 'A1B2C3D4-3333-4444-8555-666677778888';
  let root: string;
  let albums: string;
  let cacheDir: string;
  let pool: MediaPool;
  /** The running parts, made again for a "restart". */
  let parts: { index: AlbumIndex; facts: DimensionsCache; service: LivePhotoIds } | undefined;
  /** The files the pool's contentId task was asked to read, relative to the albums. */
  let reads: string[] = [];

  /** The gallery's parts as server/gallery.ts wires them: one facts store, shared. */
  const start = async () => {
    const index = await AlbumIndex.open({ albumsDir: albums, watch: false, log: quietLogger });
    const stats = new MediaStats(createMediaLocator(index, albums));
    const facts = new DimensionsCache({ locate: (node, item) => stats.of(node, item), cacheDir, reader: pool, log: quietLogger });
    const service = createLivePhotoIds({
      index,
      albumsDir: albums,
      facts,
      pool: {
        contentId: (task) => {
          reads.push(path.relative(albums, task.src));
          return pool.contentId(task);
        },
      },
      log: quietLogger,
    });
    parts = { index, facts, service };
    await service.idle();
    return parts;
  };
  const stop = async () => {
    await parts?.service.close();
    await parts?.facts.close();
    parts?.index.close();
    parts = undefined;
  };
  const record = (album: string) => readAlbumFacts(dimensionsFile(cacheDir, album));
  const pairs = (album: string) => (parts!.index.album(album)?.media ?? []).map((m) => (m.motion ? `${m.name}+${m.motion.name}` : m.name));

  before(async () => {
    root = makeTempDir('live-ids-record-');
    albums = path.join(root, 'albums');
    cacheDir = path.join(root, 'cache');
    const dir = writeAlbum(albums, 'trip', { title: 'Trip' });
    await Promise.all([
      writeLiveStill(path.join(dir, 'IMG_1.JPG'), ID_1),
      writeLiveMovie(path.join(dir, 'IMG_1.MOV'), ID_1),
      // Paired by identifier only.
      writeLiveStill(path.join(dir, 'IMG_2.JPG'), ID_2),
      writeLiveMovie(path.join(dir, 'IMG_2_export.MOV'), ID_2),
    ]);
    pool = createMediaPool({ workers: 1, maxQueue: 16, log: quietLogger });
    await start();
  });

  after(async () => {
    await stop();
    await pool?.close();
    removeTempDir(root);
  });

  it("should keep each identifier in its file's entry of the facts record, and write no file of its own", async () => {
    expect(pairs('trip')).to.deep.equal(['IMG_1.JPG+IMG_1.MOV', 'IMG_2.JPG+IMG_2_export.MOV']);
    const entries = await record('trip');
    const ids = Object.fromEntries([...entries].map(([name, stored]) => [name, stored.contentId]));
    expect(ids).to.deep.equal({ 'IMG_1.JPG': ID_1, 'IMG_1.MOV': ID_1, 'IMG_2.JPG': ID_2, 'IMG_2_export.MOV': ID_2 });
    // The facts of the file are in the same entry: one record per file.
    expect(entries.get('IMG_2_export.MOV')?.width).to.be.greaterThan(0);
    expect(fs.existsSync(path.join(cacheDir, 'live-photos'))).to.equal(false);
  });

  it('should read no file again after a restart, and pair as before', async () => {
    await stop();
    reads = [];
    await start();
    expect(reads).to.deep.equal([]);
    expect(pairs('trip')).to.deep.equal(['IMG_1.JPG+IMG_1.MOV', 'IMG_2.JPG+IMG_2_export.MOV']);
  });

  it('should read a changed movie again, and only it', async () => {
    const movie = path.join(albums, 'trip', 'IMG_2_export.MOV');
    await writeLiveMovie(movie, ID_3);
    // A later mtime, whatever the clock's resolution.
    const later = new Date(Date.now() + 5_000);
    fs.utimesSync(movie, later, later);
    reads = [];
    await parts!.index.rescan();
    await parts!.service.idle();
    expect(reads).to.deep.equal(['trip/IMG_2_export.MOV']);
    expect(pairs('trip')).to.deep.equal(['IMG_1.JPG+IMG_1.MOV', 'IMG_2_export.MOV', 'IMG_2.JPG']);
    expect((await record('trip')).get('IMG_2_export.MOV')?.contentId).to.equal(ID_3);
  });

  it("should keep a preparation's fields and the identifiers both when both passes run on one album at once", async () => {
    const dir = writeAlbum(albums, 'both', { title: 'Both' });
    await Promise.all([writeLiveStill(path.join(dir, 'IMG_5.JPG'), ID_1), writeLiveMovie(path.join(dir, 'IMG_5.MOV'), ID_1)]);
    const { index, facts, service } = parts!;
    // The rescan starts the identifier pass; the preparation (server/media/preparer.ts's use of
    // the facts: read, mark prepared, save) runs on the same album meanwhile.
    await index.rescan();
    const node = index.album('both')!;
    const items = [...filesOf(node.media)];
    await Promise.all([
      service.idle(),
      (async () => {
        await facts.complete(node, items);
        for (const item of items) await facts.markPrepared(node, item, 'grid-stamp');
        await facts.save(node);
      })(),
    ]);
    await service.idle();
    await facts.save(node);
    const entries = await record('both');
    expect([...entries].map(([name, s]) => `${name} ${s.prepared} ${s.contentId}`)).to.have.members([
      `IMG_5.JPG grid-stamp ${ID_1}`,
      `IMG_5.MOV grid-stamp ${ID_1}`,
    ]);
  });

  it('should keep the identifier when the header of the same version is read again', async () => {
    const { index, facts } = parts!;
    const node = index.album('trip')!;
    // An entry read before newer facts were (`unreadFacts`): its header is read again.
    await facts.records.amend(node, 'IMG_1.JPG', (s) => ({ ...s, unreadFacts: true }));
    await index.rescan();
    const fresh = index.album('trip')!;
    await facts.complete(fresh, [...filesOf(fresh.media)]);
    const entry = await facts.records.entry('trip', 'IMG_1.JPG');
    expect(entry?.unreadFacts).to.equal(undefined);
    expect(entry?.contentId).to.equal(ID_1);
  });

  it('should not read again, on a rescan, a movie whose header cannot be read (it has no entry to be kept in)', async () => {
    const dir = writeAlbum(albums, 'broken', { title: 'Broken' });
    await writeLiveStill(path.join(dir, 'IMG_9.JPG'), ID_2);
    fs.writeFileSync(path.join(dir, 'IMG_9.MOV'), 'not a movie');
    reads = [];
    await parts!.index.rescan();
    await parts!.service.idle();
    expect(reads.filter((r) => r.startsWith('broken/')).sort()).to.deep.equal(['broken/IMG_9.JPG', 'broken/IMG_9.MOV']);
    reads = [];
    await parts!.index.rescan();
    await parts!.service.idle();
    expect(reads).to.deep.equal([]);
  });

  it('should read again only the identifier of an entry whose identifier is damaged, keeping the rest', async () => {
    const file = path.join(cacheDir, 'damaged.json');
    const entry = { mtimeMs: 1, size: 2, width: 3, height: 4 };
    await writeAlbumFacts(file, { 'a.jpg': { ...entry, contentId: 42 } as unknown as Stored, 'b.jpg': { ...entry, contentId: null } });
    const entries = await readAlbumFacts(file);
    expect(entries.get('a.jpg')).to.deep.equal(entry);
    expect(entries.get('b.jpg')).to.deep.equal({ ...entry, contentId: null });
  });
});
