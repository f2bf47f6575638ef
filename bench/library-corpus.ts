/**
 * The synthetic library of the `search` and `timeline` figures: N photos in albums of 200
 * (a year folder each, 20 years), facts records made in memory as the preparation would write
 * them: dates over 20 years, 10 cameras, places for 40%. Deterministic: the same corpus every run.
 */
import { parseAlbumRecord } from '../server/core/albums/album-record.js';
import type { Album, MediaItem, TreeNode } from '../server/core/albums/album-tree.js';
import { EventEmitter } from 'node:events';
import { createLogger } from '../server/core/logger.js';
import type { Stored } from '../server/media/dimensions-file.js';
import { createLibrary, type LibraryIndex } from '../server/media/library/library.js';

const PER_ALBUM = 200;
const CAMERAS = [
  'Apple iPhone 15 Pro',
  'Apple iPhone 12',
  'Canon EOS R6',
  'Canon EOS 5D Mark IV',
  'Nikon Z6',
  'Sony ILCE-7M3',
  'Fujifilm X100V',
  'Google Pixel 8',
  'Samsung Galaxy S23',
  'Olympus E-M10',
];
const PLACES = [
  ['Lisbon', 'Portugal'],
  ['Porto', 'Portugal'],
  ['Paris', 'France'],
  ['Berlin', 'Germany'],
  ['Munich', 'Bavaria', 'Germany'],
  ['Rome', 'Italy'],
  ['Madrid', 'Spain'],
  ['London', 'England', 'United Kingdom'],
  ['Amsterdam', 'Netherlands'],
  ['Kraków', 'Poland'],
  ['Stockholm', 'Sweden'],
  ['İstanbul', 'Turkey'],
];

/** A deterministic pseudo-random sequence: the same corpus every run. */
let seed = 42;
const random = () => {
  seed = (seed * 1_103_515_245 + 12_345) & 0x7fffffff;
  return seed / 0x7fffffff;
};

export function buildTree(photos: number): { root: TreeNode; albums: Album[] } {
  const root = { path: '', name: '', meta: undefined, parent: undefined, children: [], media: [] } as TreeNode;
  const albums: Album[] = [];
  const count = Math.ceil(photos / PER_ALBUM);
  for (let a = 0; a < count; a++) {
    const year = 2005 + (a % 20);
    const name = `album-${a}`;
    const meta = parseAlbumRecord(JSON.stringify({ title: `Trip ${a} to the ${a % 2 ? 'sea' : 'mountains'}`, token: `t${a}` }));
    const media: MediaItem[] = Array.from({ length: Math.min(PER_ALBUM, photos - a * PER_ALBUM) }, (_, i) => ({
      name: `IMG_${String(a * PER_ALBUM + i).padStart(7, '0')}.JPG`,
      kind: 'image',
    }));
    const album = { path: `${year}/${name}`, name, meta, parent: root, children: [], media } as unknown as Album;
    (root.children as TreeNode[]).push(album);
    albums.push(album);
  }
  return { root, albums };
}

export function recordOf(album: Album): Map<string, Stored> {
  const year = Number(album.path.slice(0, 4));
  const start = Date.UTC(year, Math.floor(random() * 12), 1 + Math.floor(random() * 27));
  const entries = new Map<string, Stored>();
  album.media.forEach((item, i) => {
    const taken = new Date(start + i * 90_000).toISOString().slice(0, 19);
    const place = random() < 0.4 ? PLACES[Math.floor(random() * PLACES.length)] : undefined;
    const hash = Buffer.from(Array.from({ length: 21 }, () => Math.floor(random() * 256))).toString('base64');
    entries.set(item.name, {
      mtimeMs: start + i * 90_000,
      size: 3_000_000,
      width: 4032,
      height: 3024,
      thumbHash: hash,
      taken,
      camera: CAMERAS[Math.floor(random() * CAMERAS.length)]!,
      ...(place ? { places: place, position: { lat: 40 + random() * 10, lon: -9 + random() * 30 } } : {}),
    });
  });
  return entries;
}

/**
 * The library of `photos` synthetic photos, read as the gallery reads its facts records, and
 * how long that took. `beforeLibrary` runs once the album tree is made and before the library
 * is: a memory figure starts there, as the tree is the gallery's with or without the library.
 */
export async function syntheticLibrary(
  photos: number,
  beforeLibrary?: () => void,
): Promise<{ root: TreeNode; albums: Album[]; library: LibraryIndex; buildMs: number }> {
  const { root, albums } = buildTree(photos);
  const byPath = new Map(albums.map((album) => [album.path, album]));
  const index = Object.assign(new EventEmitter(), { albums: () => albums.values(), album: (path: string) => byPath.get(path) });
  beforeLibrary?.();
  const started = performance.now();
  const library = createLibrary({ index, readFacts: async (path) => recordOf(index.album(path) as Album), log: createLogger({ level: 'silent' }) });
  await library.ready();
  return { root, albums, library, buildMs: performance.now() - started };
}

/** Megabytes, to one decimal. */
export const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;

/** Full collections until the heap settles (node --expose-gc), before and after a memory figure. */
export function settleHeap(): void {
  for (let i = 0; i < 3; i++) (globalThis as { gc?: () => void }).gc?.();
}
