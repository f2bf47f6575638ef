import fs from 'node:fs';
import http from 'node:http';
import { Writable } from 'node:stream';
import v8 from 'node:v8';
import vm from 'node:vm';
import { planZip, writeZip } from '../../server/public/zip/album-zip.js';
import { MAX_CONCURRENT_ZIPS, MAX_ZIPS_PER_CLIENT } from '../../server/public/zip/download-limits.js';
import { close, createTestApp, eventually, expect, getRaw, listen, makeTempDir, q, writeAlbum, writeRandomImages } from './support.js';

/** A download whose client reads nothing: the response is paused as soon as it arrives. */
interface StalledDownload {
  readonly status: number;
  readonly headers: http.IncomingHttpHeaders;
  /** Resolves when the connection is closed, telling whether the body came whole. */
  readonly closed: Promise<{ complete: boolean }>;
  /** Reads again: a paused client only learns that the server closed once it reads. */
  resume(): void;
  abandon(): void;
}

function stalledDownload(url: string, headers: Record<string, string> = {}): Promise<StalledDownload> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent: false, headers }, (res) => {
      res.pause();
      res.on('error', () => {});
      const closed = new Promise<{ complete: boolean }>((done) => res.on('close', () => done({ complete: res.complete })));
      resolve({ status: res.statusCode ?? 0, headers: res.headers, closed, resume: () => res.resume(), abandon: () => req.destroy() });
    });
    req.on('error', (err) => (req.destroyed ? undefined : reject(err)));
  });
}

