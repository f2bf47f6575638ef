import axe from 'axe-core';
import type { Page } from 'playwright-core';

/**
 * axe-core (Deque's accessibility engine) run in a page of the browser tests: every rule it
 * runs by default (WCAG 2.0–2.2 A and AA, and its best practices), plus WCAG 2.2's target
 * size, which it leaves off by default. A finding of any impact counts: the suites expect none.
 */
const RUN_OPTIONS: axe.RunOptions = {
  resultTypes: ['violations'],
  rules: { 'target-size': { enabled: true } },
};

interface Finding {
  readonly rule: string;
  readonly impact: string;
  readonly help: string;
  readonly target: string;
  readonly summary: string;
}

/**
 * What axe finds wrong in `page` as it is now, one line per element ("serious color-contrast
 * (Elements must meet minimum color contrast ratio thresholds) .card__meta: Fix …"), so a
 * failed expectation says what to fix and where. `exclude`: selectors of parts not checked.
 *
 * The engine goes in through the DevTools protocol (not a <script>), so the page's Content
 * Security Policy, which allows no inline script, lets it run; once per document.
 */
export async function accessibilityViolations(page: Page, exclude: readonly string[] = []): Promise<string[]> {
  if (!(await page.evaluate('typeof window.axe === "object"'))) await page.evaluate(axe.source);
  const findings = await page.evaluate(
    async ({ options, excluded }) => {
      const engine = (window as unknown as { axe: typeof axe }).axe;
      const context = excluded.length ? { exclude: excluded.map((selector) => [selector]) } : document;
      const results = await engine.run(context, options);
      return results.violations.flatMap((v) =>
        v.nodes.map((n) => ({ rule: v.id, impact: v.impact ?? 'unknown', help: v.help, target: n.target.join(' '), summary: n.failureSummary ?? '' })),
      );
    },
    { options: RUN_OPTIONS, excluded: [...exclude] },
  );
  return findings.map(describeFinding);
}

function describeFinding(f: Finding): string {
  return `${f.impact} ${f.rule} (${f.help}) ${f.target}: ${f.summary.replace(/\s+/g, ' ').trim()}`;
}
