import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import { THUMBNAIL_SIZE_NAMES, thumbnailFile } from '../../server/core/media-catalogue.js';
import { LOCK_SUFFIX, lockFileOf, makeOnce, STALE_MS, tryLock, untilUnlocked } from '../../server/media/cache-lock.js';
import { TaskCancelledError } from '../../server/media/pool-errors.js';
import { createMediaTestApp, type MediaTestApp, writeJpeg } from '../support/media-fixtures.js';
import { makeTempDir, removeTempDir } from '../support/temp-dir.js';

/** Every lock file left under `dir`. */
function locksUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return (fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }) as string[]).filter((n) => n.endsWith(LOCK_SUFFIX));
}

/** A PID that named a process of this machine a moment ago and names none now. */
function deadPid(): number {
  const pid = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout;
  return Number(pid);
}

describe('cache files made once across processes (server/media/cache-lock.ts)', () => {
  let dir: string;
  let file: string;
  beforeEach(() => {
    dir = makeTempDir('cache-lock-');
    file = path.join(dir, 'small', 'album', 'IMG_1.jpg.jpg');
  });
  afterEach(() => removeTempDir(dir));

  describe('tryLock', () => {
    it('should give the lock to one taker at a time, and again once released', async () => {
      const first = await tryLock(file);
      expect(first).to.not.equal(undefined);
      expect(fs.existsSync(lockFileOf(file))).to.equal(true);
      expect(JSON.parse(fs.readFileSync(lockFileOf(file), 'utf8'))).to.include({ host: os.hostname(), pid: process.pid });
      expect(await tryLock(file)).to.equal(undefined);
      await first!.release();
      expect(fs.existsSync(lockFileOf(file))).to.equal(false);
      const second = await tryLock(file);
      expect(second).to.not.equal(undefined);
      await second!.release();
    });

    it('should take over a lock nobody has refreshed for longer than STALE_MS', async () => {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(lockFileOf(file), JSON.stringify({ host: 'other-machine', pid: 1 }));
      const old = new Date(Date.now() - STALE_MS - 1000);
      fs.utimesSync(lockFileOf(file), old, old);
      const lock = await tryLock(file);
      expect(lock).to.not.equal(undefined);
      await lock!.release();
    });

    it("should take over at once the lock of a process of this machine that is gone, and never a live one's", async () => {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(lockFileOf(file), JSON.stringify({ host: os.hostname(), pid: process.ppid }));
      expect(await tryLock(file), 'the live parent process holds it').to.equal(undefined);
      fs.writeFileSync(lockFileOf(file), JSON.stringify({ host: 'other-machine', pid: deadPid() }));
      expect(await tryLock(file), 'another machine: only time tells').to.equal(undefined);
      fs.writeFileSync(lockFileOf(file), JSON.stringify({ host: os.hostname(), pid: deadPid() }));
      const lock = await tryLock(file);
      expect(lock).to.not.equal(undefined);
      await lock!.release();
    });

    it('should not remove, on release, a lock another process took over meanwhile', async () => {
      const mine = await tryLock(file);
      fs.rmSync(lockFileOf(file));
      fs.writeFileSync(lockFileOf(file), JSON.stringify({ host: 'other-machine', pid: 7 }));
      await mine!.release();
      expect(fs.existsSync(lockFileOf(file))).to.equal(true);
    });

    it('should tell its own locks apart: releasing one that was replaced leaves the lock that replaced it', async () => {
      const first = await tryLock(file);
      // Gone from under its holder (the cache cleared), then taken again by this same process.
      fs.rmSync(lockFileOf(file));
      const second = await tryLock(file);
      expect(second, 'the lock taken again').to.not.equal(undefined);
      await first!.release();
      expect(fs.existsSync(lockFileOf(file)), 'the second lock survives the first release').to.equal(true);
      await second!.release();
      expect(fs.existsSync(lockFileOf(file))).to.equal(false);
    });
  });

  describe('untilUnlocked', () => {
    it('should resolve once the holder releases', async () => {
      const lock = await tryLock(file);
      let done = false;
      const waiting = untilUnlocked(file).then(() => (done = true));
      await new Promise((r) => setTimeout(r, 100));
      expect(done).to.equal(false);
      await lock!.release();
      await waiting;
      expect(done).to.equal(true);
    });

    it('should stop waiting with a TaskCancelledError when its signal aborts', async () => {
      const lock = await tryLock(file);
      const controller = new AbortController();
      const waiting = untilUnlocked(file, controller.signal);
      setTimeout(() => controller.abort(), 50);
      try {
        await waiting;
        expect.fail('should have been cancelled');
      } catch (err) {
        expect(err).to.be.instanceOf(TaskCancelledError);
      }
      await lock!.release();
    });
  });

  describe('makeOnce', () => {
    it('should make the file once for two makers at once, the second reading what the first made', async () => {
      let made = 0;
      const make = async () => {
        made++;
        await new Promise((r) => setTimeout(r, 100));
        fs.mkdirSync(path.dirname(file), { recursive: true });
        fs.writeFileSync(file, 'made');
      };
      const isMade = async () => fs.existsSync(file);
      await Promise.all([makeOnce(file, make, isMade), makeOnce(file, make, isMade)]);
      expect(made).to.equal(1);
      expect(fs.existsSync(lockFileOf(file))).to.equal(false);
    });

    it('should make it itself when the holder failed', async () => {
      let made = 0;
      const failing = makeOnce(
        file,
        async () => {
          await new Promise((r) => setTimeout(r, 100));
          throw new Error('decoder crashed');
        },
        async () => false,
      );
      const second = makeOnce(
        file,
        async () => {
          made++;
        },
        async () => fs.existsSync(file),
      );
      await Promise.allSettled([failing]);
      await second;
      expect(made).to.equal(1);
    });
  });
});

