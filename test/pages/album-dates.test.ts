import fs from 'node:fs';
import { expect } from 'chai';
import request from 'supertest';
import { wallClockOf } from '../../server/core/media/taken-date.js';
import { MEDIA_PER_PAGE } from '../../server/public/pages/media-items.js';
import { eventually, GalleryFixture } from '../support/gallery-fixture.js';
import { writeDatedJpeg, writeJpeg, writeVideo } from '../support/media-fixtures.js';
import { unzip } from '../zip/support.js';

/**
 * Dates taken on album pages and in the album-media API (docs/api.md#dates): `sort: "date"`,
 * `data-taken`, the tiles' alt text and the header's span, over a real gallery (pool,
 * dimensions pass and all) and real files: JPEGs with EXIF DateTimeOriginal, one without
 * (dated by its mtime), an MP4 with a container creation time, a Live Photo.
 */

/** A local wall-clock time as a Date, for fs.utimes. */
const local = (month: number, day: number, hour = 12, minute = 0) => new Date(2024, month - 1, day, hour, minute);

const FAMILY = '2024/family';
const VIDEO_CREATED = '2024-06-06T10:00:00Z';
/** name → EXIF DateTimeOriginal (undefined: none), and mtime. Name order and date order disagree. */
const FAMILY_FILES: ReadonlyArray<readonly [string, string | undefined, Date]> = [
  ['DSC_0001.jpg', '2024:06:09 18:30:00', local(6, 1)],
  ['DSC_0002.jpg', '2024:06:07 10:00:00', local(6, 20)],
  // Same date and same mtime as DSC_0002: the natural name order decides.
  ['DSC_0010.jpg', '2024:06:07 10:00:00', local(6, 20)],
  ['IMG_0001.jpg', '2024:06:04 08:00:00', local(6, 30)],
  ['IMG_0002.jpg', '2024:06:05 09:00:00', local(6, 2)],
  // A Live Photo (with IMG_0003.mov below).
  ['IMG_0003.jpg', '2024:06:08 12:00:00', local(6, 8)],
  // Same date as DSC_0002, older file: the file time decides, before the name.
  ['IMG_0004.jpg', '2024:06:07 10:00:00', local(6, 10)],
  ['PXL_20240603_140300.jpg', '2024:06:03 14:03:00', local(6, 25)],
  // No EXIF: dated by its mtime.
  ['scan.jpg', undefined, local(6, 4, 12, 0)],
];

const FAMILY_ORDER = [
  'PXL_20240603_140300.jpg',
  'IMG_0001.jpg',
  'scan.jpg',
  'IMG_0002.jpg',
  'clip.mp4',
  'IMG_0004.jpg',
  'DSC_0002.jpg',
  'DSC_0010.jpg',
  'IMG_0003.jpg',
  'DSC_0001.jpg',
];

interface Tile {
  readonly name: string;
  readonly index: number;
  readonly taken: string | undefined;
  readonly alt: string;
}

/** The tiles of an album page, in page order, as the template writes them. */
function tilesOf(html: string): Tile[] {
  return [...html.matchAll(/<a class="media__link"([^>]*)>[\s\S]*?<img [^>]*alt="([^"]*)"/g)].map(([, attrs, alt]) => {
    const attr = (name: string) => new RegExp(` ${name}="([^"]*)"`).exec(attrs!)?.[1];
    return { name: attr('data-name')!, index: Number(attr('data-index')), taken: attr('data-taken'), alt: alt! };
  });
}

const headerDates = (html: string) => /<p class="album-meta album-dates">([^<]*)<\/p>/.exec(html)?.[1];

