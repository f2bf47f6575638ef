/**
 * `npm start`: the public server with the process settings of ecosystem.config.cjs (the
 * malloc settings, and jemalloc where Debian's libjemalloc2 is installed), which must be in
 * the environment before a process starts: glibc reads MALLOC_* and the loader LD_PRELOAD at
 * exec time, so server/main.ts cannot apply them to itself. PM2 gets them from the same file;
 * this runs main.js as a child with them, passing signals, the PM2 `ready` message and the
 * exit code through. A variable already set in the environment is left as it is.
 */
import { spawn } from 'node:child_process';
import os from 'node:os';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Only these of the file's `env`: PORT, NODE_ENV and the like stay the user's business here. */
const PROCESS_SETTINGS = /^(MALLOC_|LD_PRELOAD$)/;

const here = path.dirname(fileURLToPath(import.meta.url));
const ext = path.extname(fileURLToPath(import.meta.url));
const root = path.resolve(here, ext === '.ts' ? '..' : '../..');

function processSettings(): Record<string, string> {
  const file = path.join(root, 'ecosystem.config.cjs');
  const config = createRequire(import.meta.url)(file) as { apps?: { env?: Record<string, unknown> }[] };
  const env = config.apps?.[0]?.env ?? {};
  return Object.fromEntries(
    Object.entries(env)
      .filter(([key, value]) => PROCESS_SETTINGS.test(key) && value !== undefined && process.env[key] === undefined)
      .map(([key, value]) => [key, String(value)]),
  );
}

const main = path.join(here, `main${ext}`);
const child = spawn(process.execPath, [...process.execArgv, main, ...process.argv.slice(2)], {
  stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
  env: { ...process.env, ...processSettings() },
});
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => child.kill(signal));
// PM2 (wait_ready), should it ever run this file: the server's `ready` goes up.
child.on('message', (message) => process.send?.(message));
// A server ended by a signal exits as a shell reports it: 128 + the signal's number.
child.on('exit', (code, signal) => {
  process.exit(code ?? 128 + (signal ? (os.constants.signals[signal] ?? 0) : 0));
});
