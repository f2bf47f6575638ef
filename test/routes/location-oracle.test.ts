import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import { eventually, GalleryFixture } from '../support/gallery-fixture.js';
import { exiftool, missingTools, placesInBytes, placesReported } from '../support/corpus-place.js';
import { decodedDigest, fetchInPieces, keep, rawBody, unzip } from '../support/corpus-served.js';
import { buildCorpus, CORPUS, type CorpusItem } from '../support/location-corpus.js';
import { makeTempDir, removeTempDir } from '../support/temp-dir.js';

const ALBUM = 'trips/lisbon';

/** One file as a visitor got it, and what it must stay equal to. */
interface Served {
  readonly item: CorpusItem;
  /** How it was got: original, ranges, zip, web-copy, full-size. */
  readonly way: string;
  readonly file: string;
  /** The file on disk it is served from (the original, or the web copy in the cache); absent for a full-size JPEG. */
  readonly source?: string;
}

/**
 * The oracle of docs/api.md#location-privacy: a corpus made by the tools families use
 * (test/support/location-corpus.ts), served from an album that hides locations through the
 * real app, read by ExifTool, an independent reader, and searched byte by byte for the place
 * names it was given. Every way a visitor gets the bytes: originals, Range pieces put back
 * together, the web copies of videos, the full-size JPEGs of photos browsers cannot show,
 * the ZIP's entries. Needs ExifTool and ImageMagick (Debian: libimage-exiftool-perl,
 * imagemagick); skipped with a message without them.
 */
