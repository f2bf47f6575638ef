import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import { dimensionsFile } from '../../server/core/media-catalogue.js';
import { readAlbumFacts } from '../../server/media/dimensions-file.js';
import { eventually, GalleryFixture } from '../support/gallery-fixture.js';
import { writeLiveMovie, writeLiveStill } from '../support/live-photo-files.js';

/**
 * Live Photos paired by Apple's content identifier (docs/api.md#live-photos), through the real
 * gallery: the scan pairs by name, then the background pass (server/media/live-photo-ids.ts)
 * reads the identifiers of the folders holding movies and stills, and the index pairs again.
 */
describe('Live Photos by content identifier', function () {
  this.timeout(60_000);
  const fx = new GalleryFixture();
  const ALBUM = '2024/ids';
  const SAME = '0F6E4D3C-1111-4222-8333-944455556666';
  const OTHER_STILL = '0F6E4D3C-AAAA-4BBB-8CCC-DDDDEEEEFFFF';
  const OTHER_MOVIE = '0F6E4D3C-9999-4888-8777-666655554444';

  before(async () => {
    await fx.build({
      '2024': { meta: { title: 'Year 2024', isCollection: true } },
      [ALBUM]: { meta: { title: 'Identifiers' }, files: ['IMG_2.JPG'] },
    });
    await Promise.all([
      // Names that differ, one identifier: one Live Photo.
      writeLiveStill(fx.path(ALBUM, 'IMG_1.JPG'), SAME, 10),
      writeLiveMovie(fx.path(ALBUM, 'IMG_1_export.MOV'), SAME),
      // One name, two identifiers: a photo and a video.
      writeLiveStill(fx.path(ALBUM, 'DSC_1.JPG'), OTHER_STILL, 90),
      writeLiveMovie(fx.path(ALBUM, 'DSC_1.MOV'), OTHER_MOVIE),
    ]);
    await fx.start({ env: { WORKERS: '2' } });
  });

  after(() => fx.close());

  const page = async () => (await request(fx.gallery.handler).get(`/photos/${ALBUM}`).timeout(20_000).expect(200)).text;
  /** The tiles of the album page: name, and whether it has the LIVE badge. */
  const tiles = (html: string) =>
    [...html.matchAll(/<li class="(media__item[^"]*)"[\s\S]*?data-name="([^"]+)"/g)].map((m) => `${m[2]}${m[1]!.includes('media__item--live') ? ' LIVE' : ''}`);
  /** The pairs of the index, 'still+movie'. */
  const shown = () => (fx.gallery.index.album(ALBUM)?.media ?? []).map((m) => (m.motion ? `${m.name}+${m.motion.name}` : m.name));
  const paired = ['DSC_1.JPG', 'DSC_1.MOV', 'IMG_1.JPG+IMG_1_export.MOV', 'IMG_2.JPG'];

  it('should make a still and a movie of different names but one identifier one Live Photo, and keep a name pair of two identifiers apart', async () => {
    await eventually(async () => tiles(await page()).includes('IMG_1.JPG LIVE'), 20_000, 'the Live Photo by identifier');
    expect(tiles(await page())).to.deep.equal(['DSC_1.JPG', 'DSC_1.MOV', 'IMG_1.JPG LIVE', 'IMG_2.JPG']);
    expect(shown()).to.deep.equal(paired);
    const media = await request(fx.gallery.handler)
      .get(`/api/album-media?path=${encodeURIComponent(ALBUM)}`)
      .expect(200);
    expect(media.body.total).to.equal(4);
  });

  it('should keep the identifiers across a rescan, without reading again', async () => {
    await fx.gallery.livePhotoIds.idle();
    const before = fx.gallery.pool.tasksRun;
    await fx.gallery.index.rescan();
    expect(shown()).to.deep.equal(paired);
    await fx.gallery.livePhotoIds.idle();
    expect(fx.gallery.pool.tasksRun).to.equal(before);
  });

  it("should keep them in the album's facts record, so a restarted gallery pairs them with no contentId task run", async () => {
    const facts = await readAlbumFacts(dimensionsFile(fx.cacheDir, ALBUM));
    expect(facts.get('IMG_1_export.MOV')?.contentId).to.equal(SAME);
    expect(facts.get('DSC_1.JPG')?.contentId).to.equal(OTHER_STILL);
    // No file of their own beside it.
    expect(fs.existsSync(path.join(fx.cacheDir, 'live-photos'))).to.equal(false);
    await fx.gallery.close();
    await fx.start({ env: { WORKERS: '2' } });
    await fx.gallery.livePhotoIds.idle();
    expect(fx.gallery.pool.tasksRun).to.equal(0);
    expect(shown()).to.deep.equal(paired);
  });

  it('should read a file again when it changes', async () => {
    const movie = fx.path(ALBUM, 'DSC_1.MOV');
    await writeLiveMovie(movie, OTHER_STILL);
    // A later mtime, whatever the clock's resolution.
    const later = new Date(Date.now() + 5_000);
    fs.utimesSync(movie, later, later);
    await fx.gallery.index.rescan();
    await eventually(() => shown().includes('DSC_1.JPG+DSC_1.MOV'), 20_000, 'the new pair');
    expect(shown()).to.deep.equal(['DSC_1.JPG+DSC_1.MOV', 'IMG_1.JPG+IMG_1_export.MOV', 'IMG_2.JPG']);
    expect(tiles(await page())).to.deep.equal(['DSC_1.JPG LIVE', 'IMG_1.JPG LIVE', 'IMG_2.JPG']);
    expect((await readAlbumFacts(dimensionsFile(fx.cacheDir, ALBUM))).get('DSC_1.MOV')?.contentId).to.equal(OTHER_STILL);
  });
});
