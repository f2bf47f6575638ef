import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The repository root (where package.json is), whether this module runs from source
 * (`server/`) or compiled (`dist/server/`), so views and node_modules are found from either.
 */
function findRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!fs.existsSync(path.join(dir, 'package.json'))) {
    const up = path.dirname(dir);
    if (up === dir) throw new Error('package.json not found above the server module');
    dir = up;
  }
  return dir;
}

export const ROOT_DIR = findRoot();
export const VIEWS_DIR = path.join(ROOT_DIR, 'views');
