/**
 * `npm run lint` (with Biome): the import rules between the parts of the server (the
 * "may import" column of docs/architecture.md). Biome's noRestrictedImports matches the text
 * of an import, not the file a relative import resolves to, so the rules between folders are
 * checked here on resolved paths. Exit code 1 when an import breaks a rule, each one listed on stderr.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

interface FolderRule {
  /** The folder whose files the rule applies to, relative to the repository root. */
  readonly from: string;
  /** True when a file in `from` may not import `target` (a path relative to the root). */
  readonly forbids: (target: string) => boolean;
  readonly why: string;
}

const under = (folder: string) => (target: string) => target === folder || target.startsWith(`${folder}/`);
const anyOf =
  (...folders: string[]) =>
  (target: string) =>
    folders.some((folder) => under(folder)(target));
const toolFolders = anyOf('scripts', 'bench', 'test');

export const RULES: readonly FolderRule[] = [
  {
    from: 'server/core',
    forbids: anyOf('server/public', 'server/admin', 'server/http', 'server/media', 'workers'),
    why: 'server/core is the base every part builds on: it imports none of them',
  },
  { from: 'server/admin', forbids: under('server/public'), why: 'the admin app does not depend on the public app' },
  { from: 'server/public', forbids: under('server/admin'), why: 'the public app does not depend on the admin app' },
  {
    from: 'server/media',
    forbids: anyOf('server/public', 'server/admin', 'server/http'),
    why: 'the media pipeline serves both apps and knows nothing of HTTP',
  },
  {
    from: 'server/http',
    forbids: (target) => anyOf('server/public', 'server/admin')(target) || (under('server/media')(target) && !/\/pool-errors\.[jt]s$/.test(target)),
    why: "the shared HTTP plumbing maps the pool's domain errors (pool-errors.ts) and knows nothing else of the parts above it",
  },
  {
    from: 'workers',
    forbids: (target) => under('server')(target) && !under('server/core')(target),
    why: 'a worker thread loads only server/core from the server, not the apps or the pool that runs it',
  },
  { from: 'server', forbids: toolFolders, why: 'the server does not ship scripts, benchmarks or tests' },
  { from: 'workers', forbids: toolFolders, why: 'the workers do not ship scripts, benchmarks or tests' },
];

/** The module specifiers of static imports, re-exports and dynamic `import('…')` with a literal. */
export function importedSpecifiers(source: string): string[] {
  const found: string[] = [];
  const patterns = [/\b(?:import|export)\s[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]/g, /\bimport\s*['"]([^'"]+)['"]/g, /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g];
  for (const pattern of patterns) {
    for (const match of source.matchAll(pattern)) {
      const specifier = match[1];
      if (specifier !== undefined) found.push(specifier);
    }
  }
  return found;
}

export interface Violation {
  readonly file: string;
  readonly specifier: string;
  readonly why: string;
}

/** The broken rules of one file (`file` relative to the root, with '/' separators). */
export function violationsOf(file: string, source: string): Violation[] {
  const violations: Violation[] = [];
  for (const specifier of importedSpecifiers(source)) {
    if (!specifier.startsWith('.')) continue; // packages are Biome's (biome.jsonc)
    const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier));
    for (const rule of RULES) {
      if (under(rule.from)(file) && rule.forbids(target)) violations.push({ file, specifier, why: rule.why });
    }
  }
  return violations;
}

function sourceFiles(root: string, folder: string): string[] {
  const dir = path.join(root, folder);
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => /\.[cm]?[jt]s$/.test(name) && !name.endsWith('.d.ts'))
    .map((name) => path.posix.join(folder, name.split(path.sep).join('/')));
}

function main(): void {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const files = [...sourceFiles(root, 'server'), ...sourceFiles(root, 'workers')];
  const violations = files.flatMap((file) => violationsOf(file, fs.readFileSync(path.join(root, file), 'utf8')));
  for (const v of violations) console.error(`${v.file}: imports '${v.specifier}': ${v.why}`);
  if (violations.length > 0) process.exitCode = 1;
  else console.log(`check-imports: ${files.length} files, no import between parts breaks a rule`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
