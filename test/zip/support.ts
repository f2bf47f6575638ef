import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import * as chai from 'chai';
import express, { type Express } from 'express';
import yauzl from 'yauzl';
import { AlbumIndex } from '../../server/core/albums/album-index.js';
import { errorHandler } from '../../server/http/error-handler.js';
import { createResolvers } from '../../server/public/access/gallery-access.js';
import { createDownloadRouter, type DownloadRouterOptions } from '../../server/public/routes/download.js';
import { quietLogger } from '../support/capture-logger.js';

/** The part of chai's BDD interface these tests use (drop this once @types/chai is installed). */
export interface Assertion {
  readonly to: Assertion;
  readonly be: Assertion;
  readonly is: Assertion;
  readonly that: Assertion;
  readonly have: Assertion;
  readonly deep: Assertion;
  readonly not: Assertion;
  equal(value: unknown, message?: string): Assertion;
  below(value: number, message?: string): Assertion;
  above(value: number, message?: string): Assertion;
  a(type: string, message?: string): Assertion;
  property(name: string, value?: unknown): Assertion;
  length(n: number, message?: string): Assertion;
  match(re: RegExp, message?: string): Assertion;
  instanceOf(ctor: abstract new (...args: never[]) => unknown, message?: string): Assertion;
  throw(matcher?: RegExp | string): Assertion;
}
export const expect = (chai as unknown as { expect: (value: unknown, message?: string) => Assertion }).expect;

/** Token of the fixture's protected album. */
export const SECRET_TOKEN = 'fixture-secret-token';

export interface TestApp {
  readonly app: Express;
  /** The index of the temp tree (not watched): call `rescan()` after changing albums. */
  readonly index: AlbumIndex;
}

/**
 * The download route as the public app mounts it, behind the real resolver over an index of
 * `root` (`album.json` makes an album; X-Album-Token opens a protected one).
 */
export async function createTestApp(
  root: string,
  { trustProxy, ...opts }: Partial<Omit<DownloadRouterOptions, 'resolveAlbum'>> & { readonly trustProxy?: string } = {},
): Promise<TestApp> {
  const index = await AlbumIndex.open({ albumsDir: root, watch: false, log: quietLogger });
  const { resolveAlbum } = createResolvers(index, root);
  const app = express();
  // As TRUST_PROXY sets it: X-Forwarded-For then tells the clients of a test apart.
  if (trustProxy !== undefined) app.set('trust proxy', trustProxy);
  app.use(createDownloadRouter({ resolveAlbum, log: quietLogger, ...opts }));
  app.use(errorHandler({ log: quietLogger }));
  return { app, index };
}

export function makeTempDir(prefix = 'gallery-zip-test-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

export function writeAlbum(root: string, albumPath: string, meta: Record<string, unknown>, files: Record<string, Buffer | string> = {}): string {
  const dir = path.join(root, ...albumPath.split('/'));
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'album.json'), JSON.stringify(meta));
  for (const [name, data] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), data);
  return dir;
}

/** `count` files of `size` random (incompressible) bytes named IMG_01.jpg… */
export function writeRandomImages(dir: string, count: number, size: number): string[] {
  fs.mkdirSync(dir, { recursive: true });
  return Array.from({ length: count }, (_, i) => {
    const name = `IMG_${String(i + 1).padStart(2, '0')}.jpg`;
    fs.writeFileSync(path.join(dir, name), crypto.randomBytes(size));
    return name;
  });
}

export interface UnzippedEntry {
  readonly data: Buffer;
  readonly mtime: Date;
  readonly utf8Flag: boolean;
  readonly crc32: number;
}

/** Every entry of a ZIP, in archive order, checked by yauzl (sizes) and here (CRC: yauzl does not check it). */
export async function unzip(zip: Buffer): Promise<Map<string, UnzippedEntry>> {
  const zipfile = await yauzl.fromBufferPromise(zip, { lazyEntries: true, strictFileNames: true });
  const out = new Map<string, UnzippedEntry>();
  for await (const entry of zipfile.eachEntry()) {
    const stream = await zipfile.openReadStreamPromise(entry);
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    const data = Buffer.concat(chunks);
    if (zlib.crc32(data) !== entry.crc32) throw new Error(`${entry.fileName}: CRC ${entry.crc32} in the archive, ${zlib.crc32(data)} of its data`);
    out.set(entry.fileName, {
      data,
      mtime: entry.getLastModDate({ timezone: 'local' }),
      utf8Flag: (entry.generalPurposeBitFlag & 0x800) !== 0,
      crc32: entry.crc32,
    });
  }
  return out;
}

export interface LocalHeader {
  readonly name: string;
  /** General purpose flags: bit 3, a data descriptor follows the data (the CRC was not known before it). */
  readonly flags: number;
  /** As the local header gives it: 0 when a data descriptor carries it. */
  readonly crc32: number;
}

/**
 * The local headers of an archive whose entries carry their sizes in them (no data
 * descriptors), walked from the start as a streaming reader would: it fails on an entry
 * with a data descriptor, whose data it cannot step over.
 */
export function localHeaders(zip: Buffer): LocalHeader[] {
  const found: LocalHeader[] = [];
  for (let at = 0; at + 4 <= zip.length && zip.readUInt32LE(at) === 0x04034b50; ) {
    const flags = zip.readUInt16LE(at + 6);
    const nameLength = zip.readUInt16LE(at + 26);
    const extraLength = zip.readUInt16LE(at + 28);
    const name = zip.toString('utf8', at + 30, at + 30 + nameLength);
    found.push({ name, flags, crc32: zip.readUInt32LE(at + 14) });
    if (flags & 0x08) throw new Error(`${name}: a data descriptor follows its data`);
    at += 30 + nameLength + extraLength + zip.readUInt32LE(at + 18);
  }
  return found;
}

/** Info-ZIP's `unzip -t` over the archive (every entry's CRC and sizes, the directory): throws with its output when it finds a fault. */
export async function unzipTest(zip: Buffer): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gallery-unzip-'));
  try {
    fs.writeFileSync(path.join(dir, 'archive.zip'), zip);
    const { stdout } = await promisify(execFile)('unzip', ['-tq', path.join(dir, 'archive.zip')]);
    if (!/No errors detected/.test(stdout)) throw new Error(`unzip -t: ${stdout}`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export interface RawResponse {
  readonly status: number;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: Buffer;
  /** False when the connection ended before the message was complete. */
  readonly complete: boolean;
}

/** A GET with its exact bytes; no connection reuse, so nothing lingers between tests. */
export function getRaw(url: string, headers: Record<string, string> = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent: false, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        // 'error' (aborted) is expected when the server gives up mid-stream; 'close' tells all.
        res.on('error', () => {});
        res.on('close', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks), complete: res.complete }));
      })
      .on('error', reject);
  });
}

export async function listen(app: Express): Promise<{ server: http.Server; base: string }> {
  const server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

export function close(server: http.Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

export const openFds = (): number => fs.readdirSync('/proc/self/fd').length;

/** Polls until `check` holds or `ms` pass; returns the last value of `check`. */
export async function eventually(check: () => boolean, ms = 2000): Promise<boolean> {
  const until = Date.now() + ms;
  while (!check() && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
  return check();
}

export const q = (albumPath: string): string => `/api/download-album?path=${encodeURIComponent(albumPath)}`;
