import crypto from 'node:crypto';
import fs from 'node:fs';
import { expect } from 'chai';
import request from 'supertest';
import { formatBytes } from '../../views/assets/byte-size.js';
import { formatBytes as pageRule } from '../../server/public/pages/download-offer.js';
import { formatBytes as adminRule } from '../../views/assets/admin/dom.js';
import { writeVideo } from '../support/media-fixtures.js';
import { accessCookie, GalleryFixture } from '../support/gallery-fixture.js';

/**
 * The album page's download button (server/public/pages/download-offer.ts): it says what the
 * ZIP holds ("Download 2 photos · 3.5 MB"), offers the ZIP with the videos as a second
 * choice, and is left out when there is nothing to download.
 */
describe('the download button', function () {
  this.timeout(60_000);
  const fx = new GalleryFixture();
  let app: ReturnType<typeof request>;

  before(async () => {
    await fx.build({
      '2024/trip': { meta: { title: 'Trip' }, files: ['a.jpg', 'b.jpg'] },
      '2024/live': { meta: { title: 'Live' }, files: ['IMG_1.JPG'] },
      '2024/clips': { meta: { title: 'Clips' } },
      '2024/empty': { meta: { title: 'Empty' } },
      '2024/parent': { meta: { title: 'Parent' } },
      '2024/parent/kid': { meta: { title: 'Kid' }, files: ['k.jpg'] },
      '2024/locked': { meta: { title: 'Locked', password: 'pw', token: 't-locked' }, files: ['s.jpg'] },
    });
    // Real JPEGs padded after their end marker to round sizes: 2.4 MB and 1.1 MB.
    for (const [name, size] of [
      ['a.jpg', 2_400_000],
      ['b.jpg', 1_100_000],
    ] as const) {
      const file = fx.path('2024/trip', name);
      const jpeg = fs.readFileSync(file);
      fs.writeFileSync(file, Buffer.concat([jpeg, crypto.randomBytes(size - jpeg.length)]));
    }
    await writeVideo(fx.path('2024/trip', 'tram.mp4'), { seconds: 1 });
    await writeVideo(fx.path('2024/live', 'IMG_1.MOV'), { seconds: 1 });
    await writeVideo(fx.path('2024/clips', 'one.mp4'), { seconds: 1 });
    await writeVideo(fx.path('2024/clips', 'two.mp4'), { seconds: 1 });
    await fx.start({ env: { WORKERS: '1' } });
    app = request(fx.gallery.handler);
  });
  after(() => fx.close());

  const sizeOf = (albumPath: string, name: string) => fs.statSync(fx.path(albumPath, name)).size;
  const page = async (albumPath: string, cookie = '') => (await app.get(`/photos/${albumPath}`).set('Cookie', cookie).expect(200)).text;
  /** The button group, its links' hrefs and their text with tags dropped. */
  function buttons(html: string): { href: string; text: string }[] {
    const group = /<div class="download"[\s\S]*?<\/div>/.exec(html)?.[0] ?? '';
    return [...group.matchAll(/<a class="([^"]*)" href="([^"]*)">([\s\S]*?)<\/a>/g)].map(([, , href, inner]) => ({
      href: href!.replaceAll('&amp;', '&'),
      text: inner!
        .replace(/<[^>]+>/g, '')
        .replace(/\s+/g, ' ')
        .trim(),
    }));
  }

  describe('formatBytes', () => {
    it('should write sizes in decimal units, one decimal below 10', () => {
      const cases: [number, string][] = [
        [0, '0 bytes'],
        [1, '1 byte'],
        [999, '999 bytes'],
        [1_500, '1.5 kB'],
        [12_345, '12 kB'],
        [999_400, '999 kB'],
        [999_600, '1 MB'],
        [3_500_000, '3.5 MB'],
        [9_960_000, '10 MB'],
        [312_000_000, '312 MB'],
        [1_234_567_890, '1.2 GB'],
        [2_000_000_000, '2 GB'],
        [5_300_000_000_000, '5.3 TB'],
      ];
      for (const [bytes, text] of cases) expect(formatBytes(bytes), String(bytes)).to.equal(text);
    });

    it("should write the number and the unit as the visitor's language does", () => {
      // Intl's spaces: no-break in German, narrow no-break before a French unit.
      expect(formatBytes(1_234_567_890, 'de')).to.equal('1,2\u00a0GB');
      expect(formatBytes(1_234_567_890, 'fr')).to.equal('1,2\u202fGo');
      expect(formatBytes(999, 'fr')).to.equal('999\u00a0octets');
      expect(formatBytes(5, 'pl')).to.equal('5 bajtów');
    });

    it("should be the one rule of the album page and of the admin's scripts", () => {
      // The admin wrote binary units (146.5 KB for these 150,000 bytes) where the site wrote 150 kB.
      expect(pageRule).to.equal(formatBytes);
      expect(adminRule).to.equal(formatBytes);
      expect(adminRule(150_000)).to.equal('150 kB');
    });
  });

  it('should say how many photos the ZIP holds and their size, and offer the videos as a second choice', async () => {
    const [main, more, ...rest] = buttons(await page('2024/trip'));
    expect(rest).to.have.length(0);
    expect(main).to.deep.equal({ href: '/api/download-album?path=2024%2Ftrip', text: 'Download 2 photos · 3.5 MB' });
    const all = 3_500_000 + sizeOf('2024/trip', 'tram.mp4');
    // The second choice is read as a whole by screen readers: "Download 2 photos with 1 video · …".
    expect(more).to.deep.equal({ href: '/api/download-album?path=2024%2Ftrip&videos=1', text: `Download 2 photos With 1 video · ${formatBytes(all)}` });
    expect(all).to.be.above(3_500_000);
  });

  it("should count a Live Photo as one photo, and its movie's bytes in the size", async () => {
    const [main, more] = buttons(await page('2024/live'));
    const bytes = sizeOf('2024/live', 'IMG_1.JPG') + sizeOf('2024/live', 'IMG_1.MOV');
    expect(main).to.deep.equal({ href: '/api/download-album?path=2024%2Flive', text: `Download 1 photo · ${formatBytes(bytes)}` });
    expect(more).to.equal(undefined);
  });

  it('should offer the videos alone where the album has no photo', async () => {
    const buttonsOf = buttons(await page('2024/clips'));
    const bytes = sizeOf('2024/clips', 'one.mp4') + sizeOf('2024/clips', 'two.mp4');
    expect(buttonsOf).to.deep.equal([{ href: '/api/download-album?path=2024%2Fclips&videos=1', text: `Download 2 videos · ${formatBytes(bytes)}` }]);
  });

  it('should show no button when there is nothing to download', async () => {
    for (const albumPath of ['2024/empty', '2024/parent']) {
      const html = await page(albumPath);
      expect(html, albumPath).to.not.include('button--download').and.not.include('/api/download-album');
    }
  });

  it('should show no button on a locked album, and the button once it is unlocked', async () => {
    expect(await page('2024/locked')).to.not.include('/api/download-album');
    const [main] = buttons(await page('2024/locked', accessCookie(['t-locked'])));
    expect(main).to.deep.equal({ href: '/api/download-album?path=2024%2Flocked', text: `Download 1 photo · ${formatBytes(sizeOf('2024/locked', 's.jpg'))}` });
  });

  it('should count the same files as the ZIP holds', async () => {
    const zip = await app.head('/api/download-album?path=2024%2Ftrip').expect(200);
    // The ZIP adds its headers (about 100 bytes a file) to the 3.5 MB of photos the button names.
    expect(Number(zip.headers['content-length']) - 3_500_000).to.be.within(1, 400);
    const withVideos = await app.head('/api/download-album?path=2024%2Ftrip&videos=1').expect(200);
    expect(Number(withVideos.headers['content-length']) - 3_500_000 - sizeOf('2024/trip', 'tram.mp4')).to.be.within(1, 600);
  });
});
