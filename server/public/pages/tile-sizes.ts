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
 * | cards: two a row, 12 px apart; wider `minmax(min(230px, 100%), 1fr)`, /photos rows 260 px | (94vw − 12 px) / 2: 177 px at 390 | 230–354 px (353 at 768, 309 at 1024, 261 at 1440, 241 from 1600) |
 *
 * `94vw` is the page's width less its padding (`--page-pad`, 3vw but 12 px at least).
 */

import type { AlbumStyle } from '../../core/albums/album-record.js';

/** A square grid tile: cropped to the square, so its width is all the photo needs. */
const GRID = '(max-width: 600px) calc(50vw - 14px), 250px';

/**
 * A card's cover (site.css `.cards`), on album, collection and folder pages and on /photos.
 * The cover is cropped to 3:2 at the card's width, so a photo of 3:2 or taller needs no more
 * than that width (a wider one, cropped at the sides, a little more).
 *
 * Phones (600 px and less): two cards a row, 12 px apart, in the page less its padding:
 * (100vw − 2 × 3vw − 12px) / 2, and a little less below 400 px, where the padding stays 12 px.
 *
 * Wider: a grid of `repeat(auto-fill, minmax(230px, 1fr))` with 18 px gaps in the content box
 * (100vw less 2 × 3vw up to 1066 px, less 64 px above, 1536 px at most): n columns of
 * (box − (n − 1) × 18px) / n, one more from each box width of 248 × (n + 1) − 18 px. So the
 * widest cards (354 px) come just before the third column at 772 px, the narrowest (230 px)
 * just after each new column. A window with a classic scrollbar (Windows, most Linux
 * desktops) lays the page out 17 px narrower than 100vw, and gets its new column 17–18 px
 * later: each band below keeps its fewer, wider columns that much longer, so such a window
 * never gets a cover too small, and a phone or a Mac (overlay scrollbars) one too large only
 * in that strip.
 */
const CARD_GRID: readonly (readonly [maxWidth: string | undefined, width: string])[] = [
  ['600px', 'calc(47vw - 6px)'],
  ['790.5px', 'calc(47vw - 9px)'], // 2 columns: (0.94vw − 18px) / 2
  ['1054.3px', 'calc(31.34vw - 12px)'], // 3: (0.94vw − 36px) / 3
  ['1066.7px', 'calc(23.5vw - 13.5px)'], // 4: (0.94vw − 54px) / 4
  ['1303px', 'calc(25vw - 29.5px)'], // 4, the padding at its 32 px: (100vw − 64px − 54px) / 4
  ['1551px', 'calc(20vw - 27.2px)'], // 5: (100vw − 136px) / 5
  ['1600px', 'calc(16.67vw - 25.67px)'], // 6: (100vw − 154px) / 6
  [undefined, '241px'], // 6 in the 1536 px content box
];

/** On /photos, a category's albums sit in rows of 260 px cards (site.css `.tree-depth-1`); on phones as in a grid. */
const CARD_ROW = '(max-width: 600px) calc(47vw - 6px), 260px';

/** `sizes` of a card's cover, by where it sits: a card grid, or a row of /photos. */
export const CARD_SIZES = Object.freeze({
  grid: CARD_GRID.map(([maxWidth, width]) => (maxWidth ? `(max-width: ${maxWidth}) ${width}` : width)).join(', '),
  row: CARD_ROW,
});
export type CardLayout = keyof typeof CARD_SIZES;

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
