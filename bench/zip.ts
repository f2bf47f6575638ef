import { execFile, fork, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ZipArchive } from 'archiver';
import express from 'express';
import { createDownloadRouter } from '../server/routes/download.js';

/**
 * ZIP download benchmark.
 *
 * - Throughput of GET /api/download-album over HTTP on 127.0.0.1 (a client that reads and
 *   discards), against archiver alone writing the same files to /dev/null in one process
 *   (what our streaming, size checks and HTTP cost on top of archiver), and against
 *   `tar cf - dir | cat > /dev/null` (reading the files at all; GNU tar skips reading when its
 *   output *is* /dev/null, hence the pipe). The files are in the page cache for all three,
 *   so "disk" here means the cached read path.
 * - The server's peak RSS growth during the downloads. The server runs in a child process so
 *   that the client, the archiver baseline and this harness do not count; the child reads its
 *   exact peak (VmHWM, reset through /proc/self/clear_refs) instead of sampling, which could
 *   miss a short peak. Where that is not available it samples every 5 ms.
 */

/** Same shape as bench/thumbnails.ts's rows, so bench/run.ts prints both in one table. */
export interface BenchRow {
  readonly name: string;
  /** null when the figure could not be measured (see note). */
  readonly value: number | null;
  readonly unit: string;
  /** What `value` is compared with, when it is compared with a measurement. */
  readonly baseline: number | null;
  /** value / baseline. */
  readonly ratio: number | null;
  /** What counts as a pass ('ratio >= 0.85', '< 150 MB'), '-' for a figure given for context. */
  readonly target: string;
  readonly pass: boolean | null;
  readonly note?: string;
}

export interface ZipBenchOptions {
  /** A 4 MB album instead of 1 GB: checks the harness in seconds. */
  readonly smoke?: boolean;
  /** Keep the generated album in the temp dir for the next run. */
  readonly keep?: boolean;
  /** Measured runs of each throughput figure; the best is kept. Default 2. */
  readonly runs?: number;
}

const MB = 1e6;
const SERVER_FLAG = '--zip-bench-server';

interface AlbumSpec {
  readonly dir: string;
  readonly files: number;
  readonly fileSize: number;
}

function albumSpec(smoke: boolean): AlbumSpec {
  return smoke
    ? { dir: path.join(os.tmpdir(), 'gallery-bench-zip-smoke'), files: 4, fileSize: 1024 * 1024 }
    : { dir: path.join(os.tmpdir(), 'gallery-bench-zip'), files: 128, fileSize: 8 * 1024 * 1024 };
}

const imageName = (i: number) => `IMG_${String(i + 1).padStart(4, '0')}.jpg`;

/** Random (incompressible) JPEG-sized files; kept files of the right size are reused. */
async function ensureAlbum(spec: AlbumSpec): Promise<string[]> {
  await fsp.mkdir(spec.dir, { recursive: true });
  const names: string[] = [];
  for (let i = 0; i < spec.files; i++) {
    const name = imageName(i);
    const file = path.join(spec.dir, name);
    const st = await fsp.stat(file).catch(() => undefined);
    if (st?.size !== spec.fileSize) {
      const data = crypto.randomBytes(spec.fileSize);
      data.writeUInt32BE(0xffd8ffe0, 0); // a JPEG's first bytes, for the look of it
      await fsp.writeFile(file, data);
    }
    names.push(name);
  }
  return names;
}

/** Reads every file once so that each measurement starts from the same (cached) state. */
async function warm(spec: AlbumSpec, names: readonly string[]): Promise<void> {
  for (const name of names) await fsp.readFile(path.join(spec.dir, name));
}

async function timed(run: () => Promise<number>): Promise<{ bytes: number; seconds: number }> {
  const start = process.hrtime.bigint();
  const bytes = await run();
  return { bytes, seconds: Number(process.hrtime.bigint() - start) / 1e9 };
}

const mbPerSecond = (t: { bytes: number; seconds: number }) => t.bytes / MB / t.seconds;

