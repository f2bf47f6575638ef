/**
 * Thumbnails: cold small (grid) thumbnails through the real server against sharp called
 * directly for the same 400 px JPEG; a page's worth of cold tiles asked at once (none may
 * fail); and cache hits against the bare Node file server serving the very same cache file.
 */
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { THUMBNAIL_SIZE_NAMES, THUMBNAIL_SIZES, TILE_THUMBNAIL, thumbnailFile } from '../../server/core/media-catalogue.js';
import { load } from '../http-load.js';
import { KeptAliveClient } from '../kept-alive-client.js';
import { type BenchRow, limitRow, ratioRow } from '../rows.js';
import { type BenchContext, cacheFileOf, drain, median, thumbnailPath, thumbnailUrl, withBareServer } from './context.js';

/** Two at a time on both sides: one per core, as the pool runs them. */
const CONCURRENCY = 2;

/**
 * Originals per side. Each pair takes some 80 ms, and this machine's speed drifts by a tenth
 * from one second to the next: with the corpus's 10 alone, one run gave 0.84 and the next two
 * 0.91; with 40, runs of the same code spread over 0.90-0.93. The rest are photos of the big
 * album (hard links of the same photo) no other figure reads.
 */
const COLD_PER_SIDE = 80;

/** The originals thumbnailed cold: the corpus's cold photos first (the cached figure reads one), then the big album's from its middle. */
function coldPhotos(ctx: BenchContext): string[] {
  const { corpus } = ctx;
  if (ctx.smoke) return [...corpus.cold];
  const from = Math.floor(corpus.spec.bigAlbum / 2);
  const more = Array.from({ length: COLD_PER_SIDE - corpus.cold.length }, (_, i) => `${corpus.bigAlbum}/IMG_${String(from + i).padStart(5, '0')}.jpg`);
  return [...corpus.cold, ...more];
}

/**
 * The HTTP side's client asks over kept-alive connections with as little work as wrk's
 * (bench/kept-alive-client.ts): this machine's two cores run the server, sharp's baseline and
 * the client alike, so whatever the client spends is taken from the server's decodes. fetch
 * (undici) spent 1.9 ms of CPU per thumbnail here, node:http's client 1.0-1.3 ms.
 */
async function getThumbnail(client: KeptAliveClient, relPath: string): Promise<void> {
  const path = thumbnailPath(relPath, TILE_THUMBNAIL);
  const { status } = await client.get(path);
  if (status !== 200) throw new Error(`${path}: HTTP ${status}`);
}

export async function coldThumbnails(ctx: BenchContext): Promise<BenchRow[]> {
  const { corpus, gallery } = ctx;
  const scratch = path.join(ctx.runDir, 'direct');
  const mp = (corpus.spec.photo.width * corpus.spec.photo.height) / 1e6;
  const width = THUMBNAIL_SIZES[TILE_THUMBNAIL];
  const cold = coldPhotos(ctx);

  const client = new KeptAliveClient(gallery.url);
  // The first requests start the workers and load sharp in them; the first direct call loads libvips here.
  await inParallel(corpus.warm, CONCURRENCY, (rel) => getThumbnail(client, rel));
  await directThumbnail(corpus.master, path.join(scratch, 'warm.jpg'), width);

  // Small batches alternate, so a change in the machine's load hits both sides alike.
  let httpSeconds = 0;
  let directSeconds = 0;
  ctx.log(`thumbnails: ${cold.length} cold ${TILE_THUMBNAIL} thumbnails over HTTP and with sharp directly, ${CONCURRENCY} at a time, alternating`);
  for (let b = 0; b < cold.length; b += CONCURRENCY) {
    const batch = cold.slice(b, b + CONCURRENCY);
    httpSeconds += await timed(() => inParallel(batch, CONCURRENCY, (rel) => getThumbnail(client, rel)));
    directSeconds += await timed(() => inParallel(batch, CONCURRENCY, (_rel, i) => directThumbnail(corpus.master, path.join(scratch, `${b}-${i}.jpg`), width)));
  }
  client.close();
  const n = cold.length;
  const rows = [
    ratioRow(
      `cold ${TILE_THUMBNAIL} thumbnails (${mp} MP JPEG -> ${width} px), HTTP vs sharp directly`,
      n / httpSeconds,
      'images/s',
      n / directSeconds,
      0.9,
      `${n} originals per side, ${CONCURRENCY} at a time, alternating pairs; wrk-light kept-alive client; the JPEG on both sides (the WebP follows in the server's background work)`,
    ),
    await coldTileBurst(ctx),
  ];
  // The sizes nobody asked for follow in the background: done before the next figure, so they
  // do not weigh on it (a smoke run's figures mean nothing: it does not wait).
  if (!ctx.smoke) {
    const waited = await backgroundDone(ctx, [...cold, ...burstPhotos(ctx)]);
    ctx.log(`thumbnails: the other sizes of the cold photos made in the background within ${waited.toFixed(1)} s`);
  }
  return rows;
}

/** How many tiles a desktop album page asks for at once (54 behind HTTP/2, in the issue that set the target). */
const BURST = 50;

