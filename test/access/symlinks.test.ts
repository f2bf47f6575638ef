import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import { writeVideo } from '../support/media-fixtures.js';
import { accessCookie, GalleryFixture, writeJpeg } from '../support/gallery-fixture.js';
import { makeTempDir, removeTempDir, writeAlbum } from '../support/temp-dir.js';
import { unzip } from '../zip/support.js';

/**
 * Albums assembled with symlinks (a "best of" album). A link is followed only when its real
 * target is a regular media file of an album in the index, outside every dot-path, and the
 * visitor may open the target's own album; everything else reads as a file that is not there.
 */
describe('symlinks inside ALBUMS_DIR', function () {
  this.timeout(60_000);
  const fx = new GalleryFixture();
  let outside: string;
  let app: ReturnType<typeof request>;
  const WEDDING = accessCookie(['t-wedding']);
  const PUBLIC = '2024/public';

  /** Link in the public album → target relative to ALBUMS_DIR (or absolute). */
  function link(name: string, target: string): void {
    const abs = path.isAbsolute(target) ? target : fx.path(target);
    fs.symlinkSync(path.relative(fx.path(PUBLIC), abs), fx.path(PUBLIC, name));
  }

  before(async () => {
    await fx.build({
      [PUBLIC]: { meta: { title: 'Best of' }, files: ['pub.jpg'] },
      '2024/other': { meta: { title: 'Other' }, files: ['shared.jpg', 'notes.txt'] },
      '2023/wedding': { meta: { title: 'Wedding', password: 'pw', token: 't-wedding' }, files: ['IMG_8120.jpg'] },
      '2024/cover-link': { meta: { title: 'Cover by link' } },
    });
    await writeVideo(fx.path('2023/wedding/vows.mp4'), { seconds: 1 });
    await writeJpeg(fx.path('2023/wedding/raw/raw1.jpg'));
    await writeJpeg(fx.path(PUBLIC, '.private/hidden.jpg'));
    writeAlbum(fx.albumsDir, '.trash/20240101/2022/gone', { title: 'Gone', password: 'old' });
    await writeJpeg(fx.path('.trash/20240101/2022/gone/IMG_1.jpg'));
    execFileSync('mkfifo', [fx.path('2024/other/pipe.jpg')]);
    outside = makeTempDir('gallery-outside-');
    await writeJpeg(path.join(outside, 'secret.jpg'));

    link('zz-wedding.jpg', '2023/wedding/IMG_8120.jpg');
    link('zz-vows.mp4', '2023/wedding/vows.mp4');
    link('zz-info.jpg', '2023/wedding/album.json');
    link('zz-private.jpg', `${PUBLIC}/.private/hidden.jpg`);
    link('zz-trash.jpg', '.trash/20240101/2022/gone/IMG_1.jpg');
    link('zz-raw.jpg', '2023/wedding/raw/raw1.jpg');
    link('zz-notes.jpg', '2024/other/notes.txt');
    link('zz-pipe.jpg', '2024/other/pipe.jpg');
    link('zz-outside.jpg', path.join(outside, 'secret.jpg'));
    link('zz-shared.jpg', '2024/other/shared.jpg');
    fs.symlinkSync('../../2023/wedding/IMG_8120.jpg', fx.path('2024/cover-link/a-link.jpg'));
    await fx.start({ env: { WORKERS: '2' } });
    app = request(fx.gallery.handler);
  });

  after(async () => {
    releaseFifo(fx.path('2024/other/pipe.jpg'));
    await fx.close();
    removeTempDir(outside);
  });

  const media = (name: string) => `${PUBLIC}/${name}`;
  const q = (name: string) => encodeURIComponent(media(name));

  /** Status of every route that reads the file, for a visitor holding `cookie`. */
  async function statuses(name: string, cookie = ''): Promise<Record<string, number>> {
    const get = (url: string) => app.get(url).set('Cookie', cookie).timeout(10_000);
    const isVideo = name.endsWith('.mp4');
    return {
      original: (await get(`/albums/${media(name)}`)).status,
      thumbnail: (await get(`/api/thumbnail?path=${q(name)}&size=small`)).status,
      [isVideo ? 'videoInfo' : 'exif']: (await get(`/api/${isVideo ? 'video-info' : 'exif'}?path=${q(name)}`)).status,
    };
  }

  const everywhere = (status: number, isVideo = false) => ({ original: status, thumbnail: status, [isVideo ? 'videoInfo' : 'exif']: status });

  async function zipNames(cookie = ''): Promise<string[]> {
    const res = await app
      .get(`/api/download-album?path=${encodeURIComponent(PUBLIC)}`)
      .set('Cookie', cookie)
      .buffer(true)
      .parse((r, done) => {
        const chunks: Buffer[] = [];
        r.on('data', (c: Buffer) => chunks.push(c));
        r.on('end', () => done(null, Buffer.concat(chunks)));
      })
      .expect(200);
    return [...(await unzip(res.body as Buffer)).keys()];
  }

  /** File names the album page and the album-media API list for this visitor. */
  async function listed(cookie = ''): Promise<{ page: string; api: string[] }> {
    const page = await app.get(`/photos/${PUBLIC}`).set('Cookie', cookie).timeout(10_000).expect(200);
    const api = await app
      .get(`/api/album-media?path=${encodeURIComponent(PUBLIC)}`)
      .set('Cookie', cookie)
      .timeout(10_000)
      .expect(200);
    return { page: page.text, api: (api.body as { items: { name: string }[] }).items.map((i) => i.name) };
  }

  async function expectHiddenEverywhere(name: string, cookie = ''): Promise<void> {
    expect(await statuses(name, cookie), name).to.deep.equal(everywhere(404, name.endsWith('.mp4')));
    expect(await zipNames(cookie)).to.not.include(name);
    const { page, api } = await listed(cookie);
    expect(api).to.not.include(name);
    expect(page).to.not.include(name);
  }

  describe('to a photo of a protected album', () => {
    it('should refuse it anonymously on every route, and list it nowhere', async () => {
      expect(await statuses('zz-wedding.jpg')).to.deep.equal(everywhere(401));
      expect(await statuses('zz-vows.mp4')).to.deep.equal(everywhere(401, true));
      expect(await zipNames()).to.deep.equal(['pub.jpg', 'zz-shared.jpg']);
      const { page, api } = await listed();
      expect(api).to.deep.equal(['pub.jpg', 'zz-shared.jpg']);
      expect(page).to.not.match(/zz-wedding|zz-vows/);
    });

    it('should serve it everywhere once the target album is unlocked', async () => {
      expect(await statuses('zz-wedding.jpg', WEDDING)).to.deep.equal(everywhere(200));
      expect(await statuses('zz-vows.mp4', WEDDING)).to.deep.equal(everywhere(200, true));
      const original = await app
        .get(`/albums/${media('zz-wedding.jpg')}`)
        .set('Cookie', WEDDING)
        .expect(200);
      expect(original.headers['cache-control']).to.match(/^private/);
      const thumb = await app
        .get(`/api/thumbnail?path=${q('zz-wedding.jpg')}&size=small`)
        .set('Cookie', WEDDING)
        .expect(200);
      expect(thumb.headers['cache-control']).to.match(/^private/);
      expect(await zipNames(WEDDING)).to.deep.equal(['pub.jpg', 'zz-shared.jpg', 'zz-wedding.jpg']);
      const { page, api } = await listed(WEDDING);
      expect(api).to.deep.equal(['pub.jpg', 'zz-shared.jpg', 'zz-vows.mp4', 'zz-wedding.jpg']);
      expect(page).to.include('zz-wedding.jpg').and.include('zz-vows.mp4');
      // Listing a protected photo makes the public album's page and listing private.
      const html = await app.get(`/photos/${PUBLIC}`).set('Cookie', WEDDING).expect(200);
      expect(html.headers['cache-control']).to.equal('no-store');
      const json = await app
        .get(`/api/album-media?path=${encodeURIComponent(PUBLIC)}`)
        .set('Cookie', WEDDING)
        .expect(200);
      expect(json.headers['cache-control']).to.equal('private, no-store');
      const zip = await app
        .head(`/api/download-album?path=${encodeURIComponent(PUBLIC)}`)
        .set('Cookie', WEDDING)
        .expect(200);
      expect(zip.headers['cache-control']).to.equal('private, no-store');
      const anonymous = await app.get(`/photos/${PUBLIC}`).expect(200);
      expect(anonymous.headers['cache-control']).to.equal('no-cache');
    });

    it('should not answer a cached public thumbnail of it to an anonymous visitor', async () => {
      await app
        .get(`/api/thumbnail?path=${q('zz-wedding.jpg')}&size=small`)
        .set('Cookie', WEDDING)
        .expect(200);
      await app.get(`/api/thumbnail?path=${q('zz-wedding.jpg')}&size=small`).expect(401);
    });
  });

  describe('to what no visitor may read', () => {
    for (const [name, what] of [
      ['zz-info.jpg', "the protected album's album.json"],
      ['zz-private.jpg', 'a photo under .private/'],
      ['zz-trash.jpg', 'a photo of an album moved to .trash/'],
      ['zz-raw.jpg', 'a photo in a plain sub-folder of a protected album'],
      ['zz-notes.jpg', 'a text file'],
      ['zz-outside.jpg', 'a photo outside ALBUMS_DIR'],
    ] as const) {
      it(`should answer 404 for a link to ${what}, anonymously and after unlocking`, async () => {
        await expectHiddenEverywhere(name);
        await expectHiddenEverywhere(name, WEDDING);
      });
    }

    it('should answer 404 for a link to a FIFO, and the page should not wait on it', async () => {
      const started = Date.now();
      await app.get(`/photos/${PUBLIC}`).timeout(10_000).expect(200);
      await app
        .get(`/api/album-media?path=${encodeURIComponent(PUBLIC)}`)
        .timeout(10_000)
        .expect(200);
      expect(Date.now() - started).to.be.below(2000);
      // Both workers still answer: a cold thumbnail is made at once.
      await app
        .get(`/api/thumbnail?path=${q('pub.jpg')}&size=medium`)
        .timeout(5000)
        .expect(200);
      await expectHiddenEverywhere('zz-pipe.jpg');
    });
  });

  describe('as the cover of an album card', () => {
    it('should not show a locked photo as the cover, on /photos or on the folder page', async () => {
      for (const url of ['/photos', '/photos/2024']) {
        const page = await app.get(url).expect(200);
        expect(page.text).to.include('Cover by link');
        expect(page.text, url).to.not.include('a-link.jpg');
      }
    });
  });

  describe('to a photo of another public album', () => {
    it('should keep working everywhere', async () => {
      expect(await statuses('zz-shared.jpg')).to.deep.equal(everywhere(200));
      const original = await app.get(`/albums/${media('zz-shared.jpg')}`).expect(200);
      expect(original.headers['cache-control']).to.equal('public, max-age=31536000, immutable');
      expect(Buffer.compare(original.body as Buffer, fs.readFileSync(fx.path('2024/other/shared.jpg')))).to.equal(0);
      expect(await zipNames()).to.include('zz-shared.jpg');
      const { page, api } = await listed();
      expect(api).to.include('zz-shared.jpg');
      expect(page).to.include('zz-shared.jpg');
    });
  });
});

/** Lets a reader stuck on the FIFO (if any) see end-of-file, so shutdown is not held up. */
function releaseFifo(fifo: string): void {
  try {
    fs.closeSync(fs.openSync(fifo, fs.constants.O_WRONLY | fs.constants.O_NONBLOCK));
  } catch {
    // No reader waiting: nothing to release.
  }
}
