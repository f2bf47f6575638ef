import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { indexPosition, indexPositionOf, MAX_TOP_LEVEL_ATOMS, readTopLevelAtoms } from '../../server/core/media/mp4-atoms.js';
import { writeFaststartMp4, writeLateIndexMov } from '../support/phone-videos.js';
import { makeTempDir, removeTempDir } from '../support/temp-dir.js';

/** An atom header (and zero body) of `size` bytes, or a 64-bit one when `large`. */
function atom(type: string, size: number, { large = false, body = true } = {}): Buffer {
  const header = Buffer.alloc(large ? 16 : 8);
  if (large) {
    header.writeUInt32BE(1, 0);
    header.writeBigUInt64BE(BigInt(size), 8);
  } else header.writeUInt32BE(size, 0);
  header.write(type, 4, 'latin1');
  return body ? Buffer.concat([header, Buffer.alloc(Math.max(0, size - header.length))]) : header;
}

describe('MP4 atom walker (server/core/media/mp4-atoms.ts)', function () {
  let dir: string;
  const file = (name: string, ...parts: Buffer[]) => {
    const p = path.join(dir, name);
    fs.writeFileSync(p, Buffer.concat(parts));
    return p;
  };

  before(async function () {
    dir = makeTempDir('mp4-atoms-');
    await Promise.all([writeFaststartMp4(path.join(dir, 'front.mp4')), writeLateIndexMov(path.join(dir, 'late.mov'))]);
  });
  after(() => removeTempDir(dir));

  describe('real files made by ffmpeg', function () {
    it('should find the index before the media data of a faststart MP4', async function () {
      const walk = await readTopLevelAtoms(path.join(dir, 'front.mp4'));
      expect(walk.complete).to.equal(true);
      expect(walk.atoms.map((a) => a.type)).to.include.members(['ftyp', 'moov', 'mdat']);
      expect(await indexPositionOf(path.join(dir, 'front.mp4'))).to.equal('front');
    });

    it('should find the index after the media data of a plain MOV', async function () {
      expect(await indexPositionOf(path.join(dir, 'late.mov'))).to.equal('end');
    });

    it('should cover the whole file with the atoms it lists', async function () {
      const walk = await readTopLevelAtoms(path.join(dir, 'late.mov'));
      const last = walk.atoms.at(-1)!;
      expect(last.offset + last.size).to.equal(fs.statSync(path.join(dir, 'late.mov')).size);
    });
  });

  describe('crafted and broken files', function () {
    it('should read a 64-bit atom size', async function () {
      const walk = await readTopLevelAtoms(file('large.mp4', atom('ftyp', 16), atom('moov', 24), atom('mdat', 40, { large: true })));
      expect(walk).to.deep.include({ complete: true });
      expect(walk.atoms.map((a) => [a.type, a.size])).to.deep.equal([
        ['ftyp', 16],
        ['moov', 24],
        ['mdat', 40],
      ]);
    });

    it('should take a size of 0 as "to the end of the file"', async function () {
      const walk = await readTopLevelAtoms(file('zero.mp4', atom('ftyp', 16), atom('moov', 16), atom('mdat', 0, { body: false }), Buffer.alloc(100)));
      expect(walk.complete).to.equal(true);
      expect(walk.atoms.at(-1)).to.deep.equal({ type: 'mdat', offset: 32, size: 108 });
    });

    it('should stop at a size smaller than its header instead of looping', async function () {
      const walk = await readTopLevelAtoms(file('tiny.mp4', atom('ftyp', 16), atom('mdat', 4, { body: false }), atom('moov', 16)));
      expect(walk.complete).to.equal(false);
      expect(walk.atoms.map((a) => a.type)).to.deep.equal(['ftyp', 'mdat']);
    });

    it('should stop at an atom cut off by the end of the file, and call it truncated', async function () {
      const cut = fs.readFileSync(path.join(dir, 'front.mp4'));
      const walk = await readTopLevelAtoms(file('cut.mp4', cut.subarray(0, cut.length - 100)));
      expect(walk.complete).to.equal(false);
      expect(walk.atoms.at(-1)!.offset + walk.atoms.at(-1)!.size).to.be.greaterThan(cut.length - 100);
    });

    it('should read at most a bounded number of headers, however many atoms a file claims', async function () {
      const many = file('many.mp4', ...Array.from({ length: 10_000 }, () => atom('free', 8)), atom('moov', 8));
      const walk = await readTopLevelAtoms(many);
      expect(walk.atoms).to.have.length(MAX_TOP_LEVEL_ATOMS);
      expect(walk.complete).to.equal(false);
      expect(indexPosition(walk)).to.equal('unknown');
    });

    it('should stop at bytes that are no atom type (not an MP4)', async function () {
      const walk = await readTopLevelAtoms(file('text.mp4', Buffer.from('\u0000\u0000\u0000\u0010\u0001\u0002\u0003\u0004 not a video at all')));
      expect(walk.atoms).to.deep.equal([]);
      expect(indexPosition(walk)).to.equal('unknown');
    });

    it('should answer for an empty file', async function () {
      expect(await readTopLevelAtoms(file('empty.mp4'))).to.deep.equal({ atoms: [], complete: true });
    });
  });
});
