/**
 * `npm run loadtest [-- --duration 20]`: the real server (server/main.ts, as production
 * starts it) under mixed traffic on loopback, bounded in time. Starts the server on a
 * generated tree of real photos, then runs wrk with scripts/loadtest.lua (100 connections):
 * pages, cached and cold thumbnails, EXIF, Range requests on originals, thumbnails of a
 * protected album without access, and wrong passwords, all from one IP. Meanwhile a probe
 * times album pages one at a time, and the server's memory is sampled from /proc.
 *
 * Checks (exit code 1 when one fails): no 5xx but deliberate 503s with Retry-After; exactly
 * 10 wrong-password answers before the lockout; server RSS peak under 600 MB and back
 * within 150 MB of where it started within 30 s of the end of the load.
 *
 *   --duration S      seconds of load (default 60)
 *   --connections N   wrk connections (default 100)
 *   --threads N       wrk threads (default 2)
 *   --no-arena-max    start the server without MALLOC_ARENA_MAX (to compare)
 *   --no-malloc-tuning  start it without any of the ecosystem file's malloc settings (as a bare `node` would)
 *   --server-env K=V  more environment for the server (repeatable), e.g. malloc tunables
 *   --cpu-prof DIR    write V8 CPU profiles of the server (main thread and workers) into DIR
 *   --clean           delete the cached corpus and exit
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { runWrk, hasWrk } from '../bench/http-load.js';
import { writePhotoLikeJpeg } from '../bench/photo.js';
import { loadAverage, peakMb, rssMb, rssSampler } from '../bench/proc.js';
import { type BenchRow, formatTable, limitRow } from '../bench/rows.js';
import { envText, productionEnv, startGallery } from '../bench/server-process.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const CORPUS = path.join(os.tmpdir(), 'gallery-loadtest-corpus');
const PHOTOS = 30;
/** 24 MP camera photos: EXIF, ranges and the cold medium and large thumbnails are of these. */
const BIG = 6;
/** More than 60 s of cold requests can use: each one stays a cache miss. */
const COLD = 20000;
const PROTECTED = 5;
const STAMP = JSON.stringify({ photos: PHOTOS, big: BIG, cold: COLD, protectedPhotos: PROTECTED, size: [2000, 1500], bigSize: [6000, 4000] });
/** Of the connections, how many ask pages (the rest ask media), as the issue's mix: 35 of 100. */
const PAGE_SHARE = 0.35;
/** When the server's memory is read again after the load. */
const SETTLE_SECONDS = 15;
const MAX_FAILED_ATTEMPTS = 10;

const log = (line: string) => process.stderr.write(`${line}\n`);
const name = (i: number) => `IMG_${String(i).padStart(4, '0')}.jpg`;
const bigName = (i: number) => `BIG_${String(i).padStart(2, '0')}.jpg`;

/** 30 distinct real photos, thousands of hard links of them (cold thumbnails), a protected album. */
async function ensureCorpus(): Promise<string> {
  const stampFile = path.join(CORPUS, 'corpus.json');
  if (fs.existsSync(stampFile) && fs.readFileSync(stampFile, 'utf8') === STAMP) return path.join(CORPUS, 'albums');
  const building = `${CORPUS}.building-${process.pid}`;
  fs.rmSync(building, { recursive: true, force: true });
  log(`loadtest: generating ${PHOTOS} photos of 2000x1500 under ${CORPUS}`);
  const album = (rel: string, meta: Record<string, unknown>) => {
    const dir = path.join(building, 'albums', ...rel.split('/'));
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'album.json'), JSON.stringify(meta));
    return dir;
  };
  const pub = album('load/public', { title: 'Public', token: 'loadtest-public' });
  const cold = album('load/cold', { title: 'Cold', token: 'loadtest-cold' });
  const big = album('load/big', { title: 'Big', token: 'loadtest-big' });
  const priv = album('load/private', { title: 'Private', password: 'correct horse battery staple', token: 'loadtest-private' });
  for (let i = 1; i <= PHOTOS; i++) await writePhotoLikeJpeg(path.join(pub, name(i)), 2000, 1500);
  for (let i = 1; i <= BIG; i++) await writePhotoLikeJpeg(path.join(big, bigName(i)), 6000, 4000);
  for (let i = 0; i < COLD; i++) fs.linkSync(path.join(big, bigName((i % BIG) + 1)), path.join(cold, `C_${String(i).padStart(5, '0')}.jpg`));
  for (let i = 1; i <= PROTECTED; i++) fs.linkSync(path.join(pub, name(i)), path.join(priv, name(i)));
  fs.writeFileSync(path.join(building, 'corpus.json'), STAMP);
  fs.rmSync(CORPUS, { recursive: true, force: true });
  fs.renameSync(building, CORPUS);
  return path.join(CORPUS, 'albums');
}

/** Album pages one at a time while the load runs: the latency a visitor sees. */
function pageProbe(url: string): { stop(): Promise<number[]> } {
  const times: number[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const start = performance.now();
      try {
        const res = await fetch(url, { signal: AbortSignal.timeout(30_000) });
        await res.arrayBuffer();
        if (res.ok) times.push(performance.now() - start);
      } catch {
        // Counted by wrk's figures; the probe only times successes.
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return times;
    },
  };
}

