/**
 * The `search` figure's server: a library of N synthetic photos (albums of 200, facts records
 * made in memory as the preparation would write them: dates over 20 years, 20 cameras, places
 * for 40%), its memory measured around its build and first search, then `/search?q=` answered over HTTP as
 * /api/search does: the visitor's albums by the one rule (albumsVisibleTo, anonymous), the
 * library's page of 60, as JSON. Express, the tiles' thumbnail URLs (a stat per result) are
 * not in it: this is the index's cost; the route's own is the album-media API's.
 *
 *   node --expose-gc --import tsx bench/search-server.ts <photos>
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { albumsVisibleTo } from '../server/core/access/visible-albums.js';
import { ANONYMOUS } from '../server/core/access/visitor.js';
import { SEARCH_ALBUM_CARDS } from '../server/public/pages/search-results.js';
import { mb, settleHeap, syntheticLibrary } from './library-corpus.js';

const PHOTOS = Number(process.argv[2] ?? 1_000_000);

async function main(): Promise<void> {
  let before = process.memoryUsage();
  const { root, albums, library, buildMs } = await syntheticLibrary(PHOTOS, () => {
    settleHeap();
    before = process.memoryUsage();
  });
  // The first query makes what search keeps beside the slices (the albums' words and summary): counted in.
  const firstQuery = performance.now();
  library.search(albumsVisibleTo(root, { ...ANONYMOUS }), 'warm', 1);
  const firstMs = performance.now() - firstQuery;
  settleHeap();
  const after = process.memoryUsage();
  console.log(
    `library: ${library.size} files in ${albums.length} albums, built in ${Math.round(buildMs)} ms, first search ${Math.round(firstMs)} ms; memory +${mb(after.rss - before.rss)} MB RSS, +${mb(after.heapUsed - before.heapUsed)} MB heap, +${mb(after.arrayBuffers - before.arrayBuffers)} MB array buffers`,
  );

  // In-process times of the queries the figure asks, without HTTP: where the time goes.
  for (const q of (process.env.SEARCH_QUERIES ?? '').split(',').filter(Boolean)) {
    const times: number[] = [];
    // 31 times, the median: the first few run before the JIT has compiled the search, as no query under load does.
    for (let i = 0; i < 31; i++) {
      const t0 = performance.now();
      library.search(albumsVisibleTo(root, { ...ANONYMOUS }), q, 1);
      times.push(performance.now() - t0);
    }
    const rule = performance.now();
    albumsVisibleTo(root, { ...ANONYMOUS });
    console.log(`in process: "${q}" ${times.sort((a, b) => a - b)[15]!.toFixed(1)} ms (of which the access rule ${(performance.now() - rule).toFixed(1)} ms)`);
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
      albums: answer.albums.slice(0, SEARCH_ALBUM_CARDS).map((a) => ({ path: a.path, title: a.meta.title })),
      albumsTotal: answer.albums.length,
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
