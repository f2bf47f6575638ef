import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import net from 'node:net';
import { makeTempDir, removeTempDir } from './temp-dir.js';

/** Whether `command` is on PATH (redis-server, nginx): the suites that need one skip without it. */
export function onPath(command: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** A free TCP port on 127.0.0.1 (free when asked: the caller binds it at once). */
export async function freePort(): Promise<number> {
  const [port] = await freePorts(1);
  return port as number;
}

/**
 * `count` different free loopback ports: each is held until all are found, since the kernel
 * may hand a port just closed to the next listen(0), and two servers of one test (nginx's
 * HTTP and HTTPS blocks) on one port fail to start.
 */
export async function freePorts(count: number): Promise<number[]> {
  const servers = Array.from({ length: count }, () => net.createServer().listen(0, '127.0.0.1'));
  try {
    await Promise.all(servers.map((server) => new Promise<void>((resolve, reject) => server.once('listening', resolve).once('error', reject))));
    return servers.map((server) => (server.address() as net.AddressInfo).port);
  } finally {
    await Promise.all(servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
  }
}

/** Resolves once something at 127.0.0.1:`port` answers a Redis PING; rejects after `ms`. */
async function waitForPong(port: number, ms: number): Promise<void> {
  const end = Date.now() + ms;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.setTimeout(500);
      socket.once('connect', () => socket.write('PING\r\n'));
      socket.once('data', (d) => {
        socket.destroy();
        resolve(d.toString().startsWith('+PONG'));
      });
      socket.once('error', () => resolve(false));
      socket.once('timeout', () => {
        socket.destroy();
        resolve(false);
      });
    });
    if (ok) return;
    if (Date.now() > end) throw new Error(`redis-server on port ${port} did not answer within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * A real redis-server (Debian's `redis-server`) of the tests' own: loopback only, on a free
 * port, nothing persisted, its files in a temp dir. `stop()` and `start()` again on the same
 * port play an outage; only the process started here is ever signalled, by its PID.
 */
export class RedisServer {
  readonly dir = makeTempDir('gallery-redis-');
  port = 0;
  #child: ChildProcess | undefined;

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    if (this.#child) return;
    if (this.port === 0) this.port = await freePort();
    const child = spawn(
      'redis-server',
      ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', this.dir, '--daemonize', 'no', '--loglevel', 'warning'],
      { stdio: 'ignore' },
    );
    this.#child = child;
    child.once('exit', () => {
      if (this.#child === child) this.#child = undefined;
    });
    await waitForPong(this.port, 10_000);
  }

  async stop(): Promise<void> {
    const child = this.#child;
    if (!child) return;
    this.#child = undefined;
    const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const force = setTimeout(() => child.kill('SIGKILL'), 5000);
      await gone;
      clearTimeout(force);
    }
  }

  /** One command through redis-cli's protocol on a fresh connection (RESP), for checks. */
  async command(...args: string[]): Promise<string> {
    const payload = `*${args.length}\r\n${args.map((a) => `$${Buffer.byteLength(a)}\r\n${a}\r\n`).join('')}`;
    return new Promise((resolve, reject) => {
      const socket = net.connect(this.port, '127.0.0.1');
      let reply = '';
      socket.once('connect', () => socket.write(payload));
      socket.on('data', (d) => {
        reply += d.toString();
        if (reply.endsWith('\r\n')) {
          socket.destroy();
          resolve(reply.trimEnd());
        }
      });
      socket.once('error', reject);
    });
  }

  async close(): Promise<void> {
    await this.stop();
    removeTempDir(this.dir);
  }
}
