import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** Where the media pool's worker threads start (server/media/pool-lanes.ts), from sources or from the build. */

/** `.ts` when running from sources (tests, tsx), `.js` when running the build in dist/. */
const OWN_EXTENSION = path.extname(fileURLToPath(import.meta.url));
export const WORKER_FILE = fileURLToPath(new URL(`../../workers/media-worker${OWN_EXTENSION}`, import.meta.url));

/**
 * From sources the worker is TypeScript. Worker threads inherit `--import tsx`, but tsx
 * (on Node 20) installs its loader hooks in the main thread only, so each worker registers
 * them itself before piscina imports the worker file. (Where a newer Node lets tsx hook
 * workers too, the second registration only transpiles twice.) Built code needs nothing.
 */
export function workerExecArgv(): string[] | undefined {
  if (OWN_EXTENSION !== '.ts') return undefined;
  const register = `import { register } from ${JSON.stringify(tsxEsmApiUrl())}; register();`;
  return [...process.execArgv, '--import', `data:text/javascript,${encodeURIComponent(register)}`];
}

/**
 * The ESM build of `tsx/esm/api`, found through tsx's package.json exports. Neither
 * import.meta.resolve (tsx may load this very file as CommonJS, without it) nor
 * require.resolve (it picks the CommonJS build, which cannot register hooks from here) do.
 */
function tsxEsmApiUrl(): string {
  const manifestPath = createRequire(import.meta.url).resolve('tsx/package.json');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { exports: Record<string, { import: { default: string } }> };
  const entry = manifest.exports['./esm/api']?.import.default;
  if (!entry) throw new Error('tsx has no ESM entry for tsx/esm/api: cannot run the TypeScript media worker');
  return pathToFileURL(path.join(path.dirname(manifestPath), entry)).href;
}
