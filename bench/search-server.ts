/**
 * The `search` figure's server: a library of N synthetic photos (albums of 200, facts records
 * made in memory as the preparation would write them: dates over 20 years, 20 cameras, places
 * for 40%), its memory measured around its build, then `/search?q=` answered over HTTP as
 * /api/search does: the visitor's albums by the one rule (albumsVisibleTo, anonymous), the
 * library's page of 60, as JSON. Express, the tiles' thumbnail URLs (a stat per result) are
 * not in it: this is the index's cost; the route's own is the album-media API's.
 *
 *   node --expose-gc --import tsx bench/search-server.ts <photos>
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { EventEmitter } from 'node:events';
import { parseAlbumRecord } from '../server/core/albums/album-record.js';
import type { Album, MediaItem, TreeNode } from '../server/core/albums/album-tree.js';
import { albumsVisibleTo } from '../server/core/access/visible-albums.js';
import { ANONYMOUS } from '../server/core/access/visitor.js';
import { createLogger } from '../server/core/logger.js';
import type { Stored } from '../server/media/dimensions-file.js';
import { createLibrary } from '../server/media/library/library.js';

const PHOTOS = Number(process.argv[2] ?? 1_000_000);
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

function buildTree(): { root: TreeNode; albums: Album[] } {
  const root = { path: '', name: '', meta: undefined, parent: undefined, children: [], media: [] } as TreeNode;
  const albums: Album[] = [];
  const count = Math.ceil(PHOTOS / PER_ALBUM);
  for (let a = 0; a < count; a++) {
    const year = 2005 + (a % 20);
    const name = `album-${a}`;
    const meta = parseAlbumRecord(JSON.stringify({ title: `Trip ${a} to the ${a % 2 ? 'sea' : 'mountains'}`, token: `t${a}` }));
    const media: MediaItem[] = Array.from({ length: Math.min(PER_ALBUM, PHOTOS - a * PER_ALBUM) }, (_, i) => ({
      name: `IMG_${String(a * PER_ALBUM + i).padStart(7, '0')}.JPG`,
      kind: 'image',
    }));
    const album = { path: `${year}/${name}`, name, meta, parent: root, children: [], media } as unknown as Album;
    (root.children as TreeNode[]).push(album);
    albums.push(album);
  }
  return { root, albums };
}

function recordOf(album: Album): Map<string, Stored> {
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

const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;
const gc = () => {
  for (let i = 0; i < 3; i++) (globalThis as { gc?: () => void }).gc?.();
};

async function main(): Promise<void> {
  const { root, albums } = buildTree();
  const byPath = new Map(albums.map((album) => [album.path, album]));
  const index = Object.assign(new EventEmitter(), { albums: () => albums.values(), album: (path: string) => byPath.get(path) });
  gc();
  const before = process.memoryUsage();
  const started = performance.now();
  const library = createLibrary({ index, readFacts: async (path) => recordOf(index.album(path)!), log: createLogger({ level: 'silent' }) });
  await library.ready();
  const buildMs = performance.now() - started;
  gc();
  const after = process.memoryUsage();
  console.log(
    `library: ${library.size} files in ${albums.length} albums, built in ${Math.round(buildMs)} ms; memory +${mb(after.rss - before.rss)} MB RSS, +${mb(after.heapUsed - before.heapUsed)} MB heap, +${mb(after.arrayBuffers - before.arrayBuffers)} MB array buffers`,
  );

  // In-process times of the queries the figure asks, without HTTP: where the time goes.
  for (const q of (process.env.SEARCH_QUERIES ?? '').split(',').filter(Boolean)) {
    const times: number[] = [];
    for (let i = 0; i < 7; i++) {
      const t0 = performance.now();
      library.search(albumsVisibleTo(root, { ...ANONYMOUS }), q, 1);
      times.push(performance.now() - t0);
    }
    const rule = performance.now();
    albumsVisibleTo(root, { ...ANONYMOUS });
    console.log(`in process: "${q}" ${times.sort((a, b) => a - b)[3]!.toFixed(1)} ms (of which the access rule ${(performance.now() - rule).toFixed(1)} ms)`);
  }

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const q = url.searchParams.get('q') ?? '';
    const visible = albumsVisibleTo(root, { ...ANONYMOUS });
    const answer = library.search(visible, q, Number(url.searchParams.get('page') ?? 1));
    const body = JSON.stringify({
      total: answer.total,
      results: answer.results.map((f) => ({
        path: `${f.album.path}/${f.item.name}`,
        album: f.album.path,
        albumTitle: f.album.meta.title,
        name: f.item.name,
        kind: f.item.kind,
        taken: f.taken === undefined ? null : new Date(f.taken).toISOString().slice(0, 19),
        width: f.width,
        height: f.height,
        thumbHash: f.thumbHash ?? null,
      })),
      albums: answer.albums.map((a) => ({ path: a.path, title: a.meta.title })),
    });
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
    res.end(body);
  });
  server.listen(0, '127.0.0.1', () => console.log(`search server listening on ${(server.address() as AddressInfo).port}`));
  process.on('SIGTERM', () => {
    server.close(() => process.exit(0));
    server.closeAllConnections();
  });
}

void main();
