/**
 * First page of the big album under 10 connections at once (visitors arriving together,
 * as the issue measured it): a public album page is the same for all of them, so after the
 * first it is sent from memory (server/public/pages/page-cache.ts). The bare server sending
 * the same HTML from a file shows what HTTP alone costs on this machine.
 */
import fs from 'node:fs';
import path from 'node:path';
import { load } from '../http-load.js';
import { type BenchRow, limitRow } from '../rows.js';
import { type BenchContext, fetchOk, median, withBareServer } from './context.js';

const CONNECTIONS = 10;

export async function albumPage(ctx: BenchContext): Promise<BenchRow[]> {
  const { corpus, gallery } = ctx;
  const url = `${gallery.url}/photos/${corpus.bigAlbum}`;
  // The first requests stat the page's photos and compile the template (view cache is on).
  let html = '';
  for (let i = 0; i < 5; i++) html = await (await fetchOk(url)).text();
  const copy = path.join(ctx.runDir, 'album-page.html');
  fs.writeFileSync(copy, html);

  return withBareServer(ctx, [copy], async (bare) => {
    const app: number[] = [];
    const base: number[] = [];
    let tool = '';
    let errors = 0;
    if (!ctx.smoke) await load(url, { seconds: 1, connections: CONNECTIONS });
    for (let r = 0; r < ctx.rounds; r++) {
      ctx.log(`page: ${corpus.spec.bigAlbum}-photo album, round ${r + 1}/${ctx.rounds}, ${ctx.loadSeconds} s per side`);
      const order = r % 2 === 0 ? ['app', 'bare'] : ['bare', 'app'];
      for (const side of order) {
        const res = await load(side === 'app' ? url : `${bare.url}/0`, { seconds: ctx.loadSeconds, connections: CONNECTIONS });
        (side === 'app' ? app : base).push(res.p50Ms);
        errors += res.errors;
        tool = res.tool;
      }
    }
    const kb = Math.round(Buffer.byteLength(html) / 1024);
    const note = `${tool}, ${CONNECTIONS} connections, median p50 of ${ctx.rounds} rounds; page of 200 photos, ${kb} KB; baseline: bare server, same HTML${errors ? `; ${errors} errors` : ''}`;
    const row = limitRow(`album page of a ${corpus.spec.bigAlbum}-photo album, p50`, median(app), 'ms', { max: 10 }, median(base), note);
    return [errors ? { ...row, pass: false } : row];
  });
}
