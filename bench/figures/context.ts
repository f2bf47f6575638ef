import fs from 'node:fs';
import path from 'node:path';
import { type ThumbnailSize, thumbnailFile } from '../../server/core/media-catalogue.js';
import type { Corpus } from '../corpus.js';
import { type ServerProcess, startBareServer } from '../server-process.js';

/** What every figure gets from bench/run.ts. */
export interface BenchContext {
  readonly corpus: Corpus;
  readonly smoke: boolean;
  /** Scratch directory of this run (thumbnail cache, logs), removed at the end. */
  readonly runDir: string;
  /** The real gallery (server/main.ts) on corpus.galleryDir, with an empty thumbnail cache at start. */
  readonly gallery: ServerProcess;
  readonly cacheDir: string;
  /** Environment of every gallery process started (e.g. MALLOC_ARENA_MAX removed to compare). */
  readonly serverEnv: Readonly<Record<string, string | undefined>>;
  /** Seconds of each load run, and how many app/baseline rounds alternate. */
  readonly loadSeconds: number;
  readonly rounds: number;
  readonly log: (line: string) => void;
}

/** Runs `work` with a bare server serving `files`, stopped afterwards. */
export async function withBareServer<T>(ctx: BenchContext, files: readonly string[], work: (bare: ServerProcess) => Promise<T>): Promise<T> {
  const bare = await startBareServer(files, path.join(ctx.runDir, 'logs', `bare-${Date.now()}.log`));
  try {
    return await work(bare);
  } finally {
    await bare.stop();
  }
}

export async function fetchOk(url: string, init?: RequestInit): Promise<Response> {
  const res = await fetch(url, { ...init, signal: AbortSignal.timeout(120_000) });
  if (!res.ok) {
    await res.arrayBuffer();
    throw new Error(`${url} answered ${res.status}`);
  }
  return res;
}

/** Downloads and discards a body, insisting on a success. */
export async function drain(url: string): Promise<number> {
  return (await (await fetchOk(url)).arrayBuffer()).byteLength;
}

export const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

export const mean = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;

export function thumbnailUrl(base: string, relPath: string, size: ThumbnailSize): string {
  return `${base}${thumbnailPath(relPath, size)}`;
}

export function thumbnailPath(relPath: string, size: ThumbnailSize): string {
  return `/api/thumbnail?path=${encodeURIComponent(relPath)}&size=${size}`;
}

export function cacheFileOf(cacheDir: string, relPath: string, size: ThumbnailSize): string {
  const file = thumbnailFile(cacheDir, size, relPath);
  if (!fs.existsSync(file)) throw new Error(`no cached thumbnail at ${file}`);
  return file;
}
