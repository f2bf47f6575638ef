import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import type { BenchRow } from '../../bench/rows.js';
import { onPath } from '../support/redis-server.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Every figure `npm run bench` prints: the smoke run must produce each of them. */
const EXPECTED = [
  /^cold small thumbnails/,
  /^50 cold tile requests at once: non-200/,
  /^cached small thumbnail/,
  /^cached medium thumbnail/,
  /^album page of a \d+-photo album, p50/,
  /^EXIF of a/,
  /^ZIP download \(/,
  /^ZIP download, server peak RSS growth/,
  /^ZIP download \(\d+ × [\d.]+ MP JPEGs, [^)]+\), prepared \(CRCs known\)/,
  /^ZIP download \(\d+ × [\d.]+ MP JPEGs, [^)]+\), not prepared yet/,
  /^first-screen bytes, \d+-photo album, 390×844/,
  /^first-screen bytes, \d+-photo album, 1440×900/,
  /^start-up on [\d,]+ photos until \/photos answers/,
  /^start-up on [\d,]+ photos, server peak RSS/,
  /^start-up on [\d,]+ photos, \/photos HTML/,
  /^new \d+-photo album \(.+\) copied in: time until prepared vs sharp/,
  /^new \d+-photo album \(.+\) copied in, after its preparation: first visitor's page TTFB/,
  /^new \d+-photo album \(.+\) copied in, after its preparation: all first-screen tiles/,
  /^\d+-HEIC camera roll copied in, after its preparation: all first-screen tiles/,
  /^album page p99 of other visitors while a \d+-photo album is prepared/,
  /^a restart on a prepared library: files decoded again/,
  ...(onPath('nginx') ? [/^cached small thumbnail \(\d+ KB\) through nginx's cache vs one Node process/] : []),
  ...(onPath('redis-server')
    ? [/^album page of a \d+-photo album, 2 processes vs 1/, /^wrong passwords answered 401 before the lockout, 100 concurrent guesses over 2 processes/]
    : []),
];

/** Printed always; measured only where PM2 is installed (it needs a daemon of its own). */
const PM2_ROW = /^failed requests during `pm2 reload` of 2 processes under load/;

/**
 * Runs `bench/run.ts --smoke` as its own process (as `npm run bench` would) so the benchmark
 * cannot rot: every row present, with a finite value. The figures of a smoke run mean
 * nothing (tiny corpus, one-second loads on a shared machine), so targets are not checked.
 */
describe('npm run bench --smoke', function () {
  this.timeout(240_000);

  it('should print every row with a finite value', async () => {
    const json = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'bench-smoke-')), 'rows.json');
    try {
      const { code, stdout, stderr } = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
        const child = execFile(
          process.execPath,
          ['--import', 'tsx', 'bench/run.ts', '--smoke', '--json', json],
          { cwd: ROOT, timeout: 230_000, maxBuffer: 8 * 1024 * 1024 },
          (err, out, errOut) => resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout: out, stderr: errOut }),
        );
        child.stdin?.end();
      });
      expect(code, `exit code; stderr:\n${stderr}`).to.equal(0);
      expect(stdout).to.match(/figure\s+value\s+unit\s+baseline\s+ratio\s+target\s+pass/);
      const { rows } = JSON.parse(fs.readFileSync(json, 'utf8')) as { rows: BenchRow[] };
      for (const pattern of EXPECTED) {
        const row = rows.find((r) => pattern.test(r.name));
        expect(row, `a row matching ${pattern}; rows: ${rows.map((r) => r.name).join(' | ')}`).to.not.equal(undefined);
        expect(Number.isFinite(row!.value), `${row!.name}: value ${row!.value} (${row!.note ?? ''})`).to.equal(true);
        if (row!.baseline !== null) expect(Number.isFinite(row!.ratio), `${row!.name}: ratio`).to.equal(true);
      }
      if (onPath('redis-server')) {
        const reload = rows.find((r) => PM2_ROW.test(r.name));
        expect(reload, 'the pm2 reload row').to.not.equal(undefined);
        if (reload!.value === null) expect(reload!.note).to.match(/pm2 is not installed|npm run build/);
      }
    } finally {
      fs.rmSync(path.dirname(json), { recursive: true, force: true });
    }
  });
});
