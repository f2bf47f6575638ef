/**
 * EXIF of a large JPEG through the real server, uncached (each file a distinct path, so the
 * server's metadata cache has never seen it), one request after another.
 */
import { type BenchRow, limitRow } from '../rows.js';
import { type BenchContext, fetchOk, mean, median } from './context.js';

export async function exifLatency(ctx: BenchContext): Promise<BenchRow[]> {
  const { corpus, gallery } = ctx;
  const url = (rel: string) => `${gallery.url}/api/exif?path=${encodeURIComponent(rel)}`;
  const check = async (rel: string) => {
    const record = (await (await fetchOk(url(rel))).json()) as { Make?: unknown };
    if (record.Make !== 'Canon') throw new Error(`unexpected EXIF for ${rel}: ${JSON.stringify(record)}`);
  };
  for (const rel of corpus.exifWarm) await check(rel);
  ctx.log(`exif: ${corpus.exif.length} uncached reads, one at a time`);
  const ms: number[] = [];
  for (const rel of corpus.exif) {
    const start = performance.now();
    await check(rel);
    ms.push(performance.now() - start);
  }
  const mp = (corpus.spec.photo.width * corpus.spec.photo.height) / 1e6;
  return [
    limitRow(
      `EXIF of a ${mp} MP JPEG, uncached, mean`,
      mean(ms),
      'ms',
      { below: 5 },
      null,
      `${ms.length} sequential requests after ${corpus.exifWarm.length} warm-up ones; median ${median(ms).toFixed(2)} ms, max ${Math.max(...ms).toFixed(2)} ms`,
    ),
  ];
}
