/**
 * Start-up of the real server process on the big tree, until /photos (which lists every
 * album, with covers) answers. The photos are empty files: start-up must not open them.
 */
import fs from 'node:fs';
import path from 'node:path';
import { peakMb } from '../proc.js';
import { type BenchRow, limitRow } from '../rows.js';
import { galleryEntry, startGallery } from '../server-process.js';
import { type BenchContext, fetchOk } from './context.js';

export async function startup(ctx: BenchContext): Promise<BenchRow[]> {
  const { corpus } = ctx;
  const cacheDir = path.join(ctx.runDir, 'startup-cache');
  const contentDir = path.join(ctx.runDir, 'content');
  fs.mkdirSync(contentDir, { recursive: true });
  ctx.log(`startup: ${corpus.treePhotos} photos in ${corpus.treeAlbums} albums`);
  const start = performance.now();
  const server = await startGallery({
    albumsDir: corpus.treeDir,
    cacheDir,
    contentDir,
    env: ctx.serverEnv,
    logFile: path.join(ctx.runDir, 'logs', 'startup.log'),
  });
  try {
    const ready = server.readyMs;
    const html = await (await fetchOk(`${server.url}/photos`)).text();
    const total = (performance.now() - start) / 1000;
    const peak = peakMb(server.pid);
    const what = `${corpus.treePhotos.toLocaleString('en-US')} photos`;
    const note = `${galleryEntry().label}; ready line at ${(ready / 1000).toFixed(2)} s, /photos (${Math.round(html.length / 1024)} KB) at ${total.toFixed(2)} s`;
    return [
      limitRow(`start-up on ${what} until /photos answers`, total, 's', { max: 3 }, null, note),
      limitRow(`start-up on ${what}, server peak RSS`, peak, 'MB', { max: 300 }, null, 'VmHWM of the server process after /photos'),
    ];
  } finally {
    await server.stop();
  }
}
