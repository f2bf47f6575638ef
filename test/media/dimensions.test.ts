import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import type { MediaItem, TreeNode } from '../../server/core/albums/album-tree.js';
import { mediaKind } from '../../server/core/media-catalogue.js';
import { createMediaPool, type MediaPool, PoolBusyError } from '../../server/media/pool.js';
import { DimensionsCache, type HeaderReader } from '../../server/media/dimensions.js';
import { wallClockOf } from '../../server/core/media/taken-date.js';
import { writeJpeg } from '../support/gallery-fixture.js';
import { writeDatedJpeg, writeVideo } from '../support/media-fixtures.js';
import { makeTempDir, removeTempDir } from '../support/temp-dir.js';
import { quietLogger } from '../support/capture-logger.js';

/** A reader that knows sizes by file name and counts what it was asked. */
class FakeReader implements HeaderReader {
  readonly asked: string[] = [];
  /** The priority each read was asked at, by file name. */
  readonly priorities = new Map<string, string | undefined>();
  fail = new Map<string, Error>();
  delayMs = 0;

  async dimensions({ src }: { src: string }, opts?: { priority?: string }) {
    this.priorities.set(path.basename(src), opts?.priority);
    return this.#answer(src, { width: 300, height: 200 });
  }

  async videoInfo({ src }: { src: string }, opts?: { priority?: string }) {
    this.priorities.set(path.basename(src), opts?.priority);
    return this.#answer(src, { width: 1920, height: 1080, duration: 65.4 });
  }

  async #answer<T>(src: string, value: T): Promise<T> {
    this.asked.push(path.basename(src));
    if (this.delayMs) await new Promise((r) => setTimeout(r, this.delayMs));
    const err = this.fail.get(path.basename(src));
    if (err) throw err;
    return value;
  }
}

/** An album node as the index builds it: only `path` and `media` matter here. */
function albumNode(albumPath: string, names: readonly string[]): TreeNode {
  const media: MediaItem[] = names.map((name) => ({ name, kind: mediaKind(name)! }));
  return { path: albumPath, name: path.basename(albumPath), meta: undefined, parent: undefined, children: [], media };
}

/** Where a fake node's file is: these nodes are not in an index, so the symlink rule is not asked. */
/** The file at the joined path, with its stat; undefined when it is not a regular file there. */
const joinedPath = (albumsDir: string) => async (node: TreeNode, item: MediaItem) => {
  const absPath = path.join(albumsDir, ...node.path.split('/'), item.name);
  const stat = await fs.promises.stat(absPath).catch(() => undefined);
  return stat?.isFile() ? { absPath, mtimeMs: stat.mtimeMs, size: stat.size } : undefined;
};