/** GETs `url` until it is not refused as busy; the server frees a slot a moment after a client leaves. */
async function untilServed(url: string): Promise<number> {
  for (;;) {
    const res = await getRaw(url);
    if (res.status !== 503) return res.status;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A reader that accepts the first chunk and then never asks for more: a client gone quiet. */
class StalledSink extends Writable {
  override _write(_chunk: Buffer, _enc: BufferEncoding, _cb: (err?: Error | null) => void): void {
    // The callback is never called.
  }
}

/** Live bytes in Buffers (outside the JS heap), after a full garbage collection. */
function liveBufferBytes(): number {
  v8.setFlagsFromString('--expose-gc');
  (vm.runInNewContext('gc') as () => void)();
  return process.memoryUsage().arrayBuffers;
}

describe('album download limits', function () {
  this.timeout(30_000);
  let root: string;

  before(function () {
    root = makeTempDir();
    writeAlbum(root, '2024/small', { title: 'Small' }, { 'a.jpg': 'photo' });
    // 40 MB: more than the loopback socket buffers take, so a client that reads nothing
    // leaves the server with bytes it cannot send.
    writeAlbum(root, '2024/big', { title: 'Big' });
    writeRandomImages(`${root}/2024/big`, 20, 2 * 1024 * 1024);
  });

  after(function () {
    fs.rmSync(root, { recursive: true, force: true });
  });

  describe('with more downloads than the cap', function () {
    let server: http.Server;
    let base: string;

    before(async function () {
      ({ server, base } = await listen((await createTestApp(root, { maxConcurrent: 2, idleTimeoutMs: 60_000 })).app));
    });

    after(async function () {
      await close(server);
    });

    it('should answer 503 with Retry-After past the cap, and serve again once a slot is free', async function () {
      const running = [await stalledDownload(base + q('2024/big')), await stalledDownload(base + q('2024/big'))];
      expect(running.map((d) => d.status)).to.deep.equal([200, 200]);

      const refused = await getRaw(base + q('2024/small'));
      expect(refused.status).to.equal(503);
      expect(Number(refused.headers['retry-after'])).to.be.above(0);
      expect(JSON.parse(refused.body.toString())).to.have.property('error').that.is.a('string');

      for (const d of running) d.abandon();
      await Promise.all(running.map((d) => d.closed));
      expect(await untilServed(base + q('2024/small'))).to.equal(200);
    });
  });

  describe('with one client holding its share', function () {
    let server: http.Server;
    let base: string;
    const greedy = { 'X-Forwarded-For': '198.51.100.7' };
    const other = { 'X-Forwarded-For': '203.0.113.20' };

    before(async function () {
      // The shipped limits; clients told apart by their address, as behind TRUST_PROXY.
      ({ server, base } = await listen((await createTestApp(root, { trustProxy: 'loopback' })).app));
    });

    after(async function () {
      await close(server);
    });

    it("should refuse that client past its share with 429, and never another client's download", async function () {
      // As many idle downloads as the whole server runs: one client may hold only its share.
      const held: StalledDownload[] = [];
      for (let i = 0; i < MAX_CONCURRENT_ZIPS; i++) held.push(await stalledDownload(base + q('2024/big'), greedy));
      const statuses = held.map((d) => d.status);
      expect(statuses.filter((s) => s === 200).length).to.equal(MAX_ZIPS_PER_CLIENT);
      expect(statuses.filter((s) => s === 429).length).to.equal(MAX_CONCURRENT_ZIPS - MAX_ZIPS_PER_CLIENT);
      const refused = held.find((d) => d.status === 429)!;
      expect(Number(refused.headers['retry-after'])).to.be.above(0);
      expect(refused.headers['content-type']).to.match(/^application\/json/);
      // Read to their end: a paused answer is never closed.
      for (const d of held) if (d.status === 429) d.resume();
      const again = await getRaw(base + q('2024/small'), greedy);
      expect([again.status, JSON.parse(again.body.toString())]).to.deep.equal([
        429,
        { error: `${MAX_ZIPS_PER_CLIENT} album downloads are already running from your network: let one finish, then try again` },
      ]);

      // Another client is served whole meanwhile.
      const res = await getRaw(base + q('2024/small'), other);
      expect([res.status, res.complete]).to.deep.equal([200, true]);

      for (const d of held) d.abandon();
      await Promise.all(held.map((d) => d.closed));
    });
  });

  describe('with the server full of stalled downloads', function () {
    let server: http.Server;
    let base: string;
    const STALLED_MS = 1500;

    before(async function () {
      ({ server, base } = await listen((await createTestApp(root, { trustProxy: 'loopback', maxConcurrent: 2, maxPerClient: 2, stalledMs: STALLED_MS })).app));
    });

    after(async function () {
      await close(server);
    });

    it('should end the one stalled longest for a client with none running, once it has stalled long enough', async function () {
      const first = { 'X-Forwarded-For': '198.51.100.8' };
      const second = { 'X-Forwarded-For': '203.0.113.21' };
      const held = [await stalledDownload(base + q('2024/big'), first), await stalledDownload(base + q('2024/big'), first)];
      expect(held.map((d) => d.status)).to.deep.equal([200, 200]);
      // Just started: taking their time, not stalled yet.
      const early = await getRaw(base + q('2024/small'), second);
      expect(early.status).to.equal(503);
      expect(Number(early.headers['retry-after'])).to.be.above(0);

      await new Promise((r) => setTimeout(r, STALLED_MS + 200));
      const res = await getRaw(base + q('2024/small'), second);
      expect([res.status, res.complete]).to.deep.equal([200, true]);
      // The first one, which stalled first, was ended: its client sees a download that failed.
      held[0]!.resume();
      expect(await held[0]!.closed).to.deep.equal({ complete: false });
      held[1]!.abandon();
      await held[1]!.closed;
    });
  });

  describe('with a client that stops reading', function () {
    let server: http.Server;
    let base: string;

    before(async function () {
      ({ server, base } = await listen((await createTestApp(root, { maxConcurrent: 1, idleTimeoutMs: 300 })).app));
    });

    after(async function () {
      await close(server);
    });

    it('should disconnect it after the idle timeout and free its slot', async function () {
      const stalled = await stalledDownload(base + q('2024/big'));
      expect(stalled.status).to.equal(200);
      // No abandon(): only the server can end this download, and free the only slot.
      expect(await untilServed(base + q('2024/small'))).to.equal(200);
      stalled.resume();
      expect(await stalled.closed).to.deep.equal({ complete: false });
    });
  });

  describe('memory of a stalled download', function () {
    it('should stay under a megabyte, whatever the album size', async function () {
      const STALLED = 8;
      const names = fs.readdirSync(`${root}/2024/big`).filter((f) => f.endsWith('.jpg'));
      const plan = await planZip(names.map((name) => ({ name, path: `${root}/2024/big/${name}` })));
      const before = liveBufferBytes();
      const sinks = Array.from({ length: STALLED }, () => new StalledSink());
      const downloads = sinks.map((sink) => writeZip(plan, sink, { idleTimeoutMs: 60_000 }).catch(() => {}));
      // Filled when nothing more is read: the buffered total stops changing.
      let last = -1;
      await eventually(() => {
        const now = liveBufferBytes();
        const settled = now === last;
        last = now;
        return settled;
      }, 10_000);
      const perDownload = (liveBufferBytes() - before) / STALLED;
      for (const sink of sinks) sink.destroy();
      await Promise.all(downloads);
      expect(perDownload, `${Math.round(perDownload / 1024)} KB buffered per stalled download`).to.be.below(1024 * 1024);
    });
  });
});
