import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import * as movies from '../support/corpus-movies.js';
import { decodedDigest } from '../support/corpus-served.js';
import { box, boxesIn, child, fullBox, u32 } from '../support/iso-boxes.js';
import { changedOffsets, served, zeroedWhole } from '../support/format-walks.js';
import { probeFormatTags } from '../support/live-photo-files.js';
import { type LocatedMovie, movieLocationTags, writeLocatedMovie } from '../support/located-media.js';
import { makeTempDir, removeTempDir } from '../support/temp-dir.js';

const has = (b: Buffer, s: string) => b.includes(Buffer.from(s, 'latin1'));

describe('location patches of movies (the moov tree, metadata tracks, WebM elements)', function () {
  this.timeout(60_000);
  let dir: string;
  before(() => {
    dir = makeTempDir('location-movies-');
  });
  after(() => removeTempDir(dir));

  /** `make` writes a movie; the movie and what it is served as, both as files. */
  async function movieAndServed(name: string, make: (file: string) => Promise<void>) {
    const file = path.join(dir, name);
    await make(file);
    const original = fs.readFileSync(file);
    const { out } = await served(original);
    expect(out.length).to.equal(original.length);
    const servedFile = path.join(dir, `served-${name}`);
    fs.writeFileSync(servedFile, out);
    return { file, original, out, servedFile };
  }

  const kinds: Record<LocatedMovie, string> = {
    mov: 'a MOV with udta/©xyz (ffmpeg -metadata location=)',
    mp4: 'an MP4 with udta/loci (ffmpeg -metadata location=)',
    'apple-keys': "a MOV with Apple's ISO 6709 key in udta/meta, and loci",
    iphone: "a MOV with Apple's ISO 6709 key in moov/meta, as iPhones write it",
  };
  for (const [kind, what] of Object.entries(kinds) as [LocatedMovie, string][]) {
    it(`should leave no position in ${what}, and change nothing of the frames`, async () => {
      const m = await movieAndServed(`${kind}.mov`, (f) => writeLocatedMovie(f, kind));
      expect(Object.keys(await movieLocationTags(m.file)), 'fixture has a location').to.not.be.empty;
      expect(await movieLocationTags(m.servedFile)).to.deep.equal({});
      expect(m.out.includes('+48.8577', 0, 'latin1')).to.equal(false);
      const mdat = child(m.original, { type: '', at: 0, bodyAt: 0, end: m.original.length }, 'mdat');
      expect(changedOffsets(m.original, m.out).every((i) => i >= mdat.end || i < mdat.at)).to.equal(true);
    });
  }

  it('should keep the make, model and Live Photo identifier of Apple’s keys, and blank every other', async () => {
    const m = await movieAndServed('keys.mov', movies.movIphoneKeys);
    const tags = await probeFormatTags(m.servedFile);
    expect(tags['com.apple.quicktime.make']).to.equal('Apple');
    expect(tags['com.apple.quicktime.model']).to.equal('iPhone 15');
    expect(tags['com.apple.quicktime.content.identifier']).to.equal('6F2A1C44-3B1D-4C51-9C2E-1D2F3A4B5C6D');
    expect(Object.keys(tags).filter((k) => /location/.test(k))).to.deep.equal([]);
    expect(has(m.out, 'Jeronimos')).to.equal(false);
  });

  it('should walk 300 keys and 300 children of moov (the old walk read 256)', async () => {
    for (const [name, make] of [
      ['many-keys.mp4', movies.mp4ManyKeys],
      ['many-children.mov', movies.movManyMoovChildren],
    ] as const) {
      const m = await movieAndServed(name, make);
      expect(Object.keys(await movieLocationTags(m.file)), `${name} has a location`).to.not.be.empty;
      expect(await movieLocationTags(m.servedFile), name).to.deep.equal({});
    }
  });

  it('should blank a ©xyz in a track’s user data, and a top-level uuid box (ExifTool’s XMP)', async () => {
    const m = await movieAndServed('track.mov', async (file) => {
      await movies.mp4TrackUserData(file);
      fs.appendFileSync(file, box('uuid', Buffer.from('be7acfcb97a942e89c71999491e3afac', 'hex'), Buffer.from('<x:xmpmeta>Lisbon</x:xmpmeta>')));
    });
    expect(has(m.out, '+38.7104') || has(m.out, 'Lisbon')).to.equal(false);
    const [before, after] = [boxesIn(m.original), boxesIn(m.out)];
    expect(after.map((b) => [b.at, b.end])).to.deep.equal(before.map((b) => [b.at, b.end]));
    expect(after.at(-1)!.type).to.equal('free');
  });

  it('should zero the samples of a GoPro’s GPS track and of a drone’s subtitles, and keep every frame', async () => {
    for (const [name, make, trace] of [
      ['gopro.mp4', movies.mp4GoproGps, 'GPS5'],
      ['subtitles.mp4', movies.mp4SubtitleTrack, 'Lisbon'],
    ] as const) {
      const m = await movieAndServed(name, make);
      expect(has(m.original, trace), `${name} has its trace`).to.equal(true);
      expect(has(m.out, trace), name).to.equal(false);
      expect(await decodedDigest(m.servedFile, 'ffmpeg'), name).to.equal(await decodedDigest(m.file, 'ffmpeg'));
    }
  });

  it('should keep a timecode track', async () => {
    const m = await movieAndServed('timecode.mov', (file) => movies.clip(file, 'mov', ['-timecode', '01:02:03:04']));
    const tmcd = m.original.indexOf('tmcd', 0, 'latin1');
    expect(tmcd).to.be.above(0);
    expect(m.out.equals(m.original)).to.equal(true);
  });

  it('should walk the fragments of a fragmented movie, keep every frame, and blank what they carry besides', async () => {
    const m = await movieAndServed('fragmented.mp4', async (file) => {
      await movies.clip(file, 'mp4', ['-movflags', 'frag_keyframe+empty_moov', '-metadata', 'location=+38.7104-009.1399/']);
      const movie = fs.readFileSync(file);
      const moof = boxesIn(movie).find((b) => b.type === 'moof')!;
      const note = box('uuid', Buffer.alloc(16), Buffer.from('Lisbon', 'latin1'));
      // The fragment grows, and its media data moves by as much: the run's data offset (from the fragment's start) follows.
      const body = Buffer.from(movie.subarray(moof.bodyAt, moof.end));
      for (let trun = body.indexOf('trun', 0, 'latin1') - 4; trun >= 0; trun = body.indexOf('trun', trun + 8, 'latin1') - 4) {
        expect(body.readUInt32BE(trun + 8) & 1, 'the run has a data offset').to.equal(1);
        body.writeInt32BE(body.readInt32BE(trun + 16) + note.length, trun + 16);
      }
      fs.writeFileSync(file, Buffer.concat([movie.subarray(0, moof.at), box('moof', body, note), movie.subarray(moof.end)]));
    });
    expect(boxesIn(m.original).filter((b) => b.type === 'moof').length).to.be.above(0);
    expect(has(m.out, 'Lisbon') || has(m.out, '+38.7104')).to.equal(false);
    expect(await decodedDigest(m.servedFile, 'ffmpeg')).to.equal(await decodedDigest(m.file, 'ffmpeg'));
  });

  describe('movies that cannot be walked', () => {
    it('should zero the whole file of a compressed index (cmov)', async () => {
      const m = await movieAndServed('cmov.mov', async (file) => {
        await writeLocatedMovie(file, 'mov');
        const movie = fs.readFileSync(file);
        const moov = boxesIn(movie).at(-1)!;
        movie.write('cmov', child(movie, moov, 'mvhd').at + 4, 'latin1');
        fs.writeFileSync(file, movie);
      });
      expect(zeroedWhole(m.out)).to.equal(true);
    });

    it('should zero the whole file of a metadata track whose tables disagree, or that lies in fragments', async () => {
      for (const damage of ['tables', 'fragments'] as const) {
        const m = await movieAndServed(`gopro-${damage}.mp4`, async (file) => {
          await movies.mp4GoproGps(file);
          const movie = fs.readFileSync(file);
          if (damage === 'tables') {
            // stsc: more samples per chunk than the sizes table lists.
            const stsc = movie.lastIndexOf('stsc', movie.length, 'latin1');
            movie.writeUInt32BE(50, stsc + 16);
            fs.writeFileSync(file, movie);
          } else fs.writeFileSync(file, Buffer.concat([movie, box('moof', fullBox('mfhd', 0, 0, u32(1)))]));
        });
        expect(zeroedWhole(m.out), damage).to.equal(true);
      }
    });

    it('should zero a movie index cut short, from its body to the end', async () => {
      const file = path.join(dir, 'cut.mov');
      await writeLocatedMovie(file, 'mov');
      const whole = fs.readFileSync(file);
      const moov = boxesIn(whole).at(-1)!;
      const cut = whole.subarray(0, moov.end - 20);
      const { out } = await served(cut);
      expect(out.subarray(moov.bodyAt).every((b) => b === 0)).to.equal(true);
      expect(out.subarray(0, moov.bodyAt).equals(cut.subarray(0, moov.bodyAt))).to.equal(true);
    });
  });

  describe('WebM', () => {
    it('should turn its tags into Void elements, keep every frame, and walk clusters of unknown size', async () => {
      for (const unknownSizes of [false, true]) {
        const m = await movieAndServed(`clip-${unknownSizes}.webm`, async (file) => {
          await movies.webmFfmpegLocation(file);
          if (!unknownSizes) return;
          // Clusters of unknown size, as browsers' MediaRecorder writes them: the 8-byte size becomes all ones.
          const movie = fs.readFileSync(file);
          expect(movie.indexOf(Buffer.from('1f43b67501', 'hex')), 'clusters with 8-byte sizes').to.be.above(0);
          for (let at = movie.indexOf(Buffer.from('1f43b67501', 'hex')); at >= 0; at = movie.indexOf(Buffer.from('1f43b67501', 'hex'), at + 4)) {
            Buffer.from('01ffffffffffffff', 'hex').copy(movie, at + 4);
          }
          fs.writeFileSync(file, movie);
        });
        expect(Object.keys(await probeFormatTags(m.file)).length, 'fixture has tags').to.be.above(1);
        // What is left: the writing application, from the segment's info.
        expect(Object.keys(await probeFormatTags(m.servedFile)), `unknown sizes: ${unknownSizes}`).to.deep.equal(['encoder']);
        expect(has(m.out, 'Jeronimos') || has(m.out, '+38.7104')).to.equal(false);
        expect(await decodedDigest(m.servedFile, 'ffmpeg')).to.equal(await decodedDigest(m.file, 'ffmpeg'));
      }
    });
  });
});
