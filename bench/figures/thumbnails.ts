/**
 * Thumbnails: cold generation through the real server against sharp called directly (the
 * same recipe, one decode and one encode per size), and cache hits against the bare Node file
 * server serving the very same cache file.
 */
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { THUMBNAIL_SIZE_NAMES, THUMBNAIL_SIZES } from '../../server/core/media-catalogue.js';
import { load } from '../http-load.js';
import { type BenchRow, ratioRow } from '../rows.js';
import { type BenchContext, cacheFileOf, drain, median, thumbnailUrl, withBareServer } from './context.js';

/** Two at a time on both sides: one per core, as the pool runs them. */
const CONCURRENCY = 2;

export async function coldThumbnails(ctx: BenchContext): Promise<BenchRow[]> {
  const { corpus, gallery } = ctx;
  const scratch = path.join(ctx.runDir, 'direct');
  const mp = (corpus.spec.photo.width * corpus.spec.photo.height) / 1e6;

  // The first requests start the workers and load sharp in them; the first direct call loads libvips here.
  await Promise.all(corpus.warm.map((rel) => drain(thumbnailUrl(gallery.url, rel, 'medium'))));
  await directThumbnails(corpus.master, path.join(scratch, 'warm'));

  // Small batches alternate, so a change in the machine's load hits both sides alike.
  let httpSeconds = 0;
  let directSeconds = 0;
  ctx.log(`thumbnails: ${corpus.cold.length} cold originals over HTTP and with sharp directly, ${CONCURRENCY} at a time, alternating`);
  for (let b = 0; b < corpus.cold.length; b += CONCURRENCY) {
    const batch = corpus.cold.slice(b, b + CONCURRENCY);
    httpSeconds += await timed(() => inParallel(batch, CONCURRENCY, (rel) => drain(thumbnailUrl(gallery.url, rel, 'medium')).then(() => undefined)));
    directSeconds += await timed(() => inParallel(batch, CONCURRENCY, (_rel, i) => directThumbnails(corpus.master, path.join(scratch, `${b}-${i}`))));
  }
  const n = corpus.cold.length;
  return [
    ratioRow(
      `cold thumbnails (${mp} MP JPEG -> ${THUMBNAIL_SIZE_NAMES.length} sizes), HTTP vs sharp directly`,
      n / httpSeconds,
      'images/s',
      n / directSeconds,
      0.9,
      `${n} originals per side, ${CONCURRENCY} at a time`,
    ),
  ];
}

export async function cachedThumbnails(ctx: BenchContext): Promise<BenchRow[]> {
  const { corpus, gallery, cacheDir } = ctx;
  const rel = corpus.cold[0]!;
  const rows: BenchRow[] = [];
  const files = THUMBNAIL_SIZE_NAMES.filter((s) => s !== 'large').map((size) => ({ size, file: cacheFileOf(cacheDir, rel, size) }));
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

/** The worker's recipe, written with sharp directly: one decode, three encodes. */
async function directThumbnails(src: string, outDir: string): Promise<void> {
  fs.mkdirSync(outDir, { recursive: true });
  const { data, info } = await sharp(src, { failOn: 'error' })
    .autoOrient()
    .resize({ width: Math.max(...Object.values(THUMBNAIL_SIZES)), withoutEnlargement: true })
    .flatten({ background: '#ffffff' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  for (const size of THUMBNAIL_SIZE_NAMES) {
    const img = sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } });
    if (THUMBNAIL_SIZES[size] < info.width) img.resize({ width: THUMBNAIL_SIZES[size] });
    await img.jpeg({ quality: 85 }).toFile(path.join(outDir, `${size}.jpg`));
  }
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
