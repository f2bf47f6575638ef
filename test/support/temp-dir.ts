import { execFileSync } from 'node:child_process';
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

/**
 * Makes a directory refuse new entries for the duration of `fn`, so a temp file cannot be
 * created beside album.json. Tests run as root, which ignores file modes: there the directory
 * is made immutable (ext4 `chattr +i`), which stops root too; the files in it stay writable in place.
 */
export async function withReadOnlyDir(dir: string, fn: () => Promise<void>): Promise<void> {
  const asRoot = process.getuid?.() === 0;
  if (asRoot) execFileSync('chattr', ['+i', dir]);
  else fs.chmodSync(dir, 0o555);
  try {
    await fn();
  } finally {
    if (asRoot) execFileSync('chattr', ['-i', dir]);
    else fs.chmodSync(dir, 0o755);
  }
}
