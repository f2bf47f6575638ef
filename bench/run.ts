/**
 * `npm run bench`: generates (or reuses) its corpus, runs every figure against a baseline
 * measured in the same run, and prints one table. Exit code 0 even when a target is missed
 * (misses are marked MISS), so the table is always there to read; `--strict` exits 1 on a miss.
 *
 *   --smoke             tiny corpus, a few items per figure, 1-second loads: checks the harness
 *   --strict            exit 1 when a target is missed or a figure could not be measured
 *   --clean             delete the cached corpora (under the OS temp dir) and exit
 *   --only a,b          run only these figures (cold, cached, nginx, page, exif, zip, heic, heic-memory, first-screen, startup, prepare, search, timeline, map, processes)
 *   --seconds N         length of each load run (default 5, smoke 1)
 *   --rounds N          alternating app/baseline rounds per load figure (default 3, smoke 1)
 *   --no-arena-max      start the server without MALLOC_ARENA_MAX (to compare)
 *   --server-env K=V    more environment for the server (repeatable), e.g. a malloc tunable
 *   --json FILE         also write the rows as JSON
 *   --markdown          also print the table as markdown
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { cleanCorpora, ensureCorpus } from './corpus.js';
import type { BenchContext } from './figures/context.js';
import { albumPage } from './figures/page.js';
import { exifLatency } from './figures/exif.js';
import { firstScreenBytes } from './figures/first-screen.js';
import { preparation } from './figures/prepare.js';
import { startup } from './figures/startup.js';
import { cleanStartupTrees } from './figures/startup-corpus.js';
import { heicThumbnails } from './figures/heic.js';
import { heicMemory } from './figures/heic-memory.js';
import { cachedThumbnails, coldThumbnails } from './figures/thumbnails.js';
import { zipDownload } from './figures/zip.js';
import { mapLoad } from './figures/map.js';
import { searchLoad } from './figures/search.js';
import { timelineLoad } from './figures/timeline.js';
import { nginxThumbnailCache, severalProcesses } from './figures/cluster.js';
import { hasWrk } from './http-load.js';
import { loadAverage } from './proc.js';
import { type BenchRow, failedRow, formatMarkdown, formatTable } from './rows.js';
import { envText, galleryEntry, productionEnv, startGallery } from './server-process.js';

interface Figure {
  readonly key: string;
  /** Shown when the figure fails before producing rows. */
  readonly fallback: { readonly name: string; readonly unit: string; readonly target: string };
  /** False: runs after the main server has stopped (it starts its own). */
  readonly usesGallery: boolean;
  run(ctx: BenchContext): Promise<BenchRow[]>;
}

// Order matters: cold thumbnails need an empty cache, cached ones the files the cold run made.
const FIGURES: readonly Figure[] = [
  { key: 'cold', fallback: { name: 'cold thumbnails', unit: 'images/s', target: 'ratio >= 0.9' }, usesGallery: true, run: coldThumbnails },
  { key: 'cached', fallback: { name: 'cached thumbnails', unit: 'req/s', target: 'ratio >= 0.7' }, usesGallery: true, run: cachedThumbnails },
  {
    key: 'nginx',
    fallback: { name: "cached small thumbnail through nginx's cache vs one Node process", unit: 'req/s', target: 'ratio >= 5' },
    usesGallery: true,
    run: nginxThumbnailCache,
  },
  { key: 'page', fallback: { name: 'album page p50', unit: 'ms', target: '<= 10 ms' }, usesGallery: true, run: albumPage },
  { key: 'exif', fallback: { name: 'EXIF mean', unit: 'ms', target: '< 5 ms' }, usesGallery: true, run: exifLatency },
  { key: 'zip', fallback: { name: 'ZIP download', unit: 'MB/s', target: 'ratio >= 0.85' }, usesGallery: true, run: zipDownload },
  { key: 'heic', fallback: { name: 'HEIC thumbnails', unit: 'ms', target: '< 1024 MB' }, usesGallery: false, run: heicThumbnails },
  {
    key: 'heic-memory',
    fallback: { name: '24 MP HEICs one at a time, server RSS', unit: 'MB', target: '<= 600 MB peak, <= +50 MB after 60 s' },
    usesGallery: false,
    run: heicMemory,
  },
  {
    key: 'first-screen',
    fallback: { name: 'first-screen bytes', unit: 'MB', target: '<= 1.0 / 2.0 MB' },
    usesGallery: false,
    run: firstScreenBytes,
  },
  { key: 'startup', fallback: { name: 'start-up until /photos answers', unit: 's', target: '<= 2 s; <= 5 s' }, usesGallery: false, run: startup },
  {
    key: 'prepare',
    fallback: { name: 'albums prepared as they arrive', unit: '-', target: 'ratio <= 1.2; <= 100 ms; <= 300 ms; = 0' },
    usesGallery: false,
    run: preparation,
  },
  {
    key: 'search',
    fallback: { name: 'search on 1,000,000 photos, p50; p99; library memory', unit: 'ms', target: '<= 20 ms; <= 100 ms; <= 150 MB' },
    usesGallery: false,
    run: searchLoad,
  },
  {
    key: 'timeline',
    fallback: { name: 'timeline page on 1,000,000 photos, p50', unit: 'ms', target: '<= 20 ms' },
    usesGallery: false,
    run: timelineLoad,
  },
  {
    key: 'map',
    fallback: { name: 'map answer on 1,000,000 photos, p50; p99; clusters memory', unit: 'ms', target: '<= 20 ms; <= 100 ms; <= 150 MB' },
    usesGallery: false,
    run: mapLoad,
  },
  {
    key: 'processes',
    fallback: { name: 'album page, 2 processes vs 1; lockout over 2 processes; pm2 reload', unit: '-', target: 'ratio >= 1.6' },
    usesGallery: false,
    run: severalProcesses,
  },
];

