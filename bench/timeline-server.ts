/**
 * The `timeline` figure's server: the library of N synthetic photos (bench/library-corpus.ts,
 * the `search` figure's), then the timeline's pages answered over HTTP as /api/timeline picks
 * them (server/public/pages/timeline.ts timelineFiles, viewerFiles): the visitor's albums by
 * the one rule (albumsVisibleTo, anonymous), the months' counts, 120 files after a cursor, as
 * JSON with each file's facts. The tiles' thumbnail URLs (a stat per file of a real tree) are
 * not in it: this is the index's cost; the tiles' is the album page's (figure `page`).
 *
 *   node --import tsx bench/timeline-server.ts <photos>
 *   GET /first  GET /month?m=YYYY-MM  GET /cursor?c=…  GET /viewer?page=N
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { albumsVisibleTo } from '../server/core/access/visible-albums.js';
import { ANONYMOUS } from '../server/core/access/visitor.js';
import type { LibraryFile } from '../server/media/library/library.js';
import { timelineFiles, viewerFiles } from '../server/public/pages/timeline.js';
import { syntheticLibrary } from './library-corpus.js';

const PHOTOS = Number(process.argv[2] ?? 1_000_000);

const factsOf = (f: LibraryFile) => ({
  path: `${f.album.path}/${f.item.name}`,
  album: f.album.path,
  albumTitle: f.album.meta.title,
  name: f.item.name,
  kind: f.item.kind,
  taken: new Date(f.sortTime).toISOString().slice(0, 19),
  width: f.width,
  height: f.height,
  thumbHash: f.thumbHash ?? null,
});

async function main(): Promise<void> {
  const { root, albums, library, buildMs } = await syntheticLibrary(PHOTOS);
  console.log(`library: ${library.size} files in ${albums.length} albums, built in ${Math.round(buildMs)} ms`);

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const visible = albumsVisibleTo(root, { ...ANONYMOUS });
    let body: string;
    if (url.pathname === '/viewer') {
      const { files, offset } = viewerFiles(library, visible, Number(url.searchParams.get('page') ?? 1));
      body = JSON.stringify({ items: files.map((f, i) => ({ ...factsOf(f), index: offset + i })) });
    } else {
      const month = url.searchParams.get('m');
      const cursor = url.searchParams.get('c');
      const start = month ? { month } : cursor ? { cursor, at: 0 } : undefined;
      const page = timelineFiles(library, visible, start);
      body = JSON.stringify({ total: page.total, months: page.months, at: page.at, files: page.files.map(factsOf), next: page.next });
    }
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
    res.end(body);
  });
  server.listen(0, '127.0.0.1', () => console.log(`timeline server listening on ${(server.address() as AddressInfo).port}`));
  process.on('SIGTERM', () => {
    server.close(() => process.exit(0));
    server.closeAllConnections();
  });
}

void main();