/**
 * Two thumbnail caches, each with its own pool, on one CACHE_DIR: two processes of the gallery
 * as PM2's cluster runs them (test/cluster/ does it with real processes).
 */
describe('thumbnails asked of two processes at once', function () {
  this.timeout(60_000);
  let root: string;
  let albumsDir: string;
  let cacheDir: string;
  let a: MediaTestApp;
  let b: MediaTestApp;

  before(async () => {
    root = makeTempDir('cache-lock-thumbs-');
    albumsDir = path.join(root, 'albums');
    cacheDir = path.join(root, 'cache');
    await writeJpeg(path.join(albumsDir, '2024/trip/big.jpg'), 2400, 1600);
    await writeJpeg(path.join(albumsDir, '2024/trip/other.jpg'), 1600, 1200);
    a = await createMediaTestApp({ albumsDir, cacheDir, workers: 1, backgroundDelayMs: 2000 });
    b = await createMediaTestApp({ albumsDir, cacheDir, workers: 1, backgroundDelayMs: 2000 });
  });
  after(async () => {
    await a?.close();
    await b?.close();
    removeTempDir(root);
  });

  it('should make a cold thumbnail once, serve both the same bytes, and leave no lock', async () => {
    const url = '/api/thumbnail?path=2024/trip/big.jpg&size=small';
    const [runA, runB] = [a.pool.tasksRun, b.pool.tasksRun];
    const [fromA, fromB] = await Promise.all([request(a.app).get(url).expect(200), request(b.app).get(url).expect(200)]);
    expect(a.pool.tasksRun - runA + (b.pool.tasksRun - runB), 'tasks run by both').to.equal(1);
    expect(Buffer.compare(fromA.body as Buffer, fromB.body as Buffer)).to.equal(0);
    expect(fromA.headers.etag).to.equal(fromB.headers.etag);
    expect(locksUnder(cacheDir)).to.deep.equal([]);
  });

  /** Until every size and format of `rel` is in the cache (the background work done). */
  async function allMade(rel: string): Promise<boolean> {
    const made = () => THUMBNAIL_SIZE_NAMES.every((size) => ['jpeg', 'webp'].every((f) => fs.existsSync(thumbnailFile(cacheDir, size, rel, f as 'jpeg'))));
    const end = Date.now() + 30_000;
    while (!made() && Date.now() < end) await new Promise((r) => setTimeout(r, 100));
    return made();
  }

  it('should leave the other sizes to the process that made the one asked', async () => {
    // The first test's background work out of the way.
    expect(await allMade('2024/trip/big.jpg')).to.equal(true);
    await new Promise((r) => setTimeout(r, 200));
    const rel = '2024/trip/other.jpg';
    const url = `/api/thumbnail?path=${rel}&size=small`;
    const [runA, runB] = [a.pool.tasksRun, b.pool.tasksRun];
    await Promise.all([request(a.app).get(url).expect(200), request(b.app).get(url).expect(200)]);
    expect(await allMade(rel), 'every size made in the background').to.equal(true);
    // One task for the small JPEG, then (after a quiet second or two) the one background task for the rest: nothing twice.
    expect(a.pool.tasksRun - runA + (b.pool.tasksRun - runB)).to.equal(2);
  });
});