describe('location privacy against ExifTool (the corpus of issue #25)', function () {
  this.timeout(300_000);
  const fx = new GalleryFixture();
  let scratch: string;
  let app: ReturnType<typeof request>;
  const served: Served[] = [];
  let reports: Map<string, Record<string, unknown>>;

  before(async function () {
    const missing = missingTools();
    if (missing.length > 0) {
      console.log(`    (skipped: needs ExifTool and ImageMagick; Debian: apt-get install ${missing.join(' ')})`);
      this.skip();
    }
    await fx.build({ [ALBUM]: { meta: { title: 'Lisbon', hideLocation: true } } });
    await buildCorpus(fx.path(ALBUM));
    await fx.start();
    app = request(fx.gallery.handler);
    scratch = makeTempDir('location-oracle-');
    const get = (url: string) => app.get(url).buffer(true).parse(rawBody);

    for (const item of CORPUS) {
      const url = `/albums/${ALBUM}/${item.name}`;
      const onDisk = fx.path(ALBUM, item.name);
      const whole = (await get(url).expect(200)).body as Buffer;
      served.push({ item, way: 'original', file: keep(path.join(scratch, 'original'), item.name, whole), source: onDisk });
      const pieces = await fetchInPieces(app, url, fs.statSync(onDisk).size);
      expect(pieces.equals(whole), `${item.name}: Range pieces are slices of the whole`).to.equal(true);
      served.push({ item, way: 'ranges', file: keep(path.join(scratch, 'ranges'), item.name, pieces), source: onDisk });
    }

    const zip = (await get(`/api/download-album?path=${encodeURIComponent(ALBUM)}&videos=1`).expect(200)).body as Buffer;
    for (const [name, bytes] of await unzip(zip)) {
      const item = CORPUS.find((c) => c.name === name);
      if (!item) throw new Error(`unexpected ZIP entry ${name}`);
      served.push({ item, way: 'zip', file: keep(path.join(scratch, 'zip'), name, bytes), source: fx.path(ALBUM, name) });
    }
    expect(served.filter((s) => s.way === 'zip')).to.have.length(CORPUS.length);

    for (const item of CORPUS.filter((c) => c.decoder === 'ffmpeg')) {
      const url = `/api/web-video?path=${encodeURIComponent(`${ALBUM}/${item.name}`)}`;
      let status = 0;
      await eventually(
        async () => {
          status = (await app.get(url)).status;
          return status === 200 || status === 404;
        },
        120_000,
        `the web copy of ${item.name}`,
      );
      if (status === 404) continue; // plays as it is: the original above is what browsers get
      const copy = `${path.join(fx.cacheDir, 'web-video', ...ALBUM.split('/'), item.name)}.mp4`;
      const bytes = (await get(url).expect(200)).body as Buffer;
      served.push({ item, way: 'web-copy', file: keep(path.join(scratch, 'web-copy'), `${item.name}.mp4`, bytes), source: copy });
    }
    expect(served.filter((s) => s.way === 'web-copy').length, 'videos with a web copy').to.be.above(5);

    for (const item of CORPUS.filter((c) => /\.(heic|tif)$/.test(c.name))) {
      const bytes = (await get(`/api/full-size?path=${encodeURIComponent(`${ALBUM}/${item.name}`)}`).expect(200)).body as Buffer;
      served.push({ item, way: 'full-size', file: keep(path.join(scratch, 'full-size'), `${item.name}.jpg`, bytes) });
    }

    reports = await exiftool([...CORPUS.map((c) => fx.path(ALBUM, c.name)), ...served.map((s) => s.file)]);
  });

  after(async () => {
    await fx.close();
    if (scratch) removeTempDir(scratch);
  });

  const placesIn = (file: string) => [...placesReported(reports.get(file) ?? {}), ...placesInBytes(fs.readFileSync(file)).map((p) => `bytes: ${p}`)];

  it('should start from a corpus in which ExifTool, or the bytes, show the place of every file', () => {
    const without = CORPUS.filter((c) => placesIn(fx.path(ALBUM, c.name)).length === 0).map((c) => c.name);
    expect(without).to.deep.equal([]);
    expect(CORPUS.length).to.be.at.least(20);
  });

  it('should serve no GPS tag, coordinate or place name in any of them, whichever way they are got', () => {
    const leaks = served.map((s) => ({ at: `${s.way}/${path.basename(s.file)}`, places: placesIn(s.file) })).filter((l) => l.places.length > 0);
    const originals = served.filter((s) => s.way === 'original');
    const byExifTool = originals.filter((s) => placesReported(reports.get(s.file) ?? {}).length > 0).length;
    const byEither = originals.filter((s) => placesIn(s.file).length > 0).length;
    console.log(`      served originals in which ExifTool finds a place: ${byExifTool} of ${originals.length} (ExifTool or the bytes: ${byEither})`);
    expect(leaks, leaks.map((l) => `${l.at}: ${l.places.join('; ')}`).join('\n')).to.deep.equal([]);
  });

  it('should keep every file’s length', () => {
    for (const s of served.filter((x) => x.source)) expect(fs.statSync(s.file).size, `${s.way}/${s.item.name}`).to.equal(fs.statSync(s.source!).size);
  });

  it('should keep the pixels and frames exactly as they decode from the file on disk', async () => {
    for (const s of served.filter((x) => x.source)) {
      const decoder = s.way === 'web-copy' ? 'ffmpeg' : s.item.decoder;
      expect(await decodedDigest(s.file, decoder), `${s.way}/${s.item.name}`).to.equal(await decodedDigest(s.source!, decoder));
    }
  });

  it('should leave what a family wants to see: the camera, and the date taken', () => {
    const camera = reports.get(served.find((s) => s.way === 'original' && s.item.name === 'sharp.jpg')!.file)!;
    expect(camera['IFD0:Make']).to.equal('Canon');
    expect(camera['IFD0:Model']).to.equal('EOS R5');
    expect(camera['ExifIFD:DateTimeOriginal']).to.equal('2025:06:01 09:30:00');
    expect(camera['ExifIFD:LensModel']).to.equal('RF24-105mm F4 L IS USM');
    const phone = reports.get(served.find((s) => s.way === 'original' && s.item.name === 'iphone.heic')!.file)!;
    expect(phone['IFD0:Make']).to.equal('Apple');
    const movie = reports.get(served.find((s) => s.way === 'original' && s.item.name === 'iphone-keys.mov')!.file)!;
    expect(movie['Keys:Model']).to.equal('iPhone 15');
  });
});