describe('dates taken on album pages', function () {
  this.timeout(60_000);
  const fx = new GalleryFixture();
  let app: ReturnType<typeof request>;

  before(async function () {
    this.timeout(120_000);
    await fx.build({
      [FAMILY]: { meta: { title: 'Family week', sort: 'date' } },
      '2024/names': { meta: { title: 'New year' } },
      '2019/old': { meta: { title: 'Old' } },
      '2024/day': { meta: { title: 'One day' } },
      '2024/unreadable': { meta: { title: 'Unreadable' } },
      '2024/many': { meta: { title: 'Many', sort: 'date' } },
    });
    for (const [name, exif, mtime] of FAMILY_FILES) {
      const file = fx.path(FAMILY, name);
      if (exif) await writeDatedJpeg(file, exif);
      else await writeJpeg(file, 64, 48);
      fs.utimesSync(file, mtime, mtime);
    }
    await writeVideo(fx.path(FAMILY, 'clip.mp4'), { seconds: 2, creationTime: VIDEO_CREATED });
    await writeVideo(fx.path(FAMILY, 'IMG_0003.mov'), { seconds: 1 });

    // Name order kept (the default) although the dates say otherwise.
    await writeDatedJpeg(fx.path('2024/names/IMG_2.jpg'), '2025:01:02 09:00:00');
    await writeDatedJpeg(fx.path('2024/names/IMG_10.jpg'), '2024:12:28 20:00:00');

    // A photo with a date and a copy without one, whose mtime is today.
    await writeDatedJpeg(fx.path('2019/old/a.jpg'), '2019:08:01 10:00:00');
    await writeJpeg(fx.path('2019/old/copy.jpg'), 64, 48);

    await writeDatedJpeg(fx.path('2024/day/a.jpg'), '2024:06:03 08:00:00');
    await writeDatedJpeg(fx.path('2024/day/b.jpg'), '2024:06:03 21:00:00');

    fs.writeFileSync(fx.path('2024/unreadable/x.jpg'), 'not a photo at all');

    // One page and one more, dated by mtimes that run against the names: IMG_1 is the newest.
    const seed = fx.path('2024/many/IMG_1.jpg');
    await writeJpeg(seed, 32, 24);
    for (let i = 1; i <= MEDIA_PER_PAGE + 1; i++) {
      const file = fx.path(`2024/many/IMG_${i}.jpg`);
      if (i > 1) fs.copyFileSync(seed, file);
      const mtime = new Date(2024, 0, 1, 0, MEDIA_PER_PAGE + 1 - i);
      fs.utimesSync(file, mtime, mtime);
    }

    await fx.start({ env: { WORKERS: '2' } });
    app = request(fx.gallery.handler);
    // The dimensions pass reads dates in the background: wait until every album has them all.
    for (const albumPath of [FAMILY, '2024/names', '2019/old', '2024/day', '2024/many']) {
      await eventually(
        async () => {
          const pages = (await app.get(`/api/album-media?path=${albumPath}`).expect(200)).body.pages as number;
          for (let page = 1; page <= pages; page++) {
            const res = await app.get(`/api/album-media?path=${albumPath}&page=${page}`).expect(200);
            if (res.body.items.some((i: { taken: string | null }) => i.taken === null)) return false;
          }
          const html = (await app.get(`/photos/${albumPath}`).expect(200)).text;
          return headerDates(html) !== undefined;
        },
        30_000,
        `the dates of ${albumPath}`,
      );
    }
  });
  after(() => fx.close());

  describe('an album with "sort": "date"', () => {
    it('should list its media by date taken, then file time, then name, on the page and in the API alike', async () => {
      const page = tilesOf((await app.get(`/photos/${FAMILY}`).expect(200)).text);
      expect(page.map((t) => t.name)).to.deep.equal(FAMILY_ORDER);
      expect(page.map((t) => t.index)).to.deep.equal(FAMILY_ORDER.map((_, i) => i));
      const api = await app.get(`/api/album-media?path=${FAMILY}`).expect(200);
      expect(api.body.items.map((i: { name: string }) => i.name)).to.deep.equal(FAMILY_ORDER);
    });

    it('should give every tile its date taken, the same in the page and in the API', async () => {
      const page = tilesOf((await app.get(`/photos/${FAMILY}`).expect(200)).text);
      const api = (await app.get(`/api/album-media?path=${FAMILY}`).expect(200)).body.items as { name: string; taken: string }[];
      const taken = Object.fromEntries(page.map((t) => [t.name, t.taken]));
      expect(taken).to.deep.equal(Object.fromEntries(api.map((i) => [i.name, i.taken])));
      expect(taken).to.include({
        'PXL_20240603_140300.jpg': '2024-06-03T14:03:00',
        'DSC_0001.jpg': '2024-06-09T18:30:00',
        'IMG_0003.jpg': '2024-06-08T12:00:00',
        // No EXIF: its mtime, as a wall clock.
        'scan.jpg': '2024-06-04T12:00:00',
        // The container's creation time (UTC), in the server's zone.
        'clip.mp4': wallClockOf(Date.parse(VIDEO_CREATED)),
      });
    });

    it('should describe each tile by what it is and when, never by its file name', async () => {
      const page = tilesOf((await app.get(`/photos/${FAMILY}`).expect(200)).text);
      const alt = Object.fromEntries(page.map((t) => [t.name, t.alt]));
      expect(alt).to.include({
        'PXL_20240603_140300.jpg': 'Photo taken 3 June 2024 at 14:03',
        'DSC_0001.jpg': 'Photo taken 9 June 2024 at 18:30',
        'IMG_0003.jpg': 'Live Photo taken 8 June 2024 at 12:00',
        'scan.jpg': 'Photo taken 4 June 2024 at 12:00',
      });
      expect(alt['clip.mp4']).to.match(/^Video, 0:02, taken \d{1,2} June 2024 at \d\d:\d\d$/);
      for (const { name, alt: text } of page) expect(text).not.to.include(name.replace(/\.\w+$/, ''));
    });

    it("should keep a Live Photo's movie with its still, not listed on its own", async () => {
      const api = (await app.get(`/api/album-media?path=${FAMILY}`).expect(200)).body;
      expect(api.total).to.equal(FAMILY_ORDER.length);
      const live = api.items.find((i: { name: string }) => i.name === 'IMG_0003.jpg');
      expect(live.motion.path).to.equal(`${FAMILY}/IMG_0003.mov`);
    });

    it('should find the page and index of a deep-linked file in that order', async () => {
      const res = await app.get(`/api/album-media?path=${FAMILY}&name=DSC_0001.jpg`).expect(200);
      expect(res.body.items.find((i: { name: string }) => i.name === 'DSC_0001.jpg').index).to.equal(FAMILY_ORDER.indexOf('DSC_0001.jpg'));
    });

    it('should show the span of its dates in the header', async () => {
      expect(headerDates((await app.get(`/photos/${FAMILY}`).expect(200)).text)).to.equal('3\u2009–\u20099 June 2024');
    });

    it("should put the ZIP's photos in the album's order, each Live Photo's movie after its still", async () => {
      const res = await app
        .get(`/api/download-album?path=${FAMILY}`)
        .buffer(true)
        .parse((stream, done) => {
          const parts: Buffer[] = [];
          stream.on('data', (part: Buffer) => parts.push(part)).on('end', () => done(null, Buffer.concat(parts)));
        })
        .expect(200);
      const names = [...(await unzip(res.body as Buffer)).keys()];
      const photos = FAMILY_ORDER.filter((n) => n !== 'clip.mp4');
      expect(names).to.deep.equal(photos.flatMap((n) => (n === 'IMG_0003.jpg' ? [n, 'IMG_0003.mov'] : [n])));
    });

    it('should page by date: the newest file of the album comes last, on page 2, in the page and in the API', async () => {
      const first = tilesOf((await app.get('/photos/2024/many').expect(200)).text);
      expect(first).to.have.length(MEDIA_PER_PAGE);
      expect(first[0]?.name).to.equal(`IMG_${MEDIA_PER_PAGE + 1}.jpg`);
      expect(first.at(-1)?.name).to.equal('IMG_2.jpg');
      const second = tilesOf((await app.get('/photos/2024/many?page=2').expect(200)).text);
      expect(second.map((t) => [t.name, t.index])).to.deep.equal([['IMG_1.jpg', MEDIA_PER_PAGE]]);
      const found = await app.get('/api/album-media?path=2024/many&name=IMG_1.jpg').expect(200);
      expect(found.body).to.include({ page: 2, total: MEDIA_PER_PAGE + 1 });
      expect(found.body.items.map((i: { name: string; index: number }) => [i.name, i.index])).to.deep.equal([['IMG_1.jpg', MEDIA_PER_PAGE]]);
    });
  });

  describe('an album in name order (the default)', () => {
    it('should keep the natural file-name order whatever the dates say', async () => {
      const page = tilesOf((await app.get('/photos/2024/names').expect(200)).text);
      expect(page.map((t) => [t.name, t.taken])).to.deep.equal([
        ['IMG_2.jpg', '2025-01-02T09:00:00'],
        ['IMG_10.jpg', '2024-12-28T20:00:00'],
      ]);
    });

    it('should show a span across two years with short months', async () => {
      expect(headerDates((await app.get('/photos/2024/names').expect(200)).text)).to.equal('28 Dec 2024\u2009–\u20092 Jan 2025');
    });

    it('should show a single day as one date', async () => {
      expect(headerDates((await app.get('/photos/2024/day').expect(200)).text)).to.equal('3 June 2024');
    });

    it("should not let a file's own time stretch the span of dates the photos carry", async () => {
      const html = (await app.get('/photos/2019/old').expect(200)).text;
      expect(headerDates(html)).to.equal('1 August 2019');
      // The copy is still dated, by its mtime.
      const copy = tilesOf(html).find((t) => t.name === 'copy.jpg');
      expect(copy?.taken).to.equal(wallClockOf(fs.statSync(fx.path('2019/old/copy.jpg')).mtimeMs));
    });
  });

  describe('an album without any known date', () => {
    it('should leave the span and data-taken out, and say where each tile is', async () => {
      await eventually(async () => (await app.get('/api/album-media?path=2024/unreadable').expect(200)).body.items.length === 1, 10_000);
      // Its one file cannot be read: once the pass has tried, the page is final.
      let html = '';
      await eventually(
        async () => {
          html = (await app.get('/photos/2024/unreadable').expect(200)).text;
          return html.includes('alt="Photo 1 of 1"');
        },
        10_000,
        'the unreadable tile',
      );
      expect(headerDates(html)).to.equal(undefined);
      expect(html).not.to.include('data-taken=');
      const api = await app.get('/api/album-media?path=2024/unreadable').expect(200);
      expect(api.body.items[0]).to.include({ taken: null, alt: 'Photo 1 of 1' });
    });
  });
});
