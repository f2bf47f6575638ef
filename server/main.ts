import './uv-threadpool.js';
import cluster from 'node:cluster';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { libraryHints } from './core/albums/library-hints.js';
import { loadConfig } from './core/config.js';
import { readEnvFile } from './core/env-file.js';
import { createLogger } from './core/logger.js';
import { createGallery } from './gallery.js';
import { collectWhenQuiet } from './core/idle-gc.js';

/** How long in-flight requests may take to finish after SIGTERM before they are cut. */
const SHUTDOWN_GRACE_MS = 10_000;
/**
 * How long keep-alive connections may bring one more request after SIGTERM (answered, with
 * `Connection: close`) before the idle ones are closed: a busy client asks again within
 * milliseconds; the rest then find their connection closed while idle, as any keep-alive
 * client must expect.
 */
const DRAIN_MS = 1000;

/**
 * JSON lines on stdout: one per request, and the server's own. A worker of PM2's cluster mode
 * shares its daemon's stdout, and only what goes through process.stdout (which PM2 forwards)
 * reaches the app's log (`pm2 logs gallery`); a lone process writes to its descriptor at once.
 */
const log = createLogger(cluster.isWorker ? { destination: process.stdout } : {});

/** Entry point of the public server: `npm start`, or PM2 with ecosystem.config.cjs. */
async function main(): Promise<void> {
  const config = loadConfig();
  const gallery = await createGallery(config, { log, requestLog: log });
  const quiet = collectWhenQuiet();
  const server = http.createServer(gallery.handler).listen(config.port, config.host ?? '::');
  server.on('request', quiet.touch);
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;
  const shownHost = config.host === undefined || config.host === '::' || config.host === '0.0.0.0' ? 'localhost' : config.host;
  let stopping = false;
  /**
   * A graceful stop that loses no request, so `pm2 reload` under load fails none (README
   * "Running several processes"): stop accepting connections (in PM2's cluster the master then
   * hands new ones to the other processes), answer every request still arriving on the open
   * keep-alive connections with `Connection: close` (the client's next request opens a new
   * connection, to a process that stays), close the connections left idle after DRAIN_MS,
   * finish the requests in flight (up to SHUTDOWN_GRACE_MS), then close the pool and exit.
   * Not http's server.close(): it closes idle keep-alive connections at once, racing a
   * request the client may be sending on one that very moment.
   */
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info(`${signal} received: finishing in-flight requests`);
    server.prependListener('request', (_req: http.IncomingMessage, res: http.ServerResponse) => res.setHeader('Connection', 'close'));
    const force = setTimeout(() => {
      log.warn('grace period over: closing remaining connections');
      server.closeAllConnections();
    }, SHUTDOWN_GRACE_MS);
    force.unref();
    const drain = setTimeout(() => server.closeIdleConnections(), DRAIN_MS);
    drain.unref();
    // Called once every connection has ended.
    net.Server.prototype.close.call(server, () => {
      clearTimeout(drain);
      void gallery.close().then(() => {
        // How many image and video tasks (decodes, probes, crops) this process ran: a restart
        // on a prepared library runs none (README "Performance", npm run bench -- --only prepare).
        log.info({ mediaTasks: gallery.pool.tasksRun }, 'stopped');
        process.exit(0);
      });
    });
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));

  const settings = readEnvFile().file;
  if (settings) log.info(`settings from ${settings}`);
  for (const hint of libraryHints(config.albumsDir, gallery.index)) log.info(hint);
  // Ready only once a signal would be handled: a supervisor may stop the server at once.
  // The ready line: test/server/shutdown.test.ts and bench/server-process.ts wait for its text.
  log.info(`Gallery ready at http://${shownHost}:${port} (albums: ${config.albumsDir})`);
  // PM2 (wait_ready) switches traffic to this process only now.
  process.send?.('ready');
}

main().catch((err: unknown) => {
  log.error(err instanceof Error ? err.message : String(err));
  process.exit(1);
});
