/** One line of the benchmark table, and how the table is printed. */

export interface BenchRow {
  readonly name: string;
  /** null when the figure could not be measured (see note). */
  readonly value: number | null;
  readonly unit: string;
  /** What `value` is compared with, measured in the same run; null when the target is absolute. */
  readonly baseline: number | null;
  /** value / baseline. */
  readonly ratio: number | null;
  /** What counts as a pass ('ratio >= 0.9', '<= 25 ms'), '-' for a figure given for context. */
  readonly target: string;
  /** null: not judged (context figure, or not measured). */
  readonly pass: boolean | null;
  readonly note?: string | undefined;
}

/** A figure judged by its ratio to a baseline measured in the same run. */
export function ratioRow(name: string, value: number | null, unit: string, baseline: number | null, minRatio: number, note?: string): BenchRow {
  const ratio = value !== null && baseline ? value / baseline : null;
  return { name, value, unit, baseline, ratio, target: `ratio >= ${minRatio}`, pass: ratio === null ? null : ratio >= minRatio, note };
}

/** A figure judged by its ratio to a baseline measured in the same run, where less is better (a time against sharp's). */
export function maxRatioRow(name: string, value: number | null, unit: string, baseline: number | null, maxRatio: number, note?: string): BenchRow {
  const ratio = value !== null && baseline ? value / baseline : null;
  return { name, value, unit, baseline, ratio, target: `ratio <= ${maxRatio}`, pass: ratio === null ? null : ratio <= maxRatio, note };
}

/**
 * A figure judged by an absolute limit. `baseline`, when given, is for context (e.g. the bare
 * server's latency for the same bytes), and the ratio is shown but not judged.
 */
export function limitRow(
  name: string,
  value: number | null,
  unit: string,
  limit: { readonly max?: number; readonly below?: number },
  baseline: number | null = null,
  note?: string,
): BenchRow {
  const ratio = value !== null && baseline ? value / baseline : null;
  let target = '-';
  let pass: boolean | null = null;
  if (limit.max !== undefined) {
    target = `<= ${limit.max} ${unit}`;
    pass = value === null ? null : value <= limit.max;
  } else if (limit.below !== undefined) {
    target = `< ${limit.below} ${unit}`;
    pass = value === null ? null : value < limit.below;
  }
  return { name, value, unit, baseline, ratio, target, pass, note };
}

/** A figure that must be exactly `expected` (a count), no more and no less. */
export function exactRow(name: string, value: number | null, unit: string, expected: number, note?: string): BenchRow {
  return { name, value, unit, baseline: null, ratio: null, target: `= ${expected}`, pass: value === null ? null : value === expected, note };
}

/** A figure that could not be measured: still a row, so a missing figure is visible. */
export function failedRow(name: string, unit: string, target: string, err: unknown): BenchRow {
  const message = err instanceof Error ? err.message : String(err);
  return { name, value: null, unit, baseline: null, ratio: null, target, pass: false, note: `not measured: ${message.split('\n')[0]}` };
}

function format(n: number | null): string {
  if (n === null || !Number.isFinite(n)) return '-';
  const abs = Math.abs(n);
  if (Number.isInteger(n)) return String(n);
  return n.toFixed(abs >= 100 ? 0 : abs >= 10 ? 1 : 2);
}

/** The table as text lines: fixed columns, misses marked so they stand out in a log. */
export function formatTable(rows: readonly BenchRow[]): string {
  const lines = [
    ['figure', 'value', 'unit', 'baseline', 'ratio', 'target', 'pass'],
    ...rows.map((r) => [
      r.name,
      format(r.value),
      r.unit,
      format(r.baseline),
      r.ratio === null ? '-' : r.ratio.toFixed(2),
      r.target,
      r.pass === null ? '-' : r.pass ? 'yes' : 'MISS',
    ]),
  ];
  const widths = lines[0]!.map((_, col) => Math.max(...lines.map((l) => l[col]!.length)));
  const leftAligned = new Set([0, 2, 5]);
  const text = (cells: string[]) =>
    cells
      .map((c, i) => (leftAligned.has(i) ? c.padEnd(widths[i]!) : c.padStart(widths[i]!)))
      .join('  ')
      .trimEnd();
  const out = [text(lines[0]!), widths.map((w) => '-'.repeat(w)).join('  '), ...lines.slice(1).map(text)];
  const notes = rows.filter((r) => r.note).map((r) => `  ${r.name}: ${r.note}`);
  if (notes.length > 0) out.push('', 'notes:', ...notes);
  return out.join('\n');
}

/** The same table as GitHub markdown, for the README. */
export function formatMarkdown(rows: readonly BenchRow[]): string {
  const out = ['| figure | value | unit | baseline | ratio | target | pass |', '|---|---:|---|---:|---:|---|---|'];
  const cell = (text: string) => text.replaceAll('|', '\\|');
  for (const r of rows) {
    out.push(
      `| ${cell(r.name)} | ${format(r.value)} | ${r.unit} | ${format(r.baseline)} | ${r.ratio === null ? '-' : r.ratio.toFixed(2)} | ${r.target} | ${r.pass === null ? '-' : r.pass ? 'yes' : '**MISS**'} |`,
    );
  }
  return out.join('\n');
}