const percentile = (xs: readonly number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor(q * s.length))]! : Number.NaN;
};

function exact(name: string, value: number, expected: number, note?: string): BenchRow {
  return { name, value, unit: 'count', baseline: null, ratio: null, target: `= ${expected}`, pass: value === expected, note };
}

function context(name: string, value: number, unit: string, note?: string): BenchRow {
  return { name, value, unit, baseline: null, ratio: null, target: '-', pass: null, note };
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      duration: { type: 'string', default: '60' },
      connections: { type: 'string', default: '100' },
      threads: { type: 'string', default: '2' },
      'no-arena-max': { type: 'boolean', default: false },
      'no-malloc-tuning': { type: 'boolean', default: false },
      'cpu-prof': { type: 'string' },
      'server-env': { type: 'string', multiple: true, default: [] },
      clean: { type: 'boolean', default: false },
    },
  });
  if (values.clean) {
    fs.rmSync(CORPUS, { recursive: true, force: true });
    log('loadtest: corpus removed');
    return 0;
  }
  const duration = Number(values.duration);
  if (!Number.isInteger(duration) || duration < 1 || duration > 600) throw new Error('--duration must be 1 to 600 seconds');
  if (!(await hasWrk())) throw new Error('wrk is not installed (Debian package "wrk")');

  const albumsDir = await ensureCorpus();
  const runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gallery-loadtest-run-'));
  const contentDir = path.join(runDir, 'content');
  fs.mkdirSync(contentDir);
  const env: Record<string, string | undefined> = {};
  if (values['no-arena-max']) env.MALLOC_ARENA_MAX = undefined;
  if (values['no-malloc-tuning']) Object.assign(env, { MALLOC_ARENA_MAX: undefined, MALLOC_MMAP_THRESHOLD_: undefined, LD_PRELOAD: undefined });
  for (const kv of values['server-env'] ?? []) {
    const eq = kv.indexOf('=');
    if (eq < 1) throw new Error(`--server-env wants KEY=VALUE, got ${kv}`);
    env[kv.slice(0, eq)] = kv.slice(eq + 1);
  }
  const nodeArgs = values['cpu-prof'] ? ['--cpu-prof', '--cpu-prof-dir', path.resolve(values['cpu-prof'])] : [];
  const server = await startGallery({ albumsDir, cacheDir: path.join(runDir, 'cache'), contentDir, logFile: path.join(runDir, 'server.log'), env, nodeArgs });
  try {
    const atReady = rssMb(server.pid);
    log(`loadtest: server ${server.url} (pid ${server.pid}), RSS ${atReady.toFixed(0)} MB at ready; warming up`);
    // The cached part of the mix: every size of the public photos, and the pages once.
    for (let i = 1; i <= PHOTOS; i++) await (await fetch(`${server.url}/api/thumbnail?path=load%2Fpublic%2F${name(i)}&size=small`)).arrayBuffer();
    for (const page of ['/photos', '/photos/load/public', '/photos/load/cold?page=2']) await (await fetch(`${server.url}${page}`)).arrayBuffer();
    const start = rssMb(server.pid);
    const loadBefore = loadAverage();
    log(`loadtest: RSS ${start.toFixed(0)} MB after warm-up; ${duration} s of load, ${values.connections} connections (load average ${loadBefore})`);

    const sampler = rssSampler(server.pid, 200);
    const probe = pageProbe(`${server.url}/photos/load/public`);
    const connections = Number(values.connections);
    const pageConnections = Math.max(1, Math.round(connections * PAGE_SHARE));
    // Two wrk at once, one asking only pages: its latency figures are the pages' own, inside the load.
    const wrkRun = (mode: 'pages' | 'media', conns: number, threads: number) =>
      runWrk(
        [
          '-t',
          String(threads),
          '-c',
          String(conns),
          '-d',
          `${duration}s`,
          '--timeout',
          '10s',
          '-s',
          path.join(HERE, 'loadtest.lua'),
          server.url,
          '--',
          String(PHOTOS),
          String(COLD),
          String(Date.now() % 100000),
          String(threads),
          mode,
          String(BIG),
        ],
        duration,
      );
    const [pagesOut, mediaOut] = await Promise.all([
      wrkRun('pages', pageConnections, 1),
      wrkRun('media', connections - pageConnections, Number(values.threads)),
    ]);
    const pageTimes = await probe.stop();
    const { peak } = sampler.stop();
    const loadAfter = loadAverage();

    const countersOf = (out: string) => {
      const line = /^LOADTEST (.*)$/m.exec(out);
      if (!line) throw new Error(`no LOADTEST line in wrk's output:\n${out}`);
      return Object.fromEntries(
        line[1]!
          .split(' ')
          .map((kv) => kv.split('='))
          .map(([k, v]) => [k!, Number(v)]),
      ) as Record<string, number>;
    };
    const pagesC = countersOf(pagesOut);
    const mediaC = countersOf(mediaOut);
    const c: Record<string, number> = {};
    for (const key of Object.keys(mediaC)) c[key] = (mediaC[key] ?? 0) + (key.startsWith('latency') ? 0 : (pagesC[key] ?? 0));
    const requestsOf = (out: string) => Number(/(\d+) requests in/.exec(out)?.[1] ?? Number.NaN);
    const total = requestsOf(pagesOut) + requestsOf(mediaOut);
    const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(pagesOut)?.[1] ?? Number.NaN) + Number(/Requests\/sec:\s+([\d.]+)/.exec(mediaOut)?.[1] ?? Number.NaN);

    // Native memory goes back to the system slowly (glibc trims arenas lazily): the figure is
    // taken SETTLE_SECONDS after the load, as a visitor-free server would be by then.
    const atEnd = rssMb(server.pid);
    await new Promise((r) => setTimeout(r, SETTLE_SECONDS * 1000));
    const after = rssMb(server.pid);
    const hwm = peakMb(server.pid);

    const sent = `sent: ${c.sent_page} pages, ${c.sent_thumb} cached thumbnails, ${c.sent_cold} cold thumbnails, ${c.sent_exif} EXIF, ${c.sent_range} ranges, ${c.sent_locked} locked thumbnails, ${c.sent_unlock} wrong passwords`;
    const rows: BenchRow[] = [
      context('requests answered', total, 'requests', `${rps.toFixed(0)} req/s over ${duration} s; ${sent}`),
      context('2xx / 3xx / 4xx', c.s2xx!, '2xx', `3xx ${c.s3xx}, 4xx ${c.s4xx} (401 for the locked album's thumbnails)`),
      exact('5xx other than 503', c.s5xx!, 0),
      context('503 (pool queue full) with Retry-After', c.s503_retry!, 'count', 'deliberate: cold thumbnails past the bounded queue'),
      exact('503 without Retry-After', c.s503! - c.s503_retry!, 0),
      exact(
        'socket errors and timeouts',
        c.errors_timeout! + c.errors_connect! + c.errors_read!,
        0,
        `timeouts ${c.errors_timeout}, connect ${c.errors_connect}, read ${c.errors_read}`,
      ),
      exact(
        'wrong-password answers before the lockout',
        c.wrong_password!,
        MAX_FAILED_ATTEMPTS,
        `then ${c.rate_limited} rate-limited answers, ${c.other_redirect} other redirects`,
      ),
      limitRow(
        `page requests inside the load (${pageConnections} of ${connections} connections), p99`,
        pagesC.latency_p99_us! / 1000,
        'ms',
        { max: 300 },
        null,
        `p50 ${(pagesC.latency_p50_us! / 1000).toFixed(1)} ms, max ${(pagesC.latency_max_us! / 1000).toFixed(0)} ms; ${requestsOf(pagesOut)} pages: /, /home, /photos, a folder, album pages (public, 20,000 photos), a locked album`,
      ),
      context('media requests, wrk latency p99', mediaC.latency_p99_us! / 1000, 'ms', `p50 ${(mediaC.latency_p50_us! / 1000).toFixed(1)} ms`),
      context(
        'album page under load (probe, one at a time), p99',
        percentile(pageTimes, 0.99),
        'ms',
        `p50 ${percentile(pageTimes, 0.5).toFixed(1)} ms over ${pageTimes.length} pages`,
      ),
      limitRow(
        'server RSS peak during the load',
        Math.max(peak, hwm),
        'MB',
        { below: 600 },
        null,
        `VmHWM ${hwm.toFixed(0)} MB, sampled ${peak.toFixed(0)} MB; ${atReady.toFixed(0)} MB at ready`,
      ),
      limitRow(
        `server RSS ${SETTLE_SECONDS} s after the load, above its start`,
        after - start,
        'MB',
        { max: 100 },
        null,
        `${start.toFixed(0)} MB after warm-up, ${atEnd.toFixed(0)} MB when the load stopped, ${after.toFixed(0)} MB ${SETTLE_SECONDS} s later`,
      ),
    ];
    console.log(
      `loadtest: ${duration} s, ${values.connections} connections, ${values.threads} wrk threads; server env ${envText({ ...productionEnv(), ...env })}; load average ${loadBefore} before, ${loadAfter} after`,
    );
    console.log(formatTable(rows));
    const failed = rows.filter((r) => r.pass === false);
    if (failed.length) console.log(`\nFAILED: ${failed.map((r) => r.name).join('; ')}`);
    return failed.length ? 1 : 0;
  } finally {
    // A CPU profile is written only on a clean exit, after the server's own grace period.
    await server.stop(values['cpu-prof'] ? 40_000 : undefined);
    // LOADTEST_KEEP=1 keeps the server's log (every request, with its time) for a look afterwards.
    if (process.env.LOADTEST_KEEP === '1') log(`loadtest: kept ${runDir}`);
    else fs.rmSync(runDir, { recursive: true, force: true });
  }
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exitCode = 1;
  },
);
