import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import type { ExifRecord } from '../../server/media/metadata.js';
import { createMetadataService } from '../../server/media/metadata.js';
import type { MediaPool } from '../../server/media/pool.js';
import { makeTempDir, removeTempDir } from '../support/temp-dir.js';

/** The cache in front of the pool: real files (their mtime is the key), a counting pool. */
describe('createMetadataService', function () {
  let dir: string;
  let calls: string[];
  let failNext: boolean;
  const file = (name: string) => path.join(dir, name);

  const record = (src: string): ExifRecord => ({
    Make: path.basename(src),
    Model: null,
    LensModel: null,
    FocalLength: null,
    FNumber: null,
    ExposureTime: null,
    ISO: null,
    DateTimeOriginal: null,
    ImageWidth: 1,
    ImageHeight: 1,
  });
  const pool: Pick<MediaPool, 'exif' | 'videoInfo' | 'dimensions'> = {
    async exif({ src }) {
      calls.push(src);
      if (failNext) {
        failNext = false;
        throw new Error('unreadable');
      }
      return record(src);
    },
    async videoInfo() {
      throw new Error('not used');
    },
    async dimensions() {
      throw new Error('not used');
    },
  };

  beforeEach(function () {
    dir = makeTempDir('metadata-cache-');
    calls = [];
    failNext = false;
    for (const name of ['a.jpg', 'b.jpg', 'c.jpg']) fs.writeFileSync(file(name), name);
  });

  afterEach(function () {
    removeTempDir(dir);
  });

  it('should read an unchanged file once, even when asked concurrently', async function () {
    const service = createMetadataService({ pool });
    const answers = await Promise.all([service.exif(file('a.jpg')), service.exif(file('a.jpg'))]);
    await service.exif(file('a.jpg'));
    expect(calls).to.deep.equal([file('a.jpg')]);
    expect(answers[0]!.Make).to.equal('a.jpg');
  });

  it('should read a file again once its mtime changes', async function () {
    const service = createMetadataService({ pool });
    await service.exif(file('a.jpg'));
    const later = new Date(Date.now() + 10_000);
    fs.utimesSync(file('a.jpg'), later, later);
    await service.exif(file('a.jpg'));
    expect(calls).to.have.length(2);
  });

  it('should read a file again when another one with the same mtime takes its place', async function () {
    const service = createMetadataService({ pool });
    const then = new Date('2019-03-04T05:06:07Z');
    fs.utimesSync(file('a.jpg'), then, then);
    await service.exif(file('a.jpg'));
    // As rsync -a or an album made again from a backup leave it: other bytes, the old mtime.
    fs.writeFileSync(file('.incoming'), 'another photo');
    fs.utimesSync(file('.incoming'), then, then);
    fs.renameSync(file('.incoming'), file('a.jpg'));
    await service.exif(file('a.jpg'));
    expect(calls).to.have.length(2);
  });

  it('should keep at most maxEntries, dropping the least recently used', async function () {
    const service = createMetadataService({ pool, maxEntries: 2 });
    await service.exif(file('a.jpg'));
    await service.exif(file('b.jpg'));
    await service.exif(file('a.jpg')); // a is now the most recent
    await service.exif(file('c.jpg')); // evicts b
    await service.exif(file('a.jpg'));
    expect(calls).to.deep.equal([file('a.jpg'), file('b.jpg'), file('c.jpg')]);
    await service.exif(file('b.jpg'));
    expect(calls).to.have.length(4);
  });

  it('should not remember a failure', async function () {
    const service = createMetadataService({ pool });
    failNext = true;
    await service.exif(file('a.jpg')).then(
      () => expect.fail('should have rejected'),
      (err: unknown) => expect((err as Error).message).to.equal('unreadable'),
    );
    expect((await service.exif(file('a.jpg'))).Make).to.equal('a.jpg');
    expect(calls).to.have.length(2);
  });

  it('should answer 404 for a file that is gone', async function () {
    const service = createMetadataService({ pool });
    await service.exif(file('missing.jpg')).then(
      () => expect.fail('should have rejected'),
      (err: unknown) => expect((err as { status?: number }).status).to.equal(404),
    );
    expect(calls).to.deep.equal([]);
  });
});
