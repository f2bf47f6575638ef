import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { bufferSource } from '../../server/core/media/byte-source.js';
import { DisplayMatrixError, turnPatches, videoTrackMatrices } from '../../server/core/media/display-matrix.js';
import { writeVideo } from '../support/media-fixtures.js';
import { makeTempDir, removeTempDir } from '../support/temp-dir.js';
import { cornersOf, firstFrame, probedRotation, writeHalvesMovie } from '../support/turn-fixtures.js';

/** The first frame as ffmpeg decodes it: its size and where red and blue are. */
async function shownFrame(file: string) {
  const { width, height, topLeft, bottomRight } = await cornersOf(await firstFrame(file));
  return { width, height, topLeft, bottomRight };
}

/** `bytes` with the edits of turnPatches written in. */
function patched(bytes: Buffer, edits: readonly { at: number; bytes: Buffer }[]): Buffer {
  const out = Buffer.from(bytes);
  for (const e of edits) e.bytes.copy(out, e.at);
  return out;
}

describe('display matrix (server/core/media/display-matrix.ts)', function () {
  this.timeout(60_000);
  let dir: string;
  before(() => {
    dir = makeTempDir('gallery-matrix-');
  });
  after(() => removeTempDir(dir));

  for (const container of ['mp4', 'mov'] as const) {
    describe(`a ${container.toUpperCase()} with sound`, () => {
      let original: Buffer;
      before(async () => {
        const file = path.join(dir, `halves.${container}`);
        await writeHalvesMovie(file, container);
        original = fs.readFileSync(file);
      });

      it('should find the one video track upright, its size as stored', async () => {
        const tracks = await videoTrackMatrices(bufferSource(original));
        expect(tracks).to.have.length(1);
        expect(tracks[0]).to.include({ turns: 0, width: 160 * 0x10000, height: 120 * 0x10000 });
      });

      for (const [turns, rotation, shown] of [
        [1, -90, { width: 120, height: 160, topLeft: 'red', bottomRight: 'blue' }],
        [2, 180, { width: 160, height: 120, topLeft: 'blue', bottomRight: 'red' }],
        [3, 90, { width: 120, height: 160, topLeft: 'blue', bottomRight: 'red' }],
        [-1, 90, { width: 120, height: 160, topLeft: 'blue', bottomRight: 'red' }],
      ] as const) {
        it(`should turn it ${turns < 0 ? `${-turns * 90}° counter-clockwise` : `${turns * 90}° clockwise`} for ffprobe and ffmpeg, changing 36 bytes and nothing else`, async () => {
          const edits = await turnPatches(bufferSource(original), turns);
          expect(edits).to.have.length(1);
          const file = path.join(dir, `turned-${turns}.${container}`);
          const turned = patched(original, edits);
          fs.writeFileSync(file, turned);
          expect(turned.length).to.equal(original.length);
          const changed = [...turned.keys()].filter((i) => turned[i] !== original[i]);
          expect(changed[changed.length - 1]! - changed[0]!).to.be.lessThan(36);
          // ffprobe counts counter-clockwise: a clockwise quarter turn reads -90.
          expect(Math.abs(await probedRotation(file))).to.equal(Math.abs(rotation));
          if (Math.abs(rotation) === 90) expect(await probedRotation(file)).to.equal(rotation);
          expect(await shownFrame(file)).to.deep.equal(shown);
        });
      }

      it('should come back to the same bytes after four quarter turns', async () => {
        let bytes = original;
        for (let i = 0; i < 4; i++) bytes = patched(bytes, await turnPatches(bufferSource(bytes), 1));
        expect(bytes.equals(original)).to.equal(true);
      });
    });
  }

  describe('other movies, and what it will not turn', () => {
    it("should turn a phone's portrait video (stored turned 90° clockwise) back to landscape", async () => {
      const file = path.join(dir, 'portrait.mp4');
      await writeVideo(file, { width: 160, height: 120, seconds: 1, rotate: 90 });
      const bytes = fs.readFileSync(file);
      expect((await videoTrackMatrices(bufferSource(bytes)))[0]?.turns).to.equal(1);
      const upright = path.join(dir, 'upright.mp4');
      fs.writeFileSync(upright, patched(bytes, await turnPatches(bufferSource(bytes), -1)));
      expect(await probedRotation(upright)).to.equal(0);
      expect(await shownFrame(upright)).to.include({ width: 160, height: 120 });
    });

    it('should refuse a mirrored matrix, naming why', async () => {
      const file = path.join(dir, 'halves.mp4');
      const bytes = Buffer.from(fs.readFileSync(file));
      const [track] = await videoTrackMatrices(bufferSource(bytes));
      bytes.writeInt32BE(-0x10000, track!.at);
      bytes.writeInt32BE(160 * 0x10000, track!.at + 24);
      expect((await videoTrackMatrices(bufferSource(bytes)))[0]?.turns).to.equal(undefined);
      let error: unknown;
      await turnPatches(bufferSource(bytes), 1).catch((err: unknown) => (error = err));
      expect(error).to.be.instanceOf(DisplayMatrixError).with.property('message', 'its display matrix is mirrored or scaled, not a plain turn');
    });

    for (const [what, make] of [
      [
        'a WebM',
        async () => {
          await writeHalvesMovie(path.join(dir, 'halves.webm'), 'webm');
          return fs.readFileSync(path.join(dir, 'halves.webm'));
        },
      ],
      ['a text file', async () => Buffer.from('not a movie at all, only some words')],
      ['a movie cut before its index', async () => fs.readFileSync(path.join(dir, 'halves.mov')).subarray(0, 400)],
    ] as const) {
      it(`should find no video track in ${what}, and refuse to turn it`, async () => {
        const bytes = await make();
        expect(await videoTrackMatrices(bufferSource(bytes))).to.deep.equal([]);
        let error: unknown;
        await turnPatches(bufferSource(bytes), 1).catch((err: unknown) => (error = err));
        expect(error)
          .to.be.instanceOf(DisplayMatrixError)
          .with.property('message')
          .that.matches(/^no video track header \(tkhd\) was found/);
      });
    }
  });
});
