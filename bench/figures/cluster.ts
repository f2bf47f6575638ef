/**
 * The figures of several processes (README "Running several processes / machines"):
 *
 * - nginx's thumbnail cache (deploy/nginx.conf, the file as shipped, its HTTPS block listening
 *   without TLS as the Node side does) against one Node process serving the same cached
 *   thumbnail;
 * - an album page on two gallery processes against one, both behind Node's cluster module
 *   (bench/node-cluster.ts: what PM2's cluster mode runs), one port, 10 connections;
 * - the shared lockout (Redis) under 100 concurrent wrong passwords spread over two processes;
 * - `pm2 reload` of PM2's cluster profile (ecosystem.config.cjs) under load: failed requests.
 *
 * Redis and nginx are Debian's (redis-server, nginx-light), started here on free loopback
 * ports with temp dirs and stopped by their PIDs; PM2 is the one of node_modules or PATH,
 * with a PM2_HOME of its own, killed at the end. What is missing makes its rows "not measured".
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { NginxServer } from '../../test/support/nginx.js';
import { freePort, freePorts, onPath, RedisServer } from '../../test/support/redis-server.js';
import { load } from '../http-load.js';
import { type BenchRow, exactRow, failedRow, limitRow, ratioRow } from '../rows.js';
import { type GalleryProcessOptions, type ServerProcess, startGalleryCluster } from '../server-process.js';
import { type BenchContext, cacheFileOf, drain, fetchOk, median, thumbnailUrl } from './context.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const PAGE_CONNECTIONS = 10;
const THUMBNAIL_CONNECTIONS = 16;
const GUESSES = 100;
const MAX_FAILED_ATTEMPTS = 10;
const LOCKED_ALBUM = 'bench/locked';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function nginxThumbnailCache(ctx: BenchContext): Promise<BenchRow[]> {
  if (!onPath('nginx')) throw new Error('nginx is not installed (Debian: apt-get install nginx-light)');
  const { corpus, gallery } = ctx;
  const rel = corpus.cold[0]!;
  const nodeUrl = thumbnailUrl(gallery.url, rel, 'small');
  // The one Node process made it already (or makes it now): the cache file is the same for both sides.
  await drain(nodeUrl);
  const kb = Math.round(fs.statSync(cacheFileOf(ctx.cacheDir, rel, 'small')).size / 1024);
  const [httpPort, httpsPort] = (await freePorts(2)) as [number, number];
  const nginx = new NginxServer({ upstreams: [new URL(gallery.url).host], httpPort, httpsPort, tls: false });
  await nginx.start();
  try {
    const viaNginx = thumbnailUrl(nginx.httpsUrl, rel, 'small');
    await drain(viaNginx);
    const second = await fetchOk(viaNginx);
    await second.arrayBuffer();
    if (second.headers.get('x-cache-status') !== 'HIT')
      throw new Error(`nginx did not cache the thumbnail (X-Cache-Status: ${second.headers.get('x-cache-status')})`);
    const sides = { nginx: [] as number[], node: [] as number[] };
    let errors = 0;
    let tool = '';
    const opts = { seconds: ctx.loadSeconds, connections: THUMBNAIL_CONNECTIONS, threads: 2 };
    if (!ctx.smoke) {
      await load(viaNginx, { ...opts, seconds: 1 });
      await load(nodeUrl, { ...opts, seconds: 1 });
    }
    for (let r = 0; r < ctx.rounds; r++) {
      ctx.log(`nginx: cached small thumbnail, round ${r + 1}/${ctx.rounds}, ${ctx.loadSeconds} s per side`);
      for (const side of r % 2 === 0 ? (['nginx', 'node'] as const) : (['node', 'nginx'] as const)) {
        const res = await load(side === 'nginx' ? viaNginx : nodeUrl, opts);
        sides[side].push(res.rps);
        errors += res.errors;
        tool = res.tool;
      }
    }
    const note = `${tool} (2 threads), ${THUMBNAIL_CONNECTIONS} connections, median of ${ctx.rounds} alternating rounds; nginx: deploy/nginx.conf, 2 workers, plain HTTP like Node${errors ? `; ${errors} errors` : ''}`;
    const row = ratioRow(
      `cached small thumbnail (${kb} KB) through nginx's cache vs one Node process`,
      median(sides.nginx),
      'req/s',
      median(sides.node),
      5,
      note,
    );
    return [errors ? { ...row, pass: false } : row];
  } finally {
    await nginx.close();
  }
}

/** An album tree of its own: the big album (hard links of the corpus's) and a protected album. */
function clusterTree(ctx: BenchContext): string {
  const albumsDir = path.join(ctx.runDir, 'cluster-albums');
  const from = path.join(ctx.corpus.galleryDir, ...ctx.corpus.bigAlbum.split('/'));
  const big = path.join(albumsDir, ...ctx.corpus.bigAlbum.split('/'));
  fs.mkdirSync(big, { recursive: true });
  for (const name of fs.readdirSync(from)) fs.linkSync(path.join(from, name), path.join(big, name));
  const locked = path.join(albumsDir, ...LOCKED_ALBUM.split('/'));
  fs.mkdirSync(locked, { recursive: true });
  fs.writeFileSync(path.join(locked, 'album.json'), JSON.stringify({ title: 'Locked', password: 'bench-secret', token: 'bench-locked-token' }));
  fs.linkSync(ctx.corpus.master, path.join(locked, 'IMG_0001.jpg'));
  return albumsDir;
}

