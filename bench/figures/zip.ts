/**
 * ZIP download of the large album through the real server, against archiver alone writing
 * the same files to /dev/null in this process (what streaming, checks and HTTP cost on top
 * of archiver), and against `tar cf - dir | cat > /dev/null` (the cost of reading the
 * files at all; GNU tar skips reading when its output *is* /dev/null, hence the pipe). The
 * files are in the page cache for all three. The server's peak RSS growth is its kernel
 * high-water mark (VmHWM, reset through /proc/<pid>/clear_refs), so a short peak is not missed.
 * Then the same comparison on an album of real photos (issue 27's: 300 × 24 MP JPEGs), once
 * prepared, the CRCs known before the request, and once not prepared yet.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { ZipArchive } from 'archiver';
import { cpuSeconds, peakMb, resetPeak, rssMb } from '../proc.js';
import { type BenchRow, limitRow, ratioRow } from '../rows.js';
import { type ServerProcess, startGallery } from '../server-process.js';
import type { BenchContext } from './context.js';
import { ensurePhotoZipCorpus } from './zip-photos.js';

const MB = 1e6;

export async function zipDownload(ctx: BenchContext): Promise<BenchRow[]> {
  const { corpus, gallery } = ctx;
  const dir = path.join(corpus.galleryDir, ...corpus.zipAlbum.split('/'));
  const names = corpus.zipFiles;
  const url = `${gallery.url}/api/download-album?path=${encodeURIComponent(corpus.zipAlbum)}`;

  for (const name of names) await fsp.readFile(path.join(dir, name));
  const tar = await timed(async () => {
    await tarToDevNull(dir);
    return names.length * corpus.spec.zip.bytes;
  });

  const exactPeak = resetPeak(gallery.pid);
  const baseRss = rssMb(gallery.pid);
  const best = await againstArchiver(ctx, gallery, url, dir, names, 'random files');
  const growth = peakMb(gallery.pid) - baseRss;
  const album = `${names.length} x ${corpus.spec.zip.bytes / 1024 / 1024} MiB`;
  const tarRate = rate(tar);
  return [
    ratioRow(`ZIP download (${album}), HTTP vs archiver to /dev/null`, best.http, 'MB/s', best.archiver, 0.85, `best of ${best.runs} interleaved runs`),
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
    ...(await photoZipRows(ctx)),
  ];
}

interface Comparison {
  readonly http: number;
  readonly archiver: number;
  readonly httpPerCpu: number;
  readonly archiverPerCpu: number;
  readonly runs: number;
}

/**
 * The album's ZIP over HTTP from `server` against archiver alone writing the same files to
 * /dev/null in this process, interleaved, best of a few runs: the machine is shared, so the
 * fastest run is the least disturbed.
 */
async function againstArchiver(
  ctx: BenchContext,
  server: ServerProcess,
  url: string,
  dir: string,
  names: readonly string[],
  what: string,
): Promise<Comparison> {
  const runs = ctx.smoke ? 1 : 2;
  const best = { http: 0, archiver: 0, httpPerCpu: 0, archiverPerCpu: 0, runs };
  for (let i = 0; i < runs; i++) {
    ctx.log(`zip (${what}): run ${i + 1}/${runs}, archiver alone then over HTTP`);
    const cpu0 = ownCpuSeconds();
    const a = await timed(() => archiverToDevNull(dir, names));
    best.archiver = Math.max(best.archiver, rate(a));
    best.archiverPerCpu = Math.max(best.archiverPerCpu, a.bytes / MB / (ownCpuSeconds() - cpu0));
    const server0 = cpuSeconds(server.pid);
    const h = await timed(() => download(url));
    best.http = Math.max(best.http, rate(h));
    best.httpPerCpu = Math.max(best.httpPerCpu, h.bytes / MB / Math.max(0.01, cpuSeconds(server.pid) - server0));
  }
  return best;
}

/**
 * The album of issue 27's target, 300 distinct 24 MP JPEGs (bench/figures/zip-photos.ts),
 * served by a gallery of its own twice: prepared (PREPARE on, waited for, its CACHE_DIR kept
 * between runs), where each file's CRC-32 is known before the request, then never prepared
 * (PREPARE off, an empty cache), where the server computes them while it streams.
 */
