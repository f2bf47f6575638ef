import fs from 'node:fs';
import path from 'node:path';
import { parseEnv } from 'node:util';
import { ConfigError } from './config-error.js';
import { ROOT_DIR } from './root-dir.js';

/**
 * The settings file every command reads (README "Your own photos"): `.env` at the repository
 * root, or the file named by `GALLERY_ENV`. Its lines are `NAME=value` as in `.env.example`;
 * a variable set in the environment wins over the file, so `PORT=4000 npm start` still works.
 *
 * Relative directories in the file are relative to the file's own folder, whatever folder a
 * command is started from; those set in the environment stay relative to the working
 * directory, as before.
 */
export const ENV_FILE_VARIABLE = 'GALLERY_ENV';

/** Every variable the file may set (`.env.example` documents each): a typo stops the command. */
export const SETTINGS = [
  'PORT',
  'HOST',
  'ALBUMS_DIR',
  'CACHE_DIR',
  'CONTENT_DIR',
  'ADMIN_PORT',
  'NODE_ENV',
  'TRUST_PROXY',
  'WORKERS',
  'INSTANCES',
  'GALLERY_INSTANCES',
  'REDIS_URL',
  'WATCH',
  'WATCH_INTERVAL',
  'PREPARE',
] as const;

const DIRECTORY_SETTINGS = new Set(['ALBUMS_DIR', 'CACHE_DIR', 'CONTENT_DIR']);

export interface EnvFile {
  /** The file read, absolute; undefined when there is none (no `.env`, no GALLERY_ENV). */
  readonly file: string | undefined;
  /** Its variables, directories made absolute. */
  readonly values: Readonly<Record<string, string>>;
}

/**
 * Reads the settings file: `GALLERY_ENV` (relative to `cwd`) when set, which must exist, else
 * `<root>/.env` when there is one. Throws ConfigError naming the file and the variable for an
 * unknown name (`ALBUM_DIR=` would otherwise be ignored while the samples are served).
 */
export function readEnvFile(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd(), root = ROOT_DIR): EnvFile {
  const named = env[ENV_FILE_VARIABLE];
  const file = named ? path.resolve(cwd, named) : path.join(root, '.env');
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    if (!named && (err as NodeJS.ErrnoException).code === 'ENOENT') return { file: undefined, values: {} };
    throw new ConfigError(`${ENV_FILE_VARIABLE}: cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  const parsed = parseEnv(text);
  const values: Record<string, string> = {};
  for (const [name, value = ''] of Object.entries(parsed)) {
    if (!(SETTINGS as readonly string[]).includes(name)) {
      throw new ConfigError(`${file}: unknown setting ${name} (the settings are listed in .env.example)`);
    }
    values[name] = DIRECTORY_SETTINGS.has(name) && value !== '' ? path.resolve(path.dirname(file), value) : value;
  }
  return { file, values };
}

/** The environment the servers and scripts read: the file's settings under the process's own. */
export function environmentWithFile(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd(), root = ROOT_DIR): NodeJS.ProcessEnv {
  const { values } = readEnvFile(env, cwd, root);
  const merged: NodeJS.ProcessEnv = { ...values };
  for (const [name, value] of Object.entries(env)) if (value !== undefined) merged[name] = value;
  return merged;
}
