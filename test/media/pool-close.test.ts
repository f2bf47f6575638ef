import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import ffmpegInstaller from '@ffmpeg-installer/ffmpeg';
import { expect } from 'chai';
import { createMediaPool } from '../../server/media/pool.js';
import { eventually } from '../support/gallery-fixture.js';
import { quietLogger } from '../support/capture-logger.js';
import { makeTempDir, removeTempDir } from '../support/temp-dir.js';

describe('media pool close', function () {
  this.timeout(60_000);
  let root: string;

  before(() => {
    root = makeTempDir('pool-close-');
  });
  after(() => removeTempDir(root));

  it('should kill the ffmpeg of a rendition under way instead of waiting for it', async function () {
    // 20 s of 1080p: its H.264 rendition takes many seconds on this kind of machine.
    const src = path.join(root, 'long.mp4');
    await promisify(execFile)(ffmpegInstaller.path, [
      '-hide_banner',
      '-loglevel',
      'error',
      '-f',
      'lavfi',
      '-i',
      'testsrc2=duration=20:size=1920x1080:rate=30',
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-crf',
      '45',
      '-pix_fmt',
      'yuv420p',
      src,
    ]);
    const pool = createMediaPool({ workers: 1, maxQueue: 0, log: quietLogger });
    const rendition = pool.webVideo({ src, dest: path.join(root, 'web', 'long.mp4'), plan: 'transcode' });
    const outcome = rendition.then(
      () => 'made',
      () => 'failed',
    );
    await eventually(() => pool.childProcesses.length === 1, 20_000, 'ffmpeg to start');
    const [pid] = pool.childProcesses;
    await pool.close();
    expect(await outcome).to.equal('failed');
    expect(() => process.kill(pid!, 0), 'the ffmpeg process is gone').to.throw(/ESRCH/);
  });
});
