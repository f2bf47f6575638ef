// PM2 process file for the public server (the admin server is never deployed). Its env's
// MALLOC_* and LD_PRELOAD apply to `npm start` too (server/launch.ts reads them from here).
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { parseEnv } = require('node:util');

// The settings file every command reads (server/core/env-file.ts: GALLERY_ENV, else .env here),
// under the environment. The server reads it again itself and checks every value; this file
// needs only GALLERY_INSTANCES and must not set over the file what the file says.
const ENV_FILE = process.env.GALLERY_ENV ? path.resolve(process.env.GALLERY_ENV) : path.join(__dirname, '.env');
const fromFile = fs.existsSync(ENV_FILE) ? parseEnv(fs.readFileSync(ENV_FILE, 'utf8')) : {};
const setting = (name) => process.env[name] ?? fromFile[name];

// jemalloc, where Debian's libjemalloc2 is installed (sharp recommends it on glibc): freed
// pixel buffers go back to the system instead of fragmenting glibc's arenas.
const JEMALLOC = ['/usr/lib/x86_64-linux-gnu/libjemalloc.so.2', '/usr/lib/aarch64-linux-gnu/libjemalloc.so.2'].find((f) => fs.existsSync(f));

// Two profiles (README "Running several processes / machines"):
// - default: ONE process in fork mode; the password lockout lives in its memory.
// - cluster: GALLERY_INSTANCES=<n> (or `max`, one per core) when running `pm2 start`: PM2's
//   cluster mode, n processes sharing the port. They must share the lockout, so REDIS_URL is
//   required (the server refuses to start without it). Each process is told how many there
//   are (INSTANCES) and sizes its worker pool to cores / instances, so they never
//   oversubscribe the cores.
const wanted = setting('GALLERY_INSTANCES') ?? '1';
const instances = wanted === 'max' ? os.availableParallelism() : Number(wanted);
if (!Number.isInteger(instances) || instances < 1) throw new Error(`GALLERY_INSTANCES must be a positive integer or "max", got "${wanted}"`);
const cluster = instances > 1;

module.exports = {
  apps: [
    {
      name: 'gallery',
      script: 'dist/server/main.js',
      cwd: __dirname,
      exec_mode: cluster ? 'cluster' : 'fork',
      instances,
      autorestart: true,
      max_restarts: 20,
      min_uptime: '10s',
      restart_delay: 1000,
      // main.ts finishes in-flight requests on SIGINT/SIGTERM; give it time before SIGKILL.
      kill_timeout: 15000,
      // Wait for process.send('ready') so a reload never drops a request; `pm2 reload` replaces
      // the processes one at a time, each draining its keep-alive connections (server/main.ts).
      wait_ready: true,
      listen_timeout: 20000,
      max_memory_restart: '1G',
      out_file: 'logs/gallery.out.log',
      error_file: 'logs/gallery.err.log',
      merge_logs: true,
      time: false,
      env: {
        // Production unless the settings say otherwise; PORT and the rest come from the settings.
        NODE_ENV: setting('NODE_ENV') ?? 'production',
        INSTANCES: String(instances),
        // glibc gives each thread its own malloc arena; with sharp in worker threads that
        // holds on to native memory long after the load has passed.
        MALLOC_ARENA_MAX: '2',
        // Large pixel buffers go back to the system when freed instead of staying in the heap.
        MALLOC_MMAP_THRESHOLD_: '1048576',
        // jemalloc hands freed pages back within a second, from a thread of its own, rather than
        // when the next allocation happens along (none, once a burst of visitors has gone).
        ...(JEMALLOC ? { LD_PRELOAD: JEMALLOC, MALLOC_CONF: 'background_thread:true,dirty_decay_ms:1000,muzzy_decay_ms:0' } : {}),
      },
    },
  ],
};
