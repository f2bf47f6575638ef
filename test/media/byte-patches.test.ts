import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { bufferSource, fileSource, sliceSource, WINDOW_BYTES } from '../../server/core/media/byte-source.js';
import { applyPatches, bytesPatch, fillPatch, normalizePatches, zeroPatch } from '../../server/core/media/location/byte-patches.js';
import { locationPatches } from '../../server/core/media/location/location-patches.js';
import { MAX_LIST, MAX_PATCHES } from '../../server/core/media/location/walk.js';
import { mp4WithMetadataTrack } from '../support/corpus-movies.js';
import { gradient } from '../support/corpus-images.js';
import { pngChunk, served, withPngChunks, zeroedWhole } from '../support/format-walks.js';
import { makeTempDir, removeTempDir } from '../support/temp-dir.js';

describe('normalizePatches and applyPatches', () => {
  it('should let a later patch win where patches overlap, and clip to the file', () => {
    const patches = normalizePatches([bytesPatch(2, Buffer.from('abcd')), zeroPatch(4, 3), bytesPatch(9, Buffer.from('xyz'))], 10);
    const file = Buffer.from('0123456789');
    applyPatches(file, 0, patches);
    expect([...file]).to.deep.equal([...Buffer.from('01ab'), 0, 0, 0, ...Buffer.from('78x')]);
  });

  it('should let a small patch inside a large one win, and merge neighbours of one fill into one patch', () => {
    const patches = normalizePatches([zeroPatch(0, 20), fillPatch(5, 3, 0x20), zeroPatch(20, 5), bytesPatch(8, Buffer.from('ab'))], 30);
    expect(patches.map((p) => [p.at, p.length, p.bytes ? 'bytes' : (p.fill ?? 0)])).to.deep.equal([
      [0, 5, 0],
      [5, 3, 0x20],
      [8, 2, 'bytes'],
      [10, 15, 0],
    ]);
  });

  it('should resolve 200,000 patches over one another (a crafted EXIF can make them) in well under a second', () => {
    const patches = Array.from({ length: 200_000 }, (_, i) => (i % 2 ? zeroPatch(i, 400_000 - 2 * i) : fillPatch(i, 400_000 - 2 * i, 0x20)));
    const started = performance.now();
    const out = normalizePatches(patches, 400_000);
    expect(performance.now() - started).to.be.below(2000);
    // The last patch (zeros) covers the two middle bytes; the one before it (spaces) the bytes just outside them.
    const at = (offset: number) => out.find((p) => p.at <= offset && p.at + p.length > offset);
    expect(at(200_000)).to.deep.equal(zeroPatch(199_999, 2));
    expect(at(199_998)).to.deep.equal(fillPatch(199_998, 1, 0x20));
    expect(out.reduce((n, p) => n + p.length, 0)).to.equal(400_000);
  });

  it('should give the same bytes applied chunk by chunk as applied at once', () => {
    const patches = normalizePatches([zeroPatch(3, 10), bytesPatch(20, Buffer.from('hello')), fillPatch(30, 6, 0x20), zeroPatch(40, 1)], 64);
    const whole = Buffer.alloc(64, 0x41);
    applyPatches(whole, 0, patches);
    for (const size of [1, 3, 7, 16]) {
      const parts: Buffer[] = [];
      for (let at = 0; at < 64; at += size) {
        const chunk = Buffer.alloc(Math.min(size, 64 - at), 0x41);
        applyPatches(chunk, at, patches);
        parts.push(chunk);
      }
      expect(Buffer.concat(parts).equals(whole), `chunks of ${size}`).to.equal(true);
    }
  });
});

