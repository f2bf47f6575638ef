import os from 'node:os';
import path from 'node:path';

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
  readonly workers: number;
}

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

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

/** `TRUST_PROXY` as Express understands it: a hop count, true/false, or an address list. */
function parseTrustProxy(raw: string | undefined): boolean | number | string {
  if (raw === undefined || raw === '' || raw === 'false' || raw === '0') return false;
  if (raw === 'true') return true;
  if (/^\d+$/.test(raw)) return Number(raw);
  return raw;
}

/**
 * Reads the environment once, validates it and returns a frozen Config.
 * Relative directories are resolved against `cwd` so tests can point anywhere.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): Config {
  const dir = (raw: string | undefined, fallback: string) => path.resolve(cwd, raw && raw !== '' ? raw : fallback);
  return Object.freeze({
    port: parsePort('PORT', env.PORT, 3000),
    host: env.HOST && env.HOST !== '' ? env.HOST : undefined,
    albumsDir: dir(env.ALBUMS_DIR, 'albums'),
    cacheDir: dir(env.CACHE_DIR, 'cache'),
    contentDir: dir(env.CONTENT_DIR, 'content'),
    adminPort: parsePort('ADMIN_PORT', env.ADMIN_PORT, 4444),
    production: env.NODE_ENV === 'production',
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    workers: parsePositiveInt('WORKERS', env.WORKERS, Math.max(1, os.availableParallelism())),
  });
}
