import { expect } from 'chai';
import type { MediaItem } from '../../server/core/albums/album-tree.js';
import { filesOf, pairLivePhotos, repairLivePhotos } from '../../server/core/albums/live-photos.js';
import { naturalCompare } from '../../server/core/albums/natural-order.js';
import { mediaKind } from '../../server/core/media-catalogue.js';

/** Items as the scan makes them: kinds from the catalogue, in natural order. */
const itemsOf = (...names: string[]): MediaItem[] => names.map((name) => ({ name, kind: mediaKind(name)! })).sort((a, b) => naturalCompare(a.name, b.name));

/** 'IMG_1.JPG+IMG_1.MOV' for a Live Photo, the plain name otherwise. */
const shown = (items: readonly MediaItem[]) => items.map((m) => (m.motion ? `${m.name}+${m.motion.name}` : m.name));

describe('pairLivePhotos', () => {
  describe('a still and a movie of one name', () => {
    it('should list one photo carrying the movie as its motion', () => {
      const listed = pairLivePhotos(itemsOf('IMG_1234.HEIC', 'IMG_1234.MOV'));
      expect(listed).to.deep.equal([{ name: 'IMG_1234.HEIC', kind: 'image', motion: { name: 'IMG_1234.MOV', kind: 'video' } }]);
    });

    it('should pair whatever the letter case of the stem and the extensions', () => {
      expect(shown(pairLivePhotos(itemsOf('img_1.jpg', 'IMG_1.MOV')))).to.deep.equal(['img_1.jpg+IMG_1.MOV']);
      expect(shown(pairLivePhotos(itemsOf('IMG_2.Heic', 'img_2.mov')))).to.deep.equal(['IMG_2.Heic+img_2.mov']);
      expect(shown(pairLivePhotos(itemsOf('Beach.JPEG', 'beach.Mov')))).to.deep.equal(['Beach.JPEG+beach.Mov']);
      expect(shown(pairLivePhotos(itemsOf('a.heif', 'A.MOV')))).to.deep.equal(['a.heif+A.MOV']);
    });

    it('should keep the natural order of everything else', () => {
      const listed = pairLivePhotos(itemsOf('IMG_10.JPG', 'IMG_2.MOV', 'IMG_2.JPG', 'clip.mp4', 'IMG_10.MOV', 'IMG_9.png'));
      expect(shown(listed)).to.deep.equal(['clip.mp4', 'IMG_2.JPG+IMG_2.MOV', 'IMG_9.png', 'IMG_10.JPG+IMG_10.MOV']);
    });
  });

  describe('files that do not pair', () => {
    it('should keep a movie without a still as a video', () => {
      expect(pairLivePhotos(itemsOf('IMG_1.MOV', 'IMG_2.JPG'))).to.deep.equal(itemsOf('IMG_1.MOV', 'IMG_2.JPG'));
    });

    it('should pair only QuickTime movies with HEIC, HEIF and JPEG stills', () => {
      const names = ['IMG_1.JPG', 'IMG_1.mp4', 'IMG_2.png', 'IMG_2.MOV', 'IMG_3.webp', 'IMG_3.mov', 'IMG_4.tif', 'IMG_4.MOV'];
      expect(shown(pairLivePhotos(itemsOf(...names)))).to.deep.equal(shown(itemsOf(...names)));
    });

    it('should not pair names that only start alike', () => {
      const names = ['IMG_1.JPG', 'IMG_1 (1).MOV', 'IMG_12.MOV', 'IMG_1.JPG.MOV'];
      expect(shown(pairLivePhotos(itemsOf(...names)))).to.deep.equal(shown(itemsOf(...names)));
    });

    it('should give back a copy, never the scan\u2019s own array', () => {
      const items = itemsOf('a.jpg', 'b.mp4');
      const listed = pairLivePhotos(items);
      expect(listed).to.deep.equal(items);
      expect(listed).to.not.equal(items);
    });
  });

  describe('one stem, several stills or movies', () => {
    it('should give the movie to the first still in natural order (IMG_1.HEIC before IMG_1.JPG), the other staying a photo', () => {
      const listed = pairLivePhotos(itemsOf('IMG_1.JPG', 'IMG_1.MOV', 'IMG_1.HEIC'));
      expect(shown(listed)).to.deep.equal(['IMG_1.HEIC+IMG_1.MOV', 'IMG_1.JPG']);
    });

    it('should choose the same still whatever order the directory was read in', () => {
      const a = pairLivePhotos(itemsOf('IMG_1.jpeg', 'IMG_1.jpg', 'IMG_1.mov'));
      const b = pairLivePhotos(itemsOf('IMG_1.mov', 'IMG_1.jpg', 'IMG_1.jpeg'));
      expect(shown(a)).to.deep.equal(shown(b)).and.to.deep.equal(['IMG_1.jpeg+IMG_1.mov', 'IMG_1.jpg']);
    });

    it('should pair the first of two movies differing in case and keep the other as a video', () => {
      const listed = pairLivePhotos(itemsOf('IMG_1.JPG', 'img_1.mov', 'IMG_1.MOV'));
      expect(shown(listed)).to.deep.equal(['IMG_1.JPG+IMG_1.MOV', 'img_1.mov']);
    });
  });

  describe('with content identifiers', () => {
    const ids = (entries: Record<string, string>) => new Map(Object.entries(entries));

    it('should not pair a still and a movie of one name whose identifiers differ', () => {
      const listed = pairLivePhotos(itemsOf('DSC_1.JPG', 'DSC_1.MOV'), ids({ 'DSC_1.JPG': 'A', 'DSC_1.MOV': 'B' }));
      expect(listed).to.deep.equal(itemsOf('DSC_1.JPG', 'DSC_1.MOV'));
    });

    it('should pair a still and a movie of different names with the same identifier', () => {
      const listed = pairLivePhotos(itemsOf('IMG_1.JPG', 'IMG_1_export.MOV', 'IMG_2.JPG'), ids({ 'IMG_1.JPG': 'A', 'IMG_1_export.MOV': 'A' }));
      expect(shown(listed)).to.deep.equal(['IMG_1.JPG+IMG_1_export.MOV', 'IMG_2.JPG']);
    });

    it('should pair one of a name pair by identifier and the other by name with a file of its name', () => {
      // IMG_5.MOV belongs to IMG_4.HEIC by identifier; IMG_5.HEIC has no identifier, so it pairs
      // with nothing of its name left; IMG_6's files pair by name, one side lacking an identifier.
      const listed = pairLivePhotos(
        itemsOf('IMG_4.HEIC', 'IMG_5.HEIC', 'IMG_5.MOV', 'IMG_6.JPG', 'IMG_6.MOV'),
        ids({ 'IMG_4.HEIC': 'A', 'IMG_5.MOV': 'A', 'IMG_6.MOV': 'C' }),
      );
      expect(shown(listed)).to.deep.equal(['IMG_4.HEIC+IMG_5.MOV', 'IMG_5.HEIC', 'IMG_6.JPG+IMG_6.MOV']);
    });

    it('should pair by name where only one side has an identifier', () => {
      expect(shown(pairLivePhotos(itemsOf('IMG_1.JPG', 'IMG_1.MOV'), ids({ 'IMG_1.MOV': 'A' })))).to.deep.equal(['IMG_1.JPG+IMG_1.MOV']);
      expect(shown(pairLivePhotos(itemsOf('IMG_1.JPG', 'IMG_1.MOV'), ids({ 'IMG_1.JPG': 'A' })))).to.deep.equal(['IMG_1.JPG+IMG_1.MOV']);
    });

    it('should give an identifier shared by two stills to the first in natural order, the other staying a photo', () => {
      // The export of a HEIC keeps its MakerNote: both stills carry A.
      const listed = pairLivePhotos(
        itemsOf('IMG_1.JPG', 'IMG_1.HEIC', 'IMG_1.MOV', 'IMG_1 (2).MOV'),
        ids({ 'IMG_1.JPG': 'A', 'IMG_1.HEIC': 'A', 'IMG_1.MOV': 'A' }),
      );
      expect(shown(listed)).to.deep.equal(['IMG_1 (2).MOV', 'IMG_1.HEIC+IMG_1.MOV', 'IMG_1.JPG']);
    });

    it('should give the same answer whatever order the directory was read in', () => {
      const given = ids({ 'b.jpg': 'X', 'a.mov': 'X', 'c.mov': 'X', 'c.jpg': 'Y' });
      const one = pairLivePhotos(itemsOf('a.mov', 'b.jpg', 'c.jpg', 'c.mov'), given);
      const two = pairLivePhotos(itemsOf('c.mov', 'c.jpg', 'b.jpg', 'a.mov'), given);
      expect(shown(one)).to.deep.equal(shown(two)).and.to.deep.equal(['b.jpg+a.mov', 'c.jpg', 'c.mov']);
    });
  });

  describe('repairLivePhotos', () => {
    it('should undo the pairs by name and pair again with identifiers', () => {
      const byName = pairLivePhotos(itemsOf('IMG_1.JPG', 'IMG_1.MOV', 'IMG_2.JPG', 'IMG_9.MOV'));
      expect(shown(byName)).to.deep.equal(['IMG_1.JPG+IMG_1.MOV', 'IMG_2.JPG', 'IMG_9.MOV']);
      const again = repairLivePhotos(
        byName,
        new Map([
          ['IMG_1.JPG', 'A'],
          ['IMG_1.MOV', 'B'],
          ['IMG_2.JPG', 'B'],
        ]),
      );
      expect(shown(again)).to.deep.equal(['IMG_1.JPG', 'IMG_2.JPG+IMG_1.MOV', 'IMG_9.MOV']);
      expect(shown(repairLivePhotos(again, new Map()))).to.deep.equal(shown(byName));
    });
  });

  describe('filesOf', () => {
    it('should give every file, a motion right after its still', () => {
      const listed = pairLivePhotos(itemsOf('IMG_1.JPG', 'IMG_1.MOV', 'IMG_2.JPG', 'clip.mov'));
      expect(Array.from(filesOf(listed), (m) => m.name)).to.deep.equal(['clip.mov', 'IMG_1.JPG', 'IMG_1.MOV', 'IMG_2.JPG']);
    });
  });
});
