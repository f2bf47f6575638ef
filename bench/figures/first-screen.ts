/**
 * First-screen bytes: what a visitor's browser downloads to show the first screen of a
 * 600-photo album (docs/api.md#pages), on a phone (390×844 at 3×, touch) and a desktop
 * (1440×900 at 2×), in headless Chromium. The figure starts its own gallery on an album it
 * writes: photos of a 12 MP phone's size, each a hard link of one of a few masters (distinct
 * paths, so distinct thumbnails, without encoding 600 photos).
 *
 * The thumbnails are warm: the page is first opened once per viewport and every thumbnail it
 * asked for is fetched again until it answers 200 (a cold tile may meet a full queue), so the
 * count is the bytes of a visit, not of thumbnail generation. Then a fresh browser context
 * (empty HTTP cache) opens the page, waits for the network to go idle, and every response's
 * encoded length (headers and body as they crossed the wire, compressed when they were) is
 * summed from Chromium's own network events.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContextOptions, CDPSession, Page } from 'playwright-core';
import { THUMBNAIL_SIZES, type ThumbnailSize } from '../../server/core/media-catalogue.js';
import { launchBrowser } from '../../test/support/browser.js';
import { writePhotoLikeJpeg } from '../photo.js';
import { type BenchRow, limitRow } from '../rows.js';
import { startGallery } from '../server-process.js';
import type { BenchContext } from './context.js';

interface Viewport {
  readonly name: string;
  readonly options: BrowserContextOptions;
  /** The issue's target (docs: issue 14), in MB. */
  readonly maxMb: number;
}

const VIEWPORTS: readonly Viewport[] = [
  { name: '390×844 @3× touch', options: { viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true }, maxMb: 1.0 },
  { name: '1440×900 @2×', options: { viewport: { width: 1440, height: 900 }, deviceScaleFactor: 2 }, maxMb: 2.0 },
];

/** 24 MP masters (as issue 14 measured) in a camera's landscape and portrait, a phone's 4:3 and a wide crop. */
const MASTERS = [
  [6000, 4000],
  [4000, 6000],
  [6000, 4500],
  [6000, 3375],
] as const;

const ALBUM = 'bench/first-screen';

/**
 * Texture of the masters: the weight of the sample albums' photos at thumbnail sizes (a 1200 px
 * JPEG ~140 KB, the 142 KB per tile issue 14 measured), not the codec's worst case.
 */
const SAMPLE_LIKE = { shapeScale: 80, grain: 9 };

export interface Transfer {
  readonly url: string;
  readonly status: number;
  readonly mimeType: string;
  /** Bytes on the wire: headers and the (encoded) body. */
  readonly bytes: number;
  readonly encoding: string | undefined;
}

/** Every response of `page` until its network went idle, as Chromium counted it. */
export async function recordTransfers(page: Page, cdp: CDPSession, url: string): Promise<Transfer[]> {
  const started = new Map<string, { url: string; status: number; mimeType: string; encoding: string | undefined }>();
  const done: Transfer[] = [];
  cdp.on('Network.responseReceived', (e) => {
    const headers = Object.fromEntries(Object.entries(e.response.headers).map(([k, v]) => [k.toLowerCase(), String(v)]));
    started.set(e.requestId, { url: e.response.url, status: e.response.status, mimeType: e.response.mimeType, encoding: headers['content-encoding'] });
  });
  cdp.on('Network.loadingFinished', (e) => {
    const r = started.get(e.requestId);
    if (r) done.push({ ...r, bytes: e.encodedDataLength });
  });
  await cdp.send('Network.enable');
  await page.goto(url, { waitUntil: 'networkidle', timeout: 120_000 });
  // Lazy images start once layout has run: give the network a second chance to settle.
  await page.waitForLoadState('networkidle');
  return done;
}

async function visit(browser: Browser, viewport: Viewport, url: string): Promise<{ transfers: Transfer[]; widths: number[] }> {
  const context = await browser.newContext({ ...viewport.options, serviceWorkers: 'block' });
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    const transfers = await recordTransfers(page, cdp, url);
    // Which candidate each loaded tile chose, by the preset width of its thumbnail.
    const sizes = await page.$$eval('#media img', (imgs) =>
      imgs.flatMap((i) => (i instanceof HTMLImageElement && i.complete && i.currentSrc ? [new URL(i.currentSrc).searchParams.get('size') ?? '?'] : [])),
    );
    const widths = sizes.map((s) => THUMBNAIL_SIZES[s as ThumbnailSize] ?? 0);
    return { transfers, widths };
  } finally {
    await context.close();
  }
}

