import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable, Writable } from 'node:stream';
import zlib from 'node:zlib';
import yauzl from 'yauzl';
import {
  ClientClosedError,
  ClientStalledError,
  planZip,
  type StatedVersion,
  type ZipPlan,
  type ZipSource,
  writeZip,
} from '../../server/public/zip/album-zip.js';
import { knownCrcLayout } from '../../server/public/zip/known-crc-zip.js';
import { eventually, expect, localHeaders, makeTempDir, openFds, unzip, unzipTest, writeRandomImages } from './support.js';
import { expectRefusedWhenChanged, rejection, ZipSink, zipSources } from './zip-writing.js';

/**
 * The archive written when every file's CRC is known before the request (issue 27,
 * server/public/zip/known-crc-zip.ts): its exact size, what unzip tools make of it, its ZIP64
 * cases, and the same refusals as archiver's way when a file no longer matches the plan.
 */

/** The CRC of a file's bytes, read a megabyte at a time (a sparse file of 4 GB included). */
function crcOfFile(file: string): number {
  const fd = fs.openSync(file, 'r');
  try {
    const buf = Buffer.alloc(1024 * 1024);
    let crc = 0;
    for (let n = fs.readSync(fd, buf); n > 0; n = fs.readSync(fd, buf)) crc = zlib.crc32(buf.subarray(0, n), crc);
    return crc;
  } finally {
    fs.closeSync(fd);
  }
}

/** As the download route plans with the CRCs the preparation kept: here, each file's own, for the version stat'ed. */
const knownCrc = async (file: ZipSource, version: StatedVersion) => (fs.statSync(file.path).mtimeMs === version.mtimeMs ? crcOfFile(file.path) : undefined);