export async function severalProcesses(ctx: BenchContext): Promise<BenchRow[]> {
  if (!onPath('redis-server')) throw new Error('redis-server is not installed (Debian: apt-get install redis-server)');
  const redis = new RedisServer();
  await redis.start();
  const albumsDir = clusterTree(ctx);
  const contentDir = path.join(ctx.runDir, 'content');
  fs.mkdirSync(contentDir, { recursive: true });
  const opts = (name: string): GalleryProcessOptions => ({
    albumsDir,
    cacheDir: path.join(ctx.runDir, 'cluster-cache'),
    contentDir,
    env: { ...ctx.serverEnv, REDIS_URL: redis.url },
    logFile: path.join(ctx.runDir, 'logs', `${name}.log`),
  });
  const pageName = `album page of a ${ctx.corpus.spec.bigAlbum}-photo album, 2 processes vs 1 (Node's cluster, as PM2's)`;
  const guessName = `wrong passwords answered 401 before the lockout, ${GUESSES} concurrent guesses over 2 processes`;
  const reloadName = 'failed requests during `pm2 reload` of 2 processes under load';
  const rows: BenchRow[] = [];
  try {
    let two: ServerProcess | undefined;
    try {
      const one = await startGalleryCluster(1, await freePort(), opts('cluster-1'));
      try {
        two = await startGalleryCluster(2, await freePort(), opts('cluster-2'));
        rows.push(await pagesByProcesses(ctx, one, two, pageName));
      } finally {
        await one.stop();
      }
    } catch (err) {
      rows.push(failedRow(pageName, 'req/s', 'ratio >= 1.6', err));
    }
    try {
      if (!two) throw new Error('the two processes did not start');
      await redis.command('FLUSHALL');
      rows.push(await guessesOverProcesses(two, guessName));
    } catch (err) {
      rows.push(failedRow(guessName, 'answers', `= ${MAX_FAILED_ATTEMPTS}`, err));
    } finally {
      await two?.stop();
    }
    try {
      rows.push(await pm2Reload(ctx, opts('pm2'), reloadName));
    } catch (err) {
      rows.push(failedRow(reloadName, 'requests', '<= 0 requests', err));
    }
  } finally {
    await redis.close();
  }
  return rows;
}

