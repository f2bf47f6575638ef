import os from 'node:os';
import path from 'node:path';
import { ConfigError } from './config-error.js';
import { environmentWithFile } from './env-file.js';

/** Everything the servers read from the environment, parsed and checked in one place. */
export interface Config {
  readonly port: number;
  /** Bind address of the public server; undefined means all interfaces. */
  readonly host: string | undefined;
  readonly albumsDir: string;
  readonly cacheDir: string;
  readonly contentDir: string;
  readonly adminPort: number;
  readonly production: boolean;
  /** Express `trust proxy` value; false unless TRUST_PROXY is set. */
  readonly trustProxy: boolean | number | string;
  /**
   * Worker threads of the media pool's main lane. By default the machine's cores shared out
   * between the public server's processes on it: `floor(cores / instances)`, at least 1, so
   * `instances × workers` never oversubscribes the cores (README "Running several processes").
   */
  readonly workers: number;
  /** Public server processes on this machine (`INSTANCES`, set by ecosystem.config.cjs's cluster profile). */
  readonly instances: number;
  /**
   * `REDIS_URL`: where the state every process must agree on lives (the password lockout);
   * undefined keeps it in this process's memory, which is right for one process only.
   */
  readonly redisUrl: string | undefined;
  /**
   * `WATCH`: how changes to the album tree and the content are noticed. `events`: the
   * kernel's file events (inotify); `poll`: every directory looked at every `watchIntervalMs`
   * (NFS, SMB, FUSE mounts, some containers, where events from other machines never come);
   * `auto`: events, switching to polling when they are found not to arrive
   * (server/core/watch/watch-mode.ts).
   */
  readonly watch: WatchSetting;
  readonly watchIntervalMs: number;
  /**
   * `PREPARE`: whether albums are prepared as their files arrive (server/media/preparer.ts), in
   * the background; `off` leaves every thumbnail to its first request (the benchmarks of cold
   * thumbnails, a machine that must not spend a core on it).
   */
  readonly prepare: boolean;
}

export type WatchSetting = 'auto' | 'events' | 'poll';
const WATCH_SETTINGS: readonly WatchSetting[] = ['auto', 'events', 'poll'];

export { ConfigError };

function parsePort(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!/^\d+$/.test(raw.trim()) || !Number.isInteger(n) || n < 0 || n > 65535) {
    throw new ConfigError(`${name} must be an integer from 0 to 65535, got "${raw}"`);
  }
  return n;
}

function parsePositiveInt(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!/^\d+$/.test(raw.trim()) || n < 1 || n > 1024) {
    throw new ConfigError(`${name} must be an integer from 1 to 1024, got "${raw}"`);
  }
  return n;
}

/** Seconds (decimals allowed) as milliseconds, within bounds. */
function parseSeconds(name: string, raw: string | undefined, fallbackMs: number, minMs: number, maxMs: number): number {
  if (raw === undefined || raw === '') return fallbackMs;
  const ms = Math.round(Number(raw) * 1000);
  if (!/^\d+(\.\d+)?$/.test(raw.trim()) || ms < minMs || ms > maxMs) {
    throw new ConfigError(`${name} must be a number of seconds from ${minMs / 1000} to ${maxMs / 1000}, got "${raw}"`);
  }
  return ms;
}

function parseWatch(raw: string | undefined): WatchSetting {
  if (raw === undefined || raw === '') return 'auto';
  if (!(WATCH_SETTINGS as readonly string[]).includes(raw)) throw new ConfigError(`WATCH must be one of ${WATCH_SETTINGS.join(', ')}, got "${raw}"`);
  return raw as WatchSetting;
}

/** `on` or `off` (also `true`/`false`, `1`/`0`). */
function parseSwitch(name: string, raw: string | undefined, fallback: boolean): boolean {
  if (raw === undefined || raw === '') return fallback;
  if (['on', 'true', '1'].includes(raw)) return true;
  if (['off', 'false', '0'].includes(raw)) return false;
  throw new ConfigError(`${name} must be on or off, got "${raw}"`);
}

/** A `redis://` or `rediss://` URL (node-redis's forms); the password in it is never logged. */
function parseRedisUrl(raw: string | undefined): string | undefined {
  if (raw === undefined || raw === '') return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError('REDIS_URL must be a redis:// or rediss:// URL');
  }
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:') throw new ConfigError(`REDIS_URL must be a redis:// or rediss:// URL, got "${url.protocol}"`);
  return raw;
}

/** `TRUST_PROXY` as Express understands it: a hop count, true/false, or an address list. */
function parseTrustProxy(raw: string | undefined): boolean | number | string {
  if (raw === undefined || raw === '' || raw === 'false' || raw === '0') return false;
  if (raw === 'true') return true;
  if (/^\d+$/.test(raw)) return Number(raw);
  return raw;
}

/** The sizing rule: the cores shared out between the processes, one worker at least. */
export function defaultWorkers(cores: number, instances: number): number {
  return Math.max(1, Math.floor(cores / instances));
}

/**
 * Reads the environment once (by default with the settings file under it, env-file.ts),
 * validates it and returns a frozen Config. Relative directories are resolved against `cwd`
 * so tests can point anywhere.
 */
export function loadConfig(env: NodeJS.ProcessEnv = environmentWithFile(), cwd = process.cwd()): Config {
  const dir = (raw: string | undefined, fallback: string) => path.resolve(cwd, raw && raw !== '' ? raw : fallback);
  const instances = parsePositiveInt('INSTANCES', env.INSTANCES, 1);
  const redisUrl = parseRedisUrl(env.REDIS_URL);
  // Each process would count its own 10 wrong passwords per IP: refuse rather than weaken it.
  if (instances > 1 && redisUrl === undefined) {
    throw new ConfigError(`INSTANCES=${instances} needs REDIS_URL: the password lockout must be shared by every process`);
  }
  return Object.freeze({
    port: parsePort('PORT', env.PORT, 3000),
    host: env.HOST && env.HOST !== '' ? env.HOST : undefined,
    albumsDir: dir(env.ALBUMS_DIR, 'albums'),
    cacheDir: dir(env.CACHE_DIR, 'cache'),
    contentDir: dir(env.CONTENT_DIR, 'content'),
    adminPort: parsePort('ADMIN_PORT', env.ADMIN_PORT, 4444),
    production: env.NODE_ENV === 'production',
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    workers: parsePositiveInt('WORKERS', env.WORKERS, defaultWorkers(os.availableParallelism(), instances)),
    instances,
    redisUrl,
    watch: parseWatch(env.WATCH),
    watchIntervalMs: parseSeconds('WATCH_INTERVAL', env.WATCH_INTERVAL, 5000, 100, 3_600_000),
    prepare: parseSwitch('PREPARE', env.PREPARE, true),
  });
}
