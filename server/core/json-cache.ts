import fs from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from './fs-atomic.js';

/**
 * The one way a JSON cache lives on disk under CACHE_DIR (the media facts of an album, Live
 * Photos' identifiers, cover crops, share links' visits): an object with a `version` beside
 * its own fields, read back only when the version is the reader's, written atomically (temp
 * file, rename). A cache that is missing, cut short, not JSON or of another version reads as
 * empty: it is a cache, made again from the files it describes.
 */

/** The object stored in `file` when it is of `version`, else undefined. */
export async function readJsonCache(file: string, version: number): Promise<Readonly<Record<string, unknown>> | undefined> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await fs.readFile(file, 'utf8'));
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return undefined;
  return (parsed as { version?: unknown }).version === version ? (parsed as Record<string, unknown>) : undefined;
}

/** Writes `fields` with `version` to `file` (its folder made first), atomically; throws what the write throws. */
export async function writeJsonCache(file: string, version: number, fields: Readonly<Record<string, unknown>>): Promise<void> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  await writeFileAtomic(file, JSON.stringify({ ...fields, version }));
}
