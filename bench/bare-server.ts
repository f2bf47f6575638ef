/**
 * The ceiling for serving a file over HTTP in Node: `http` plus `fs.createReadStream`, no
 * routing, no checks, sizes known in advance. Started by bench/server-process.ts with the
 * files to serve as arguments; file i is at /i, whatever the query.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

const TYPES: Readonly<Record<string, string>> = { '.jpg': 'image/jpeg', '.html': 'text/html; charset=utf-8' };

const files = process.argv.slice(2).map((file) => ({
  file,
  size: fs.statSync(file).size,
  type: TYPES[path.extname(file)] ?? 'application/octet-stream',
}));

const server = http.createServer((req, res) => {
  const url = req.url ?? '/';
  const end = url.indexOf('?');
  const entry = files[Number((end < 0 ? url : url.slice(0, end)).slice(1))];
  if (!entry) {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(200, { 'Content-Type': entry.type, 'Content-Length': entry.size });
  fs.createReadStream(entry.file).pipe(res);
});

server.listen(0, '127.0.0.1', () => {
  console.log(`bare server listening on ${(server.address() as AddressInfo).port}`);
});
process.on('SIGTERM', () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
});
