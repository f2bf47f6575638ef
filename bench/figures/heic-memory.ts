/**
 * The server's memory over 24 MP iPhone HEICs looked at one at a time, as a viewer does: each
 * photo's tile (small), its viewer size (large) and its full resolution (the full-size JPEG),
 * one request after the other; then a minute of nothing. A home server of 1-2 GB must stay
 * within the targets of issue 25: a peak of 600 MB, and no more than 50 MB above where it
 * started once it has been idle for a minute.
 *
 * The photos: 24 MP grids (12 x 8 tiles of 512 x 512, 6144 x 4096) of the real iPhone tiles of
 * test/fixtures/heic/IMG_5195.HEIC (test/support/heif-craft.ts), each starting from another
 * tile so that no two files are alike. libheif decodes them as it decodes a 24 MP iPhone Pro
 * photo: the same tiles, the same number of them.
 */
import fs from 'node:fs';
import path from 'node:path';
import { heifGrid, phoneTiles } from '../../test/support/heif-craft.js';
import { peakMb, resetPeak, rssMb, rssSampler } from '../proc.js';
import { type BenchRow, limitRow } from '../rows.js';
import { startGallery } from '../server-process.js';
import { type BenchContext, drain, thumbnailUrl } from './context.js';

const PHOTOS = 20;
const IDLE_SECONDS = 60;
const PEAK_LIMIT_MB = 600;
const AFTER_IDLE_LIMIT_MB = 50;

export async function heicMemory(ctx: BenchContext): Promise<BenchRow[]> {
  const photos = ctx.smoke ? 3 : PHOTOS;
  const idleSeconds = ctx.smoke ? 5 : IDLE_SECONDS;
  const albumsDir = path.join(ctx.runDir, 'heic-memory-albums');
  const album = path.join(albumsDir, 'phone');
  fs.mkdirSync(album, { recursive: true });
  fs.writeFileSync(path.join(album, 'album.json'), JSON.stringify({ title: 'Phone' }));
  const tiles = phoneTiles();
  for (let i = 0; i < photos; i++) fs.writeFileSync(path.join(album, `IMG_${1000 + i}.HEIC`), heifGrid({ rows: 8, columns: 12, tiles, firstTile: i }));

  const contentDir = path.join(ctx.runDir, 'heic-memory-content');
  fs.mkdirSync(contentDir, { recursive: true });
  const server = await startGallery({
    albumsDir,
    cacheDir: path.join(ctx.runDir, 'heic-memory-cache'),
    contentDir,
    env: ctx.serverEnv,
    logFile: path.join(ctx.runDir, 'logs', 'heic-memory.log'),
  });
  try {
    // The album page first, as a visitor opens it (its sizes are read from headers only).
    await drain(`${server.url}/photos/phone`);
    await new Promise((r) => setTimeout(r, 2000));
    const startMb = rssMb(server.pid);
    resetPeak(server.pid);
    const sampler = rssSampler(server.pid);
    const started = performance.now();
    for (let i = 0; i < photos; i++) {
      const rel = `phone/IMG_${1000 + i}.HEIC`;
      await drain(thumbnailUrl(server.url, rel, 'small'));
      await drain(thumbnailUrl(server.url, rel, 'large'));
      await drain(`${server.url}/api/full-size?path=${encodeURIComponent(rel)}`);
    }
    const seconds = (performance.now() - started) / 1000;
    const peak = Math.max(sampler.stop().peak, peakMb(server.pid));
    ctx.log(`heic-memory: ${photos} photos in ${seconds.toFixed(1)} s, RSS ${startMb.toFixed(0)} MB at start, peak ${peak.toFixed(0)} MB`);
    await new Promise((r) => setTimeout(r, idleSeconds * 1000));
    const afterMb = rssMb(server.pid);
    return [
      limitRow(
        `${photos} 24 MP HEICs one at a time (tile, viewer, full size), server peak RSS`,
        peak,
        'MB',
        { max: PEAK_LIMIT_MB },
        null,
        `RSS ${startMb.toFixed(0)} MB at start; ${seconds.toFixed(1)} s for the ${photos * 3} requests; VmHWM and 100 ms samples`,
      ),
      limitRow(
        `the same, RSS above the start after ${idleSeconds} s idle`,
        afterMb - startMb,
        'MB',
        { max: AFTER_IDLE_LIMIT_MB },
        null,
        `${afterMb.toFixed(0)} MB after, ${startMb.toFixed(0)} MB at start`,
      ),
    ];
  } finally {
    await server.stop();
  }
}