/** archiver alone, the plain way (`file()`), into /dev/null. */
function archiverToDevNull(spec: AlbumSpec, names: readonly string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const archive = new ZipArchive({ store: true });
    const out = fs.createWriteStream('/dev/null');
    archive.on('error', reject);
    out.on('error', reject);
    out.on('close', () => resolve(archive.pointer()));
    archive.pipe(out);
    for (const name of names) archive.file(path.join(spec.dir, name), { name });
    void archive.finalize();
  });
}

function tarToDevNull(spec: AlbumSpec): Promise<number> {
  return new Promise((resolve, reject) => {
    execFile('sh', ['-c', 'tar cf - -C "$1" . | cat > /dev/null', 'sh', spec.dir], (err) => (err ? reject(err) : resolve(0)));
  });
}

/** Downloads and discards; returns the bytes received, insisting on a complete response. */
function download(port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path: '/api/download-album?path=bench', agent: false }, (res) => {
        let bytes = 0;
        res.on('data', (c: Buffer) => (bytes += c.length));
        res.on('error', reject);
        res.on('end', () => {
          const expected = Number(res.headers['content-length']);
          if (res.statusCode !== 200 || bytes !== expected) reject(new Error(`download: status ${res.statusCode}, ${bytes} of ${expected} bytes`));
          else resolve(bytes);
        });
      })
      .on('error', reject);
  });
}

type ServerMessage =
  | { type: 'ready'; port: number }
  | { type: 'marked' }
  | { type: 'cpu'; seconds: number }
  | { type: 'peak'; growth: number; exact: boolean };

const cpuSeconds = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};

function ask(child: ChildProcess, message: string, type: ServerMessage['type']): Promise<ServerMessage> {
  return new Promise((resolve, reject) => {
    const onMessage = (m: ServerMessage) => {
      if (m.type !== type) return;
      child.off('message', onMessage);
      resolve(m);
    };
    child.on('message', onMessage);
    child.once('exit', (code) => reject(new Error(`bench server exited (${code})`)));
    if (message) child.send(message);
  });
}

export async function zipBench(opts: ZipBenchOptions = {}): Promise<BenchRow[]> {
  const spec = albumSpec(opts.smoke === true);
  const runs = opts.runs ?? 2;
  const names = await ensureAlbum(spec);
  const child = fork(fileURLToPath(import.meta.url), [SERVER_FLAG, spec.dir], { execArgv: ['--import', 'tsx'], stdio: 'inherit' });
  try {
    const { port } = (await ask(child, '', 'ready')) as { port: number };
    await warm(spec, names);
    const tar = await timed(() => tarToDevNull(spec));
    tar.bytes = names.length * spec.fileSize;
    const serverCpu = async () => ((await ask(child, 'cpu', 'cpu')) as { seconds: number }).seconds;
    await ask(child, 'mark', 'marked');
    // Interleaved, best of `runs`: the machine is shared, so the fastest run is the least disturbed.
    const best = { http: 0, archiver: 0, httpPerCpu: 0, archiverPerCpu: 0 };
    for (let i = 0; i < runs; i++) {
      const cpu0 = cpuSeconds();
      const a = await timed(() => archiverToDevNull(spec, names));
      best.archiver = Math.max(best.archiver, mbPerSecond(a));
      best.archiverPerCpu = Math.max(best.archiverPerCpu, a.bytes / MB / (cpuSeconds() - cpu0));
      const server0 = await serverCpu();
      const h = await timed(() => download(port));
      best.http = Math.max(best.http, mbPerSecond(h));
      best.httpPerCpu = Math.max(best.httpPerCpu, h.bytes / MB / ((await serverCpu()) - server0));
    }
    const peak = (await ask(child, 'report', 'peak')) as { growth: number; exact: boolean };
    const tarRate = mbPerSecond(tar);
    const album = `${names.length} × ${spec.fileSize / 1024 / 1024} MiB${opts.smoke ? ', smoke' : ''}`;
    const vsArchiver = best.http / best.archiver;
    const growth = peak.growth / MB;
    return [
      { name: `zip over HTTP vs archiver to /dev/null (${album})`, value: best.http, unit: 'MB/s', baseline: best.archiver, ratio: vsArchiver, target: 'ratio >= 0.85', pass: vsArchiver >= 0.85, note: `best of ${runs} interleaved runs` },
      { name: 'zip over HTTP vs tar cf | cat > /dev/null', value: best.http, unit: 'MB/s', baseline: tarRate, ratio: best.http / tarRate, target: '-', pass: null, note: 'tar: the cost of reading the (page-cached) files at all' },
      // Bytes per CPU-second of the server process vs of the archiver-only process: the same
      // comparison, blind to what else runs on the machine.
      { name: 'zip over HTTP, server MB per CPU-second vs archiver', value: best.httpPerCpu, unit: 'MB/cpu-s', baseline: best.archiverPerCpu, ratio: best.httpPerCpu / best.archiverPerCpu, target: '-', pass: null },
      { name: 'zip over HTTP, server peak RSS growth', value: growth, unit: 'MB', baseline: null, ratio: null, target: '< 150 MB', pass: growth < 150, note: peak.exact ? 'kernel high-water mark (VmHWM)' : 'sampled every 5 ms' },
    ];
  } finally {
    child.kill();
    if (!opts.keep) await fsp.rm(spec.dir, { recursive: true, force: true });
  }
}