function cpuModel(): string {
  try {
    return /model name\s*:\s*(.+)/.exec(fs.readFileSync('/proc/cpuinfo', 'utf8'))?.[1]?.trim() ?? os.cpus()[0]?.model ?? 'unknown';
  } catch {
    return os.cpus()[0]?.model ?? 'unknown';
  }
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      smoke: { type: 'boolean', default: false },
      strict: { type: 'boolean', default: false },
      clean: { type: 'boolean', default: false },
      only: { type: 'string' },
      seconds: { type: 'string' },
      rounds: { type: 'string' },
      json: { type: 'string' },
      markdown: { type: 'boolean', default: false },
      'no-arena-max': { type: 'boolean', default: false },
      'server-env': { type: 'string', multiple: true, default: [] },
    },
  });
  const log = (line: string) => process.stderr.write(`${line}\n`);
  if (values.clean) {
    cleanCorpora();
    cleanStartupTrees();
    log('bench: cached corpora removed');
    return 0;
  }
  const smoke = values.smoke ?? false;
  const only = values.only?.split(',').map((s) => s.trim());
  const unknown = only?.filter((k) => !FIGURES.some((f) => f.key === k)) ?? [];
  if (unknown.length) {
    log(`bench: unknown figure ${unknown.join(', ')} (known: ${FIGURES.map((f) => f.key).join(', ')})`);
    return 2;
  }
  const figures = FIGURES.filter((f) => !only || only.includes(f.key));
  // The cached figure reads the files the cold one wrote.
  if (only?.includes('cached') && !only.includes('cold')) figures.unshift(FIGURES[0]!);

  const loadSeconds = Number(values.seconds ?? (smoke ? 1 : 5));
  const rounds = Number(values.rounds ?? (smoke ? 1 : 3));
  if (!Number.isInteger(loadSeconds) || loadSeconds < 1 || loadSeconds > 300 || !Number.isInteger(rounds) || rounds < 1 || rounds > 20) {
    log('bench: --seconds must be 1 to 300 and --rounds 1 to 20');
    return 2;
  }
  const serverEnv: Record<string, string | undefined> = values['no-arena-max'] ? { MALLOC_ARENA_MAX: undefined } : {};
  for (const kv of values['server-env'] ?? []) {
    const eq = kv.indexOf('=');
    if (eq < 1) {
      log(`bench: --server-env wants KEY=VALUE, got ${kv}`);
      return 2;
    }
    serverEnv[kv.slice(0, eq)] = kv.slice(eq + 1);
  }
  const header = [
    `date: ${new Date().toISOString()}`,
    `machine: ${os.availableParallelism()} CPUs (nproc), ${cpuModel()}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}`,
    `server: ${galleryEntry().label}, env (ecosystem.config.cjs): ${envText({ ...productionEnv(), ...serverEnv })}; load tool: ${(await hasWrk()) ? 'wrk' : 'in-process Node client (wrk not installed)'}`,
    `load average at start: ${loadAverage()}${smoke ? '; SMOKE run: tiny corpus, figures are not meaningful' : ''}`,
  ];
  log(header.join('\n'));

  const corpus = await ensureCorpus(smoke, log);
  const runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gallery-bench-run-'));
  const cacheDir = path.join(runDir, 'cache');
  const contentDir = path.join(runDir, 'content');
  fs.mkdirSync(contentDir, { recursive: true });
  const rows: BenchRow[] = [];
  let gallery: Awaited<ReturnType<typeof startGallery>> | undefined;
  let startError: unknown;
  try {
    try {
      gallery = await startGallery({ albumsDir: corpus.galleryDir, cacheDir, contentDir, env: serverEnv, logFile: path.join(runDir, 'logs', 'gallery.log') });
    } catch (err) {
      startError = err;
    }
    const ctx: Omit<BenchContext, 'gallery'> = {
      corpus,
      smoke,
      runDir,
      cacheDir,
      serverEnv,
      loadSeconds,
      rounds,
      log,
    };
    for (const figure of figures) {
      if (!figure.usesGallery && gallery) {
        // Figures that start their own server run alone.
        await gallery.stop();
        gallery = undefined;
        startError = new Error('the gallery server was stopped');
      }
      log(`bench: ${figure.key} (load average ${loadAverage()})`);
      let produced: BenchRow[];
      try {
        if (figure.usesGallery && !gallery) throw startError ?? new Error('the gallery server is not running');
        produced = await figure.run({ ...ctx, gallery: gallery! });
      } catch (err) {
        log(`bench: ${figure.key} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
        produced = [failedRow(figure.fallback.name, figure.fallback.unit, figure.fallback.target, err)];
      }
      // The machine is shared: each figure carries the load it was measured under.
      const load = loadAverage();
      rows.push(...produced.map((r) => ({ ...r, note: `${r.note ? `${r.note}; ` : ''}load ${load}` })));
    }
  } finally {
    await gallery?.stop();
    fs.rmSync(runDir, { recursive: true, force: true });
  }

  console.log(header.join('\n'));
  console.log('');
  console.log(formatTable(rows));
  if (values.markdown) console.log(`\n${formatMarkdown(rows)}`);
  if (values.json) fs.writeFileSync(values.json, JSON.stringify({ header, rows }, null, 2));
  const misses = rows.filter((r) => r.pass === false);
  if (misses.length > 0) console.log(`\n${misses.length} target(s) missed: ${misses.map((r) => r.name).join('; ')}`);
  return values.strict && misses.length > 0 ? 1 : 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    console.error(err);
    process.exitCode = 1;
  },
);
