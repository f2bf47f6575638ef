import fs from 'node:fs';
import path from 'node:path';

/**
 * The repository's `views/` folder, found by walking up from this module: the same code runs
 * from `server/admin/` (tsx) and from `dist/server/admin/` (built), at different depths.
 */
export function findViewsDir(from: string = import.meta.dirname): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'views');
    if (fs.existsSync(path.join(candidate, 'admin', 'index.ejs'))) return candidate;
    if (path.dirname(dir) === dir) throw new Error(`views/admin/index.ejs not found above ${from}`);
  }
}
