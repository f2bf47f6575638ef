import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { thumbnailFile, THUMBNAIL_FORMAT_NAMES } from '../../server/core/media-catalogue.js';
import { eventually, writeJpeg } from '../support/gallery-fixture.js';
import { startGalleryProcess } from '../support/gallery-process.js';
import { makeTempDir, removeTempDir, writeAlbum } from '../support/temp-dir.js';

/**
 * The preparation of albums resumes after the server is killed (issue 27): what was made
 * before is not made again, the rest is made after the restart, with nobody asking.
 */
describe('the preparation of albums, across a kill', function () {
  this.timeout(180_000);
  let root: string;
  const ALBUM = '2024/new';
  const PHOTOS = 30;
  const names = Array.from({ length: PHOTOS }, (_, i) => `p${String(i).padStart(2, '0')}.jpg`);

  before(async () => {
    root = makeTempDir('gallery-prepare-kill-');
    const dir = writeAlbum(path.join(root, 'albums'), ALBUM, { title: 'Copied in' });
    for (const [i, name] of names.entries()) await writeJpeg(path.join(dir, name), 2400, 1800, i * 11);
  });
  after(() => removeTempDir(root));

  const env = () => ({
    ALBUMS_DIR: path.join(root, 'albums'),
    CACHE_DIR: path.join(root, 'cache'),
    CONTENT_DIR: path.join(root, 'content'),
    PORT: '0',
    HOST: '127.0.0.1',
    WORKERS: '1',
  });
  /** Every cache file the album's preparation makes for one photo (its grid sizes, both formats). */
  const filesOf = (name: string) =>
    (['small', 'tile'] as const).flatMap((size) =>
      THUMBNAIL_FORMAT_NAMES.map((format) => thumbnailFile(path.join(root, 'cache'), size, `${ALBUM}/${name}`, format)),
    );
  const prepared = () => names.filter((name) => filesOf(name).every((f) => fs.existsSync(f)));

  it('should go on after a restart, making nothing it had made', async () => {
    fs.mkdirSync(path.join(root, 'content'), { recursive: true });
    const first = await startGalleryProcess(env());
    try {
      await eventually(() => prepared().length >= 4, 60_000, 'a few photos prepared');
    } finally {
      process.kill(first.pid, 'SIGKILL');
      await first.stop(1000);
    }
    const before = prepared();
    expect(before.length, 'killed before the end').to.be.below(PHOTOS);
    const madeAt = new Map(before.flatMap((name) => filesOf(name).map((f) => [f, fs.statSync(f).mtimeMs] as const)));

    const second = await startGalleryProcess(env());
    try {
      await eventually(() => prepared().length === PHOTOS, 120_000, 'every photo prepared after the restart');
    } finally {
      await second.stop();
    }
    for (const [file, mtime] of madeAt) expect(fs.statSync(file).mtimeMs, file).to.equal(mtime);
  });
});
