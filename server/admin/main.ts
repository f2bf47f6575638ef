import fs from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { AlbumIndex } from '../core/albums/album-index.js';
import { libraryHints } from '../core/albums/library-hints.js';
import { ConfigError, loadConfig } from '../core/config.js';
import { readEnvFile } from '../core/env-file.js';
import { createLogger } from '../core/logger.js';
import { createAdminApp } from './app.js';
import { UPLOADS_DIR } from './routes/media-upload.js';

/** Always loopback, whatever HOST says: the admin writes to the albums and is never exposed. */
const ADMIN_HOST = '127.0.0.1';
/** A 2 GB upload on a slow disk must not be cut by Node's default 5-minute request timeout. */
const REQUEST_TIMEOUT_MS = 60 * 60 * 1000;
const SHUTDOWN_GRACE_MS = 10_000;

/** JSON lines on stdout, as the public server's. */
const log = createLogger();

async function main(): Promise<void> {
  const config = loadConfig();
  const index = await AlbumIndex.open({
    albumsDir: config.albumsDir,
    watch: true,
    watchSetting: config.watch,
    pollIntervalMs: config.watchIntervalMs,
    log,
  });
  const app = createAdminApp(config, { index, log });

  const server = http.createServer({ requestTimeout: REQUEST_TIMEOUT_MS }, app);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.adminPort, ADMIN_HOST, () => {
      server.off('error', reject);
      resolve();
    });
  });
  // Upload temp files left by a crash. Only after listening: a second admin started by mistake
  // fails on the port before it can delete the uploads of the first.
  await Promise.all([config.albumsDir, config.contentDir].map((dir) => fs.rm(path.join(dir, UPLOADS_DIR), { recursive: true, force: true })));
  const { port } = server.address() as { port: number };
  const settings = readEnvFile().file;
  if (settings) log.info(`settings from ${settings}`);
  for (const hint of libraryHints(config.albumsDir, index)) log.info(hint);
  log.info(`Admin server ready on http://${ADMIN_HOST}:${port}/ (albums: ${config.albumsDir})`);

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    log.info(`${signal} received, closing the admin server`);
    // Stop accepting, let in-flight requests (an upload being verified) finish, then leave.
    server.close(() => {
      index.close();
      process.exit(0);
    });
    server.closeIdleConnections();
    setTimeout(() => {
      log.warn('admin server: requests still open after the grace period, exiting anyway');
      process.exit(1);
    }, SHUTDOWN_GRACE_MS).unref();
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

main().catch((err: unknown) => {
  if (err instanceof ConfigError) log.error(`admin server: ${err.message}`);
  else log.error({ err }, 'admin server failed to start');
  process.exit(1);
});
