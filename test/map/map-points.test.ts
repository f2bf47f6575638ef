import { expect } from 'chai';
import { parseAlbumRecord } from '../../server/core/albums/album-record.js';
import type { Album, MediaItem, TreeNode } from '../../server/core/albums/album-tree.js';
import { isAt, MapIndex, type PlacedFile, roundedSpot } from '../../server/core/map-points.js';

/** An album node without a scan: what the map reads of it is its path and whether it hides locations. */
function album(name: string, meta: Record<string, unknown> = {}, parent?: TreeNode): Album {
  const root = parent ?? ({ path: '', name: '', parent: undefined, children: [], media: [] } as unknown as TreeNode);
  const made = {
    path: root.path ? `${root.path}/${name}` : name,
    name,
    meta: parseAlbumRecord(JSON.stringify({ title: name, token: `t-${name}`, ...meta })),
    parent: root,
    children: [],
    media: [],
  };
  (root.children as TreeNode[]).push(made as TreeNode);
  return made as Album;
}

const photo = (of: Album, name: string, lat: number, lon: number, sortTime = 0): PlacedFile => ({
  album: of,
  item: { name, kind: 'image' } as MediaItem,
  sortTime,
  position: { lat, lon },
});

/** The decimals of a served number: what a visitor could read off it. */
const decimals = (n: number) => (String(n).split('.')[1] ?? '').length;

describe('the map points (server/core/map-points.ts)', () => {
  describe('roundedSpot', () => {
    it('should snap a city precision position to 0.01° and a country one to 1°', () => {
      expect(roundedSpot({ lat: 38.713_456, lon: -9.139_876 }, 'city')).to.deep.equal({ lat: 38.71, lon: -9.14 });
      expect(roundedSpot({ lat: 38.713_456, lon: -9.139_876 }, 'country')).to.deep.equal({ lat: 39, lon: -9 });
    });

    it('should keep five decimals (about a metre) for exact', () => {
      expect(roundedSpot({ lat: 38.713_456_789, lon: -9.139_876_543 }, 'exact')).to.deep.equal({ lat: 38.71346, lon: -9.13988 });
    });

    it('should never give a grid number with a tail of floating-point noise', () => {
      for (let i = 0; i < 2000; i++) {
        const spot = roundedSpot({ lat: -80 + i * 0.0813, lon: -179 + i * 0.1791 }, 'city');
        expect(decimals(spot!.lat)).to.be.at.most(2);
        expect(decimals(spot!.lon)).to.be.at.most(2);
      }
    });

    it('should refuse what is not a position', () => {
      expect(roundedSpot({ lat: Number.NaN, lon: 0 }, 'city')).to.equal(undefined);
      expect(roundedSpot({ lat: 91, lon: 0 }, 'city')).to.equal(undefined);
      expect(roundedSpot({ lat: 0, lon: 181 }, 'city')).to.equal(undefined);
    });
  });

  describe('MapIndex', () => {
    const lisbon = album('lisbon');
    const secret = album('secret', { hideLocation: true });
    const inside = album('inside', {}, secret);
    const world = { west: -180, south: -90, east: 180, north: 90 };

    it('should count photos on the same rounded spot as one spot', () => {
      const index = new MapIndex([photo(lisbon, 'a.jpg', 38.7131, -9.1391), photo(lisbon, 'b.jpg', 38.7149, -9.1402)], 'city');
      expect(index.spots).to.equal(1);
      expect(index.marks(world, 13)).to.deep.equal([{ lat: 38.71, lon: -9.14, count: 2 }]);
    });

    it('should leave out files of an album that hides locations, and of one below it', () => {
      const index = new MapIndex([photo(lisbon, 'a.jpg', 38.7, -9.1), photo(secret, 's.jpg', 48.85, 2.35), photo(inside, 'i.jpg', 52.5, 13.4)], 'city');
      expect(index.total).to.equal(1);
      expect(index.marks(world, 0).map((m) => m.count)).to.deep.equal([1]);
    });

    it('should cluster at low zoom, count every photo once, and put the centre back on the grid', () => {
      const files = [
        photo(lisbon, 'a.jpg', 38.7131, -9.1391),
        photo(lisbon, 'b.jpg', 38.7231, -9.1291),
        photo(lisbon, 'c.jpg', 38.7331, -9.1591),
        photo(lisbon, 'd.jpg', 41.1579, -8.6291),
      ];
      const index = new MapIndex(files, 'city');
      const far = index.marks(world, 2);
      expect(far).to.have.length(1);
      expect(far[0]!.count).to.equal(4);
      expect(far[0]!.zoom).to.be.a('number');
      expect(decimals(far[0]!.lat)).to.be.at.most(2);
      expect(decimals(far[0]!.lon)).to.be.at.most(2);
      const near = index.marks(world, 13);
      expect(near.map((m) => m.count).reduce((a, b) => a + b)).to.equal(4);
      expect(near.every((m) => m.zoom === undefined)).to.equal(true);
    });

    it('should answer only the marks inside the bounds', () => {
      const index = new MapIndex([photo(lisbon, 'a.jpg', 38.71, -9.14), photo(lisbon, 'b.jpg', -33.87, 151.21)], 'city');
      expect(index.marks({ west: -20, south: 30, east: 0, north: 50 }, 10)).to.deep.equal([{ lat: 38.71, lon: -9.14, count: 1 }]);
    });
  });

  describe('isAt', () => {
    it('should find a file at its rounded spot only', () => {
      const lisbon = album('lisbon');
      const file = photo(lisbon, 'a.jpg', 38.7131, -9.1391);
      expect(isAt(file, { lat: 38.71, lon: -9.14 }, 'city')).to.equal(true);
      expect(isAt(file, { lat: 38.72, lon: -9.14 }, 'city')).to.equal(false);
      expect(isAt(file, { lat: 39, lon: -9 }, 'country')).to.equal(true);
    });
  });
});