// ---- the server side, run in the child process ------------------------------------------

const statusKb = (field: 'VmRSS' | 'VmHWM'): number => {
  const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(fs.readFileSync('/proc/self/status', 'utf8'));
  if (!m) throw new Error(`no ${field} in /proc/self/status`);
  return Number(m[1]) * 1024;
};

/** Peak RSS since `reset()`: the kernel's own high-water mark where possible, else sampled. */
function peakMeter(): { reset: () => number; peak: () => number; exact: boolean } {
  try {
    fs.writeFileSync('/proc/self/clear_refs', '5');
    statusKb('VmHWM');
    return {
      exact: true,
      reset: () => (fs.writeFileSync('/proc/self/clear_refs', '5'), statusKb('VmRSS')),
      peak: () => statusKb('VmHWM'),
    };
  } catch {
    let max = 0;
    setInterval(() => (max = Math.max(max, process.memoryUsage.rss())), 5).unref();
    return { exact: false, reset: () => (max = process.memoryUsage.rss()), peak: () => max };
  }
}

async function serve(dir: string): Promise<void> {
  const images = (await fsp.readdir(dir)).filter((n) => n.endsWith('.jpg')).sort();
  const app = express();
  // Only the download path is measured: access checks are the resolver's, not ours.
  app.use(createDownloadRouter({ resolveAlbum: async () => ({ path: 'bench', name: 'bench', title: 'Bench', dir, images, protected: false }) }));
  const server = app.listen(0, '127.0.0.1', () => {
    process.send?.({ type: 'ready', port: (server.address() as AddressInfo).port } satisfies ServerMessage);
  });
  const meter = peakMeter();
  let base = 0;
  process.on('message', (m) => {
    if (m === 'cpu') {
      process.send?.({ type: 'cpu', seconds: cpuSeconds() } satisfies ServerMessage);
    } else if (m === 'mark') {
      base = meter.reset();
      process.send?.({ type: 'marked' } satisfies ServerMessage);
    } else if (m === 'report') {
      process.send?.({ type: 'peak', growth: meter.peak() - base, exact: meter.exact } satisfies ServerMessage);
    }
  });
  process.on('disconnect', () => process.exit(0));
}

if (process.argv[2] === SERVER_FLAG && process.send) {
  await serve(process.argv[3] as string);
} else if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const smoke = process.argv.includes('--smoke');
  console.table(await zipBench({ smoke, keep: process.argv.includes('--keep') }));
}
