/**
 * `npm run bench`: runs the benchmarks and prints one table of figures, baselines and ratios.
 * Exit code 1 when a figure misses its target, so a regression is visible in a script.
 */
import { type BenchRow, thumbnailBench } from './thumbnails.js';

function format(n: number | null, digits = 1): string {
  return n === null ? '-' : n.toFixed(digits);
}

function printTable(rows: readonly BenchRow[]): void {
  const lines = [
    ['figure', 'value', 'unit', 'baseline', 'ratio', 'target', 'pass'],
    ...rows.map((r) => [r.name, format(r.value), r.unit, format(r.baseline), format(r.ratio, 2), r.target, r.pass === null ? '-' : r.pass ? 'yes' : 'NO']),
  ];
  const widths = lines[0]!.map((_, col) => Math.max(...lines.map((l) => l[col]!.length)));
  const text = (cells: string[]) => cells.map((c, i) => (i === 0 || i === 2 || i === 5 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  console.log(text(lines[0]!));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const l of lines.slice(1)) console.log(text(l));
  for (const r of rows) if (r.note) console.log(`note: ${r.name}: ${r.note}`);
}

const rows = await thumbnailBench();
printTable(rows);
if (rows.some((r) => r.pass === false)) process.exitCode = 1;
