/**
 * HEIC photos through the real server: a cold small thumbnail of a real iPhone HEIC against the
 * same picture as a JPEG (what a HEIC costs: a WebAssembly HEVC decode, no shrink-on-load), with
 * the server's peak RSS; then 20 HEIC thumbnails asked at once (a phone's album opened cold)
 * while JPEG thumbnails of another album keep being asked, one after the other: the heif lane
 * must keep the server's memory bounded and must not hold the JPEGs back.
 */
import fs from 'node:fs';
import path from 'node:path';
import decodeHeic from 'heic-decode';
import sharp from 'sharp';
import { rssSampler, resetPeak } from '../proc.js';
import { type BenchRow, limitRow } from '../rows.js';
import { startGallery } from '../server-process.js';
import { type BenchContext, drain, median, thumbnailUrl } from './context.js';

const HEIC = path.join(import.meta.dirname, '..', '..', 'test', 'fixtures', 'heic', 'IMG_5195.HEIC');
const BURST = 20;

export async function heicThumbnails(ctx: BenchContext): Promise<BenchRow[]> {
  const sequential = ctx.smoke ? 2 : 5;
  const burst = ctx.smoke ? 4 : BURST;
  const jpegs = ctx.smoke ? 4 : 30;
  const albumsDir = path.join(ctx.runDir, 'heic-albums');
  const album = (name: string) => {
    const dir = path.join(albumsDir, name);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'album.json'), JSON.stringify({ title: name }));
    return dir;
  };
  // The same picture as a JPEG at full size, so both sides decode the same pixels.
  const decoded = await decodeHeic({ buffer: fs.readFileSync(HEIC) });
  const jpeg = await sharp(Buffer.from(decoded.data.buffer), { raw: { width: decoded.width, height: decoded.height, channels: 4 } })
    .removeAlpha()
    .jpeg({ quality: 92 })
    .toBuffer();
  const mp = ((decoded.width * decoded.height) / 1e6).toFixed(1);
  // Copies, not links: each is a cold original of its own.
  for (let i = 0; i < sequential; i++) {
    fs.copyFileSync(HEIC, path.join(album('heic'), `IMG_${i}.HEIC`));
    fs.writeFileSync(path.join(album('jpeg'), `IMG_${i}.jpg`), jpeg);
  }
  for (let i = 0; i < burst; i++) fs.copyFileSync(HEIC, path.join(album('burst'), `IMG_${i}.HEIC`));
  for (let i = 0; i < jpegs; i++) fs.writeFileSync(path.join(album('other'), `DSC_${i}.jpg`), jpeg);

  const contentDir = path.join(ctx.runDir, 'heic-content');
  fs.mkdirSync(contentDir, { recursive: true });
  const server = await startGallery({
    albumsDir,
    cacheDir: path.join(ctx.runDir, 'heic-cache'),
    contentDir,
    env: ctx.serverEnv,
    logFile: path.join(ctx.runDir, 'logs', 'heic.log'),
  });
  try {
    const small = (rel: string) => drain(thumbnailUrl(server.url, rel, 'small'));
    // Workers started and the decoder compiled, on a file measured by neither side.
    await small('heic/IMG_0.HEIC');
    await small('jpeg/IMG_0.jpg');

    const heicMs: number[] = [];
    const jpegMs: number[] = [];
    resetPeak(server.pid);
    const sampler = rssSampler(server.pid);
    for (let i = 1; i < sequential; i++) {
      heicMs.push(await timedMs(() => small(`heic/IMG_${i}.HEIC`)));
      jpegMs.push(await timedMs(() => small(`jpeg/IMG_${i}.jpg`)));
    }
    const sequentialPeak = sampler.stop().peak;
    ctx.log(`heic: small thumbnail ${median(heicMs).toFixed(0)} ms (HEIC) vs ${median(jpegMs).toFixed(0)} ms (JPEG)`);

    // The burst: every HEIC of an album at once, and meanwhile a visitor of another album.
    resetPeak(server.pid);
    const burstSampler = rssSampler(server.pid);
    const start = performance.now();
    let burstDone = false;
    const burstAll = Promise.all(Array.from({ length: burst }, (_, i) => small(`burst/IMG_${i}.HEIC`))).finally(() => {
      burstDone = true;
    });
    const during: number[] = [];
    for (let i = 0; i < jpegs && !burstDone; i++) during.push(await timedMs(() => small(`other/DSC_${i}.jpg`)));
    await burstAll;
    const burstSeconds = (performance.now() - start) / 1000;
    const burstPeak = burstSampler.stop().peak;

    const n = heicMs.length;
    return [
      limitRow(
        `HEIC small thumbnail, cold (${mp} MP iPhone photo)`,
        median(heicMs),
        'ms',
        {},
        median(jpegMs),
        `median of ${n}, one at a time; baseline: the same picture as a JPEG, same request`,
      ),
      limitRow('HEIC vs JPEG small thumbnails, server peak RSS', sequentialPeak, 'MB', {}, null, 'VmHWM and 100 ms samples over both series'),
      limitRow(
        `${burst} HEIC thumbnails at once, server peak RSS`,
        burstPeak,
        'MB',
        { below: 1024 },
        null,
        `all ${burst} done in ${burstSeconds.toFixed(1)} s (heif lane: 1 worker)`,
      ),
      limitRow(
        `JPEG small thumbnails of another album during the HEIC burst, p50`,
        during.length ? median(during) : null,
        'ms',
        {},
        median(jpegMs),
        `${during.length} cold ${mp} MP JPEGs asked one after another while the burst ran; baseline: the same request with nothing else running`,
      ),
    ];
  } finally {
    await server.stop();
  }
}

async function timedMs(work: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await work();
  return performance.now() - start;
}
