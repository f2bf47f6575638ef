import type { AddressInfo } from 'node:net';
import { loadConfig } from './config.js';
import { createGallery } from './gallery.js';

/** Entry point of the public server: `npm start`. */
async function main(): Promise<void> {
  const config = loadConfig();
  const gallery = await createGallery(config);
  const server = gallery.app.listen(config.port, config.host ?? '::');
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;
  console.log(`Gallery ready at http://${config.host ?? 'localhost'}:${port} (albums: ${config.albumsDir})`);

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal} received: closing`);
    // Stop accepting, let in-flight requests finish (bounded), then release everything.
    const force = setTimeout(() => server.closeAllConnections(), 10_000);
    force.unref();
    server.close(() => {
      void gallery.close().then(() => process.exit(0));
    });
    server.closeIdleConnections();
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
