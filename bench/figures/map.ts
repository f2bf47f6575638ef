/**
 * The map on a 1,000,000-photo library (issue 28): /api/map's answers with 10 connections,
 * the whole world (zoom 2) and a region (zoom 9, two degrees square), each its p50 and p99,
 * against a bare Node server sending an answer of the same size, in the same run; how long the
 * clusters take to make (what the first visitor after a change waits for, the route keeping
 * them 60 s after) and the memory they add (bench/map-server.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { load } from '../http-load.js';
import { type BenchRow, limitRow } from '../rows.js';
import { spawnUntilReady } from '../server-process.js';
import { type BenchContext, fetchOk, median, withBareServer } from './context.js';

const CONNECTIONS = 10;
const VIEWS: [string, string][] = [
  ['the world, zoom 2', '/marks?bbox=-180,-85,180,85&zoom=2'],
  ['a region, zoom 9', '/marks?bbox=8,44,10,46&zoom=9'],
];

const contextRow = (name: string, value: number, unit: string, baseline: number, note: string): BenchRow => ({
  name,
  value,
  unit,
  baseline,
  ratio: baseline ? value / baseline : null,
  target: '-',
  pass: null,
  note,
});

export async function mapLoad(ctx: BenchContext): Promise<BenchRow[]> {
  const photos = ctx.smoke ? 20_000 : 1_000_000;
  const logFile = path.join(ctx.runDir, 'logs', 'map-server.log');
  const server = await spawnUntilReady(
    ['--expose-gc', '--import', 'tsx', path.join('bench', 'map-server.ts'), String(photos)],
    { ...process.env, MALLOC_ARENA_MAX: '2' },
    logFile,
    /map server listening on (\d+)/,
    300_000,
  );
  try {
    const log = fs.readFileSync(logFile, 'utf8');
    const made =
      /map index: (\d+) photos at (\d+) spots of \d+ files, made in (\d+) ms; library and clusters: memory \+([\d.]+) MB RSS, \+([\d.]+) MB heap/.exec(log);
    const what = `${photos.toLocaleString('en-US')} photos`;
    let worst = { p50: 0, p99: 0, baseP50: Number.NaN, baseP99: Number.NaN };
    let errors = 0;
    const notes: string[] = [];
    for (const [view, route] of VIEWS) {
      const url = `${server.url}${route}`;
      const copy = path.join(ctx.runDir, 'map-answer.json');
      fs.writeFileSync(copy, await (await fetchOk(url)).text());
      const m = await withBareServer(ctx, [copy], async (bare) => {
        const app: { p50: number; p99: number }[] = [];
        const base: { p50: number; p99: number }[] = [];
        for (let r = 0; r < ctx.rounds; r++) {
          ctx.log(`map: ${view}, round ${r + 1}/${ctx.rounds}`);
          const a = await load(url, { seconds: ctx.loadSeconds, connections: CONNECTIONS });
          const b = await load(`${bare.url}/0`, { seconds: ctx.loadSeconds, connections: CONNECTIONS });
          app.push({ p50: a.p50Ms, p99: a.p99Ms });
          base.push({ p50: b.p50Ms, p99: b.p99Ms });
          errors += a.errors;
        }
        return {
          p50: median(app.map((x) => x.p50)),
          p99: median(app.map((x) => x.p99)),
          baseP50: median(base.map((x) => x.p50)),
          baseP99: median(base.map((x) => x.p99)),
        };
      });
      if (m.p50 >= worst.p50) worst = m;
      notes.push(`${view} p50 ${m.p50.toFixed(1)} / p99 ${m.p99.toFixed(1)} ms`);
    }
    const note = `${CONNECTIONS} connections, worst of ${VIEWS.length} views, median of ${ctx.rounds} rounds; ${notes.join('; ')}${errors ? `; ${errors} errors` : ''}`;
    const rows: BenchRow[] = [
      // The issue sets no target for the map's answers: given for context.
      contextRow(`map answer (/api/map) on ${what}, p50`, worst.p50, 'ms', worst.baseP50, note),
      contextRow(`map answer (/api/map) on ${what}, p99`, worst.p99, 'ms', worst.baseP99, 'baseline: bare server sending an answer of the same size'),
    ];
    if (made) {
      rows.push({
        name: `map clusters of ${what} made (the first visitor after a change)`,
        value: Number(made[3]),
        unit: 'ms',
        baseline: null,
        ratio: null,
        target: '-',
        pass: null,
        note: `${Number(made[1]).toLocaleString('en-US')} photos at ${Number(made[2]).toLocaleString('en-US')} spots (city precision); kept 60 s for every visitor who sees the same albums`,
      });
      rows.push(
        limitRow(
          `search and map indexes on ${what}, memory`,
          Number(made[4]),
          'MB',
          { max: 150 },
          null,
          `RSS difference around making the library and one set of clusters; heap +${made[5]} MB`,
        ),
      );
    }
    return errors ? rows.map((row) => ({ ...row, pass: false })) : rows;
  } finally {
    await server.stop();
  }
}
