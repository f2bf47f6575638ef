import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** A public server (`server/main.ts`) as a real process, as PM2 runs each of its instances. */
export interface GalleryProcess {
  readonly url: string;
  readonly pid: number;
  /** Everything it wrote so far (JSON lines: its log and the request log). */
  output(): string;
  /** Its log lines, parsed. */
  lines(): Array<Record<string, unknown>>;
  /** SIGTERM, SIGKILL after `graceMs`; resolves with the exit code. */
  stop(graceMs?: number): Promise<number | null>;
}

/** Starts server/main.ts through tsx with `env` on top of the test's own, once it logs that it is ready. */
export function startGalleryProcess(env: Record<string, string>, timeoutMs = 60_000): Promise<GalleryProcess> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let exitCode: number | null | undefined;
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      exitCode = code;
      resolve(code);
    }),
  );
  const stop = async (graceMs = 15_000) => {
    if (exitCode !== undefined) return exitCode;
    child.kill('SIGTERM');
    const force = setTimeout(() => child.kill('SIGKILL'), graceMs);
    const code = await exited;
    clearTimeout(force);
    return code;
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop(1000);
      reject(new Error(`server did not start within ${timeoutMs} ms:\n${out}`));
    }, timeoutMs);
    const onData = (d: Buffer) => {
      out += d.toString();
      const m = /Gallery ready at http:\/\/\S+?:(\d+)/.exec(out);
      if (m && exitCode === undefined) {
        clearTimeout(timer);
        resolve({
          url: `http://127.0.0.1:${m[1]}`,
          pid: child.pid!,
          output: () => out,
          lines: () =>
            out
              .split('\n')
              .filter((l) => l.startsWith('{'))
              .map((l) => JSON.parse(l) as Record<string, unknown>),
          stop,
        });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${out}`));
    });
  });
}
