import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import { adoptFolders, findAdoptable } from '../../server/core/albums/adopt.js';
import { thumbnailFile, THUMBNAIL_FORMAT_NAMES, type ThumbnailSize } from '../../server/core/media-catalogue.js';
import { readProgress } from '../../server/media/preparation-progress.js';
import { eventually, GalleryFixture, writeJpeg } from '../support/gallery-fixture.js';
import { writeAlbum } from '../support/temp-dir.js';

/**
 * Albums prepared as their files arrive (issue 27, server/media/preparer.ts): the grid's
 * thumbnails in both formats, the facts of every file, the cover's card sizes, before anyone
 * asks; nothing made again after a restart; one process preparing an album when several share
 * the cache.
 */
/** The gallery's default, which test fixtures turn off. */
const PREPARING = { PREPARE: 'on' };

describe('the preparation of albums', function () {
  this.timeout(60_000);
  const fixtures: GalleryFixture[] = [];
  afterEach(async () => {
    for (const fx of fixtures.splice(0)) await fx.close();
  });

  const cacheFiles = (fx: GalleryFixture, albumPath: string, names: readonly string[], sizes: readonly ThumbnailSize[]) =>
    names.flatMap((name) => sizes.flatMap((size) => THUMBNAIL_FORMAT_NAMES.map((format) => thumbnailFile(fx.cacheDir, size, `${albumPath}/${name}`, format))));
  const allExist = (files: readonly string[]) => files.every((f) => fs.existsSync(f));
  const mtimes = (files: readonly string[]) => files.map((f) => fs.statSync(f).mtimeMs);

  async function gallery(tree: Parameters<GalleryFixture['build']>[0], opts: { watch?: boolean } = {}): Promise<GalleryFixture> {
    const fx = await new GalleryFixture().build(tree);
    fixtures.push(fx);
    await fx.start({ watch: opts.watch ?? false, backgroundDelayMs: 0, env: PREPARING });
    return fx;
  }

  it('should make an album’s grid thumbnails in both formats, and its facts, before anyone asks', async () => {
    const fx = await gallery({ '2024/trip': { meta: { title: 'Trip' }, files: ['a.jpg', 'b.jpg', 'c.jpg'] } });
    await fx.gallery.preparer!.idle();
    expect(fx.gallery.preparer!.isPrepared('2024/trip')).to.equal(true);
    expect(allExist(cacheFiles(fx, '2024/trip', ['a.jpg', 'b.jpg', 'c.jpg'], ['small', 'tile']))).to.equal(true);
    // Not the viewer's sizes: those are made when a photo is opened.
    expect(cacheFiles(fx, '2024/trip', ['a.jpg'], ['large']).some((f) => fs.existsSync(f))).to.equal(false);
    const facts = JSON.parse(fs.readFileSync(path.join(fx.cacheDir, 'dimensions', '2024', 'trip', '.dimensions.json'), 'utf8')) as {
      entries: Record<string, { width: number; prepared?: string }>;
    };
    expect(Object.keys(facts.entries).sort()).to.deep.equal(['a.jpg', 'b.jpg', 'c.jpg']);
    for (const entry of Object.values(facts.entries)) expect(entry).to.include({ width: 64, prepared: '1:small,tile' });
  });

  it('should write its progress for the admin while it works, and once done', async () => {
    const fx = await gallery({ '2024/trip': { meta: { title: 'Trip' }, files: ['a.jpg', 'b.jpg', 'c.jpg'] } });
    await fx.gallery.preparer!.idle();
    const [written] = await readProgress(fx.cacheDir);
    expect(written).to.include({ albumsWaiting: 0, filesPrepared: 3, pid: process.pid });
    expect(written!.current).to.equal(undefined);
    await fx.gallery.close();
    expect(await readProgress(fx.cacheDir), 'removed when the process stops').to.deep.equal([]);
  });

  it('should make the sizes its layout shows first: justified rows up to 800 px, a single photo its large sizes', async () => {
    const fx = await gallery({
      rows: { meta: { title: 'Rows', style: 'masonry' }, files: ['a.jpg'] },
      one: { meta: { title: 'One', style: 'single' }, files: ['a.jpg'] },
    });
    await fx.gallery.preparer!.idle();
    expect(allExist(cacheFiles(fx, 'rows', ['a.jpg'], ['small', 'tile', 'row']))).to.equal(true);
    expect(allExist(cacheFiles(fx, 'one', ['a.jpg'], ['medium', 'large']))).to.equal(true);
  });

  it('should prepare an album copied into ALBUMS_DIR, and a folder adopted, with no request', async () => {
    const fx = await gallery({ '2024/first': { meta: { title: 'First' }, files: ['a.jpg'] } }, { watch: true });
    await fx.gallery.preparer!.idle();
    // A copy: the album folder appears with its photos.
    const copied = writeAlbum(fx.albumsDir, '2024/copied', { title: 'Copied' });
    await writeJpeg(path.join(copied, 'x.jpg'));
    // A folder of photos adopted (npm run adopt).
    await writeJpeg(fx.path('2024/2024-08 Beach/y.jpg'));
    await adoptFolders(fx.albumsDir, await findAdoptable(fx.albumsDir));
    await eventually(
      () => allExist([...cacheFiles(fx, '2024/copied', ['x.jpg'], ['small', 'tile']), ...cacheFiles(fx, '2024/2024-08 Beach', ['y.jpg'], ['small', 'tile'])]),
      15_000,
      'both albums prepared',
    );
  });

  it('should make nothing again after a restart on a prepared library', async () => {
    const fx = await gallery({ '2024/trip': { meta: { title: 'Trip' }, files: ['a.jpg', 'b.jpg'] } });
    await fx.gallery.preparer!.idle();
    const files = cacheFiles(fx, '2024/trip', ['a.jpg', 'b.jpg'], ['small', 'tile']);
    const before = mtimes(files);
    await fx.gallery.close();
    await fx.start({ watch: false, backgroundDelayMs: 0, env: PREPARING });
    await fx.gallery.preparer!.idle();
    expect(fx.gallery.preparer!.isPrepared('2024/trip')).to.equal(true);
    expect(fx.gallery.preparer!.progress().filesPrepared).to.equal(0);
    expect(mtimes(files)).to.deep.equal(before);
  });

  it('should prepare a replaced photo again, and only it', async () => {
    const fx = await gallery({ '2024/trip': { meta: { title: 'Trip' }, files: ['a.jpg', 'b.jpg'] } }, { watch: true });
    await fx.gallery.preparer!.idle();
    const [kept] = cacheFiles(fx, '2024/trip', ['a.jpg'], ['small']);
    const keptAt = fs.statSync(kept!).mtimeMs;
    const [replaced] = cacheFiles(fx, '2024/trip', ['b.jpg'], ['small']);
    const replacedAt = fs.statSync(replaced!).mtimeMs;
    // A new b.jpg, of another size: a new version of the file.
    fs.rmSync(fx.path('2024/trip/b.jpg'));
    await writeJpeg(fx.path('2024/trip/b2.jpg'), 80, 60);
    fs.renameSync(fx.path('2024/trip/b2.jpg'), fx.path('2024/trip/b.jpg'));
    await eventually(() => fs.statSync(replaced!).mtimeMs !== replacedAt, 15_000, 'b.jpg prepared again');
    await fx.gallery.preparer!.idle();
    expect(fs.statSync(kept!).mtimeMs).to.equal(keptAt);
  });

  it('should have one process prepare an album when two share the cache', async () => {
    const one = await gallery({ '2024/trip': { meta: { title: 'Trip' }, files: ['a.jpg', 'b.jpg', 'c.jpg', 'd.jpg'] } });
    // Another process of a cluster: the same tree and cache (closed by hand: the first fixture removes the files).
    const other = new GalleryFixture(one.root);
    await other.start({ watch: false, backgroundDelayMs: 0, env: PREPARING });
    await Promise.race([one.gallery.preparer!.idle(), other.gallery.preparer!.idle()]);
    await eventually(() => one.gallery.preparer!.isPrepared('2024/trip') || other.gallery.preparer!.isPrepared('2024/trip'), 15_000, 'prepared by one');
    const made = one.gallery.preparer!.progress().filesPrepared + other.gallery.preparer!.progress().filesPrepared;
    await other.gallery.close();
    expect(made).to.equal(4);
  });

  it('should answer a visitor’s tile while an album is being prepared', async () => {
    const fx = new GalleryFixture();
    await fx.build({ '2024/small': { meta: { title: 'Small' }, files: ['seen.jpg'] } });
    // A big album, slow to prepare: 24 photos of 3000 × 2000.
    const big = writeAlbum(fx.albumsDir, '2024/big', { title: 'Big' });
    for (let i = 0; i < 24; i++) await writeJpeg(path.join(big, `p${i}.jpg`), 3000, 2000, i * 10);
    fixtures.push(fx);
    await fx.start({ watch: false, backgroundDelayMs: 0, env: { ...PREPARING, WORKERS: '1' } });
    const res = await request(fx.gallery.handler).get('/api/thumbnail?path=2024/small/seen.jpg&size=medium').expect(200);
    expect(res.headers['content-type']).to.equal('image/jpeg');
    expect(fx.gallery.preparer!.isPrepared('2024/big'), 'the big album still being prepared').to.equal(false);
  });
});
