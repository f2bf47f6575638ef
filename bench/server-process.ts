/**
 * The servers under test, each in its own process: the real gallery (server/main.ts, as
 * production starts it) and the bare Node file server that serves as the ceiling. Separate
 * processes keep the harness, wrk's bookkeeping and sharp's direct baseline out of the
 * measured process, and let memory be read per process from /proc.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BUILT_MAIN = path.join(ROOT, 'dist', 'server', 'main.js');
const SOURCE_MAIN = path.join(ROOT, 'server', 'main.ts');

export interface ServerProcess {
  readonly url: string;
  readonly pid: number;
  readonly child: ChildProcess;
  /** Milliseconds from spawn to the ready line. */
  readonly readyMs: number;
  /** What the process wrote to stdout/stderr (a file: reading it costs the server nothing). */
  readonly logFile: string;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves when the process has exited. */
  stop(graceMs?: number): Promise<void>;
}

export interface GalleryProcessOptions {
  readonly albumsDir: string;
  readonly cacheDir: string;
  readonly contentDir: string;
  /** stdout and stderr of the server go here (its request log included). */
  readonly logFile: string;
  /** Added to the environment (WORKERS, MALLOC_ARENA_MAX, ...); undefined removes a variable. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Extra node flags, e.g. --cpu-prof. */
  readonly nodeArgs?: readonly string[];
  readonly timeoutMs?: number;
}

/** Which entry runs: the build when there is one (as in production), else the sources through tsx. */
export function galleryEntry(): { args: string[]; label: string } {
  if (fs.existsSync(BUILT_MAIN)) return { args: [BUILT_MAIN], label: 'dist/server/main.js' };
  return { args: ['--import', 'tsx', SOURCE_MAIN], label: 'server/main.ts via tsx' };
}

/**
 * The environment production gives the server: the `env` of ecosystem.config.cjs (PM2), so
 * a change there (a malloc tunable, say) is what the benchmarks measure. PORT and INSTANCES
 * are the harness's own.
 */
export function productionEnv(): Record<string, string> {
  try {
    const config = createRequire(import.meta.url)(path.join(ROOT, 'ecosystem.config.cjs')) as { apps?: { env?: Record<string, unknown> }[] };
    const { PORT: _port, INSTANCES: _instances, ...env } = config.apps?.[0]?.env ?? {};
    return Object.fromEntries(Object.entries(env).map(([k, v]) => [k, String(v)]));
  } catch {
    return { NODE_ENV: 'production', MALLOC_ARENA_MAX: '2' };
  }
}

/**
 * Starts the gallery on 127.0.0.1 with an ephemeral port, the way production runs it
 * (productionEnv: NODE_ENV=production turns the view cache on), and resolves once it logs
 * "Gallery ready at ...".
 */
export function startGallery(opts: GalleryProcessOptions): Promise<ServerProcess> {
  const args = [...(opts.nodeArgs ?? []), ...galleryEntry().args];
  return spawnUntilReady(args, galleryEnv(opts), opts.logFile, /Gallery ready at http:\/\/[^\s:]+:(\d+)/, opts.timeoutMs ?? 60_000);
}

/**
 * Several gallery processes on one port, through Node's cluster module as PM2's cluster mode
 * runs them (bench/node-cluster.ts is the primary): INSTANCES is set to `instances`, so each
 * sizes its worker pool by the rule of server/core/config.ts.
 */
export function startGalleryCluster(instances: number, port: number, opts: GalleryProcessOptions): Promise<ServerProcess> {
  const env = { ...galleryEnv(opts), PORT: String(port), INSTANCES: String(instances) };
  const args = ['--import', 'tsx', path.join(ROOT, 'bench', 'node-cluster.ts'), String(instances), ...galleryEntry().args];
  return spawnUntilReady(args, env, opts.logFile, /cluster of \d+ ready at http:\/\/[^\s:]+:(\d+)/, opts.timeoutMs ?? 90_000);
}

function galleryEnv(opts: GalleryProcessOptions): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...productionEnv(),
    HOST: '127.0.0.1',
    PORT: '0',
    ALBUMS_DIR: opts.albumsDir,
    CACHE_DIR: opts.cacheDir,
    CONTENT_DIR: opts.contentDir,
    // No background preparation unless a figure asks for it (PREPARE: 'on'): cold figures must
    // find their thumbnails cold, and every figure the cores to itself.
    PREPARE: 'off',
    ...opts.env,
  };
  for (const [k, v] of Object.entries(env)) if (v === undefined) delete env[k];
  return env;
}

/** 'A=1 B=unset' for a report. */
export function envText(env: Readonly<Record<string, string | undefined>>): string {
  return Object.entries(env)
    .map(([k, v]) => `${k}=${v ?? 'unset'}`)
    .join(' ');
}

/** The ceiling: bench/bare-server.ts serving `files` at /0, /1, ... */
export function startBareServer(files: readonly string[], logFile: string): Promise<ServerProcess> {
  const args = ['--import', 'tsx', path.join(ROOT, 'bench', 'bare-server.ts'), ...files];
  return spawnUntilReady(args, { ...process.env, MALLOC_ARENA_MAX: '2' }, logFile, /bare server listening on (\d+)/, 30_000);
}

/** Spawns node with `args`, its output into `logFile`, and resolves once the log matches `ready` (group 1: the port). */
export async function spawnUntilReady(args: string[], env: NodeJS.ProcessEnv, logFile: string, ready: RegExp, timeoutMs: number): Promise<ServerProcess> {
  fs.mkdirSync(path.dirname(logFile), { recursive: true });
  const out = fs.openSync(logFile, 'w');
  const start = performance.now();
  const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', out, out] });
  fs.closeSync(out);
  let exited: number | string | null | undefined;
  const gone = new Promise<void>((resolve) =>
    child.once('exit', (code, signal) => {
      exited = code ?? signal;
      resolve();
    }),
  );
  const stop = async (graceMs = 10_000) => {
    if (exited !== undefined) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    await gone;
    clearTimeout(timer);
  };

  // Polling the log file: a pipe would make the harness read every request-log line.
  const deadline = start + timeoutMs;
  for (;;) {
    const text = readHead(logFile);
    const m = ready.exec(text);
    if (m) {
      const readyMs = performance.now() - start;
      return { url: `http://127.0.0.1:${m[1]}`, pid: child.pid!, child, readyMs, logFile, stop };
    }
    if (exited !== undefined || performance.now() > deadline) {
      await stop(1000);
      throw new Error(
        `${path.basename(args[args.length - 1]!)} did not start (${exited !== undefined ? `exited ${exited}` : 'timeout'}):\n${text.slice(-2000)}`,
      );
    }
    await new Promise((r) => setTimeout(r, 10));
  }
}

function readHead(file: string): string {
  const fd = fs.openSync(file, 'r');
  try {
    const buf = Buffer.alloc(64 * 1024);
    const n = fs.readSync(fd, buf, 0, buf.length, 0);
    return buf.subarray(0, n).toString('utf8');
  } finally {
    fs.closeSync(fd);
  }
}
