import { expect } from 'chai';
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

  it('should size cards as the card grid lays them out', () => {
    expect(CARD_SIZES).to.equal('(max-width: 600px) 94vw, 300px');
  });
});
