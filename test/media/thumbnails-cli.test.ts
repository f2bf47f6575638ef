import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { THUMBNAIL_SIZE_NAMES } from '../../server/core/media-catalogue.js';
import sharp from 'sharp';
import { writeJpeg, writePng, writeUnreadableJpeg, writeVideo } from '../support/media-fixtures.js';
import { makeTempDir, removeTempDir, writeAlbum } from '../support/temp-dir.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const SIZES = THUMBNAIL_SIZE_NAMES;

interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

describe('npm run thumbnails (scripts/thumbnails.ts)', function () {
  this.timeout(60_000);
  let root: string;
  let albumsDir: string;
  let cacheDir: string;
  const cached = (size: string, rel: string) => `${path.join(cacheDir, 'thumbnails', size, ...rel.split('/'))}.jpg`;

  function cli(...args: string[]): Promise<CliResult> {
    return new Promise((resolve) => {
      execFile(
        process.execPath,
        ['--import', 'tsx', path.join(ROOT, 'scripts', 'thumbnails.ts'), ...args],
        { cwd: ROOT, env: { ...process.env, ALBUMS_DIR: albumsDir, CACHE_DIR: cacheDir, WORKERS: '2' }, timeout: 50_000 },
        (err, stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
      );
    });
  }

  before(async function () {
    root = makeTempDir('thumbnails-cli-');
    albumsDir = path.join(root, 'albums');
    cacheDir = path.join(root, 'cache');
    const trip = writeAlbum(albumsDir, '2024/trip', { title: 'Trip' });
    const day = writeAlbum(albumsDir, '2024/trip/day-1', { title: 'Day 1' });
    const other = writeAlbum(albumsDir, '2023/other', { title: 'Other' });
    await Promise.all([
      writeJpeg(path.join(trip, 'IMG_1.jpg'), 2000, 1500),
      writePng(path.join(trip, 'IMG_1.png'), 500, 400),
      writeVideo(path.join(trip, 'clip.mp4'), { seconds: 1 }),
      writeUnreadableJpeg(path.join(trip, 'broken.jpg')),
      writeJpeg(path.join(trip, '.hidden.jpg'), 100, 100),
      writeJpeg(path.join(day, 'morning.jpg'), 640, 480),
      writeJpeg(path.join(other, 'old.jpg'), 640, 480),
      // Not an album (no album.json): never processed.
      writeJpeg(path.join(albumsDir, 'loose', 'stray.jpg'), 640, 480),
    ]);
    fs.writeFileSync(path.join(trip, 'notes.txt'), 'not media');
  });

  after(function () {
    removeTempDir(root);
  });

  it('should generate only the albums given as arguments', async function () {
    const res = await cli('2023');
    expect(res.code, res.stderr).to.equal(0);
    for (const size of SIZES) expect(fs.existsSync(cached(size, '2023/other/old.jpg')), size).to.equal(true);
    expect(fs.existsSync(path.join(cacheDir, 'thumbnails', 'small', '2024'))).to.equal(false);
  });

  it('should generate every size of every media file, listing failures without failing', async function () {
    const res = await cli();
    expect(res.code, res.stderr).to.equal(0);
    const made = ['2024/trip/IMG_1.jpg', '2024/trip/IMG_1.png', '2024/trip/clip.mp4', '2024/trip/day-1/morning.jpg', '2023/other/old.jpg'];
    for (const rel of made) {
      for (const size of SIZES) expect(fs.existsSync(cached(size, rel)), `${size} ${rel}`).to.equal(true);
    }
    expect((await sharp(cached('medium', '2024/trip/IMG_1.jpg')).metadata()).width).to.equal(1200);
    expect(fs.existsSync(cached('small', '2024/trip/.hidden.jpg'))).to.equal(false);
    expect(fs.existsSync(cached('small', 'loose/stray.jpg'))).to.equal(false);
    expect(fs.existsSync(cached('small', '2024/trip/broken.jpg'))).to.equal(false);
    expect(res.stdout).to.match(/4 generated, 1 already fresh, 1 failed/);
    expect(res.stdout).to.match(/Failed:\s+2024\/trip\/broken\.jpg: /);
    expect(res.stderr).to.match(/6\/6/);
  });

  it('should skip fresh files on a second run', async function () {
    const res = await cli();
    expect(res.code, res.stderr).to.equal(0);
    expect(res.stdout).to.match(/0 generated, 5 already fresh, 1 failed/);
  });

  it('should refuse an album path with no album below it', async function () {
    const res = await cli('1999/nothing');
    expect(res.code).to.equal(2);
    expect(res.stderr).to.match(/no album at or below: 1999\/nothing/);
  });

  it('should follow only the symlinks the gallery follows, and not wait on a FIFO', async function () {
    const links = writeAlbum(albumsDir, '2022/links', { title: 'Links' });
    execFileSync('mkfifo', [path.join(albumsDir, '2023/other/pipe.jpg')]);
    fs.symlinkSync('../../2023/other/old.jpg', path.join(links, 'ok.jpg'));
    fs.symlinkSync('../../2023/other/album.json', path.join(links, 'info.jpg'));
    fs.symlinkSync('../../2023/other/pipe.jpg', path.join(links, 'pipe.jpg'));
    const res = await cli('2022');
    expect(res.code, res.stderr).to.equal(0);
    expect(fs.existsSync(cached('small', '2022/links/ok.jpg'))).to.equal(true);
    expect(fs.existsSync(cached('small', '2022/links/info.jpg'))).to.equal(false);
    expect(res.stdout).to.match(/1 generated, 0 already fresh, 0 failed, 2 skipped/);
    expect(res.stdout).to.match(/Skipped:\s+2022\/links\/info\.jpg\s+2022\/links\/pipe\.jpg/);
  });

  it('should refuse an invalid album path', async function () {
    const res = await cli('../etc');
    expect(res.code).to.equal(2);
  });
});
