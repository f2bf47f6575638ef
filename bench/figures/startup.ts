/**
 * Start-up of the real server process on a new library (an empty cache) until /photos
 * answers, on a family's library and on one far past it: how long, the server's peak memory,
 * and the size of /photos, which must stay bounded however many albums there are
 * (docs/api.md#photos-at-any-size). No page may wait for the covers' crops meanwhile.
 */
import fs from 'node:fs';
import path from 'node:path';
import { peakMb } from '../proc.js';
import { type BenchRow, limitRow } from '../rows.js';
import { galleryEntry, startGallery } from '../server-process.js';
import { type BenchContext, fetchOk } from './context.js';
import { ensureStartupTree, FULL_TREES, SMOKE_TREES, type StartupTree } from './startup-corpus.js';

/** Targets by the size of the tree: the first is a family's library, the second 1,000,000 photos. */
const TARGETS = [
  { seconds: 2, rssMb: 300, htmlKb: 300 },
  { seconds: 5, rssMb: 600, htmlKb: 300 },
] as const;

/** The index of a 1,000,000-photo tree takes a while: more than the usual minute to the ready line is a failure, not a wait. */
const READY_TIMEOUT_MS = 180_000;

export async function startup(ctx: BenchContext): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const specs = ctx.smoke ? SMOKE_TREES : FULL_TREES;
  for (const [i, spec] of specs.entries()) {
    const tree = await ensureStartupTree(spec, ctx.smoke, ctx.log);
    rows.push(...(await measure(ctx, tree, TARGETS[i] ?? TARGETS[TARGETS.length - 1]!)));
  }
  return rows;
}

async function measure(ctx: BenchContext, tree: StartupTree, target: (typeof TARGETS)[number]): Promise<BenchRow[]> {
  const name = `${tree.albums}-albums`;
  // A new library: nothing cached, no crop known.
  const cacheDir = path.join(ctx.runDir, `startup-cache-${name}`);
  const contentDir = path.join(ctx.runDir, 'content');
  fs.mkdirSync(contentDir, { recursive: true });
  ctx.log(`startup: ${tree.photos} photos in ${tree.albums} albums`);
  const start = performance.now();
  const server = await startGallery({
    albumsDir: tree.dir,
    cacheDir,
    contentDir,
    env: ctx.serverEnv,
    logFile: path.join(ctx.runDir, 'logs', `startup-${name}.log`),
    timeoutMs: READY_TIMEOUT_MS,
  });
  try {
    const ready = server.readyMs;
    const html = await (await fetchOk(`${server.url}/photos`)).text();
    const total = (performance.now() - start) / 1000;
    const peak = peakMb(server.pid);
    const cards = html.match(/<li class="card/g)?.length ?? 0;
    const what = `${tree.photos.toLocaleString('en-US')} photos`;
    const shape = `${tree.albums.toLocaleString('en-US')} albums of ${tree.spec.photos} photos`;
    const note = `${shape}; ${galleryEntry().label}; ready line at ${(ready / 1000).toFixed(2)} s, /photos at ${total.toFixed(2)} s`;
    return [
      limitRow(`start-up on ${what} until /photos answers`, total, 's', { max: target.seconds }, null, note),
      limitRow(`start-up on ${what}, server peak RSS`, peak, 'MB', { max: target.rssMb }, null, 'VmHWM of the server process after /photos'),
      limitRow(`start-up on ${what}, /photos HTML`, Buffer.byteLength(html) / 1024, 'KB', { max: target.htmlKb }, null, `${cards} album cards`),
    ];
  } finally {
    await server.stop();
  }
}
