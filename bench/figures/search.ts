/**
 * Search on a 1,000,000-photo library (issue 28): 10 connections asking one query at a time,
 * several kinds of query (a place, a month, a camera and a year, a file name, an album title
 * matching half the library), each its p50 and p99; a bare Node server sending an answer of
 * the same size is the baseline, in the same run. And the memory the library takes: the
 * server's RSS, heap and array buffers around its build (bench/search-server.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { load } from '../http-load.js';
import { type BenchRow, limitRow } from '../rows.js';
import { spawnUntilReady } from '../server-process.js';
import { type BenchContext, fetchOk, median, withBareServer } from './context.js';

const CONNECTIONS = 10;
const QUERIES = ['lisbon', 'december 2019', 'canon 2019', 'img_0004200', 'sea'];

export async function searchLoad(ctx: BenchContext): Promise<BenchRow[]> {
  const photos = ctx.smoke ? 20_000 : 1_000_000;
  const logFile = path.join(ctx.runDir, 'logs', 'search-server.log');
  const server = await spawnUntilReady(
    ['--expose-gc', '--import', 'tsx', path.join('bench', 'search-server.ts'), String(photos)],
    { ...process.env, MALLOC_ARENA_MAX: '2', SEARCH_QUERIES: QUERIES.join(',') },
    logFile,
    /search server listening on (\d+)/,
    300_000,
  );
  try {
    const log = fs.readFileSync(logFile, 'utf8');
    const memory = /memory \+([\d.]+) MB RSS, \+([\d.]+) MB heap, \+([\d.]+) MB array buffers/.exec(log);
    const built = /built in (\d+) ms/.exec(log)?.[1];
    const rows: BenchRow[] = [];
    let worstP50 = 0;
    let worstP99 = 0;
    let baseP50 = Number.NaN;
    let baseP99 = Number.NaN;
    const notes: string[] = [];
    let errors = 0;
    for (const q of QUERIES) {
      const url = `${server.url}/search?q=${encodeURIComponent(q)}`;
      const body = await (await fetchOk(url)).text();
      const copy = path.join(ctx.runDir, 'search-answer.html');
      fs.writeFileSync(copy, body);
      const total = (JSON.parse(body) as { total: number }).total;
      await withBareServer(ctx, [copy], async (bare) => {
        const app: { p50: number; p99: number }[] = [];
        const base: { p50: number; p99: number }[] = [];
        for (let r = 0; r < ctx.rounds; r++) {
          ctx.log(`search: "${q}", round ${r + 1}/${ctx.rounds}`);
          const a = await load(url, { seconds: ctx.loadSeconds, connections: CONNECTIONS });
          const b = await load(`${bare.url}/0`, { seconds: ctx.loadSeconds, connections: CONNECTIONS });
          app.push({ p50: a.p50Ms, p99: a.p99Ms });
          base.push({ p50: b.p50Ms, p99: b.p99Ms });
          errors += a.errors;
        }
        const p50 = median(app.map((x) => x.p50));
        const p99 = median(app.map((x) => x.p99));
        worstP50 = Math.max(worstP50, p50);
        worstP99 = Math.max(worstP99, p99);
        baseP50 = median(base.map((x) => x.p50));
        baseP99 = median(base.map((x) => x.p99));
        notes.push(`"${q}" (${total.toLocaleString('en-US')} found) p50 ${p50.toFixed(1)} / p99 ${p99.toFixed(1)} ms`);
      });
    }
    const what = `${photos.toLocaleString('en-US')} photos`;
    const note = `${CONNECTIONS} connections, worst query of ${QUERIES.length}, median of ${ctx.rounds} rounds; ${notes.join('; ')}${errors ? `; ${errors} errors` : ''}`;
    rows.push(limitRow(`search on ${what}, p50`, worstP50, 'ms', { max: 20 }, baseP50, note));
    rows.push(limitRow(`search on ${what}, p99`, worstP99, 'ms', { max: 100 }, baseP99, 'baseline: bare server sending an answer of the same size'));
    if (memory) {
      const [rss, heap, buffers] = [Number(memory[1]), Number(memory[2]), Number(memory[3])];
      rows.push(
        limitRow(
          `search library on ${what}, memory`,
          rss,
          'MB',
          { max: 150 },
          null,
          `RSS difference around its build (${built} ms) and first search; heap +${heap} MB, array buffers +${buffers} MB`,
        ),
      );
    }
    return errors ? rows.map((row) => ({ ...row, pass: false })) : rows;
  } finally {
    await server.stop();
  }
}
