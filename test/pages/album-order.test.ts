import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { createMediaLocator } from '../../server/core/access/media-location.js';
import { AlbumIndex } from '../../server/core/albums/album-index.js';
import type { Album } from '../../server/core/albums/album-tree.js';
import { createMediaPool, type MediaPool } from '../../server/media/pool.js';
import { AlbumDates } from '../../server/public/pages/album-dates.js';
import { DimensionsCache, type HeaderReader } from '../../server/media/dimensions.js';
import { MediaStats } from '../../server/public/pages/media-stats.js';
import type { ReadableFile } from '../../server/public/resolvers.js';
import { quietLogger } from '../support/capture-logger.js';
import { writeDatedJpeg, writeJpeg } from '../support/media-fixtures.js';
import { makeTempDir, removeTempDir, writeAlbum } from '../support/temp-dir.js';

/**
 * AlbumDates over the real dimensions pass and media pool, with the header reads held back
 * until the test lets them go: what an album with `"sort": "date"` looks like before its
 * dates are known (docs/api.md#dates), and once they are.
 */
describe('AlbumDates', function () {
  this.timeout(30_000);
  const ALBUM = '2024/trip';
  let root: string;
  let index: AlbumIndex;
  let pool: MediaPool;

  before(async () => {
    root = makeTempDir('gallery-album-order-');
    const albumsDir = path.join(root, 'albums');
    const dir = writeAlbum(albumsDir, ALBUM, { title: 'Trip', sort: 'date' });
    // Name order a, b, c; file times a, c, b; dates taken b, c, a.
    const files: [string, string | undefined, Date][] = [
      ['a.jpg', '2024:06:09 10:00:00', new Date(2024, 5, 1, 12)],
      ['b.jpg', '2024:06:01 10:00:00', new Date(2024, 5, 9, 12)],
      ['c.jpg', undefined, new Date(2024, 5, 5, 12)],
    ];
    for (const [name, exif, mtime] of files) {
      const file = path.join(dir, name);
      if (exif) await writeDatedJpeg(file, exif);
      else await writeJpeg(file, 64, 48);
      fs.utimesSync(file, mtime, mtime);
    }
    index = await AlbumIndex.open({ albumsDir, watch: false, log: quietLogger });
    pool = createMediaPool({ workers: 1, maxQueue: 10, log: quietLogger });
  });
  after(async () => {
    index.close();
    await pool.close();
    removeTempDir(root);
  });

  /** A reader that reads with the pool once `open` is called. */
  function heldReader(): { reader: HeaderReader; open: () => void } {
    let open!: () => void;
    const opened = new Promise<void>((resolve) => {
      open = resolve;
    });
    const reader: HeaderReader = {
      dimensions: async (task) => {
        await opened;
        return pool.dimensions(task);
      },
      videoInfo: async (task) => {
        await opened;
        return pool.videoInfo(task);
      },
    };
    return { reader, open };
  }

  function setUp(reader: HeaderReader) {
    const locate = createMediaLocator(index, path.join(root, 'albums'));
    // As the gallery wires them: the facts take the one stat of each item.
    const stats = new MediaStats(locate);
    const dimensions = new DimensionsCache({ locate: (node, item) => stats.of(node, item), cacheDir: path.join(root, 'cache'), reader, log: quietLogger });
    const dates = new AlbumDates({ dimensions: dimensions.provide, stats, findAlbum: (p) => index.album(p) });
    const album = index.album(ALBUM) as Album;
    const files: ReadableFile[] = album.media.map((item) => ({
      item,
      absPath: path.join(root, 'albums', ALBUM, item.name),
      protected: false,
      hideLocation: false,
      downloadable: true,
    }));
    const names = async () => (await dates.order(ALBUM, files)).map((f) => f.item.name);
    return { dimensions, dates, album, files, names };
  }

  it('should order by file time while the dates are being read, and by date taken once they are', async () => {
    const { reader, open } = heldReader();
    const { dimensions, dates, album, files, names } = setUp(reader);
    expect(await names()).to.deep.equal(['a.jpg', 'c.jpg', 'b.jpg']);
    expect(await dates.span(album, files)).to.deep.equal({ range: undefined, settled: false });

    open();
    await dimensions.flush();
    expect(await names()).to.deep.equal(['b.jpg', 'c.jpg', 'a.jpg']);
    expect(await dates.span(album, files)).to.deep.equal({ range: ['2024-06-01T10:00:00', '2024-06-09T10:00:00'], settled: true });
  });

  it('should take the dates from the disk cache after a restart, without reading a header', async () => {
    const { reader } = heldReader(); // never opened: a read would hold the order at file times
    const { names, dates, album, files } = setUp(reader);
    const fresh = await dates.span(album, files);
    expect(fresh).to.deep.equal({ range: ['2024-06-01T10:00:00', '2024-06-09T10:00:00'], settled: true });
    expect(await names()).to.deep.equal(['b.jpg', 'c.jpg', 'a.jpg']);
  });
});
