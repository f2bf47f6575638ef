/** Where the generator writes, and the running list of what it wrote. */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** The two trees the generator owns, `albums/` and `content/`, under one root (the repository by default). */
export interface SampleTree {
  readonly root: string;
  readonly albumsDir: string;
  readonly contentDir: string;
}

export function sampleTree(root: string): SampleTree {
  return { root, albumsDir: path.join(root, 'albums'), contentDir: path.join(root, 'content') };
}

export async function writeFileIn(dir: string, name: string, data: Buffer | string): Promise<string> {
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, name);
  await writeFile(file, data);
  return file;
}

let total = 0;

/** One line per file written, and the sum for `logTotal`. */
export function log(file: string, bytes: number): void {
  total += bytes;
  process.stdout.write(`${(bytes / 1024).toFixed(0).padStart(6)} KB  ${file}\n`);
}

export function logTotal(): void {
  process.stdout.write(`total ${(total / 1024 / 1024).toFixed(2)} MB\n`);
}