/** Photos of the big album no other figure reads, from its end. */
function burstPhotos(ctx: BenchContext): string[] {
  const last = ctx.corpus.spec.bigAlbum;
  return Array.from({ length: BURST }, (_, i) => `${ctx.corpus.bigAlbum}/IMG_${String(last - i).padStart(5, '0')}.jpg`);
}

/** A page of cold tiles asked at once, as a browser behind HTTP/2 does: every one must come back 200. */
async function coldTileBurst(ctx: BenchContext): Promise<BenchRow> {
  ctx.log(`thumbnails: ${BURST} cold ${TILE_THUMBNAIL} thumbnails asked at once`);
  const started = performance.now();
  const statuses = await Promise.all(
    burstPhotos(ctx).map(async (rel) => {
      const res = await fetch(thumbnailUrl(ctx.gallery.url, rel, TILE_THUMBNAIL), { signal: AbortSignal.timeout(300_000) }).catch(() => undefined);
      await res?.arrayBuffer();
      return res?.status ?? 0;
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const failed = statuses.filter((s) => s !== 200);
  const note = `all answered in ${seconds.toFixed(1)} s${failed.length ? `; statuses ${[...new Set(failed)].join(', ')}` : ''}`;
  return limitRow(`${BURST} cold tile requests at once: non-200`, failed.length, 'responses', { max: 0 }, null, note);
}

/** Waits (at most two minutes) until every size of `photos` is cached; the seconds it took. */
async function backgroundDone(ctx: BenchContext, photos: readonly string[]): Promise<number> {
  const started = performance.now();
  const files = photos.flatMap((rel) => THUMBNAIL_SIZE_NAMES.map((size) => thumbnailFile(ctx.cacheDir, size, rel)));
  while (!files.every((f) => fs.existsSync(f)) && performance.now() - started < 120_000) await new Promise((r) => setTimeout(r, 250));
  return (performance.now() - started) / 1000;
}

export async function cachedThumbnails(ctx: BenchContext): Promise<BenchRow[]> {
  const { corpus, gallery, cacheDir } = ctx;
  const rel = corpus.cold[0]!;
  const rows: BenchRow[] = [];
  const sizes = THUMBNAIL_SIZE_NAMES.filter((s) => s !== 'large');
  // Made when asked (the cold figure asked for the small size; the others came in the background).
  for (const size of sizes) await drain(thumbnailUrl(gallery.url, rel, size));
  const files = sizes.map((size) => ({ size, file: cacheFileOf(cacheDir, rel, size) }));
  await withBareServer(
    ctx,
    files.map((f) => f.file),
    async (bare) => {
      for (const [i, { size, file }] of files.entries()) {
        const appUrl = thumbnailUrl(gallery.url, rel, size);
        const bareUrl = `${bare.url}/${i}`;
        const app: number[] = [];
        const base: number[] = [];
        let errors = 0;
        let tool = '';
        if (!ctx.smoke) {
          // A short run first: connections opened, code paths compiled on both sides.
          await load(appUrl, { seconds: 1, connections: 16 });
          await load(bareUrl, { seconds: 1, connections: 16 });
        }
        for (let r = 0; r < ctx.rounds; r++) {
          ctx.log(`thumbnails: cached ${size}, round ${r + 1}/${ctx.rounds}, ${ctx.loadSeconds} s per side`);
          // ABBA order: neither side always goes first.
          const order = r % 2 === 0 ? ['app', 'bare'] : ['bare', 'app'];
          for (const side of order) {
            const res = await load(side === 'app' ? appUrl : bareUrl, { seconds: ctx.loadSeconds, connections: 16 });
            (side === 'app' ? app : base).push(res.rps);
            errors += res.errors;
            tool = res.tool;
          }
        }
        const kb = Math.round(fs.statSync(file).size / 1024);
        const note = `${tool}, 16 connections, median of ${ctx.rounds} alternating rounds${errors ? `; ${errors} errors/non-2xx` : ''}`;
        rows.push(ratioRow(`cached ${size} thumbnail (${kb} KB), HTTP vs bare http+createReadStream`, median(app), 'req/s', median(base), 0.7, note));
        if (errors) rows[rows.length - 1] = { ...rows[rows.length - 1]!, pass: false };
      }
    },
  );
  return rows;
}

/** The worker's recipe for one size, written with sharp directly: decoded at that size (shrink-on-load), one JPEG. */
async function directThumbnail(src: string, dest: string, width: number): Promise<void> {
  fs.mkdirSync(path.dirname(dest), { recursive: true });
  await sharp(src, { failOn: 'error' })
    .autoOrient()
    .resize({ width, withoutEnlargement: true })
    .flatten({ background: '#ffffff' })
    .jpeg({ quality: 85 })
    .toFile(dest);
}

async function inParallel<T>(items: readonly T[], limit: number, work: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    for (let i = next++; i < items.length; i = next++) await work(items[i]!, i);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}

async function timed(work: () => Promise<void>): Promise<number> {
  const start = performance.now();
  await work();
  return (performance.now() - start) / 1000;
}
