/**
 * A timeline page on a 1,000,000-photo library (issue 28): pages of 120 files as /api/timeline
 * picks them, asked one after the other as a visitor scrolls (one connection): the first page,
 * the page after it (a cursor), a page starting at a month ten years back (the year scrubber),
 * and the viewer's page halfway down the list; each its p50 and p99, the worst kind the
 * figure. Then the first page under 10 connections, for context (no target: the issue sets
 * one for search only). A bare Node server sending an answer of the same size is the
 * baseline, in the same run (bench/timeline-server.ts).
 */
import path from 'node:path';
import fs from 'node:fs';
import { load } from '../http-load.js';
import { type BenchRow, limitRow } from '../rows.js';
import { spawnUntilReady } from '../server-process.js';
import { type BenchContext, fetchOk, median, withBareServer } from './context.js';

const CONNECTIONS = 10;

export async function timelineLoad(ctx: BenchContext): Promise<BenchRow[]> {
  const photos = ctx.smoke ? 20_000 : 1_000_000;
  const logFile = path.join(ctx.runDir, 'logs', 'timeline-server.log');
  const server = await spawnUntilReady(
    ['--import', 'tsx', path.join('bench', 'timeline-server.ts'), String(photos)],
    { ...process.env, MALLOC_ARENA_MAX: '2' },
    logFile,
    /timeline server listening on (\d+)/,
    300_000,
  );
  try {
    const first = (await (await fetchOk(`${server.url}/first`)).json()) as { total: number; next: string };
    const kinds: [string, string][] = [
      ['first page', '/first'],
      ['next page (cursor)', `/cursor?c=${first.next}`],
      ['a month 10 years back', '/month?m=2014-06'],
      ['viewer page halfway', `/viewer?page=${Math.floor(first.total / 240)}`],
    ];
    /** One kind of page under `connections`: its p50 and p99 (medians of the rounds), and the bare server's for the same answer. */
    const measure = async (kind: string, route: string, connections: number) => {
      const url = `${server.url}${route}`;
      const copy = path.join(ctx.runDir, 'timeline-answer.json');
      fs.writeFileSync(copy, await (await fetchOk(url)).text());
      return withBareServer(ctx, [copy], async (bare) => {
        const app: { p50: number; p99: number; errors: number }[] = [];
        const base: { p50: number; p99: number }[] = [];
        for (let r = 0; r < ctx.rounds; r++) {
          ctx.log(`timeline: ${kind}, ${connections} connection(s), round ${r + 1}/${ctx.rounds}`);
          const a = await load(url, { seconds: ctx.loadSeconds, connections });
          const b = await load(`${bare.url}/0`, { seconds: ctx.loadSeconds, connections });
          app.push({ p50: a.p50Ms, p99: a.p99Ms, errors: a.errors });
          base.push({ p50: b.p50Ms, p99: b.p99Ms });
        }
        return {
          p50: median(app.map((x) => x.p50)),
          p99: median(app.map((x) => x.p99)),
          errors: app.reduce((sum, x) => sum + x.errors, 0),
          baseP50: median(base.map((x) => x.p50)),
          baseP99: median(base.map((x) => x.p99)),
        };
      });
    };
    // A visitor scrolls one page after the other: each kind of page with one connection.
    let worst = { p50: 0, p99: 0, baseP50: Number.NaN, baseP99: Number.NaN };
    let errors = 0;
    const notes: string[] = [];
    for (const [kind, route] of kinds) {
      const m = await measure(kind, route, 1);
      errors += m.errors;
      if (m.p50 >= worst.p50) worst = m;
      notes.push(`${kind} p50 ${m.p50.toFixed(1)} / p99 ${m.p99.toFixed(1)} ms`);
    }
    // And ten visitors at once asking for the first page (the search figure's load), for context.
    const crowd = await measure('first page', '/first', CONNECTIONS);
    errors += crowd.errors;
    const what = `${photos.toLocaleString('en-US')} photos`;
    const note = `1 connection, worst of ${kinds.length} kinds of page, median of ${ctx.rounds} rounds; ${notes.join('; ')}${errors ? `; ${errors} errors` : ''}`;
    const rows: BenchRow[] = [
      limitRow(`timeline page on ${what}, p50`, worst.p50, 'ms', { max: 20 }, worst.baseP50, note),
      // The issue sets a p50 only for the timeline: its p99 is given for context.
      {
        name: `timeline page on ${what}, p99`,
        value: worst.p99,
        unit: 'ms',
        baseline: worst.baseP99,
        ratio: worst.baseP99 ? worst.p99 / worst.baseP99 : null,
        target: '-',
        pass: null,
        note: 'of the page with the worst p50; baseline: bare server sending an answer of the same size',
      },
      {
        name: `timeline first page on ${what}, ${CONNECTIONS} connections, p50`,
        value: crowd.p50,
        unit: 'ms',
        baseline: crowd.baseP50,
        ratio: crowd.baseP50 ? crowd.p50 / crowd.baseP50 : null,
        target: '-',
        pass: null,
        note: `p99 ${crowd.p99.toFixed(1)} ms; one Node thread answers them in turn: about ${CONNECTIONS} times one page's time`,
      },
    ];
    return errors ? rows.map((row) => ({ ...row, pass: false })) : rows;
  } finally {
    await server.stop();
  }
}
