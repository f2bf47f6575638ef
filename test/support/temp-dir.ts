import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** A fresh directory under the OS temp dir; remove it with `removeTempDir`. */
export function makeTempDir(prefix = 'gallery-test-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

export function removeTempDir(dir: string): void {
  fs.rmSync(dir, { recursive: true, force: true });
}

/** Writes `album.json` (and creates the directory) under `root`. */
export function writeAlbum(root: string, albumPath: string, meta: Record<string, unknown>): string {
  const dir = path.join(root, ...albumPath.split('/'));
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'album.json'), JSON.stringify(meta, null, 2));
  return dir;
}
