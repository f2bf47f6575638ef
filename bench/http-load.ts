/**
 * HTTP load on loopback: wrk when it is installed (its C client costs the machine far less
 * than a Node one, which matters on two shared cores), else a small keep-alive client in
 * this process, good enough for the smoke run.
 */
import { execFile } from 'node:child_process';
import http from 'node:http';

export interface LoadResult {
  readonly rps: number;
  readonly requests: number;
  /** Latency percentiles in milliseconds. */
  readonly p50Ms: number;
  readonly p99Ms: number;
  /** Non-2xx/3xx answers plus socket errors and timeouts. */
  readonly errors: number;
  readonly tool: 'wrk' | 'node';
}

export interface LoadOptions {
  readonly seconds: number;
  readonly connections: number;
  /** wrk threads (default 1: the other core is the server's). */
  readonly threads?: number;
  /** Use the in-process client even when wrk is there. */
  readonly noWrk?: boolean;
}

let wrkPresent: Promise<boolean> | undefined;

export function hasWrk(): Promise<boolean> {
  wrkPresent ??= new Promise((resolve) =>
    execFile('wrk', ['--version'], { timeout: 5000 }, (err) => resolve(!err || (err as { code?: unknown }).code !== 'ENOENT')),
  );
  return wrkPresent;
}

export async function load(url: string, opts: LoadOptions): Promise<LoadResult> {
  if (!opts.noWrk && (await hasWrk())) {
    const threads = Math.min(opts.threads ?? 1, opts.connections);
    const out = await runWrk(
      ['-t', String(threads), '-c', String(opts.connections), '-d', `${opts.seconds}s`, '--timeout', '10s', '--latency', url],
      opts.seconds,
    );
    return parseWrk(out);
  }
  return nodeLoad(url, opts.seconds, opts.connections);
}

/** Runs wrk with these arguments, bounded in time, and returns its stdout. */
export function runWrk(args: readonly string[], seconds: number): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('wrk', [...args], { timeout: (seconds + 30) * 1000, maxBuffer: 4 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`wrk failed: ${err.message}\n${stderr}`));
      else resolve(stdout);
    });
  });
}

const UNIT_MS: Readonly<Record<string, number>> = { us: 0.001, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

function toMs(value: string, unit: string): number {
  const scale = UNIT_MS[unit];
  if (scale === undefined) throw new Error(`unknown wrk time unit ${unit}`);
  return Number(value) * scale;
}

/** The figures of wrk's text report (with --latency for the percentiles). */
export function parseWrk(stdout: string): LoadResult {
  const rps = /Requests\/sec:\s+([\d.]+)/.exec(stdout);
  const requests = /(\d+) requests in/.exec(stdout);
  if (!rps || !requests) throw new Error(`unexpected wrk output:\n${stdout}`);
  const pct = (p: string) => {
    const m = new RegExp(`^\\s+${p}%\\s+([\\d.]+)(us|ms|s|m|h)\\s*$`, 'm').exec(stdout);
    return m ? toMs(m[1]!, m[2]!) : Number.NaN;
  };
  const non2xx = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(stdout)?.[1] ?? 0);
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(stdout);
  const errors = non2xx + (socket ? socket.slice(1).reduce((a, b) => a + Number(b), 0) : 0);
  return { rps: Number(rps[1]), requests: Number(requests[1]), p50Ms: pct('50'), p99Ms: pct('99'), errors, tool: 'wrk' };
}

/** `connections` keep-alive loops for `seconds`, each sending its next request when the last ends. */
async function nodeLoad(url: string, seconds: number, connections: number): Promise<LoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const latencies: number[] = [];
  let errors = 0;
  const start = performance.now();
  const end = start + seconds * 1000;
  const loop = async () => {
    while (performance.now() < end) {
      const t0 = performance.now();
      const ok = await getOnce(url, agent);
      latencies.push(performance.now() - t0);
      if (!ok) errors++;
    }
  };
  await Promise.all(Array.from({ length: connections }, loop));
  const elapsed = (performance.now() - start) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? Number.NaN;
  return { rps: latencies.length / elapsed, requests: latencies.length, p50Ms: at(0.5), p99Ms: at(0.99), errors, tool: 'node' };
}

function getOnce(url: string, agent: http.Agent): Promise<boolean> {
  return new Promise((resolve) => {
    const req = http.get(url, { agent, timeout: 10_000 }, (res) => {
      res.resume();
      res.on('end', () => resolve((res.statusCode ?? 0) < 400));
      res.on('error', () => resolve(false));
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', () => resolve(false));
  });
}
