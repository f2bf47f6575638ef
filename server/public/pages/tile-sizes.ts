/**
 * The `sizes` attributes of the album page's tiles and of album cards: how wide each image is
 * laid out by views/assets/site.css, so that the browser takes the smallest thumbnail
 * (server/core/media-catalogue.ts: 400, 600, 800, 1200, 1920 px) that is sharp at its pixel ratio.
 * A `sizes` too large costs three times the bytes (a 220 px tile on a 2× screen fetched at
 * 1200 px); one too small shows a soft photo. The widths were measured in Chromium at 390,
 * 768, 1024, 1440 and 2560 px wide windows (README, "What the browser downloads"):
 *
 * | layout | ≤ 600 px window | wider |
 * |---|---|---|
 * | grid: square tiles, `minmax(min(200px, 40vw), 1fr)` | two columns, (100vw − 28 px) / 2: 181 px at 390 | 200–250 px (235 at 768 and 1024, 223 at 1440, 213 at 2560) |
 * | masonry: rows 112 px (240 px wider), stretched to fill the row | ar × 112 × 1–1.25, at most the row | ar × 240 × 1–1.1 mostly (1.22 seen at 2560); a tile alone on a row up to 2.5× |
 * | single: min(100 %, 82vh × ar, 1200 px) | 366 px at 390 | 492 px for a portrait in a 900 px high window |
 * | cards: `minmax(min(230px, 100%), 1fr)`, /photos 260 px | the whole width, 366 px at 390 | 241–352 px (261 at 1440) |
 *
 * `94vw` is the page's width less its padding (`--page-pad`, 3vw but 12 px at least).
 */

import type { AlbumStyle } from '../../core/albums/album-record.js';

/** A square grid tile: cropped to the square, so its width is all the photo needs. */
const GRID = '(max-width: 600px) calc(50vw - 14px), 250px';

/** A card's cover, on /photos, collection and folder pages. */
export const CARD_SIZES = '(max-width: 600px) 94vw, 300px';

/**
 * Row heights of the justified rows (site.css `--row`) with the usual stretch of a full row:
 * a tile left alone on its row stretches further and may look a little soft, which is the
 * price of not sending every tile at the size of the rare lone one.
 */
const MASONRY_ROW = { narrow: 112 * 1.25, wide: 240 * 1.1 };

const px = (n: number): string => `${Math.ceil(n)}px`;

/**
 * `sizes` of one tile. Justified rows and single photos depend on the photo's aspect ratio
 * (`ar`, width / height; undefined until the page's sizes are read): a panorama needs a
 * wider thumbnail than a portrait in the same row.
 */
export function tileSizes(style: AlbumStyle, ar: number | undefined): string {
  if (style === 'masonry') {
    // site.css's fallback --ar when the ratio is not known yet.
    const r = ar ?? 1.5;
    return `(max-width: 600px) min(94vw, ${px(r * MASONRY_ROW.narrow)}), min(94vw, ${px(r * MASONRY_ROW.wide)})`;
  }
  if (style === 'single') {
    // As wide as the screen, the photo's height within 82% of the window's, 1200 px at most.
    if (ar === undefined) return 'min(94vw, 1200px)';
    return `min(94vw, 1200px, ${(82 * ar).toFixed(1)}vh)`;
  }
  return GRID;
}
