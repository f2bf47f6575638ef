import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { KeyedQueue } from '../../server/admin/keyed-queue.js';
import type { ReceivedFile } from '../../server/admin/uploads/receive-files.js';
import { storeUploads } from '../../server/admin/uploads/store-uploads.js';
import { makeTempDir, removeTempDir } from '../support/temp-dir.js';
import { listDir, makeJpeg } from './support/admin-fixture.js';

describe('storeUploads', () => {
  let root: string;
  let tempDir: string;
  let destDir: string;
  beforeEach(() => {
    root = makeTempDir();
    tempDir = path.join(root, '.uploads');
    destDir = path.join(root, 'album');
    fs.mkdirSync(tempDir);
    fs.mkdirSync(destDir);
  });
  afterEach(() => removeTempDir(root));

  async function received(name: string, originalName: string, position: number): Promise<ReceivedFile> {
    const tempPath = path.join(tempDir, name);
    if (!fs.existsSync(tempPath)) fs.writeFileSync(tempPath, await makeJpeg());
    return { position, originalName, tempPath, size: fs.statSync(tempPath).size };
  }

  describe('when storing one file of a batch fails', () => {
    it('should remove the files of the batch already stored and fail', async () => {
      // Both entries name one temp file: both verify, the first move takes it, and the second
      // move then fails for real (ENOENT), after the first file was placed.
      const files = [await received('a.upload', 'first.jpg', 0), await received('b.upload', 'second.jpg', 1), await received('a.upload', 'third.jpg', 2)];
      let failure: unknown;
      await storeUploads({ files, skipped: [] }, { destDir, kind: 'image', queue: new KeyedQueue() }).catch((err: unknown) => {
        failure = err;
      });
      expect((failure as NodeJS.ErrnoException | undefined)?.code).to.equal('ENOENT');
      expect(listDir(destDir)).to.deep.equal([]);
      expect(listDir(tempDir)).to.deep.equal([]);
    });
  });

  describe('with a rejected file in the batch', () => {
    it('should store the others and report it', async () => {
      const bad = path.join(tempDir, 'bad.upload');
      fs.writeFileSync(bad, 'not an image');
      const files = [await received('a.upload', 'a.jpg', 0), { position: 1, originalName: 'b.jpg', tempPath: bad, size: 12 }];
      const results = await storeUploads({ files, skipped: [] }, { destDir, kind: 'image', queue: new KeyedQueue() });
      expect(results.map((r) => r.ok)).to.deep.equal([true, false]);
      expect(listDir(destDir)).to.deep.equal(['a.jpg']);
      expect(listDir(tempDir)).to.deep.equal([]);
    });
  });
});
