import './uv-threadpool.js';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadConfig } from './core/config.js';
import { createLogger } from './core/logger.js';
import { createGallery } from './gallery.js';
import { collectWhenQuiet } from './idle-gc.js';

/** How long in-flight requests may take to finish after SIGTERM before they are cut. */
const SHUTDOWN_GRACE_MS = 10_000;

/** JSON lines on stdout: one per request, and the server's own. */
const log = createLogger();

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
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info(`${signal} received: finishing in-flight requests`);
    const force = setTimeout(() => {
      log.warn('grace period over: closing remaining connections');
      server.closeAllConnections();
    }, SHUTDOWN_GRACE_MS);
    force.unref();
    // close() stops accepting and waits for in-flight responses; idle keep-alives go at once.
    server.close(() => {
      void gallery.close().then(() => {
        log.info('stopped');
        process.exit(0);
      });
    });
    server.closeIdleConnections();
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));

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
