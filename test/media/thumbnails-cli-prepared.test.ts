import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { GalleryFixture } from '../support/gallery-fixture.js';
import { writeLiveMovie, writeLiveStill } from '../support/live-photo-files.js';
import { writeJpeg, writePng, writeVideo } from '../support/media-fixtures.js';
import { makeTempDir, removeTempDir, writeAlbum } from '../support/temp-dir.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const HEIC = path.join(ROOT, 'test', 'fixtures', 'heic', 'IMG_5195.HEIC');

/** Every file under `dir`, with its size and mtime: what a run left in the cache. */
function snapshot(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    const stat = fs.statSync(file);
    files.set(path.relative(dir, file), `${stat.size} ${stat.mtimeMs}`);
  }
  return files;
}

/**
 * `npm run thumbnails` is the server's preparation run now (issue 27): a server started after
 * it finds every album prepared, decodes nothing and writes nothing in the cache.
 */
describe('npm run thumbnails, then the server', function () {
  this.timeout(120_000);
  let root: string;
  const albumsDir = () => path.join(root, 'albums');
  const cacheDir = () => path.join(root, 'cache');
  const ALBUMS = ['2024/trip', '2024/rows', '2024/best', '2024/best/day', '2023/other'];

  function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    return new Promise((resolve) => {
      execFile(
        process.execPath,
        ['--import', 'tsx', path.join(ROOT, 'scripts', 'thumbnails.ts'), ...args],
        { cwd: ROOT, env: { ...process.env, ALBUMS_DIR: albumsDir(), CACHE_DIR: cacheDir(), WORKERS: '2' }, timeout: 100_000 },
        (err, stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
      );
    });
  }

  /** A server as `npm start` makes it, preparing as files arrive, over the same tree and cache: its preparation and pool once it has looked at everything. */
  async function serverAfter(): Promise<{ fx: GalleryFixture; filesPrepared: number; tasksRun: number; prepared: string[] }> {
    const fx = new GalleryFixture(root);
    await fx.start({ env: { PREPARE: 'on' }, backgroundDelayMs: 0 });
    const { preparer, livePhotoIds, facts, pool } = fx.gallery;
    await livePhotoIds.idle();
    await preparer!.idle();
    await facts.flush();
    // A cover crop or a copy started now would be background work of the pool: give it a moment to show.
    await new Promise((r) => setTimeout(r, 300));
    return { fx, filesPrepared: preparer!.progress().filesPrepared, tasksRun: pool.tasksRun, prepared: ALBUMS.filter((a) => preparer!.isPrepared(a)) };
  }

  beforeEach(async function () {
    root = makeTempDir('thumbnails-cli-prepared-');
    fs.mkdirSync(path.join(root, 'content'));
    const trip = writeAlbum(albumsDir(), '2024/trip', { title: 'Trip' });
    const rows = writeAlbum(albumsDir(), '2024/rows', { title: 'Rows', style: 'masonry' });
    // A cover taken from a child album: the card's sizes and crop are made for that photo.
    writeAlbum(albumsDir(), '2024/best', { title: 'Best of', isCollection: true, thumbnail: 'day/sunrise.jpg' });
    const day = writeAlbum(albumsDir(), '2024/best/day', { title: 'Day' });
    const other = writeAlbum(albumsDir(), '2023/other', { title: 'Other' });
    await Promise.all([
      writeJpeg(path.join(trip, 'IMG_1.jpg'), 2000, 1500),
      writePng(path.join(trip, 'IMG_2.png'), 500, 400),
      writeVideo(path.join(trip, 'clip.mp4'), { seconds: 1 }),
      // A Live Photo whose movie is named otherwise: paired by the identifiers both carry.
      writeLiveStill(path.join(trip, 'IMG_3.JPG'), 'A1B2C3D4-0000-4000-8000-000000000001'),
      writeLiveMovie(path.join(trip, 'IMG_3_export.MOV'), 'A1B2C3D4-0000-4000-8000-000000000001'),
      writeJpeg(path.join(rows, 'wide.jpg'), 1800, 600),
      writeJpeg(path.join(day, 'sunrise.jpg'), 1200, 900),
      writeJpeg(path.join(other, 'old.jpg'), 640, 480),
    ]);
    fs.copyFileSync(HEIC, path.join(trip, 'IMG_4.HEIC'));
  });
  afterEach(() => removeTempDir(root));

  it('should leave a server started after it nothing to prepare, nothing to decode and nothing to write', async function () {
    const res = await cli();
    expect(res.code, res.stderr).to.equal(0);
    expect(res.stdout).to.match(/Albums prepared: 5 of 5 \(9 files newly prepared\)/);
    const before = snapshot(cacheDir());

    const { fx, filesPrepared, tasksRun, prepared } = await serverAfter();
    await fx.gallery.close();
    expect(prepared, 'every album found prepared').to.deep.equal(ALBUMS);
    expect(filesPrepared, 'files the server prepared').to.equal(0);
    expect(tasksRun, 'media tasks the server ran').to.equal(0);
    expect(snapshot(cacheDir())).to.deep.equal(before);
  });

  it('should prepare only the albums given, leaving the others to the server', async function () {
    const res = await cli('2024/rows');
    expect(res.code, res.stderr).to.equal(0);
    expect(res.stdout).to.match(/Albums prepared: 1 of 1 \(1 files newly prepared\)/);

    const { fx, filesPrepared } = await serverAfter();
    await fx.gallery.close();
    // Everything but the one photo of 2024/rows.
    expect(filesPrepared).to.equal(8);
  });
});