async function photoZipRows(ctx: BenchContext): Promise<BenchRow[]> {
  const corpus = await ensurePhotoZipCorpus(ctx.smoke, ctx.log);
  for (const name of corpus.names) await fsp.readFile(path.join(corpus.dir, name));
  const name = (state: string) => `ZIP download (${corpus.label}), ${state}, HTTP vs archiver to /dev/null`;
  const rows: BenchRow[] = [];
  for (const prepared of [true, false]) {
    const cacheDir = prepared ? corpus.cacheDir : path.join(ctx.runDir, 'zip-photos-cache');
    const server = await startGallery({
      albumsDir: corpus.albumsDir,
      cacheDir,
      contentDir: path.join(ctx.runDir, 'content'),
      logFile: path.join(ctx.runDir, 'logs', `zip-photos-${prepared ? 'prepared' : 'unprepared'}.log`),
      env: { ...ctx.serverEnv, PREPARE: prepared ? 'on' : 'off' },
    });
    try {
      if (prepared) await preparationDone(ctx, cacheDir, server.pid);
      const url = `${server.url}/api/download-album?path=${encodeURIComponent(corpus.albumPath)}`;
      const known = await crcsInLocalHeaders(url);
      const best = await againstArchiver(ctx, server, url, corpus.dir, corpus.names, prepared ? 'photos, prepared' : 'photos, not prepared');
      // Per CPU-second too: the same comparison, blind to whatever else runs on the machine.
      const perCpu = `server ${best.httpPerCpu.toFixed(0)} MB per CPU-second vs archiver ${best.archiverPerCpu.toFixed(0)} (${(best.httpPerCpu / best.archiverPerCpu).toFixed(2)})`;
      const crcs = known ? 'CRCs in the local headers' : 'CRCs in data descriptors, computed while streaming';
      const note = `best of ${best.runs} interleaved runs; ${crcs}; ${perCpu}`;
      if (!prepared) rows.push({ ...ratioRow(name('not prepared yet'), best.http, 'MB/s', best.archiver, 0.85, note), target: '-', pass: null });
      else {
        // Prepared but streamed as if not: the figure is not what it says.
        const row = ratioRow(name('prepared (CRCs known)'), best.http, 'MB/s', best.archiver, 1.0, note);
        rows.push(known ? row : { ...row, pass: false });
      }
    } finally {
      await server.stop();
    }
  }
  return rows;
}

/**
 * Waits until the gallery `pid` has no album left to prepare (server/media/preparation-progress.ts):
 * its progress says none waits and has not been written again for a while (it is rewritten
 * every 2 s while work goes on; the first write, as the pass starts, may already say 0).
 */
async function preparationDone(ctx: BenchContext, cacheDir: string, pid: number): Promise<void> {
  const file = path.join(cacheDir, 'preparation', `${pid}.json`);
  const until = Date.now() + 30 * 60_000;
  let said = 0;
  for (;;) {
    const progress = await fsp
      .readFile(file, 'utf8')
      .then((text) => JSON.parse(text) as { albumsWaiting?: number; at?: number; current?: { done: number; total: number } })
      .catch(() => undefined);
    if (progress?.albumsWaiting === 0 && Date.now() - (progress.at ?? Date.now()) > 5000) return;
    if (progress?.current && Date.now() - said > 10_000) {
      ctx.log(`zip (photos): preparing, ${progress.current.done} of ${progress.current.total}`);
      said = Date.now();
    }
    if (Date.now() > until) throw new Error('the preparation of the photo album took over 30 minutes');
    await new Promise((r) => setTimeout(r, 500));
  }
}

/** Whether the archive's first entry carries its CRC in its local header (no data descriptor: flag bit 3 clear). */
function crcsInLocalHeaders(url: string): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent: false }, (res) => {
      let head = Buffer.alloc(0);
      res.on('data', (c: Buffer) => {
        head = Buffer.concat([head, c]);
        if (head.length < 8) return;
        req.destroy();
        resolve(res.statusCode === 200 && head.readUInt32LE(0) === 0x04034b50 && (head.readUInt16LE(6) & 0x08) === 0);
      });
      res.on('error', () => {});
    });
    req.on('error', (err) => (req.destroyed ? undefined : reject(err)));
  });
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
