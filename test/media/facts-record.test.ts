import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import type { MediaItem, TreeNode } from '../../server/core/albums/album-tree.js';
import { writeJsonCache } from '../../server/core/json-cache.js';
import { mediaKind } from '../../server/core/media-catalogue.js';
import { DimensionsCache, type HeaderReader } from '../../server/media/dimensions.js';
import { readAlbumFacts, type StoredPosition } from '../../server/media/dimensions-file.js';
import { CityGeocoder } from '../../server/media/places/geocoder.js';
import { createMediaPool, type MediaPool } from '../../server/media/pool.js';
import { quietLogger } from '../support/capture-logger.js';
import { gradient, jpegExiftool } from '../support/corpus-images.js';
import { makeTempDir, removeTempDir } from '../support/temp-dir.js';

const ALBUM = '2025/lisbon';

function albumNode(names: readonly string[]): TreeNode {
  const media: MediaItem[] = names.map((name) => ({ name, kind: mediaKind(name)! }));
  return { path: ALBUM, name: 'lisbon', meta: undefined, parent: undefined, children: [], media };
}

/** A header reader that says every photo was taken in Lisbon with a Canon, and notes what it was asked. */
class LisbonReader implements HeaderReader {
  readonly asked: { name: string; withoutPlaceholder: boolean }[] = [];
  async dimensions(task: { src: string; withoutPlaceholder?: boolean }) {
    this.asked.push({ name: path.basename(task.src), withoutPlaceholder: task.withoutPlaceholder === true });
    return {
      width: 300,
      height: 200,
      camera: 'Canon EOS R5',
      position: { lat: 38.7223, lon: -9.1393 },
      places: ['Lisboa'],
      ...(task.withoutPlaceholder ? {} : { thumbHash: 'AAAAAAAA' }),
    };
  }
  async videoInfo() {
    return { width: 1, height: 1, duration: 1 };
  }
}