/** Fetches a thumbnail until it answers 200 (a cold one may meet a full queue: 503 with Retry-After). */
async function warm(url: string): Promise<void> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const res = await fetch(url, { signal: AbortSignal.timeout(120_000) });
    await res.arrayBuffer();
    if (res.ok) return;
    if (res.status !== 503) throw new Error(`${url} answered ${res.status} while warming`);
    await new Promise((r) => setTimeout(r, 1000 * Number(res.headers.get('retry-after') ?? 1)));
  }
  throw new Error(`${url} still busy after 20 tries`);
}

async function writeAlbum(albumsDir: string, photos: number, smoke: boolean): Promise<void> {
  const dir = path.join(albumsDir, ...ALBUM.split('/'));
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'album.json'), JSON.stringify({ title: 'First screen', token: 'first-screen-bench' }));
  const masters = path.join(albumsDir, '..', 'first-screen-masters');
  fs.mkdirSync(masters, { recursive: true });
  const files: string[] = [];
  for (const [i, [w, h]] of MASTERS.entries()) {
    const file = path.join(masters, `master-${i}.jpg`);
    await writePhotoLikeJpeg(file, smoke ? Math.round(w / 4) : w, smoke ? Math.round(h / 4) : h, SAMPLE_LIKE);
    files.push(file);
  }
  for (let i = 0; i < photos; i++) fs.linkSync(files[i % files.length]!, path.join(dir, `IMG_${String(i + 1).padStart(4, '0')}.jpg`));
}

const mb = (bytes: number) => bytes / 1e6;

export async function firstScreenBytes(ctx: BenchContext): Promise<BenchRow[]> {
  const photos = ctx.smoke ? 30 : 600;
  const root = path.join(ctx.runDir, 'first-screen');
  const albumsDir = path.join(root, 'albums');
  ctx.log(`first-screen: writing a ${photos}-photo album`);
  await writeAlbum(albumsDir, photos, ctx.smoke);
  const contentDir = path.join(root, 'content');
  fs.mkdirSync(contentDir, { recursive: true });
  const server = await startGallery({
    albumsDir,
    cacheDir: path.join(root, 'cache'),
    contentDir,
    env: ctx.serverEnv,
    logFile: path.join(ctx.runDir, 'logs', 'first-screen.log'),
  });
  const browser = await launchBrowser();
  try {
    const url = `${server.url}/photos/${ALBUM}`;
    // A page's dimensions are read in the background on first view: let them land, so the
    // measured page is the one every later visitor gets.
    await fetch(url).then((r) => r.text());
    await new Promise((r) => setTimeout(r, 1500));

    const rows: BenchRow[] = [];
    for (const viewport of VIEWPORTS) {
      ctx.log(`first-screen: warming ${viewport.name}`);
      const cold = await visit(browser, viewport, url);
      for (const t of cold.transfers) if (t.url.includes('/api/thumbnail')) await warm(t.url);
      ctx.log(`first-screen: measuring ${viewport.name}`);
      const { transfers, widths } = await visit(browser, viewport, url);
      const total = transfers.reduce((n, t) => n + t.bytes, 0);
      // BENCH_TRANSFERS=1 lists every response of the measured visit, to see where the bytes go.
      if (process.env.BENCH_TRANSFERS === '1') {
        for (const t of transfers) ctx.log(`  ${String(t.bytes).padStart(8)} ${t.status} ${t.encoding ?? '-'} ${t.url.replace(server.url, '')}`);
      }
      const images = transfers.filter((t) => t.url.includes('/api/thumbnail'));
      const imageBytes = images.reduce((n, t) => n + t.bytes, 0);
      const failed = transfers.filter((t) => t.status >= 400);
      const html = transfers.find((t) => t.mimeType === 'text/html');
      const widthCounts = [...new Set(widths)].sort((a, b) => a - b).map((w) => `${widths.filter((x) => x === w).length}×${w}px`);
      const note = [
        `${transfers.length} responses, ${images.length} thumbnails ${mb(imageBytes).toFixed(2)} MB (${widthCounts.join(', ') || 'none'})`,
        `HTML ${Math.round((html?.bytes ?? 0) / 1024)} KB${html?.encoding ? ` ${html.encoding}` : ' uncompressed'}`,
        `everything else ${Math.round((total - imageBytes - (html?.bytes ?? 0)) / 1024)} KB in ${transfers.length - images.length - (html ? 1 : 0)} responses`,
        failed.length
          ? `${failed.length} failed: ${failed
              .map((t) => `${t.status} ${t.url.replace(server.url, '')}`)
              .slice(0, 3)
              .join(', ')}`
          : '',
      ]
        .filter(Boolean)
        .join('; ');
      const row = limitRow(`first-screen bytes, ${photos}-photo album, ${viewport.name}`, mb(total), 'MB', { max: viewport.maxMb }, null, note);
      rows.push(failed.length ? { ...row, pass: false } : row);
    }
    return rows;
  } finally {
    await browser.close();
    await server.stop();
  }
}
