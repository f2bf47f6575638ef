import { execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { ConfigError, loadConfig } from '../../server/core/config.js';
import { environmentWithFile, readEnvFile, SETTINGS } from '../../server/core/env-file.js';
import { startGalleryProcess } from '../support/gallery-process.js';
import { writeJpeg } from '../support/media-fixtures.js';
import { makeTempDir, removeTempDir, writeAlbum } from '../support/temp-dir.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

describe('the settings file (.env)', () => {
  let dir: string;
  beforeEach(() => {
    dir = makeTempDir('gallery-env-');
  });
  afterEach(() => removeTempDir(dir));

  const write = (text: string, name = '.env') => {
    fs.writeFileSync(path.join(dir, name), text);
    return path.join(dir, name);
  };

  describe('readEnvFile()', () => {
    it('should read <root>/.env when GALLERY_ENV is not set, and nothing when there is none', () => {
      expect(readEnvFile({}, '/', dir)).to.deep.equal({ file: undefined, values: {} });
      const file = write('PORT=4000\n# a comment\nHOST="127.0.0.1"\n');
      expect(readEnvFile({}, '/', dir)).to.deep.equal({ file, values: { PORT: '4000', HOST: '127.0.0.1' } });
    });

    it('should read the file GALLERY_ENV names, relative to the working directory, and refuse one that is missing', () => {
      const file = write('WORKERS=3\n', 'gallery.env');
      expect(readEnvFile({ GALLERY_ENV: 'gallery.env' }, dir, '/nowhere').values).to.deep.equal({ WORKERS: '3' });
      expect(readEnvFile({ GALLERY_ENV: file }, '/', '/nowhere').file).to.equal(file);
      expect(() => readEnvFile({ GALLERY_ENV: path.join(dir, 'missing.env') }, '/', dir)).to.throw(
        ConfigError,
        /GALLERY_ENV: cannot read .*missing\.env \(ENOENT\)/,
      );
    });

    it('should make folders relative to the file, not to where the command runs', () => {
      write('ALBUMS_DIR=photos\nCACHE_DIR=../cache\nCONTENT_DIR=/srv/content\n');
      expect(readEnvFile({}, '/somewhere/else', dir).values).to.deep.equal({
        ALBUMS_DIR: path.join(dir, 'photos'),
        CACHE_DIR: path.join(path.dirname(dir), 'cache'),
        CONTENT_DIR: '/srv/content',
      });
    });

    it('should stop at an unknown name, naming it and the file', () => {
      const file = write('ALBUM_DIR=/photos\n');
      expect(() => readEnvFile({}, '/', dir)).to.throw(ConfigError, `${file}: unknown setting ALBUM_DIR (the settings are listed in .env.example)`);
    });

    it('should know every variable .env.example documents, and .env.example every one it knows', () => {
      const example = fs.readFileSync(path.join(ROOT, '.env.example'), 'utf8');
      const documented = [...example.matchAll(/^#? ?([A-Z][A-Z_]+)=/gm)].map((m) => m[1]);
      expect([...new Set(documented)].sort()).to.deep.equal([...SETTINGS].sort());
    });
  });

  describe('environmentWithFile()', () => {
    it('should let the environment win over the file', () => {
      write('PORT=4000\nWORKERS=3\n');
      expect(environmentWithFile({ PORT: '5000' }, '/', dir)).to.deep.include({ PORT: '5000', WORKERS: '3' });
    });

    it('should stop a command at a bad value in the file, naming the variable', () => {
      write('PORT=lots\n');
      expect(() => loadConfig(environmentWithFile({}, '/', dir))).to.throw(ConfigError, 'PORT must be an integer from 0 to 65535, got "lots"');
    });
  });

  describe('read by every command', function () {
    this.timeout(60_000);
    let envFile: string;
    const albumsDir = () => path.join(dir, 'library');

    beforeEach(async () => {
      writeAlbum(albumsDir(), '2024/lisbon', { title: 'Lisbon from the settings file' });
      await writeJpeg(path.join(albumsDir(), '2024/lisbon/IMG_1.jpg'), 64, 48);
      fs.mkdirSync(path.join(dir, 'content'));
      envFile = write('ALBUMS_DIR=library\nCACHE_DIR=cache\nCONTENT_DIR=content\nPORT=0\nHOST=127.0.0.1\nADMIN_PORT=0\nWORKERS=1\n', 'gallery.env');
    });

    it('should serve and manage the same tree from the same file: npm start and npm run admin', async () => {
      const gallery = await startGalleryProcess({ GALLERY_ENV: envFile });
      try {
        expect(gallery.output()).to.include(`settings from ${envFile}`);
        const page = await fetch(`${gallery.url}/photos`);
        expect(await page.text()).to.include('Lisbon from the settings file');
      } finally {
        await gallery.stop();
      }
      const admin = spawn(process.execPath, ['--import', 'tsx', 'server/admin/main.ts'], {
        cwd: ROOT,
        env: { ...process.env, GALLERY_ENV: envFile },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      try {
        const port = await new Promise<string>((resolve, reject) => {
          let out = '';
          const timer = setTimeout(() => reject(new Error(`admin did not start:\n${out}`)), 30_000);
          admin.stdout.on('data', (d: Buffer) => {
            out += d.toString();
            const m = /Admin server ready on http:\/\/127\.0\.0\.1:(\d+)\/ \(albums: ([^)]+)\)/.exec(out);
            if (m) {
              clearTimeout(timer);
              expect(m[2]).to.equal(albumsDir());
              resolve(m[1]!);
            }
          });
        });
        const albums = (await (await fetch(`http://127.0.0.1:${port}/api/albums`)).json()) as { path: string; title: string }[];
        expect(albums.map((a) => [a.path, a.title])).to.deep.equal([['2024/lisbon', 'Lisbon from the settings file']]);
      } finally {
        admin.kill('SIGTERM');
      }
    });

    it('should make the thumbnails in the cache the file names: npm run thumbnails', () => {
      const run = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/thumbnails.ts'], {
        cwd: ROOT,
        env: { ...process.env, GALLERY_ENV: envFile },
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(run.status, run.stderr).to.equal(0);
      expect(fs.existsSync(path.join(dir, 'cache', 'thumbnails', 'small', '2024', 'lisbon', 'IMG_1.jpg.jpg'))).to.equal(true);
    });

    it('should adopt the folders of the tree the file names: npm run adopt', async () => {
      await writeJpeg(path.join(albumsDir(), '2024/2024-08 Beach/IMG_1.jpg'), 64, 48);
      const run = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/adopt.ts'], {
        cwd: ROOT,
        env: { ...process.env, GALLERY_ENV: envFile },
        encoding: 'utf8',
        timeout: 30_000,
      });
      expect(run.status, run.stderr).to.equal(0);
      expect(run.stdout).to.include(`Albums folder: ${albumsDir()}`);
      expect(JSON.parse(fs.readFileSync(path.join(albumsDir(), '2024/2024-08 Beach/album.json'), 'utf8'))).to.deep.equal({ title: 'Beach', date: '2024-08' });
    });

    it('should take the cluster profile and NODE_ENV from the file: pm2 start (ecosystem.config.cjs)', () => {
      fs.appendFileSync(envFile, 'GALLERY_INSTANCES=2\nREDIS_URL=redis://127.0.0.1:6379\nNODE_ENV=development\n');
      const app = JSON.parse(
        execFileSync(process.execPath, ['-e', 'process.stdout.write(JSON.stringify(require("./ecosystem.config.cjs").apps[0]))'], {
          cwd: ROOT,
          env: { ...process.env, GALLERY_ENV: envFile },
          encoding: 'utf8',
        }),
      ) as { exec_mode: string; instances: number; env: Record<string, string> };
      expect(app).to.deep.include({ exec_mode: 'cluster', instances: 2 });
      expect(app.env).to.include({ NODE_ENV: 'development', INSTANCES: '2' });
      expect(app.env).to.not.have.property('PORT');
    });

    it('should stop a server whose file holds a bad value, naming it', () => {
      fs.appendFileSync(envFile, 'WATCH=sometimes\n');
      const run = spawnSync(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
        cwd: ROOT,
        env: { ...process.env, GALLERY_ENV: envFile },
        encoding: 'utf8',
        timeout: 30_000,
      });
      expect(run.status).to.equal(1);
      expect(run.stdout + run.stderr).to.include('WATCH must be one of auto, events, poll, got \\"sometimes\\"');
    });
  });
});