/** The album facts record with the camera, position and places (docs/api.md#what-is-known-of-a-file), over real files. */
describe("the album facts record's camera, position and places", function () {
  this.timeout(60_000);
  let root: string;
  let albumsDir: string;
  let cacheDir: string;
  const file = (name: string) => path.join(albumsDir, ALBUM, name);
  const locate = async (node: TreeNode, item: MediaItem) => {
    const absPath = path.join(albumsDir, node.path, item.name);
    const stat = await fs.promises.stat(absPath).catch(() => undefined);
    return stat?.isFile() ? { absPath, mtimeMs: stat.mtimeMs, size: stat.size } : undefined;
  };
  const asked: StoredPosition[] = [];
  const countingPlaces = async (position: StoredPosition) => {
    asked.push(position);
    return ['Lisbon', 'Portugal'];
  };

  beforeEach(() => {
    root = makeTempDir('facts-record-');
    albumsDir = path.join(root, 'albums');
    cacheDir = path.join(root, 'cache');
    fs.mkdirSync(path.join(albumsDir, ALBUM), { recursive: true });
    asked.length = 0;
  });
  afterEach(() => removeTempDir(root));

  describe('read through the media pool', () => {
    let pool: MediaPool;
    before(() => {
      pool = createMediaPool({ workers: 1, maxQueue: 50, log: quietLogger });
    });
    after(() => pool.close());

    it('should not load the geocoder while no file has a position, and look each position up once when one has', async () => {
      fs.writeFileSync(file('plain.jpg'), await gradient('jpeg', { IFD0: { Make: 'Apple', Model: 'iPhone 15 Pro' } }));
      const geocoder = new CityGeocoder();
      const cache = new DimensionsCache({ locate, cacheDir, reader: pool, log: quietLogger, placesAt: (p) => geocoder.placesAt(p) });
      await cache.complete(albumNode(['plain.jpg']), albumNode(['plain.jpg']).media);
      expect(geocoder.loaded).to.equal(false);
      expect((await readAlbumFacts(cache.fileOf(ALBUM))).get('plain.jpg'))
        .to.include({ camera: 'Apple iPhone 15 Pro' })
        .and.not.have.any.keys('position', 'places');

      await jpegExiftool(file('belem.jpg'));
      const node = albumNode(['plain.jpg', 'belem.jpg']);
      await cache.complete(node, node.media);
      expect(geocoder.loaded).to.equal(true);
      const stored = (await readAlbumFacts(cache.fileOf(ALBUM))).get('belem.jpg')!;
      expect(stored.camera).to.equal('Canon EOS R5');
      expect(stored.position!.lat).to.be.closeTo(38.710417, 1e-5);
      // The file's own names first, then the geocoder's (Lisbon once: the file names it too), each once.
      expect(stored.places).to.include.members(['Lisbon', 'Lisboa', 'Portugal', 'Belem', 'Portogallo', 'Portugalia']);
      expect(new Set(stored.places!.map((p) => p.toLowerCase())).size).to.equal(stored.places!.length);
    });
  });

  describe('a record of version 6', () => {
    it('should read each file again for the new facts, keeping its placeholder, preparation and CRC', async () => {
      fs.writeFileSync(file('a.jpg'), 'bytes of a');
      const st = fs.statSync(file('a.jpg'));
      const crc32 = { value: 123, ino: st.ino, form: 'file' };
      const old = { mtimeMs: st.mtimeMs, size: st.size, width: 300, height: 200, thumbHash: 'OLDHASH1', prepared: 'm400', crc32 };
      const cache = new DimensionsCache({ locate, cacheDir, reader: new LisbonReader(), log: quietLogger, placesAt: countingPlaces });
      await writeJsonCache(cache.fileOf(ALBUM), 6, { entries: { 'a.jpg': old } });
      const reader = new LisbonReader();
      const restarted = new DimensionsCache({ locate, cacheDir, reader, log: quietLogger, placesAt: countingPlaces });
      const node = albumNode(['a.jpg']);
      // A page has the size at once, from the old record.
      expect((await restarted.provide(node, node.media))[0]).to.include({ width: 300, thumbHash: 'OLDHASH1' });
      await restarted.complete(node, node.media);
      expect(reader.asked).to.deep.equal([{ name: 'a.jpg', withoutPlaceholder: true }]);
      expect(asked).to.deep.equal([{ lat: 38.7223, lon: -9.1393 }]);
      const stored = (await readAlbumFacts(restarted.fileOf(ALBUM))).get('a.jpg');
      expect(stored).to.deep.equal({ ...old, camera: 'Canon EOS R5', position: { lat: 38.7223, lon: -9.1393 }, places: ['Lisboa', 'Lisbon', 'Portugal'] });
      expect(await restarted.isPrepared(node, node.media[0]!, 'm400')).to.equal(true);

      // Read once: the next start reads nothing.
      const again = new LisbonReader();
      const third = new DimensionsCache({ locate, cacheDir, reader: again, log: quietLogger, placesAt: countingPlaces });
      await third.complete(albumNode(['a.jpg']), albumNode(['a.jpg']).media);
      expect(again.asked).to.deep.equal([]);
    });
  });

  describe('a damaged field', () => {
    for (const [what, field] of [
      ['a camera that is not text', { camera: 42 }],
      ['a position off the Earth', { position: { lat: 123, lon: 0 } }],
      ['places that are not names', { places: ['Lisbon', { evil: true }] }],
    ] as const) {
      it(`should not be trusted: ${what} is left out, and the file read again`, async () => {
        fs.writeFileSync(file('a.jpg'), 'bytes of a');
        const st = fs.statSync(file('a.jpg'));
        const cache = new DimensionsCache({ locate, cacheDir, reader: new LisbonReader(), log: quietLogger, placesAt: countingPlaces });
        await writeJsonCache(cache.fileOf(ALBUM), 7, { entries: { 'a.jpg': { mtimeMs: st.mtimeMs, size: st.size, width: 300, height: 200, ...field } } });
        const loaded = (await readAlbumFacts(cache.fileOf(ALBUM))).get('a.jpg')!;
        expect(loaded).to.include({ width: 300, unreadFacts: true }).and.not.have.any.keys(Object.keys(field));
        const reader = new LisbonReader();
        const restarted = new DimensionsCache({ locate, cacheDir, reader, log: quietLogger, placesAt: countingPlaces });
        await restarted.complete(albumNode(['a.jpg']), albumNode(['a.jpg']).media);
        expect(reader.asked.map((a) => a.name)).to.deep.equal(['a.jpg']);
        expect((await readAlbumFacts(cache.fileOf(ALBUM))).get('a.jpg'))
          .to.include({ camera: 'Canon EOS R5' })
          .and.not.have.key('unreadFacts');
      });
    }
  });
});
