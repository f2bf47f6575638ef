/**
 * The `map` figure's server: the library of N synthetic photos (bench/library-corpus.ts, the
 * `search` figure's: a position for 40% of them), then /api/map's answers over HTTP as the
 * route makes them (server/public/routes/map-routes.ts): the visitor's albums by the one rule
 * (albumsVisibleTo, anonymous) less those hiding locations, one MapIndex of their positions
 * at `city` precision kept for every request (as the route keeps it for 60 s), its marks for a
 * box and a zoom as JSON. It prints how long an index takes to make (what the first visitor
 * after a change waits for) and the memory the library and one index add together.
 *
 *   node --expose-gc --import tsx bench/map-server.ts <photos>
 *   GET /marks?bbox=west,south,east,north&zoom=Z
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { albumsVisibleTo } from '../server/core/access/visible-albums.js';
import { ANONYMOUS } from '../server/core/access/visitor.js';
import { albumsShowingPlaces, MAX_ZOOM, MapIndex } from '../server/core/map-points.js';
import { mb, settleHeap, syntheticLibrary } from './library-corpus.js';

const PHOTOS = Number(process.argv[2] ?? 1_000_000);
const PRECISION = 'city';

async function main(): Promise<void> {
  // The figure: the memory the search and map indexes add together (the library, what
  // the first search makes beside it, one set of clusters).
  let before = process.memoryUsage();
  const { root, library } = await syntheticLibrary(PHOTOS, () => {
    settleHeap();
    before = process.memoryUsage();
  });
  library.search(albumsVisibleTo(root, { ...ANONYMOUS }), 'warm', 1);
  const shown = () => albumsShowingPlaces(albumsVisibleTo(root, { ...ANONYMOUS }));

  // What the first visitor after a change waits for: an index made from the library (median of 5).
  const times: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t0 = performance.now();
    new MapIndex(library.positioned(shown()), PRECISION);
    times.push(performance.now() - t0);
  }
  const kept = new MapIndex(library.positioned(shown()), PRECISION);
  settleHeap();
  const after = process.memoryUsage();
  console.log(
    `map index: ${kept.total} photos at ${kept.spots} spots of ${library.size} files, made in ${Math.round(times.sort((a, b) => a - b)[2] as number)} ms; library and clusters: memory +${mb(after.rss - before.rss)} MB RSS, +${mb(after.heapUsed - before.heapUsed)} MB heap`,
  );

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const [west, south, east, north] = (url.searchParams.get('bbox') ?? '-180,-85,180,85').split(',').map(Number) as [number, number, number, number];
    const zoom = Math.min(Number(url.searchParams.get('zoom') ?? 2), MAX_ZOOM[PRECISION]);
    // The route works out the visitor's albums on every request, and finds its kept index by them.
    shown();
    const body = JSON.stringify({
      precision: PRECISION,
      maxZoom: MAX_ZOOM[PRECISION],
      total: kept.total,
      marks: kept.marks({ west, south, east, north }, zoom),
    });
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
    res.end(body);
  });
  server.listen(0, '127.0.0.1', () => console.log(`map server listening on ${(server.address() as AddressInfo).port}`));
  process.on('SIGTERM', () => {
    server.close(() => process.exit(0));
    server.closeAllConnections();
  });
}

void main();
