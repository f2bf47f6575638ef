import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { createMediaPool, type MediaPool } from '../../server/media/pool.js';
import { contentIdOfMeta, MAX_META_BYTES, readQuickTimeContentId, readStillContentId } from '../../workers/content-id.js';
import { readAppleContentId } from '../../workers/exif-reader.js';
import { quietLogger } from '../support/capture-logger.js';
import { appleMakerNote, exifWithMakerNote, jpegWithExif, probeFormatTags, writeLiveMovie, writeLiveStill } from '../support/live-photo-files.js';
import { makeTempDir, removeTempDir } from '../support/temp-dir.js';

const ID = '7d9f1f2c-0a1b-4c2d-8e3f-405162738495';
const UPPER = ID.toUpperCase();
/** The identifier Apple wrote into the real iPhone HEIC of test/fixtures/heic (exiftool agrees). */
const IPHONE_HEIC = path.resolve('test/fixtures/heic/IMG_5195.HEIC');
const IPHONE_HEIC_ID = '570F1469-09C7-4E50-9875-05F21D5BD166';

/** An atom: 32-bit size, type, body. */
function atom(type: string, ...body: Buffer[]): Buffer {
  const content = Buffer.concat(body);
  const header = Buffer.alloc(8);
  header.writeUInt32BE(8 + content.length, 0);
  header.write(type, 4, 'latin1');
  return Buffer.concat([header, content]);
}
const u32 = (...values: number[]) => Buffer.concat(values.map((v) => Buffer.from([v >>> 24, (v >>> 16) & 255, (v >>> 8) & 255, v & 255])));

/** A QuickTime `meta` atom as an iPhone writes it (no version/flags), holding `keys` and their UTF-8 values. */
function appleMeta(entries: [key: string, value: string][]): Buffer {
  const hdlr = atom('hdlr', u32(0, 0), Buffer.from('mdta', 'latin1'), u32(0, 0, 0), Buffer.from([0]));
  const keys = atom('keys', u32(0, entries.length), ...entries.map(([key]) => Buffer.concat([u32(8 + Buffer.byteLength(key)), Buffer.from(`mdta${key}`)])));
  const ilst = atom(
    'ilst',
    ...entries.map(([, value], i) => {
      const item = atom('data', u32(1, 0), Buffer.from(value));
      const header = Buffer.alloc(8);
      header.writeUInt32BE(8 + item.length, 0);
      header.writeUInt32BE(i + 1, 4);
      return Buffer.concat([header, item]);
    }),
  );
  return atom('meta', hdlr, keys, ilst);
}

const ftyp = atom('ftyp', Buffer.from('qt  ', 'latin1'), u32(0x200), Buffer.from('qt  ', 'latin1'));

