/**
 * ZIP download of the large album through the real server, against archiver alone writing
 * the same files to /dev/null in this process (what streaming, checks and HTTP cost on top
 * of archiver), and against `tar cf - dir | cat > /dev/null` (the cost of reading the
 * files at all; GNU tar skips reading when its output *is* /dev/null, hence the pipe). The
 * files are in the page cache for all three. The server's peak RSS growth is its kernel
 * high-water mark (VmHWM, reset through /proc/<pid>/clear_refs), so a short peak is not missed.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { ZipArchive } from 'archiver';
import { cpuSeconds, peakMb, resetPeak, rssMb } from '../proc.js';
import { type BenchRow, limitRow, ratioRow } from '../rows.js';
import type { BenchContext } from './context.js';

const MB = 1e6;

export async function zipDownload(ctx: BenchContext): Promise<BenchRow[]> {
  const { corpus, gallery } = ctx;
  const dir = path.join(corpus.galleryDir, ...corpus.zipAlbum.split('/'));
  const names = corpus.zipFiles;
  const runs = ctx.smoke ? 1 : 2;
  const url = `${gallery.url}/api/download-album?path=${encodeURIComponent(corpus.zipAlbum)}`;

  for (const name of names) await fsp.readFile(path.join(dir, name));
  const tar = await timed(async () => {
    await tarToDevNull(dir);
    return names.length * corpus.spec.zip.bytes;
  });

  const exactPeak = resetPeak(gallery.pid);
  const baseRss = rssMb(gallery.pid);
  // Interleaved, best of `runs`: the machine is shared, so the fastest run is the least disturbed.
  const best = { http: 0, archiver: 0, httpPerCpu: 0, archiverPerCpu: 0 };
  for (let i = 0; i < runs; i++) {
    ctx.log(`zip: run ${i + 1}/${runs}, archiver alone then over HTTP`);
    const cpu0 = ownCpuSeconds();
    const a = await timed(() => archiverToDevNull(dir, names));
    best.archiver = Math.max(best.archiver, rate(a));
    best.archiverPerCpu = Math.max(best.archiverPerCpu, a.bytes / MB / (ownCpuSeconds() - cpu0));
    const server0 = cpuSeconds(gallery.pid);
    const h = await timed(() => download(url));
    best.http = Math.max(best.http, rate(h));
    best.httpPerCpu = Math.max(best.httpPerCpu, h.bytes / MB / Math.max(0.01, cpuSeconds(gallery.pid) - server0));
  }
  const growth = peakMb(gallery.pid) - baseRss;
  const album = `${names.length} x ${corpus.spec.zip.bytes / 1024 / 1024} MiB`;
  const tarRate = rate(tar);
  return [
    ratioRow(`ZIP download (${album}), HTTP vs archiver to /dev/null`, best.http, 'MB/s', best.archiver, 0.85, `best of ${runs} interleaved runs`),
    {
      name: 'ZIP download, HTTP vs tar cf | cat > /dev/null',
      value: best.http,
      unit: 'MB/s',
      baseline: tarRate,
      ratio: best.http / tarRate,
      target: '-',
      pass: null,
      note: 'context: reading the page-cached files at all',
    },
    // Bytes per CPU-second of the server vs of archiver alone: the same comparison, blind to
    // whatever else runs on the machine.
    {
      name: 'ZIP download, server MB per CPU-second vs archiver',
      value: best.httpPerCpu,
      unit: 'MB/cpu-s',
      baseline: best.archiverPerCpu,
      ratio: best.httpPerCpu / best.archiverPerCpu,
      target: '-',
      pass: null,
    },
    limitRow(
      'ZIP download, server peak RSS growth',
      growth,
      'MB',
      { below: 150 },
      null,
      exactPeak ? 'VmHWM reset before the downloads' : 'VmHWM could not be reset: peak since start',
    ),
  ];
}

const rate = (t: { bytes: number; seconds: number }) => t.bytes / MB / t.seconds;

function ownCpuSeconds(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
}

async function timed(run: () => Promise<number>): Promise<{ bytes: number; seconds: number }> {
  const start = performance.now();
  const bytes = await run();
  return { bytes, seconds: (performance.now() - start) / 1000 };
}

/** archiver alone, the plain way (`file()`), into /dev/null. */
function archiverToDevNull(dir: string, names: readonly string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const archive = new ZipArchive({ store: true });
    const out = fs.createWriteStream('/dev/null');
    archive.on('error', reject);
    out.on('error', reject);
    out.on('close', () => resolve(archive.pointer()));
    archive.pipe(out);
    for (const name of names) archive.file(path.join(dir, name), { name });
    void archive.finalize();
  });
}

function tarToDevNull(dir: string): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile('sh', ['-c', 'tar cf - -C "$1" . | cat > /dev/null', 'sh', dir], (err) => (err ? reject(err) : resolve()));
  });
}

let curlPresent: Promise<boolean> | undefined;
const hasCurl = () => (curlPresent ??= new Promise((resolve) => execFile('curl', ['--version'], (err) => resolve(!err))));

/**
 * Downloads and discards; returns the bytes received, insisting on a complete response.
 * curl when it is there: a C client leaves more of the two cores to the server than a
 * Node one, as wrk does for the request rates.
 */
async function download(url: string): Promise<number> {
  if (!(await hasCurl())) return nodeDownload(url);
  return new Promise((resolve, reject) => {
    execFile('curl', ['-sS', '-o', '/dev/null', '-w', '%{http_code} %{size_download}', url], { timeout: 600_000 }, (err, stdout) => {
      const [status, bytes] = stdout.trim().split(' ').map(Number);
      if (err || status !== 200) reject(new Error(`download: ${err?.message ?? `status ${status}`}`));
      else resolve(bytes!);
    });
  });
}

function nodeDownload(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent: false }, (res) => {
        let bytes = 0;
        res.on('data', (c: Buffer) => (bytes += c.length));
        res.on('error', reject);
        res.on('end', () => {
          const expected = res.headers['content-length'] === undefined ? bytes : Number(res.headers['content-length']);
          if (res.statusCode !== 200 || bytes !== expected) reject(new Error(`download: status ${res.statusCode}, ${bytes} of ${expected} bytes`));
          else resolve(bytes);
        });
      })
      .on('error', reject);
  });
}
