import { expect } from 'chai';
import type { TreeNode } from '../../server/core/albums/album-tree.js';
import { photosCardLayout } from '../../server/public/pages/cards.js';
import { CARD_SIZES, tileSizes } from '../../server/public/pages/tile-sizes.js';

/**
 * The `sizes` of each layout against the widths measured in Chromium (tile-sizes.ts): what a
 * browser picks from 400/800/1200/1920 px at 1×, 2× and 3× must be the smallest sharp one.
 */
describe('tileSizes', () => {
  describe('grid', () => {
    it('should be half the phone screen less the padding, and 250 px wider', () => {
      expect(tileSizes('grid', 1.5)).to.equal('(max-width: 600px) calc(50vw - 14px), 250px');
      // The crop is square: the photo's shape does not change the width.
      expect(tileSizes('grid', undefined)).to.equal(tileSizes('grid', 0.5));
    });
  });

  describe('masonry', () => {
    it('should scale with the aspect ratio, bounded by the page width', () => {
      expect(tileSizes('masonry', 3)).to.equal('(max-width: 600px) min(94vw, 420px), min(94vw, 792px)');
      expect(tileSizes('masonry', 0.75)).to.equal('(max-width: 600px) min(94vw, 105px), min(94vw, 198px)');
    });

    it("should use site.css's default ratio when the shape is not known yet", () => {
      expect(tileSizes('masonry', undefined)).to.equal(tileSizes('masonry', 1.5));
    });
  });

  describe('single', () => {
    it('should bound the photo by the page, 1200 px and 82% of the window height', () => {
      expect(tileSizes('single', 2 / 3)).to.equal('min(94vw, 1200px, 54.7vh)');
      expect(tileSizes('single', undefined)).to.equal('min(94vw, 1200px)');
    });
  });

  describe('album cards', () => {
    /**
     * The width of a card's cover as Chromium laid it out (site.css), in CSS px, by window
     * width: an album page's grid and the rows of /photos (measured with the cards of
     * test/e2e/responsive-images.e2e.ts; a window without a scrollbar).
     */
    const GRID: readonly [number, number][] = [
      [320, 142],
      [360, 162],
      [390, 177],
      [414, 188.6],
      [500, 229],
      [600, 276],
      [601, 273.5],
      [700, 320],
      [768, 352],
      [772, 353.8],
      [780, 232.4],
      [800, 238.7],
      [1000, 301.3],
      [1024, 308.9],
      [1036, 312.6],
      [1040, 230.9],
      [1100, 245.5],
      [1280, 290.5],
      [1286, 230],
      [1440, 260.8],
      [1534, 230],
      [1600, 241],
      [1920, 241],
      [2560, 241],
    ];
    /** The widest card of /photos's rows at each width: an album's child albums, indented, are 8 px narrower on phones. */
    const ROW: readonly [number, number][] = [
      [320, 142],
      [390, 177],
      [600, 276],
      [601, 260],
      [768, 260],
      [1440, 260],
    ];
    /** Right after a new column comes, the cards are kept as wide as before for 17 px (a scrollbar). */
    const SCROLLBAR_STRIP = [780, 1040, 1286, 1534];

    it('should never be narrower than the card, nor more than 3% wider outside the scrollbar strips', () => {
      for (const [layout, table] of [
        ['grid', GRID],
        ['row', ROW],
      ] as const) {
        for (const [window, card] of table) {
          const said = sizesAt(CARD_SIZES[layout], window);
          expect(said, `${layout} at ${window} px`).to.be.at.least(card - 0.5);
          if (!SCROLLBAR_STRIP.includes(window)) expect(said, `${layout} at ${window} px`).to.be.at.most(card * 1.03);
        }
      }
    });

    it('should never say less than the grid lays out at any width, with or without a 17 px scrollbar', () => {
      for (const scrollbar of [0, 17]) {
        for (let window = 601; window <= 2600; window++) {
          // The content box: 100vw less the scrollbar, less the padding (3vw, 12–32 px), 1600 px at most.
          const box = Math.min(window - scrollbar, 1600) - 2 * Math.min(32, Math.max(12, 0.03 * window));
          const columns = Math.floor((box + 18) / 248);
          const card = (box - (columns - 1) * 18) / columns;
          expect(sizesAt(CARD_SIZES.grid, window), `at ${window} px, scrollbar ${scrollbar} px`).to.be.at.least(card - 0.01);
        }
      }
    });

    it('should lay out the albums of /photos below its top-level folders in rows', () => {
      const node = (path: string) => ({ path }) as TreeNode;
      expect(photosCardLayout(node('2024'))).to.equal('grid');
      expect(photosCardLayout(node('2024/lisbon'))).to.equal('grid');
      expect(photosCardLayout(node('2024/lisbon/grid'))).to.equal('row');
      expect(photosCardLayout(node('2024/a/b/c'))).to.equal('row');
    });
  });
});

/**
 * The width a `sizes` attribute gives at a window width: the first of its `(max-width: N)`
 * conditions that holds, or the last entry; `calc(Avw - Bpx)`, `Npx`, `Nvw` as this module writes them.
 */
function sizesAt(sizes: string, window: number): number {
  for (const entry of sizes.split(/,\s*(?![^(]*\))/)) {
    const m = /^(?:\(max-width: ([\d.]+)px\)\s+)?(.+)$/.exec(entry.trim())!;
    if (m[1] !== undefined && window > Number(m[1])) continue;
    const length = m[2]!;
    const calc = /^calc\(([\d.]+)vw - ([\d.]+)px\)$/.exec(length);
    if (calc) return (Number(calc[1]) * window) / 100 - Number(calc[2]);
    const px = /^([\d.]+)px$/.exec(length);
    if (px) return Number(px[1]);
    throw new Error(`unexpected length ${length}`);
  }
  throw new Error(`no width in ${sizes} at ${window}`);
}