describe('an album ZIP whose CRCs are all known', function () {
  this.timeout(60_000);
  let root: string;
  let dir: string;

  beforeEach(function () {
    root = makeTempDir();
    dir = path.join(root, 'album');
    fs.mkdirSync(dir);
  });

  afterEach(function () {
    fs.rmSync(root, { recursive: true, force: true });
  });

  const cases: [string, Record<string, number>][] = [
    ['ASCII names', { 'IMG_1.jpg': 1000, 'b.png': 70_000 }],
    ['non-ASCII names (2-, 3- and 4-byte UTF-8)', { 'café ☕.jpg': 10, '日本.png': 3, '😀.gif': 1 }],
    ['an empty file', { 'empty.jpg': 0 }],
    ['200 files of assorted sizes', Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`IMG_${i}.jpg`, (i * 7919) % 5000]))],
  ];

  for (const [label, files] of cases) {
    it(`should be exactly the planned size, with each CRC in its local header, for ${label}`, async function () {
      for (const [name, size] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), crypto.randomBytes(size));
      const plan = await planZip(zipSources(dir, Object.keys(files)), { knownCrc });
      expect(plan.crcsKnown).to.equal(true);
      expect(plan.size).to.equal(knownCrcLayout(plan.entries).size);
      const sink = new ZipSink();
      await writeZip(plan, sink);
      expect(sink.received).to.equal(plan.size);
      // Walkable from the start, as a streaming unzip reads it: no data descriptor anywhere.
      expect(localHeaders(sink.body).map((h) => [h.name, h.flags & 0x08, h.crc32])).to.deep.equal(plan.entries.map((e) => [e.name, 0, e.crc32]));
      const entries = await unzip(sink.body);
      for (const [name] of Object.entries(files)) expect(entries.get(name)?.data.equals(fs.readFileSync(path.join(dir, name))), name).to.equal(true);
      await unzipTest(sink.body);
    });
  }

  it('should hold the same files, names, dates and flags as the archive written without CRCs', async function () {
    const names = writeRandomImages(dir, 3, 5000);
    fs.writeFileSync(path.join(dir, 'été.jpg'), 'summer');
    fs.utimesSync(path.join(dir, 'été.jpg'), new Date(2021, 5, 15, 10, 20, 30), new Date(2021, 5, 15, 10, 20, 30));
    const known = new ZipSink();
    const computed = new ZipSink();
    await writeZip(await planZip(zipSources(dir, [...names, 'été.jpg']), { knownCrc }), known);
    const withoutCrcs = await planZip(zipSources(dir, [...names, 'été.jpg']));
    expect(withoutCrcs.crcsKnown).to.equal(false);
    await writeZip(withoutCrcs, computed);
    // 16 bytes of data descriptor per entry the other way.
    expect(computed.received - known.received).to.equal(16 * 4);
    const a = await unzip(known.body);
    const b = await unzip(computed.body);
    expect([...a.keys()]).to.deep.equal([...b.keys()]);
    for (const [name, entry] of a) {
      const other = b.get(name)!;
      expect([entry.data.equals(other.data), entry.mtime.getTime(), entry.utf8Flag, entry.crc32], name).to.deep.equal([
        true,
        other.mtime.getTime(),
        other.utf8Flag,
        other.crc32,
      ]);
    }
  });

  it('should be written the other way when one file of the album has no CRC known', async function () {
    const names = writeRandomImages(dir, 3, 1000);
    const plan = await planZip(zipSources(dir, names), {
      knownCrc: async (file, version) => (file.name === 'IMG_02.jpg' ? undefined : knownCrc(file, version)),
    });
    expect(plan.crcsKnown).to.equal(false);
    const sink = new ZipSink();
    await writeZip(plan, sink);
    expect(sink.received).to.equal(plan.size);
    expect(() => localHeaders(sink.body)).to.throw(/IMG_01\.jpg: a data descriptor follows its data/);
    await unzipTest(sink.body);
  });

  it('should switch to ZIP64 from 65,535 entries on', async function () {
    this.timeout(120_000);
    fs.writeFileSync(path.join(dir, 'empty.jpg'), '');
    const st = fs.statSync(path.join(dir, 'empty.jpg'));
    const entries = Array.from({ length: 65_535 }, (_, i) => ({
      name: `IMG_${i}.jpg`,
      path: path.join(dir, 'empty.jpg'),
      size: 0,
      mtime: st.mtime,
      mtimeMs: st.mtimeMs,
      ino: st.ino,
      crc32: 0,
    }));
    const layout = knownCrcLayout(entries);
    expect(layout.zip64).to.equal(true);
    expect(knownCrcLayout(entries.slice(1)).zip64).to.equal(false);
    const sink = new ZipSink();
    await writeZip({ entries, crcsKnown: true, ...layout }, sink);
    expect(sink.received).to.equal(layout.size);
    const zip = sink.body;
    // ZIP64 end record, then its locator, then the classic end record.
    expect(zip.readUInt32LE(zip.length - 22 - 20 - 56)).to.equal(0x06064b50);
    const zipfile = await yauzl.fromBufferPromise(zip, { lazyEntries: true });
    expect(zipfile.entryCount).to.equal(65_535);
    zipfile.close();
    await unzipTest(zip);
  });

  // Sparse files: 4 GB read from the kernel's zeros, a few seconds of CPU and no disk.
  it('should write ZIP64 sizes and offsets past 4 GB, a file of exactly 0xFFFFFFFF bytes included', async function () {
    this.timeout(180_000);
    fs.writeFileSync(path.join(dir, 'small.jpg'), crypto.randomBytes(1000));
    fs.closeSync(fs.openSync(path.join(dir, 'huge.mov.jpg'), 'w'));
    fs.truncateSync(path.join(dir, 'huge.mov.jpg'), 0xffffffff);
    fs.writeFileSync(path.join(dir, 'after.jpg'), crypto.randomBytes(4096));
    // The huge file holds only zeros: its CRC from a buffer of them rather than 4 GB of reads.
    const zeros = Buffer.alloc(64 * 1024 * 1024);
    let zerosCrc = 0;
    for (let left = 0xffffffff; left > 0; left -= zeros.length) zerosCrc = zlib.crc32(zeros.subarray(0, Math.min(left, zeros.length)), zerosCrc);
    const crcs = async (file: ZipSource, version: StatedVersion) => (file.name === 'huge.mov.jpg' ? zerosCrc : knownCrc(file, version));
    const plan = await planZip(zipSources(dir, ['small.jpg', 'huge.mov.jpg', 'after.jpg']), { knownCrc: crcs });
    expect([plan.crcsKnown, plan.zip64]).to.deep.equal([true, true]);
    const keep = 256 * 1024;
    const sink = new ZipSink(undefined, keep);
    await writeZip(plan, sink);
    expect(sink.received).to.equal(plan.size);
    // The huge file's local header: sizes marked, and both given in its ZIP64 extra field.
    const at = 30 + 'small.jpg'.length + 1000;
    expect(sink.head.readUInt32LE(at)).to.equal(0x04034b50);
    expect([sink.head.readUInt32LE(at + 18), sink.head.readUInt32LE(at + 22), sink.head.readUInt16LE(at + 28)]).to.deep.equal([0xffffffff, 0xffffffff, 20]);
    const extra = at + 30 + 'huge.mov.jpg'.length;
    expect([sink.head.readUInt16LE(extra), Number(sink.head.readBigUInt64LE(extra + 4)), Number(sink.head.readBigUInt64LE(extra + 12))]).to.deep.equal([
      1, 0xffffffff, 0xffffffff,
    ]);
    // yauzl reads only the end of the archive for its directory: served from the kept tail.
    const tail = sink.body;
    const zipfile = await yauzl.fromRandomAccessReaderPromise(new TailReader(tail, sink.received - tail.length), sink.received, { lazyEntries: true });
    const seen: [string, number, number][] = [];
    let after: Buffer | undefined;
    for await (const e of zipfile.eachEntry()) {
      seen.push([e.fileName, e.uncompressedSize, e.crc32]);
      if (e.fileName !== 'after.jpg') continue;
      // Its local header lies past 4 GB: found only through the ZIP64 extra field.
      expect(e.relativeOffsetOfLocalHeader).to.be.above(2 ** 32);
      const chunks: Buffer[] = [];
      for await (const c of await zipfile.openReadStreamPromise(e)) chunks.push(c as Buffer);
      after = Buffer.concat(chunks);
    }
    expect(seen).to.deep.equal(plan.entries.map((e) => [e.name, e.size, e.crc32]));
    expect(after?.equals(fs.readFileSync(path.join(dir, 'after.jpg')))).to.equal(true);
  });

  describe('when a file no longer matches the plan', function () {
    let plan: ZipPlan;

    beforeEach(async function () {
      plan = await planZip(zipSources(dir, writeRandomImages(dir, 2, 16 * 1024 * 1024)), { knownCrc });
      expect(plan.crcsKnown).to.equal(true);
    });

    /** The same bytes written over the first megabyte of a file, in place: its size stays, its mtime moves on. */
    const writeInPlace = (file: string) => {
      const fd = fs.openSync(file, 'r+');
      fs.writeSync(fd, crypto.randomBytes(1024 * 1024), 0, 1024 * 1024, 0);
      fs.closeSync(fd);
      const later = new Date(Date.now() + 5000);
      fs.utimesSync(file, later, later);
    };

    // Each case changes IMG_02 while IMG_01 is being sent, or IMG_01 while it is read.
    const cases: [string, (file: (name: string) => string) => void, RegExp][] = [
      ['it vanished', (f) => fs.rmSync(f('IMG_02.jpg')), /IMG_02\.jpg: cannot be opened any more/],
      ['it grew before it was opened', (f) => fs.appendFileSync(f('IMG_02.jpg'), 'more'), /IMG_02\.jpg: size changed/],
      ['it was written to, at its size, before it was opened', (f) => writeInPlace(f('IMG_02.jpg')), /IMG_02\.jpg: changed since the archive was planned/],
      ['it was written to, at its size, while it was read', (f) => writeInPlace(f('IMG_01.jpg')), /IMG_01\.jpg: changed since the archive was planned/],
      ['it shrank while it was read', (f) => fs.truncateSync(f('IMG_01.jpg'), 5), /IMG_01\.jpg: shrank/],
    ];

    for (const [label, change, message] of cases) {
      it(`should reject and destroy the output when ${label}, its CRC no longer that of its bytes`, async function () {
        await expectRefusedWhenChanged(plan, dir, change, message);
      });
    }

    it('should fail rather than end cleanly when the output does not have the planned length', async function () {
      const sink = new ZipSink();
      const err = await rejection(writeZip({ ...plan, size: plan.size + 1 }, sink));
      expect(err.message).to.match(/does not match the planned/);
      expect(sink.writableFinished).to.equal(false);
      expect(sink.destroyed).to.equal(true);
    });

    it('should stop and close the file when the output is destroyed mid-way', async function () {
      const fdsBefore = openFds();
      const sink: ZipSink = new ZipSink((received) => {
        if (received > 1_000_000) sink.destroy();
      });
      expect(await rejection(writeZip(plan, sink))).to.be.instanceOf(ClientClosedError);
      expect(await eventually(() => openFds() <= fdsBefore), 'the file is closed').to.equal(true);
    });

    it('should give up on an output that takes nothing for the idle timeout', async function () {
      const fdsBefore = openFds();
      // Takes its first chunks, then never calls back: its buffer stays full.
      const stuck = new Writable({ highWaterMark: 64 * 1024, write: () => undefined });
      const err = await rejection(writeZip(plan, stuck, { idleTimeoutMs: 200 }));
      expect(err).to.be.instanceOf(ClientStalledError);
      expect(stuck.destroyed).to.equal(true);
      expect(await eventually(() => openFds() <= fdsBefore), 'the file is closed').to.equal(true);
    });
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
