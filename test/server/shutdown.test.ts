import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import { expect } from 'chai';
import { GalleryFixture } from '../support/gallery-fixture.js';

/** Starts `server/main.ts` as a real process and resolves with its URL once it logs readiness. */
function startServer(env: NodeJS.ProcessEnv, entry = 'server/main.ts'): Promise<{ child: ChildProcess; url: string; output: () => string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', entry], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${out}`)), 20_000);
    const onData = (d: Buffer) => {
      out += d.toString();
      const m = /ready at (http:\/\/\S+?):(\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ child, url: `http://127.0.0.1:${m[2]}`, output: () => out });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`server exited with ${code}:\n${out}`)));
  });
}

describe('server process', () => {
  const fx = new GalleryFixture();
  const size = 64 * 1024 * 1024;

  before(async () => {
    await fx.build({ '2024/a/big': { meta: { title: 'Big', token: 'secret-token-value' }, files: [] } });
    // A large "video" so its download is still in flight when the signal arrives.
    const fd = fs.openSync(fx.path('2024/a/big/large.mp4'), 'w');
    fs.ftruncateSync(fd, size);
    fs.closeSync(fd);
  });
  after(() => fx.close());

  describe('on SIGTERM', () => {
    it('should finish the request in flight, refuse new connections and exit 0', async function () {
      this.timeout(40_000);
      const { child, url, output } = await startServer({
        PORT: '0',
        HOST: '127.0.0.1',
        ALBUMS_DIR: fx.albumsDir,
        CACHE_DIR: fx.cacheDir,
        CONTENT_DIR: fx.contentDir,
        WORKERS: '1',
      });
      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));

      let refused: boolean | undefined;
      // A slow client: read the first chunk, then pause while the server is told to stop.
      const received = await new Promise<number>((resolve, reject) => {
        http
          .get(`${url}/albums/2024/a/big/large.mp4`, (res) => {
            let bytes = 0;
            let signalled = false;
            res.on('data', (chunk: Buffer) => {
              bytes += chunk.length;
              if (!signalled) {
                signalled = true;
                res.pause();
                child.kill('SIGTERM');
                setTimeout(() => {
                  fetch(`${url}/photos`)
                    .then(
                      () => (refused = false),
                      () => (refused = true),
                    )
                    .finally(() => res.resume());
                }, 500);
              }
            });
            res.on('end', () => resolve(bytes));
            res.on('error', reject);
          })
          .on('error', reject);
      });
      expect(received).to.equal(size);
      expect(refused, 'a new connection after SIGTERM').to.equal(true);
      expect(await exited).to.equal(0);
      expect(output()).to.match(/SIGTERM/);
    });
  });

  describe('on SIGTERM with keep-alive clients', () => {
    it('should answer a request still arriving on an open connection, with Connection: close, and exit 0', async function () {
      this.timeout(40_000);
      const { child, url, output } = await startServer({
        PORT: '0',
        HOST: '127.0.0.1',
        ALBUMS_DIR: fx.albumsDir,
        CACHE_DIR: fx.cacheDir,
        CONTENT_DIR: fx.contentDir,
        WORKERS: '1',
      });
      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      const get = (path: string) =>
        new Promise<{ status: number; connection: string | undefined; localPort: number | undefined }>((resolve, reject) => {
          http
            .get(`${url}${path}`, { agent }, (res) => {
              const localPort = res.socket.localPort;
              res.resume();
              res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, localPort }));
            })
            .on('error', reject);
        });
      const first = await get('/photos');
      expect(first.connection).to.equal('keep-alive');
      child.kill('SIGTERM');
      await new Promise((r) => setTimeout(r, 200));
      // The same socket, idle when the signal came: its next request is answered, not dropped.
      const second = await get('/photos');
      expect(second.localPort, 'the kept-alive connection').to.equal(first.localPort);
      expect(second.status).to.equal(200);
      expect(second.connection).to.equal('close');
      const refused = await fetch(`${url}/photos`).then(
        () => false,
        () => true,
      );
      expect(refused, 'a new connection after SIGTERM').to.equal(true);
      agent.destroy();
      expect(await exited, output()).to.equal(0);
    });
  });

  describe('request log', () => {
    it('should log one line per request without passwords or tokens', async function () {
      this.timeout(30_000);
      const { child, url, output } = await startServer({
        PORT: '0',
        HOST: '127.0.0.1',
        ALBUMS_DIR: fx.albumsDir,
        CACHE_DIR: fx.cacheDir,
        CONTENT_DIR: fx.contentDir,
        WORKERS: '1',
      });
      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
      await fetch(`${url}/photos/2024/a/big?token=secret-token-value`);
      await fetch(`${url}/api/unlock`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: 'album-access=%5B%22cookie-token-value%22%5D' },
        body: 'albumPath=2024%2Fa%2Fbig&password=hunter2-password',
        redirect: 'manual',
      });
      await fetch(`${url}/api/check-password`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Album-Token': 'header-token-value' },
        body: JSON.stringify({ albumPath: '2024/a/big', password: 'json-password' }),
      });
      child.kill('SIGTERM');
      expect(await exited).to.equal(0);
      const lines = output()
        .split('\n')
        .filter((l) => l.startsWith('{"level":"info"') && l.includes('"method"'));
      const parsed = lines.map((l) => JSON.parse(l) as { method: string; url: string; status: number; ms: number });
      expect(parsed.map((p) => p.method)).to.deep.equal(['GET', 'POST', 'POST']);
      expect(parsed[0]!.url).to.equal('/photos/2024/a/big?token=***');
      expect(parsed[1]!.status).to.equal(302);
      for (const p of parsed) expect(p.ms).to.be.a('number');
      for (const secret of ['secret-token-value', 'hunter2-password', 'cookie-token-value', 'header-token-value', 'json-password']) {
        expect(output(), secret).to.not.include(secret);
      }
    });
  });

  describe('npm start (server/launch.ts)', () => {
    it("should run the server with the ecosystem file's malloc settings, pass SIGTERM on and exit 0", async function () {
      this.timeout(30_000);
      const env = { PORT: '0', HOST: '127.0.0.1', ALBUMS_DIR: fx.albumsDir, CACHE_DIR: fx.cacheDir, CONTENT_DIR: fx.contentDir, WORKERS: '1' };
      const withoutTuning = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(MALLOC_|LD_PRELOAD$)/.test(k)));
      const child = spawn(process.execPath, ['--import', 'tsx', 'server/launch.ts'], { env: { ...withoutTuning, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
      let out = '';
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`server did not start:\n${out}`)), 20_000);
        const onData = (d: Buffer) => {
          out += d.toString();
          if (/ready at http/.test(out)) {
            clearTimeout(timer);
            resolve();
          }
        };
        child.stdout!.on('data', onData);
        child.stderr!.on('data', onData);
      });
      // The server is the launcher's child: its environment holds the settings.
      const server = Number(fs.readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, 'utf8').trim().split(/\s+/)[0]);
      const environ = fs.readFileSync(`/proc/${server}/environ`, 'utf8').split('\0');
      expect(environ).to.include('MALLOC_ARENA_MAX=2');
      expect(environ).to.include('MALLOC_MMAP_THRESHOLD_=1048576');
      child.kill('SIGTERM');
      expect(await exited, out).to.equal(0);
      expect(() => process.kill(server, 0), 'the server is gone').to.throw(/ESRCH/);
    });
  });
});
