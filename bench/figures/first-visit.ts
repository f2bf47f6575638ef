/**
 * A visitor opening an album page in headless Chromium, with an empty HTTP cache (a browser
 * context of its own): how long its page took to start arriving, and how long until every tile
 * of its first screen had arrived. Both are read from the page's own timings (Navigation and
 * Resource Timing), not from polling, so the harness's speed does not count.
 */
import type { Browser, BrowserContextOptions } from 'playwright-core';
import { median } from './context.js';

/** A tablet, where a grid's tiles are 600 px thumbnails (README "What the browser downloads"). */
export const TABLET: { readonly name: string; readonly options: BrowserContextOptions } = {
  name: '820×1180 @2×',
  options: { viewport: { width: 820, height: 1180 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true },
};

export interface Visit {
  /** Navigation Timing: responseStart − requestStart of the page, in ms. */
  readonly ttfbMs: number;
  /** From the start of the navigation until the last first-screen tile had arrived, in ms. */
  readonly tilesMs: number;
  /** Tiles of the first screen (their top within the window at load). */
  readonly tiles: number;
  /** Of those, tiles whose image did not decode. */
  readonly broken: number;
}

interface TileTimes {
  readonly ttfbMs: number;
  readonly ends: readonly number[];
  readonly broken: number;
}

/** Runs in the page: undefined until every first-screen tile has loaded (or failed), then their timings. */
function firstScreenTimes(): TileTimes | undefined {
  const imgs = Array.from(document.querySelectorAll<HTMLImageElement>('#media img')).filter((img) => {
    const box = img.getBoundingClientRect();
    return box.width > 0 && box.top < window.innerHeight && box.bottom > 0;
  });
  if (imgs.length === 0 || !imgs.every((img) => img.complete && img.currentSrc !== '')) return undefined;
  const [navigation] = performance.getEntriesByType('navigation') as PerformanceNavigationTiming[];
  const ends = imgs.map((img) => {
    const entries = performance.getEntriesByName(new URL(img.currentSrc, location.href).href) as PerformanceResourceTiming[];
    return entries.length > 0 ? entries[entries.length - 1]!.responseEnd : Number.NaN;
  });
  return {
    ttfbMs: navigation ? navigation.responseStart - navigation.requestStart : Number.NaN,
    ends,
    broken: imgs.filter((img) => img.naturalWidth === 0).length,
  };
}

/** One visit of `url` in a new context (an empty HTTP cache, as a first-time visitor's). */
export async function visit(browser: Browser, url: string, options: BrowserContextOptions = TABLET.options): Promise<Visit> {
  const context = await browser.newContext({ ...options, serviceWorkers: 'block' });
  try {
    const page = await context.newPage();
    await page.goto(url, { waitUntil: 'commit', timeout: 120_000 });
    const handle = await page.waitForFunction(firstScreenTimes, undefined, { timeout: 180_000, polling: 50 });
    const times = (await handle.jsonValue()) as TileTimes;
    if (times.ends.some((end) => !Number.isFinite(end))) throw new Error(`${url}: a tile has no resource timing`);
    return { ttfbMs: times.ttfbMs, tilesMs: Math.max(...times.ends), tiles: times.ends.length, broken: times.broken };
  } finally {
    await context.close();
  }
}

/** The first visit of `url`, then `warm` more (each from an empty HTTP cache): the first, and the median of the others. */
export async function firstAndWarm(browser: Browser, url: string, warm: number): Promise<{ first: Visit; warm: Visit }> {
  const first = await visit(browser, url);
  const later: Visit[] = [];
  for (let i = 0; i < warm; i++) later.push(await visit(browser, url));
  return {
    first,
    warm: {
      ttfbMs: median(later.map((v) => v.ttfbMs)),
      tilesMs: median(later.map((v) => v.tilesMs)),
      tiles: later[0]!.tiles,
      broken: Math.max(...later.map((v) => v.broken)),
    },
  };
}
