/**
 * Where the preparation of albums stands (server/media/preparer.ts), told to the admin, which
 * runs in a process of its own: each gallery process that prepares writes its progress to
 * `CACHE_DIR/preparation/<pid>.json` every few seconds while it works, and once more when it
 * is done; the admin reads them all ("Preparing “Lisbon”, 312 of 500 · about 2 min").
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { readJsonCache, writeJsonCache } from '../core/json-cache.js';

export interface PreparationProgress {
  /** Albums waiting, the one under way included. */
  readonly albumsWaiting: number;
  /** The album under way, and how far it is. */
  readonly current: { readonly path: string; readonly done: number; readonly total: number } | undefined;
  /** Files prepared since the process started (not counting those found prepared). */
  readonly filesPrepared: number;
  /** Files prepared per second over the last minute; 0 when too few to tell. */
  readonly rate: number;
}

/** A process's progress, as the admin reads it. */
export interface ProcessProgress extends PreparationProgress {
  readonly pid: number;
  /** When it was written (ms since the epoch). */
  readonly at: number;
}

const VERSION = 1;
/** A file not written for this long is of a process that stopped (or a machine that went down). */
export const STALE_AFTER_MS = 30_000;

const dirOf = (cacheDir: string) => path.join(cacheDir, 'preparation');

export function writeProgress(cacheDir: string, progress: PreparationProgress): Promise<void> {
  return writeJsonCache(path.join(dirOf(cacheDir), `${process.pid}.json`), VERSION, { ...progress, pid: process.pid, at: Date.now() });
}

export async function removeProgress(cacheDir: string): Promise<void> {
  await fs.rm(path.join(dirOf(cacheDir), `${process.pid}.json`), { force: true });
}

/** The progress of every process that wrote one lately. */
export async function readProgress(cacheDir: string, now = Date.now()): Promise<ProcessProgress[]> {
  const names = await fs.readdir(dirOf(cacheDir)).catch(() => [] as string[]);
  const found: ProcessProgress[] = [];
  for (const name of names.filter((n) => /^\d+\.json$/.test(n))) {
    const stored = await readJsonCache(path.join(dirOf(cacheDir), name), VERSION);
    if (stored && isProgress(stored) && now - stored.at < STALE_AFTER_MS) found.push(stored);
  }
  return found;
}

function isProgress(v: Readonly<Record<string, unknown>>): v is ProcessProgress & Record<string, unknown> {
  const count = (x: unknown) => typeof x === 'number' && Number.isInteger(x) && x >= 0;
  const current = v.current as Record<string, unknown> | undefined;
  return (
    count(v.albumsWaiting) &&
    count(v.filesPrepared) &&
    count(v.pid) &&
    typeof v.at === 'number' &&
    typeof v.rate === 'number' &&
    (current === undefined || (typeof current.path === 'string' && count(current.done) && count(current.total)))
  );
}