describe('content identifiers of Live Photos (workers/content-id.ts)', function () {
  let dir: string;
  const file = (name: string, bytes: Buffer) => {
    const p = path.join(dir, name);
    fs.writeFileSync(p, bytes);
    return p;
  };

  before(() => {
    dir = makeTempDir('content-id-');
  });
  after(() => removeTempDir(dir));

  describe('readAppleContentId() (the still: EXIF MakerNote)', function () {
    it("should read tag 0x0011 of Apple's MakerNote, in upper case", function () {
      expect(readAppleContentId(exifWithMakerNote(appleMakerNote(ID)))).to.equal(UPPER);
      expect(readAppleContentId(Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), exifWithMakerNote(appleMakerNote(ID))]))).to.equal(UPPER);
    });

    it('should answer null without the tag, without a MakerNote, or with a MakerNote not Apple\u2019s', function () {
      expect(readAppleContentId(exifWithMakerNote(appleMakerNote(null)))).to.equal(null);
      const canon = Buffer.concat([Buffer.from('Canon\0\0\0\0\0\0\0MM', 'latin1'), appleMakerNote(ID).subarray(14)]);
      expect(readAppleContentId(exifWithMakerNote(canon))).to.equal(null);
      expect(readAppleContentId(Buffer.from('II*\0\x08\0\0\0\0\0', 'latin1'))).to.equal(null);
      expect(readAppleContentId(Buffer.alloc(0))).to.equal(null);
    });

    it('should answer null for a truncated MakerNote, at every length', function () {
      const note = appleMakerNote(ID);
      for (let cut = 0; cut < note.length - 1; cut++) {
        // Cut inside the value: the tag claims bytes past the MakerNote, and is left out.
        expect(readAppleContentId(exifWithMakerNote(note.subarray(0, cut))), `cut at ${cut}`).to.equal(null);
      }
    });

    it('should leave out a value whose offset points outside the MakerNote', function () {
      const note = Buffer.from(appleMakerNote(ID));
      // Entry 2 (the identifier) of the IFD at 14: its value offset at 14 + 2 + 12 + 8.
      for (const offset of [0xfffffff0, note.length, note.length - 3]) {
        note.writeUInt32BE(offset, 14 + 2 + 12 + 8);
        expect(readAppleContentId(exifWithMakerNote(note))).to.equal(null);
      }
    });

    it('should read a bounded number of entries of an IFD claiming 65535, and text that is not an identifier as none', function () {
      const note = Buffer.from(appleMakerNote(ID));
      note.writeUInt16BE(0xffff, 14);
      const started = process.hrtime.bigint();
      expect(readAppleContentId(exifWithMakerNote(note))).to.equal(UPPER);
      expect(Number(process.hrtime.bigint() - started) / 1e6).to.be.below(50);
      expect(readAppleContentId(exifWithMakerNote(appleMakerNote('two words')))).to.equal(null);
      expect(readAppleContentId(exifWithMakerNote(appleMakerNote('x'.repeat(200))))).to.equal(null);
    });
  });

  describe('readStillContentId() (a file)', function () {
    it('should read a JPEG with an Apple MakerNote, and null from one without', async function () {
      expect(await readStillContentId(await writeStill('live.jpg', ID))).to.equal(UPPER);
      expect(await readStillContentId(file('plain.jpg', await jpegWithExif(Buffer.from('II*\0\x08\0\0\0\0\0\0\0\0\0', 'latin1'))))).to.equal(null);
    });

    it("should read a real iPhone HEIC's identifier from the EXIF block of its header", async function () {
      expect(await readStillContentId(IPHONE_HEIC)).to.equal(IPHONE_HEIC_ID);
    });
  });

  describe('readQuickTimeContentId() (the movie: moov metadata)', function () {
    it('should read the key ffmpeg wrote (moov/udta/meta, as ffprobe reads it back)', async function () {
      const mov = path.join(dir, 'IMG_1.MOV');
      await writeLiveMovie(mov, ID);
      expect((await probeFormatTags(mov))['com.apple.quicktime.content.identifier']).to.equal(ID);
      expect(await readQuickTimeContentId(mov)).to.equal(UPPER);
      const plain = path.join(dir, 'plain.mov');
      await writeLiveMovie(plain, null);
      expect(await readQuickTimeContentId(plain)).to.equal(null);
    });

    it('should read an iPhone\u2019s layout: meta directly in moov, without version and flags, among other keys', async function () {
      const meta = appleMeta([
        ['com.apple.quicktime.make', 'Apple'],
        ['com.apple.quicktime.content.identifier', ID],
      ]);
      expect(
        await readQuickTimeContentId(
          file('apple.mov', Buffer.concat([ftyp, atom('moov', atom('mvhd', Buffer.alloc(100)), meta), atom('mdat', Buffer.alloc(64))])),
        ),
      ).to.equal(UPPER);
    });

    it('should stop, quickly and without throwing, at bogus sizes and counts', async function () {
      const good = appleMeta([['com.apple.quicktime.content.identifier', ID]]);
      const hostile: Record<string, Buffer> = {
        // A child of moov claiming 4 GB, one smaller than its header, and 0xFFFFFFFF keys.
        'huge-child.mov': Buffer.concat([ftyp, atom('moov', Buffer.concat([u32(0xffffffff), Buffer.from('meta', 'latin1')]), good)]),
        'tiny-child.mov': Buffer.concat([ftyp, atom('moov', Buffer.concat([u32(4), Buffer.from('meta', 'latin1')]), good)]),
        'many-keys.mov': Buffer.concat([ftyp, atom('moov', withKeyCount(good, 0xffffffff))]),
        // A moov claiming more than the file (a cut-off file): what lies within is still read.
        'cut-moov.mov': Buffer.concat([ftyp, u32(0x7fffffff), Buffer.from('moov', 'latin1'), good]),
        // A meta atom larger than any Apple writes is not read.
        'big-meta.mov': Buffer.concat([ftyp, atom('moov', atom('meta', good.subarray(8), Buffer.alloc(MAX_META_BYTES)))]),
        'not-a-movie.mov': Buffer.from('not a movie at all'),
        'empty.mov': Buffer.alloc(0),
      };
      const started = Date.now();
      for (const [name, bytes] of Object.entries(hostile)) {
        const id = await readQuickTimeContentId(file(name, bytes));
        expect(id, name).to.equal(name === 'many-keys.mov' || name === 'cut-moov.mov' ? UPPER : null);
      }
      expect(Date.now() - started).to.be.below(1000);
    });

    it('should answer null for a metadata atom cut anywhere, never throwing', function () {
      const body = appleMeta([['com.apple.quicktime.content.identifier', ID]]).subarray(8);
      expect(contentIdOfMeta(body)).to.equal(UPPER);
      for (let cut = 0; cut < body.length - 1; cut++) expect(contentIdOfMeta(body.subarray(0, cut)), `cut at ${cut}`).to.equal(null);
    });
  });

  describe('the pool task contentId', function () {
    let pool: MediaPool;
    before(() => {
      pool = createMediaPool({ workers: 1, maxQueue: 8, log: quietLogger });
    });
    after(() => pool.close());

    it('should read a still and a movie in a worker', async function () {
      const still = await writeStill('task.jpg', ID);
      const mov = path.join(dir, 'task.mov');
      await writeLiveMovie(mov, ID);
      expect(await pool.contentId({ src: still, kind: 'image' })).to.deep.equal({ contentId: UPPER });
      expect(await pool.contentId({ src: mov, kind: 'video' })).to.deep.equal({ contentId: UPPER });
      expect(await pool.contentId({ src: IPHONE_HEIC, kind: 'image' })).to.deep.equal({ contentId: IPHONE_HEIC_ID });
    });
  });

  async function writeStill(name: string, id: string | null): Promise<string> {
    const p = path.join(dir, name);
    await writeLiveStill(p, id);
    return p;
  }
});

/** The same meta atom with its `keys` count replaced (the entries stay: the walk ends at the atom's end). */
function withKeyCount(meta: Buffer, count: number): Buffer {
  const copy = Buffer.from(meta);
  const at = copy.indexOf('keys', 0, 'latin1');
  copy.writeUInt32BE(count, at + 4 + 4);
  return copy;
}