describe('DimensionsCache', () => {
  let root: string;
  let albumsDir: string;
  let cacheDir: string;
  const ALBUM = '2024/trip';

  beforeEach(() => {
    root = makeTempDir('gallery-dimensions-');
    albumsDir = path.join(root, 'albums');
    cacheDir = path.join(root, 'cache');
    fs.mkdirSync(path.join(albumsDir, ALBUM), { recursive: true });
    for (const name of ['a.jpg', 'b.jpg', 'clip.mp4']) fs.writeFileSync(path.join(albumsDir, ALBUM, name), `bytes of ${name}`);
  });
  afterEach(() => removeTempDir(root));

  const make = (reader: HeaderReader) => new DimensionsCache({ locate: joinedPath(albumsDir), cacheDir, reader, log: quietLogger });
  /** What a view finds once every read it started is over (a view itself never waits for one). */
  const known = async (cache: DimensionsCache, node: TreeNode, items: readonly MediaItem[]) => {
    await cache.provide(node, items);
    await cache.flush();
    return cache.provide(node, items);
  };

  describe('a first look at an album', () => {
    it('should read each header once and give sizes in the order asked', async () => {
      const reader = new FakeReader();
      const cache = make(reader);
      const node = albumNode(ALBUM, ['a.jpg', 'b.jpg', 'clip.mp4']);
      const dims = await known(cache, node, node.media);
      // These files carry no date: each is dated by its mtime (docs/api.md#dates).
      const mtimeOf = (name: string) => wallClockOf(fs.statSync(path.join(albumsDir, ALBUM, name)).mtimeMs);
      expect(dims).to.deep.equal([
        { width: 300, height: 200, duration: undefined, taken: mtimeOf('a.jpg'), takenFromFile: true },
        { width: 300, height: 200, duration: undefined, taken: mtimeOf('b.jpg'), takenFromFile: true },
        { width: 1920, height: 1080, duration: 65.4, taken: mtimeOf('clip.mp4'), takenFromFile: true },
      ]);
      await cache.provide(node, node.media);
      expect(reader.asked.sort()).to.deep.equal(['a.jpg', 'b.jpg', 'clip.mp4']);
    });

    it('should write the album cache file atomically under CACHE_DIR/dimensions', async () => {
      const cache = make(new FakeReader());
      const node = albumNode(ALBUM, ['a.jpg', 'clip.mp4']);
      await cache.provide(node, node.media);
      await cache.flush();
      const file = path.join(cacheDir, 'dimensions', '2024', 'trip', '.dimensions.json');
      expect(cache.fileOf(ALBUM)).to.equal(file);
      const saved = JSON.parse(fs.readFileSync(file, 'utf8'));
      expect(saved.version).to.equal(7);
      expect(Object.keys(saved.entries).sort()).to.deep.equal(['a.jpg', 'clip.mp4']);
      expect(saved.entries['clip.mp4']).to.include({ width: 1920, height: 1080, duration: 65.4 });
      expect(saved.entries['a.jpg'].mtimeMs).to.equal(fs.statSync(path.join(albumsDir, ALBUM, 'a.jpg')).mtimeMs);
      // No temp file is left beside it.
      expect(fs.readdirSync(path.dirname(file))).to.deep.equal(['.dimensions.json']);
    });
  });

  describe('after a restart', () => {
    it('should take the sizes from the cache file without reading any header', async () => {
      const node = albumNode(ALBUM, ['a.jpg', 'b.jpg', 'clip.mp4']);
      const first = make(new FakeReader());
      await first.provide(node, node.media);
      await first.flush();

      const reader = new FakeReader();
      const restarted = make(reader);
      const fresh = albumNode(ALBUM, ['a.jpg', 'b.jpg', 'clip.mp4']);
      const dims = await restarted.provide(fresh, fresh.media);
      expect(dims.map((d) => d?.width)).to.deep.equal([300, 300, 1920]);
      expect(dims[2]?.duration).to.equal(65.4);
      expect(reader.asked).to.deep.equal([]);
    });

    it('should read a file again when it changed on disk', async () => {
      const node = albumNode(ALBUM, ['a.jpg', 'b.jpg']);
      const first = make(new FakeReader());
      await first.provide(node, node.media);
      await first.flush();
      fs.writeFileSync(path.join(albumsDir, ALBUM, 'b.jpg'), 'a different, longer photo');

      const reader = new FakeReader();
      const again = make(reader);
      const rescanned = albumNode(ALBUM, ['a.jpg', 'b.jpg']);
      await again.provide(rescanned, rescanned.media);
      await again.flush();
      expect(reader.asked).to.deep.equal(['b.jpg']);
    });

    it('should not trust a cache entry whose ThumbHash is not one (the page puts it in an attribute)', async () => {
      const stat = fs.statSync(path.join(albumsDir, ALBUM, 'a.jpg'));
      const file = path.join(cacheDir, 'dimensions', '2024', 'trip', '.dimensions.json');
      fs.mkdirSync(path.dirname(file), { recursive: true });
      const entry = { mtimeMs: stat.mtimeMs, size: stat.size, width: 10, height: 10, thumbHash: '"><script>' };
      fs.writeFileSync(file, JSON.stringify({ version: 3, entries: { 'a.jpg': entry } }));
      const reader = new FakeReader();
      const node = albumNode(ALBUM, ['a.jpg']);
      expect((await known(make(reader), node, node.media))[0]).to.not.have.property('thumbHash');
      expect(reader.asked).to.deep.equal(['a.jpg']);
    });

    it('should start empty from a cache file it cannot read', async () => {
      fs.mkdirSync(path.join(cacheDir, 'dimensions', '2024', 'trip'), { recursive: true });
      fs.writeFileSync(path.join(cacheDir, 'dimensions', '2024', 'trip', '.dimensions.json'), '{"version": 1, "entries": {"a.jpg": {"width": "wide"}');
      const reader = new FakeReader();
      const node = albumNode(ALBUM, ['a.jpg']);
      expect((await known(make(reader), node, node.media))[0]).to.include({ width: 300 });
      expect(reader.asked).to.deep.equal(['a.jpg']);
    });

    it('should never wait for a header read: a view answers with what is known, the reads land for the next', async () => {
      const reader = new FakeReader();
      reader.delayMs = 1500;
      const cache = make(reader);
      const node = albumNode(ALBUM, ['a.jpg', 'b.jpg']);
      const started = Date.now();
      expect(await cache.provide(node, node.media)).to.deep.equal([undefined, undefined]);
      expect(await cache.provide(node, node.media)).to.deep.equal([undefined, undefined]);
      expect(Date.now() - started, 'no view waits for the reads').to.be.below(500);
      await cache.flush();
      expect(await cache.provide(node, node.media)).to.have.nested.property('[0].width', 300);
      // Each once; in which order the reads start is not this test's point (stats answer in any order).
      expect([...reader.asked].sort()).to.deep.equal(['a.jpg', 'b.jpg']);
    });
  });

  describe('when a header cannot be read', () => {
    it('should leave the size out and not ask again for the same item', async () => {
      const reader = new FakeReader();
      reader.fail.set('b.jpg', new Error('corrupt'));
      const cache = make(reader);
      const node = albumNode(ALBUM, ['a.jpg', 'b.jpg']);
      expect((await known(cache, node, node.media))[1]).to.equal(undefined);
      await known(cache, node, node.media);
      expect(reader.asked.filter((n) => n === 'b.jpg')).to.have.length(1);
    });

    it('should ask again on the next view when the pool was only busy', async () => {
      const reader = new FakeReader();
      reader.fail.set('a.jpg', new PoolBusyError());
      const cache = make(reader);
      const node = albumNode(ALBUM, ['a.jpg']);
      expect((await known(cache, node, node.media))[0]).to.equal(undefined);
      reader.fail.clear();
      expect((await known(cache, node, node.media))[0]).to.include({ width: 300 });
    });

    it('should give a missing file no size', async () => {
      const cache = make(new FakeReader());
      const node = albumNode(ALBUM, ['gone.jpg']);
      expect(await cache.provide(node, node.media)).to.deep.equal([undefined]);
    });
  });

  it('should forget files the album no longer has when it saves', async () => {
    const cache = make(new FakeReader());
    await cache.provide(albumNode(ALBUM, ['a.jpg', 'b.jpg']), albumNode(ALBUM, ['a.jpg', 'b.jpg']).media);
    await cache.flush();
    fs.rmSync(path.join(albumsDir, ALBUM, 'b.jpg'));
    const after = albumNode(ALBUM, ['a.jpg', 'clip.mp4']);
    await cache.provide(after, after.media);
    await cache.flush();
    const saved = JSON.parse(fs.readFileSync(cache.fileOf(ALBUM), 'utf8'));
    expect(Object.keys(saved.entries).sort()).to.deep.equal(['a.jpg', 'clip.mp4']);
  });

  describe('a peek', () => {
    it('should not wait for header reads, and leave them to the background', async () => {
      const reader = new FakeReader();
      reader.delayMs = 300;
      const cache = make(reader);
      const node = albumNode(ALBUM, ['a.jpg', 'b.jpg']);
      const started = Date.now();
      expect(await cache.peek(node, node.media)).to.deep.equal([undefined, undefined]);
      expect(Date.now() - started).to.be.below(250);
      expect(cache.provide.settled?.(node.media)).to.equal(false);
      await cache.flush();
      expect(cache.provide.settled?.(node.media)).to.equal(true);
      expect((await cache.peek(node, node.media)).map((d) => d?.width)).to.deep.equal([300, 300]);
      expect(reader.asked.sort()).to.deep.equal(['a.jpg', 'b.jpg']);
    });

    it('should read at background priority, where a page’s own reads are grid work', async () => {
      const reader = new FakeReader();
      const cache = make(reader);
      const node = albumNode(ALBUM, ['a.jpg', 'b.jpg', 'clip.mp4']);
      await cache.provide(node, [node.media[0]!]);
      await cache.peek(node, node.media);
      await cache.flush();
      expect(Object.fromEntries(reader.priorities)).to.deep.equal({ 'a.jpg': 'grid', 'b.jpg': 'background', 'clip.mp4': 'background' });
    });

    describe('of a big cold album', () => {
      const NAMES = Array.from({ length: 40 }, (_, i) => `p${String(i).padStart(2, '0')}.jpg`);
      beforeEach(() => {
        for (const name of NAMES) fs.writeFileSync(path.join(albumsDir, ALBUM, name), `bytes of ${name}`);
      });
      const savedNames = () => {
        const file = make(new FakeReader()).fileOf(ALBUM);
        if (!fs.existsSync(file)) return [];
        return Object.keys((JSON.parse(fs.readFileSync(file, 'utf8')) as { entries: object }).entries);
      };

      it('should save what is read every saveEveryMs while the rest is still being read', async () => {
        const reader = new FakeReader();
        reader.delayMs = 40;
        const cache = new DimensionsCache({ locate: joinedPath(albumsDir), cacheDir, reader, saveEveryMs: 100, log: quietLogger });
        const node = albumNode(ALBUM, NAMES);
        await cache.peek(node, node.media);
        // Two at a time, 40 ms each: 800 ms for all; a save lands every 100 ms meanwhile.
        await new Promise((r) => setTimeout(r, 400));
        const partway = savedNames();
        expect(partway.length).to.be.greaterThan(0).and.lessThan(NAMES.length);
        await cache.flush();
        expect(savedNames().sort()).to.deep.equal([...NAMES].sort());
      });

      it('should drop reads not begun when closed, end the ones under way and save them, and settle promptly', async () => {
        const reader = new FakeReader();
        reader.delayMs = 100;
        const cache = make(reader);
        const node = albumNode(ALBUM, NAMES);
        await cache.peek(node, node.media);
        await new Promise((r) => setTimeout(r, 150));
        const started = Date.now();
        await cache.close();
        // 40 reads two at a time would take 2 s; only the ones begun are waited for.
        expect(Date.now() - started).to.be.below(500);
        expect(reader.asked.length).to.be.within(2, 6);
        expect(savedNames().sort()).to.deep.equal([...reader.asked].sort());
        expect(cache.provide.settled?.(node.media)).to.equal(false);
      });
    });

    it('should answer from the disk cache without reading a header', async () => {
      const node = albumNode(ALBUM, ['a.jpg', 'clip.mp4']);
      const first = make(new FakeReader());
      await first.provide(node, node.media);
      await first.flush();
      const reader = new FakeReader();
      const restarted = make(reader);
      const fresh = albumNode(ALBUM, ['a.jpg', 'clip.mp4']);
      expect((await restarted.peek(fresh, fresh.media)).map((d) => d?.width)).to.deep.equal([300, 1920]);
      expect(restarted.provide.settled?.(fresh.media)).to.equal(true);
      expect(reader.asked).to.deep.equal([]);
    });
  });

  describe('with the media pool', function () {
    this.timeout(30_000);
    let pool: MediaPool;
    before(() => {
      pool = createMediaPool({ workers: 1, maxQueue: 10, log: quietLogger });
    });
    after(() => pool.close());

    it('should read the displayed size and the ThumbHash of a real JPEG', async () => {
      await writeJpeg(path.join(albumsDir, ALBUM, 'real.jpg'), 64, 48);
      const node = albumNode(ALBUM, ['real.jpg']);
      const dims = await known(new DimensionsCache({ locate: joinedPath(albumsDir), cacheDir, reader: pool, log: quietLogger }), node, node.media);
      expect(dims).to.have.length(1);
      expect(dims[0]).to.include({ width: 64, height: 48 });
      expect(dims[0]?.thumbHash).to.match(/^[A-Za-z0-9+/]+=*$/);
    });

    it('should keep the ThumbHash on disk with the size, so a restart reads no photo', async () => {
      await writeJpeg(path.join(albumsDir, ALBUM, 'real.jpg'), 64, 48);
      const node = albumNode(ALBUM, ['real.jpg']);
      const first = new DimensionsCache({ locate: joinedPath(albumsDir), cacheDir, reader: pool, log: quietLogger });
      const [read] = await known(first, node, node.media);
      const saved = JSON.parse(fs.readFileSync(first.fileOf(ALBUM), 'utf8'));
      expect(saved.entries['real.jpg']).to.include({ width: 64, height: 48, thumbHash: read?.thumbHash });

      const tasksBefore = pool.tasksRun;
      const restarted = new DimensionsCache({ locate: joinedPath(albumsDir), cacheDir, reader: pool, log: quietLogger });
      const fresh = albumNode(ALBUM, ['real.jpg']);
      expect(await restarted.provide(fresh, fresh.media)).to.deep.equal([read]);
      expect(pool.tasksRun - tasksBefore).to.equal(0);
    });

    it('should read a photo again whose cache entry came from a version without ThumbHashes', async () => {
      await writeJpeg(path.join(albumsDir, ALBUM, 'real.jpg'), 64, 48);
      const stat = fs.statSync(path.join(albumsDir, ALBUM, 'real.jpg'));
      const file = path.join(cacheDir, 'dimensions', '2024', 'trip', '.dimensions.json');
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, JSON.stringify({ version: 2, entries: { 'real.jpg': { mtimeMs: stat.mtimeMs, size: stat.size, width: 64, height: 48 } } }));
      const node = albumNode(ALBUM, ['real.jpg']);
      const [dims] = await known(new DimensionsCache({ locate: joinedPath(albumsDir), cacheDir, reader: pool, log: quietLogger }), node, node.media);
      expect(dims?.thumbHash).to.be.a('string');
    });

    it("should read the date taken from a photo's EXIF and a video's container, and keep it on disk", async () => {
      await writeDatedJpeg(path.join(albumsDir, ALBUM, 'dated.jpg'), '2024:06:03 14:03:00');
      await writeVideo(path.join(albumsDir, ALBUM, 'dated.mp4'), { seconds: 1, creationTime: '2024-06-06T10:00:00Z' });
      const node = albumNode(ALBUM, ['dated.jpg', 'dated.mp4']);
      const first = new DimensionsCache({ locate: joinedPath(albumsDir), cacheDir, reader: pool, log: quietLogger });
      const [photo, video] = await known(first, node, node.media);
      expect(photo).to.include({ taken: '2024-06-03T14:03:00', takenFromFile: false });
      expect(video).to.include({ taken: wallClockOf(Date.parse('2024-06-06T10:00:00Z')), takenFromFile: false });
      await first.flush();
      const saved = JSON.parse(fs.readFileSync(first.fileOf(ALBUM), 'utf8'));
      expect(saved.entries['dated.jpg'].taken).to.equal('2024-06-03T14:03:00');

      const tasksBefore = pool.tasksRun;
      const restarted = new DimensionsCache({ locate: joinedPath(albumsDir), cacheDir, reader: pool, log: quietLogger });
      const fresh = albumNode(ALBUM, ['dated.jpg', 'dated.mp4']);
      expect(await restarted.provide(fresh, fresh.media)).to.deep.equal([photo, video]);
      expect(pool.tasksRun - tasksBefore).to.equal(0);
    });

    it('should read a file again whose cache entry came from a version without dates', async () => {
      await writeDatedJpeg(path.join(albumsDir, ALBUM, 'dated.jpg'), '2024:06:03 14:03:00');
      const stat = fs.statSync(path.join(albumsDir, ALBUM, 'dated.jpg'));
      const file = path.join(cacheDir, 'dimensions', '2024', 'trip', '.dimensions.json');
      fs.mkdirSync(path.dirname(file), { recursive: true });
      const old = { mtimeMs: stat.mtimeMs, size: stat.size, width: 64, height: 48, thumbHash: 'AAAAAAAAAAA=' };
      fs.writeFileSync(file, JSON.stringify({ version: 3, entries: { 'dated.jpg': old } }));
      const node = albumNode(ALBUM, ['dated.jpg']);
      const [dims] = await known(new DimensionsCache({ locate: joinedPath(albumsDir), cacheDir, reader: pool, log: quietLogger }), node, node.media);
      expect(dims?.taken).to.equal('2024-06-03T14:03:00');
    });
  });
});