async function pagesByProcesses(ctx: BenchContext, one: ServerProcess, two: ServerProcess, name: string): Promise<BenchRow> {
  const page = `/photos/${ctx.corpus.bigAlbum}`;
  const opts = { seconds: ctx.loadSeconds, connections: PAGE_CONNECTIONS };
  // Every process renders the page once (probing its photos' sizes first) before it is
  // cached: a request per process, each on a new connection, which Node's cluster hands to
  // the processes in turn; then a short load on both sides.
  for (const p of [one, two]) for (let i = 0; i < 4; i++) expectOk(await request(`${p.url}${page}`), page);
  if (!ctx.smoke) for (const p of [one, two]) await load(`${p.url}${page}`, { ...opts, seconds: 2 });
  const sides = { one: [] as number[], two: [] as number[] };
  let errors = 0;
  let tool = '';
  for (let r = 0; r < ctx.rounds; r++) {
    ctx.log(`processes: album page, round ${r + 1}/${ctx.rounds}, ${ctx.loadSeconds} s per side`);
    for (const side of r % 2 === 0 ? (['two', 'one'] as const) : (['one', 'two'] as const)) {
      const res = await load(`${(side === 'one' ? one : two).url}${page}`, opts);
      sides[side].push(res.rps);
      errors += res.errors;
      tool = res.tool;
    }
  }
  const note = `${tool}, ${PAGE_CONNECTIONS} connections on one port, median of ${ctx.rounds} alternating rounds; INSTANCES=2 gives each 1 worker thread per 2 cores${errors ? `; ${errors} errors` : ''}`;
  const row = ratioRow(name, median(sides.two), 'req/s', median(sides.one), 1.6, note);
  return errors ? { ...row, pass: false } : row;
}

/** A request on a connection of its own (a POST with `body`): its status, or 0 when it failed. */
function request(url: string, body?: string): Promise<number> {
  return new Promise((resolve) => {
    const options = body === undefined ? { agent: false } : { method: 'POST', agent: false as const, headers: { 'Content-Type': 'application/json' } };
    const req = http.request(url, options, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', () => resolve(0));
    req.setTimeout(120_000, () => req.destroy());
    req.end(body);
  });
}

function expectOk(status: number, what: string): void {
  if (status !== 200) throw new Error(`${what} answered ${status || 'nothing'}`);
}

async function guessesOverProcesses(two: ServerProcess, name: string): Promise<BenchRow> {
  const body = JSON.stringify({ albumPath: LOCKED_ALBUM, password: 'wrong' });
  // Connected to Redis (in the background, at start): a guess is answered, and then forgotten.
  const end = Date.now() + 20_000;
  while ((await request(`${two.url}/api/check-password`, JSON.stringify({ albumPath: LOCKED_ALBUM, password: 'bench-secret' }))) !== 200) {
    if (Date.now() > end) throw new Error('the lockout did not answer (Redis)');
    await sleep(200);
  }
  const statuses = await Promise.all(Array.from({ length: GUESSES }, () => request(`${two.url}/api/check-password`, body)));
  const count = (s: number) => statuses.filter((x) => x === s).length;
  const others = GUESSES - count(401) - count(429);
  const note = `${count(429)} answered 429${others ? `, ${others} other` : ''}; each on its own connection, spread by Node's cluster; lockout in redis-server`;
  return exactRow(name, count(401), 'answers', MAX_FAILED_ATTEMPTS, note);
}

/** PM2 from node_modules or PATH, found without running it (running it starts a daemon). */
function findPm2(): string | undefined {
  const local = path.join(ROOT, 'node_modules', '.bin', 'pm2');
  if (fs.existsSync(local)) return local;
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    const file = path.join(dir, 'pm2');
    try {
      fs.accessSync(file, fs.constants.X_OK);
      return file;
    } catch {
      // Not here.
    }
  }
  return undefined;
}

function run(file: string, args: readonly string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(file, [...args], { env, timeout: 180_000, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`${path.basename(file)} ${args.join(' ')} failed: ${err.message}\n${stderr}`));
      else resolve(stdout);
    });
  });
}

/**
 * `connections` keep-alive clients asking for `url` one request after another until `signal`
 * aborts; a failure is any answer >= 400 or any request that got no answer (a connection
 * reset or closed under it): no retry, stricter than a browser, which repeats a GET whose
 * kept-alive connection was closed.
 */