describe('byte sources', () => {
  let dir: string;
  before(() => {
    dir = makeTempDir('byte-source-');
  });
  after(() => removeTempDir(dir));

  it('should read through its windows the bytes the file holds, wherever reads fall (a fixed pattern of offsets and lengths)', async () => {
    const bytes = Buffer.alloc(5 * WINDOW_BYTES + 123);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 7 + (i >> 8)) & 0xff;
    const file = path.join(dir, 'bytes');
    fs.writeFileSync(file, bytes);
    const handle = await fs.promises.open(file);
    try {
      const source = fileSource(handle, bytes.length, 1000);
      let seed = 12345;
      const next = (n: number) => {
        seed = (seed * 1103515245 + 12345) & 0x7fffffff;
        return seed % n;
      };
      for (let i = 0; i < 2000; i++) {
        const at = next(bytes.length + 100);
        const length = [1, 8, 16, 4096, WINDOW_BYTES, WINDOW_BYTES + 1, 300_000][next(7)]!;
        expect((await source.read(at, length)).equals(bytes.subarray(at, at + length)), `${at}+${length}`).to.equal(true);
      }
      const slice = sliceSource(source, 70_000, 80_000);
      expect(slice.size).to.equal(10_000);
      expect((await slice.read(9_990, 100)).equals(bytes.subarray(79_990, 80_000))).to.equal(true);
      expect((await slice.read(10_000, 5)).length).to.equal(0);
    } finally {
      await handle.close();
    }
  });
});

describe('locationPatches when it cannot be sure (fail closed)', () => {
  it('should zero the whole of a file of a format it does not know', async () => {
    const { out } = await served(Buffer.from('Lisbon, 38.7104 N 9.1399 W: not a photo at all'));
    expect(zeroedWhole(out)).to.equal(true);
  });

  it('should zero the whole file when its walk takes more steps than its bound', async () => {
    const png = await gradient('png');
    const chunks = Array.from({ length: 50 }, () => pngChunk('tEXt', Buffer.from('k\0v', 'latin1')));
    const original = withPngChunks(png, chunks);
    expect(zeroedWhole((await served(original)).out)).to.equal(false);
    expect(zeroedWhole((await served(original, { maxSteps: 40 })).out)).to.equal(true);
  });

  it(`should zero the whole file, and stop walking it, as soon as one of its lists needs more than ${MAX_LIST} entries`, async () => {
    const png = await gradient('png');
    // Each text chunk, blanked, is three patches (its new type, its zeros, its CRC).
    const original = withPngChunks(
      png,
      Array.from({ length: 300_000 }, () => pngChunk('tEXt', Buffer.alloc(0))),
    );
    const source = bufferSource(original);
    let furthest = 0;
    const watched = {
      size: source.size,
      read: (at: number, length: number) => {
        furthest = Math.max(furthest, at + length);
        return source.read(at, length);
      },
    };
    expect(await locationPatches(watched)).to.deep.equal([zeroPatch(0, original.length)]);
    // Twelve bytes a chunk: the bound is hit a little past MAX_LIST / 3 chunks.
    expect(furthest).to.be.below((MAX_LIST / 3) * 12 * 1.1);
  });

  it(`should keep up to ${MAX_PATCHES} patches for a movie whose metadata track has a chunk per frame`, async function () {
    this.timeout(60_000);
    const dir = makeTempDir('many-samples-');
    try {
      const file = path.join(dir, 'per-frame.mp4');
      const samples = Array.from({ length: MAX_LIST + 20_000 }, (_, i) => Buffer.from(`GPS${String(i).padStart(5, '0')}`, 'latin1'));
      await mp4WithMetadataTrack(file, samples, 4);
      const original = fs.readFileSync(file);
      const { out, patches } = await served(original);
      expect(patches.length).to.be.above(MAX_LIST);
      expect(zeroedWhole(out)).to.equal(false);
      expect(out.includes('GPS0', 0, 'latin1')).to.equal(false);
      // The bytes between the samples, which no track points to, are not the track's: kept.
      expect(out.includes('....', 0, 'latin1')).to.equal(true);
    } finally {
      removeTempDir(dir);
    }
  });
});
