import path from 'node:path';
import { expect } from 'chai';
import { AlbumIndex } from '../../server/core/albums/album-index.js';
import { createMediaLocator } from '../../server/core/access/media-location.js';
import { DimensionsCache } from '../../server/media/dimensions.js';
import { MediaStats } from '../../server/public/pages/media-stats.js';
import { createLivePhotoIds, type LivePhotoIds } from '../../server/media/live-photo-ids.js';
import { createMediaPool, type MediaPool } from '../../server/media/pool.js';
import { loggerInto, quietLogger } from '../support/capture-logger.js';
import { writeJpeg } from '../support/gallery-fixture.js';
import { writeLiveMovie, writeLiveStill } from '../support/live-photo-files.js';
import { makeTempDir, removeTempDir, writeAlbum } from '../support/temp-dir.js';

/**
 * Which files the background pass reads (server/media/live-photo-ids.ts): only folders with
 * movies and stills, only the files that can change a pair, within a bound per folder.
 */
describe('Live Photo identifiers: which files are read', function () {
  this.timeout(60_000);
  let root: string;
  let pool: MediaPool;
  let index: AlbumIndex;
  let service: LivePhotoIds | undefined;
  let facts: DimensionsCache | undefined;
  const read: string[] = [];
  const messages: string[] = [];
  const ID = 'C0FFEE00-1111-4222-8333-444455556666';

  before(async () => {
    root = makeTempDir('live-ids-');
    const albums = path.join(root, 'albums');
    const write = async (album: string, files: Record<string, string | null | 'plain'>) => {
      const dir = writeAlbum(albums, album, { title: album });
      for (const [name, id] of Object.entries(files)) {
        const file = path.join(dir, name);
        if (id === 'plain') await writeJpeg(file);
        else if (/\.mov$/i.test(name)) await writeLiveMovie(file, id);
        else await writeLiveStill(file, id);
      }
    };
    // Photos only, and a movie only: nothing to pair, nothing read.
    await write('photos', { 'a.jpg': 'plain', 'b.jpg': ID });
    await write('movies', { 'IMG_1.MOV': ID });
    // A clip without an identifier beside photos: the clip is read, no photo.
    await write('clip', { 'clip.MOV': null, 'a.jpg': 'plain', 'b.jpg': 'plain', 'c.jpg': 'plain' });
    // A name pair and an unrelated photo: the pair is read; the movie has its still, so the photo is not.
    await write('pair', { 'IMG_1.JPG': ID, 'IMG_1.MOV': ID, 'other.jpg': 'plain' });
    // Two pairs, more files than the bound: nothing read, pairs by name kept.
    await write('large', { 'IMG_1.JPG': null, 'IMG_1.MOV': null, 'IMG_2.JPG': null, 'IMG_2.MOV': null });
    index = await AlbumIndex.open({ albumsDir: albums, watch: false, log: quietLogger });
    pool = createMediaPool({ workers: 1, maxQueue: 16, log: quietLogger });
    const stats = new MediaStats(createMediaLocator(index, albums));
    facts = new DimensionsCache({ locate: (node, item) => stats.of(node, item), cacheDir: path.join(root, 'cache'), reader: pool, log: quietLogger });
    service = createLivePhotoIds({
      index,
      albumsDir: albums,
      facts,
      pool: {
        contentId: (task) => {
          read.push(path.relative(albums, task.src));
          return pool.contentId(task);
        },
      },
      log: loggerInto(messages),
      maxReadsPerFolder: 3,
    });
    await service.idle();
  });

  after(async () => {
    await service?.close();
    await facts?.close();
    index?.close();
    await pool?.close();
    removeTempDir(root);
  });

  it('should read only movies and the stills paired with them, in folders holding both', () => {
    expect([...read].sort()).to.deep.equal(['clip/clip.MOV', 'pair/IMG_1.JPG', 'pair/IMG_1.MOV']);
    expect(index.contentIds('pair')).to.deep.equal(
      new Map([
        ['IMG_1.JPG', ID],
        ['IMG_1.MOV', ID],
      ]),
    );
    expect(index.contentIds('clip')).to.equal(undefined);
  });

  it('should leave a folder past the bound paired by name, and say so once', async () => {
    expect(index.album('large')?.media.map((m) => `${m.name}+${m.motion?.name}`)).to.deep.equal(['IMG_1.JPG+IMG_1.MOV', 'IMG_2.JPG+IMG_2.MOV']);
    expect(messages.filter((m) => m.includes('large'))).to.have.length(1);
    await index.rescan();
    await service!.idle();
    expect(messages.filter((m) => m.includes('large'))).to.have.length(1);
  });
});