async function loadUntil(url: string, connections: number, signal: AbortSignal): Promise<{ requests: number; failed: number; first: string[] }> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  let requests = 0;
  let failed = 0;
  const first: string[] = [];
  const fail = (why: string) => {
    failed++;
    if (first.length < 5) first.push(why);
  };
  const once = () =>
    new Promise<void>((resolve) => {
      const req = http.get(url, { agent }, (res) => {
        res.resume();
        res.on('end', () => {
          if ((res.statusCode ?? 0) >= 400) fail(`HTTP ${res.statusCode}`);
          resolve();
        });
        res.on('error', (err) => {
          fail(err.message);
          resolve();
        });
      });
      req.setTimeout(30_000, () => req.destroy(new Error('timeout')));
      req.on('error', (err) => {
        fail(err.message);
        resolve();
      });
    });
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (!signal.aborted) {
        requests++;
        await once();
      }
    }),
  );
  agent.destroy();
  return { requests, failed, first };
}

async function pm2Reload(ctx: BenchContext, opts: GalleryProcessOptions, name: string): Promise<BenchRow> {
  const pm2 = findPm2();
  if (!pm2) return failedRow(name, 'requests', '<= 0 requests', new Error('pm2 is not installed (npm install -g pm2)'));
  if (!fs.existsSync(path.join(ROOT, 'dist', 'server', 'main.js'))) {
    return failedRow(name, 'requests', '<= 0 requests', new Error('PM2 runs dist/server/main.js: npm run build first'));
  }
  const port = await freePort();
  // The maintained ecosystem file's cluster profile, with the bench's port, tree and logs.
  const config = path.join(ctx.runDir, 'bench-gallery.config.cjs');
  const env = Object.fromEntries(
    Object.entries({
      ...opts.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      ALBUMS_DIR: opts.albumsDir,
      CACHE_DIR: opts.cacheDir,
      CONTENT_DIR: opts.contentDir,
    }).filter((e): e is [string, string] => e[1] !== undefined),
  );
  fs.writeFileSync(
    config,
    [
      "process.env.GALLERY_INSTANCES = '2';",
      `const app = require(${JSON.stringify(path.join(ROOT, 'ecosystem.config.cjs'))}).apps[0];`,
      `module.exports = { apps: [{ ...app, name: 'bench-gallery', out_file: ${JSON.stringify(opts.logFile)}, error_file: ${JSON.stringify(opts.logFile)}, env: { ...app.env, ...${JSON.stringify(env)} } }] };`,
      '',
    ].join('\n'),
  );
  const pm2Env = { ...process.env, PM2_HOME: path.join(ctx.runDir, 'pm2-home') };
  const pids = async () =>
    (JSON.parse(await run(pm2, ['jlist'], pm2Env)) as { name: string; pid: number }[])
      .filter((p) => p.name === 'bench-gallery')
      .map((p) => p.pid)
      .sort();
  try {
    const version = (await run(pm2, ['--version'], pm2Env)).trim().split('\n').pop();
    await run(pm2, ['start', config], pm2Env);
    const url = `http://127.0.0.1:${port}/photos/${ctx.corpus.bigAlbum}`;
    const end = Date.now() + 90_000;
    for (;;) {
      const ok = await fetch(url).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) break;
      if (Date.now() > end) throw new Error('PM2 did not bring the gallery up within 90 s');
      await sleep(250);
    }
    await load(url, { seconds: 1, connections: PAGE_CONNECTIONS });
    const before = await pids();
    const stop = new AbortController();
    const loading = loadUntil(url, PAGE_CONNECTIONS, stop.signal);
    await sleep(1000);
    ctx.log('processes: pm2 reload under load');
    const started = performance.now();
    await run(pm2, ['reload', 'bench-gallery'], pm2Env);
    const reloadS = (performance.now() - started) / 1000;
    await sleep(1000);
    stop.abort();
    const { requests, failed, first } = await loading;
    const after = await pids();
    if (before.length !== 2 || after.some((pid) => before.includes(pid))) throw new Error(`pm2 reload did not replace both processes (${before} → ${after})`);
    const note = `pm2 ${version}, ecosystem.config.cjs with GALLERY_INSTANCES=2; ${requests} page requests on ${PAGE_CONNECTIONS} keep-alive connections, no retry; the reload took ${reloadS.toFixed(1)} s${first.length ? `; ${first.join(', ')}` : ''}`;
    return limitRow(name, failed, 'requests', { max: 0 }, null, note);
  } finally {
    await run(pm2, ['kill'], pm2Env).catch(() => undefined);
  }
}
