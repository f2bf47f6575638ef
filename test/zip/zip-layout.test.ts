import { Readable, Writable } from 'node:stream';
import yauzl from 'yauzl';
import { createZipArchive, zipLayout, type SizedName } from '../../server/public/zip/album-zip.js';
import { expect, unzip } from './support.js';

/**
 * Runs archiver exactly as writeZip does (same factory, stream sources, one entry at a time)
 * and keeps the whole output, or only its length and last `keepTail` bytes.
 */
async function archive(entries: readonly SizedName[], zip64: boolean, keepTail = Infinity): Promise<{ length: number; tail: Buffer }> {
  const zip = createZipArchive(zip64);
  let length = 0;
  let kept: Buffer[] = [];
  let keptBytes = 0;
  const sink = new Writable({
    write(chunk: Buffer, _enc, cb) {
      length += chunk.length;
      kept.push(chunk);
      keptBytes += chunk.length;
      if (keptBytes > 2 * keepTail) {
        kept = [Buffer.concat(kept).subarray(keptBytes - keepTail)];
        keptBytes = keepTail;
      }
      cb();
    },
  });
  const done = new Promise<void>((resolve, reject) => {
    sink.on('finish', resolve);
    zip.on('error', reject);
  });
  zip.pipe(sink);
  let next = 0;
  const appendNext = () => {
    const e = entries[next++];
    if (e === undefined) return void zip.finalize();
    zip.append(Readable.from(filler(e.size), { objectMode: false }), { name: e.name, date: new Date(2020, 0, 1) });
  };
  zip.on('entry', appendNext);
  appendNext();
  await done;
  const all = Buffer.concat(kept);
  return { length, tail: all.subarray(Math.max(0, all.length - keepTail)) };
}

/** `size` bytes of a repeating pattern, without holding more than 1 MB. */
function* filler(size: number): Generator<Buffer> {
  const block = Buffer.alloc(Math.min(size, 1024 * 1024), 'photo');
  for (let left = size; left > 0; left -= block.length) yield left >= block.length ? block : block.subarray(0, left);
}

function names(n: number, size: (i: number) => number): SizedName[] {
  return Array.from({ length: n }, (_, i) => ({ name: `IMG_${i}.jpg`, size: size(i) }));
}

describe('zipLayout()', function () {
  const cases: [string, SizedName[]][] = [
    ['no entries', []],
    [
      'ASCII names',
      [
        { name: 'IMG_1.jpg', size: 1000 },
        { name: 'b.png', size: 70_000 },
      ],
    ],
    [
      'non-ASCII names (2-, 3- and 4-byte UTF-8)',
      [
        { name: 'café ☕.jpg', size: 10 },
        { name: '日本.png', size: 3 },
        { name: '😀.gif', size: 1 },
      ],
    ],
    ['an empty file', [{ name: 'empty.jpg', size: 0 }]],
    ['1,000 files of assorted sizes', names(1000, (i) => (i * 7919) % 5000)],
  ];

  for (const [label, entries] of cases) {
    it(`should match archiver's output for ${label}`, async function () {
      const layout = zipLayout(entries);
      expect(layout.zip64).to.equal(false);
      expect((await archive(entries, false)).length).to.equal(layout.size);
    });
  }

  it("should match archiver's output with ZIP64 forced, and the archive should read back", async function () {
    const entries: SizedName[] = [
      { name: 'a.jpg', size: 5 },
      { name: 'é.jpg', size: 0 },
    ];
    const layout = zipLayout(entries, { forceZip64: true });
    expect(layout.zip64).to.equal(true);
    const { length, tail: zip } = await archive(entries, true);
    expect(length).to.equal(layout.size);
    // ZIP64 end record, then its locator, then the classic end record.
    expect(zip.readUInt32LE(zip.length - 22 - 20 - 56)).to.equal(0x06064b50);
    expect([...(await unzip(zip)).keys()]).to.deep.equal(['a.jpg', 'é.jpg']);
  });

  it('should switch to ZIP64 from 65,535 entries on, where archiver alone writes an ambiguous count', async function () {
    this.timeout(120_000);
    const entries = names(65_535, () => 0);
    const layout = zipLayout(entries);
    expect(layout.zip64).to.equal(true);
    expect(zipLayout(entries.slice(1)).zip64).to.equal(false);
    const { length, tail: zip } = await archive(entries, layout.zip64);
    expect(length).to.equal(layout.size);
    const zipfile = await yauzl.fromBufferPromise(zip, { lazyEntries: true });
    expect(zipfile.entryCount).to.equal(65_535);
    zipfile.close();
  });

  it('should refuse a layout archiver would write wrongly (a size of exactly 0xFFFFFFFF)', function () {
    expect(() => zipLayout([{ name: 'a.jpg', size: 0xffffffff }])).to.throw(/exactly 0xFFFFFFFF/);
  });

  // 4.3 GB through archiver in memory: a few seconds of CPU, no disk.
  it('should match archiver past 4 GB: ZIP64 sizes, offsets and data descriptors', async function () {
    this.timeout(120_000);
    const entries: SizedName[] = [
      { name: 'small.jpg', size: 1000 },
      { name: 'huge.mov.jpg', size: 2 ** 32 + 12_345 },
      { name: 'after.jpg', size: 4096 },
    ];
    const layout = zipLayout(entries);
    expect(layout.zip64).to.equal(true);
    const keep = 256 * 1024;
    const { length, tail } = await archive(entries, true, keep);
    expect(length).to.equal(layout.size);
    // yauzl reads only the end of the archive for its directory: serve it from the kept tail.
    const reader = new TailReader(tail, length - tail.length);
    const zipfile = await yauzl.fromRandomAccessReaderPromise(reader, length, { lazyEntries: true });
    const seen: [string, number][] = [];
    let after: Buffer | undefined;
    for await (const e of zipfile.eachEntry()) {
      seen.push([e.fileName, e.uncompressedSize]);
      if (e.fileName !== 'after.jpg') continue;
      // Its local header lies past 4 GB: found only through the ZIP64 extra field.
      expect(e.relativeOffsetOfLocalHeader).to.be.above(2 ** 32);
      const chunks: Buffer[] = [];
      for await (const c of await zipfile.openReadStreamPromise(e)) chunks.push(c as Buffer);
      after = Buffer.concat(chunks);
    }
    expect(seen).to.deep.equal(entries.map((e) => [e.name, e.size]));
    expect(after?.equals(Buffer.concat([...filler(4096)]))).to.equal(true);
  });
});

/** Random access to an archive of which only the bytes from `start` on were kept. */
class TailReader extends yauzl.RandomAccessReader {
  constructor(
    private readonly tail: Buffer,
    private readonly start: number,
  ) {
    super();
  }

  override _readStreamForRange(start: number, end: number): Readable {
    if (start < this.start) throw new Error(`read at ${start} is before the kept tail`);
    return Readable.from([this.tail.subarray(start - this.start, end - this.start)]);
  }
}
