import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { indexPositionOf } from '../../server/core/media/mp4-atoms.js';
import { probeStreams, writeFaststartMp4, writeHevcClip, writeLateIndexMov } from '../support/phone-videos.js';
import { makeTempDir, removeTempDir, writeAlbum } from '../support/temp-dir.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

describe('npm run thumbnails: web copies of videos', function () {
  this.timeout(60_000);
  let root: string;
  let albumsDir: string;
  let cacheDir: string;
  const copyOf = (rel: string) => `${path.join(cacheDir, 'web-video', ...rel.split('/'))}.mp4`;

  function cli(): Promise<{ code: number; stdout: string; stderr: string }> {
    return new Promise((resolve) => {
      execFile(
        process.execPath,
        ['--import', 'tsx', path.join(ROOT, 'scripts', 'thumbnails.ts')],
        { cwd: ROOT, env: { ...process.env, ALBUMS_DIR: albumsDir, CACHE_DIR: cacheDir, WORKERS: '2' }, timeout: 50_000 },
        (err, stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
      );
    });
  }

  before(async function () {
    root = makeTempDir('thumbnails-cli-video-');
    albumsDir = path.join(root, 'albums');
    cacheDir = path.join(root, 'cache');
    const phone = writeAlbum(albumsDir, '2025/phone', { title: 'Phone' });
    await Promise.all([
      writeHevcClip(path.join(phone, 'IMG_0001.MOV')),
      writeLateIndexMov(path.join(phone, 'camera.mov')),
      writeFaststartMp4(path.join(phone, 'ready.mp4')),
    ]);
  });
  after(() => removeTempDir(root));

  it('should make the rendition and the remux the videos need, with a progress bar, and nothing for the others', async function () {
    const res = await cli();
    expect(res.code, res.stderr).to.equal(0);
    expect(res.stdout).to.match(/Web videos → .*: 2 made, 0 already fresh, 1 not needed, 0 failed/);
    expect(res.stderr).to.match(/web videos 3\/3/);
    expect(await probeStreams(copyOf('2025/phone/IMG_0001.MOV'))).to.deep.include({ codec: 'h264', pixelFormat: 'yuv420p' });
    expect(await indexPositionOf(copyOf('2025/phone/camera.mov'))).to.equal('front');
    expect(fs.existsSync(copyOf('2025/phone/ready.mp4'))).to.equal(false);
  });

  it('should leave fresh copies alone on a second run', async function () {
    const res = await cli();
    expect(res.code, res.stderr).to.equal(0);
    expect(res.stdout).to.match(/Web videos → .*: 0 made, 2 already fresh, 1 not needed, 0 failed/);
  });
});
