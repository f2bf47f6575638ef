import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { AlbumIndex } from '../../server/core/albums/album-index.js';
import { adoptFolders, findAdoptable } from '../../server/core/albums/adopt.js';
import { albumFromFolderName } from '../../server/core/albums/folder-name.js';
import { libraryHints, SAMPLE_ALBUMS_DIR } from '../../server/core/albums/library-hints.js';
import { loggerInto } from '../support/capture-logger.js';
import { writeJpeg } from '../support/media-fixtures.js';
import { makeTempDir, removeTempDir, withReadOnlyDir, writeAlbum } from '../support/temp-dir.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

const readJson = (file: string) => JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;

/** A folder holding real photos (and anything else named in `others`). */
async function photoFolder(root: string, rel: string, photos = 1, others: string[] = []): Promise<string> {
  const dir = path.join(root, ...rel.split('/'));
  fs.mkdirSync(dir, { recursive: true });
  for (let i = 1; i <= photos; i++) await writeJpeg(path.join(dir, `IMG_${i}.jpg`), 16, 12);
  for (const name of others) fs.writeFileSync(path.join(dir, name), 'x');
  return dir;
}

describe('adopting folders', () => {
  describe('albumFromFolderName()', () => {
    const cases: [string, string, string, string | undefined][] = [
      ['2019-07 Lisbon', '', 'Lisbon', '2019-07'],
      ['2019-07-14 Grandpa’s birthday', '', 'Grandpa’s birthday', '2019-07-14'],
      ['2019_07_14_beach_day', '', 'Beach day', '2019-07-14'],
      ['20190714 Beach', '', 'Beach', '2019-07-14'],
      ['2019 - Summer', '', 'Summer', '2019'],
      ['2019-07-14', '', '2019-07-14', '2019-07-14'],
      ['2019-02-30 Not a day', '', 'Not a day', undefined],
      ['07-14 Birthday', '2019', 'Birthday', '2019-07-14'],
      ['08 Beach', '2019', 'Beach', '2019-08'],
      ['07 things', 'misc', '07 things', undefined],
      ['été à Nice', '', 'Été à Nice', undefined],
      ['Lisbon 2019', '', 'Lisbon 2019', undefined],
      ['1234 Main Street', '', '1234 Main Street', undefined],
    ];
    for (const [name, parent, title, date] of cases) {
      it(`should make “${name}”${parent ? ` in ${parent}` : ''} the album “${title}”${date ? ` dated ${date}` : ''}`, () => {
        expect(albumFromFolderName(name, parent)).to.deep.equal({ title, date });
      });
    }
  });

  describe('in a real library', () => {
    let root: string;

    beforeEach(async () => {
      root = makeTempDir('gallery-adopt-');
      await photoFolder(root, '2019/2019-07 Lisbon', 2);
      await photoFolder(root, '2019/07-14 Grandpa', 1);
      await photoFolder(root, '2020/Été à Nice', 1, ['notes.txt']);
      await photoFolder(root, '2020/scans', 0, ['list.pdf', 'notes.txt']);
      await photoFolder(root, '.trash/123/old', 1);
      // An album already, with a folder of photos below it.
      writeAlbum(root, 'family', { title: 'Family', password: 'pw' });
      await photoFolder(root, 'family', 1);
      await photoFolder(root, 'family/cousins', 1);
      // A broken album.json hides its whole branch: nothing below it is offered.
      await photoFolder(root, 'broken/inside', 1);
      fs.writeFileSync(path.join(root, 'broken', 'album.json'), '{ not json');
    });
    afterEach(() => removeTempDir(root));

    it('should offer the folders holding photos, and no year, category, dot-folder, album or broken branch', async () => {
      const found = await findAdoptable(root);
      expect(found.map((f) => f.path)).to.deep.equal(['2019/07-14 Grandpa', '2019/2019-07 Lisbon', '2020/Été à Nice', 'family/cousins']);
      expect(found.find((f) => f.path === '2019/2019-07 Lisbon')).to.deep.include({ title: 'Lisbon', date: '2019-07', media: 2 });
    });

    it('should look only under the folders given', async () => {
      expect((await findAdoptable(root, ['2020'])).map((f) => f.path)).to.deep.equal(['2020/Été à Nice']);
    });

    it('should make albums the gallery shows, leaving every photo as it was, and adopt nothing the second time', async () => {
      const photo = path.join(root, '2019/2019-07 Lisbon/IMG_1.jpg');
      const before = fs.statSync(photo);
      const outcomes = await adoptFolders(root, await findAdoptable(root), { password: 'family-pw', hidden: true });
      expect(outcomes.every((o) => o.adopted)).to.equal(true);
      expect(readJson(path.join(root, '2019/2019-07 Lisbon/album.json'))).to.deep.equal({
        title: 'Lisbon',
        date: '2019-07',
        password: 'family-pw',
        hidden: true,
      });
      const after = fs.statSync(photo);
      expect([after.ino, after.mtimeMs, after.size]).to.deep.equal([before.ino, before.mtimeMs, before.size]);
      expect(fs.readdirSync(path.join(root, '2019/2019-07 Lisbon')).filter((n) => n.startsWith('.'))).to.deep.equal([]);

      const index = await AlbumIndex.open({ albumsDir: root, watch: false, log: loggerInto([]) });
      try {
        expect(index.album('2020/Été à Nice')?.meta).to.deep.include({ title: 'Été à Nice', hidden: true, password: 'family-pw' });
        expect(index.album('family/cousins')?.meta.title).to.equal('Cousins');
        expect(index.adoptable).to.deep.equal([]);
      } finally {
        index.close();
      }
      expect(await findAdoptable(root)).to.deep.equal([]);
    });

    it('should never overwrite an album.json written meanwhile', async () => {
      const found = await findAdoptable(root);
      const owners = path.join(root, '2019/2019-07 Lisbon/album.json');
      fs.writeFileSync(owners, '{"title": "Lisboa, by hand"}\n');
      const outcomes = await adoptFolders(root, found);
      const lisbon = outcomes.find((o) => o.folder.path === '2019/2019-07 Lisbon');
      expect(lisbon).to.deep.include({ adopted: false });
      expect(fs.readFileSync(owners, 'utf8')).to.equal('{"title": "Lisboa, by hand"}\n');
      expect(outcomes.filter((o) => o.adopted)).to.have.length(found.length - 1);
    });

    it('should report a folder it cannot write in and adopt the others', async () => {
      const found = await findAdoptable(root);
      const readOnly = path.join(root, '2020/Été à Nice');
      await withReadOnlyDir(readOnly, async () => {
        const outcomes = await adoptFolders(root, found);
        expect(outcomes.find((o) => o.folder.path === '2020/Été à Nice')).to.deep.include({ adopted: false });
        expect(outcomes.filter((o) => o.adopted)).to.have.length(found.length - 1);
      });
      expect(fs.readdirSync(readOnly).sort()).to.deep.equal(['IMG_1.jpg', 'notes.txt']);
    });

    it('should say at start how many folders wait to be adopted, naming the first', async () => {
      const index = await AlbumIndex.open({ albumsDir: root, watch: false, log: loggerInto([]) });
      try {
        expect(index.adoptable.map((f) => f.path)).to.deep.equal(['2019/07-14 Grandpa', '2019/2019-07 Lisbon', '2020/Été à Nice', 'family/cousins']);
        const [hint] = libraryHints(root, index);
        expect(hint).to.match(
          /^4 folders hold photos but are not albums yet \(2019\/07-14 Grandpa, 2019\/2019-07 Lisbon, 2020\/Été à Nice, and 1 more\): run npm run adopt/,
        );
      } finally {
        index.close();
      }
    });

    it('should say how to show your own photos when serving the samples', () => {
      expect(
        libraryHints(SAMPLE_ALBUMS_DIR, { root: { path: '', name: '', meta: undefined, parent: undefined, children: [], media: [] }, adoptable: [] })[0],
      ).to.match(/^Serving the sample albums\. To show your own photos: cp \.env\.example \.env/);
    });
  });

  describe('npm run adopt', () => {
    let root: string;
    const adopt = (...args: string[]) =>
      spawnSync(process.execPath, ['--import', 'tsx', 'scripts/adopt.ts', ...args], {
        cwd: ROOT,
        env: { ...process.env, ALBUMS_DIR: root },
        encoding: 'utf8',
        timeout: 30_000,
      });

    beforeEach(async () => {
      root = makeTempDir('gallery-adopt-cli-');
      await photoFolder(root, '2019/2019-07 Lisbon', 1);
      await photoFolder(root, '2020/Nice', 1);
    });
    afterEach(() => removeTempDir(root));

    it('should print what it would make with --dry-run and write nothing', () => {
      const run = adopt('--dry-run');
      expect(run.status).to.equal(0);
      expect(run.stdout).to.include('would adopt 2019/2019-07 Lisbon  →  “Lisbon” (dated 2019-07, 1 file)');
      expect(run.stdout).to.include('2 folders would become albums (dry run: nothing written).');
      expect(fs.existsSync(path.join(root, '2019/2019-07 Lisbon/album.json'))).to.equal(false);
    });

    it('should adopt the folders under the paths given, with a password', () => {
      const run = adopt('--password', 'secret', '2020');
      expect(run.status, run.stderr).to.equal(0);
      expect(readJson(path.join(root, '2020/Nice/album.json'))).to.deep.equal({ title: 'Nice', password: 'secret' });
      expect(fs.existsSync(path.join(root, '2019/2019-07 Lisbon/album.json'))).to.equal(false);
    });

    it('should exit 1 naming a folder it could not adopt', async () => {
      await withReadOnlyDir(path.join(root, '2020/Nice'), async () => {
        const run = adopt();
        expect(run.status).to.equal(1);
        expect(run.stderr).to.match(/not adopted 2020\/Nice: /);
        expect(run.stdout).to.include('1 album made, 1 folder not adopted.');
      });
    });

    it('should refuse a path outside the albums folder and an albums folder that does not exist', () => {
      expect(adopt('../elsewhere').status).to.equal(2);
      const missing = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/adopt.ts'], {
        cwd: ROOT,
        env: { ...process.env, ALBUMS_DIR: path.join(root, 'nope') },
        encoding: 'utf8',
        timeout: 30_000,
      });
      expect(missing.status).to.equal(2);
      expect(missing.stderr).to.include(`ALBUMS_DIR ${path.join(root, 'nope')} cannot be read (ENOENT)`);
    });
  });
});
