/**
 * What the gallery keeps on disk about the files of one album (`CACHE_DIR/dimensions/{album}/
 * .dimensions.json`, through server/core/json-cache.ts): per file name, the version of the
 * file it was read from (mtime, size, the owner's turn) and what was read (size, length,
 * ThumbHash, playback plan, date taken), and whether what visitors ask first was prepared for
 * that version (server/media/preparer.ts).
 */
import { readJsonCache, writeJsonCache } from '../core/json-cache.js';
import { isRotation } from '../core/albums/rotations.js';
import type { PlaybackPlan } from '../core/media/playback-plan.js';
import { isTakenDate, type TakenDate } from '../core/media/taken-date.js';

/** A video's playback plan and the `type` of its original's `<source>`. */
export interface VideoPlayback {
  readonly plan: PlaybackPlan;
  readonly type?: string | undefined;
}

/** What is kept per file: its identity (mtime and size, the owner's turn) and what was read from it. */
export interface Stored {
  readonly mtimeMs: number;
  readonly size: number;
  /** The owner's turn the size and placeholder were read with (docs/api.md#rotations); absent: none. */
  readonly rotation?: number;
  readonly width: number;
  readonly height: number;
  readonly duration?: number;
  readonly thumbHash?: string;
  readonly playback?: VideoPlayback;
  /** The date the file carries (EXIF, container); absent when it has none. */
  readonly taken?: TakenDate;
  /**
   * What was prepared for this version of the file (server/media/preparer.ts `stampOf`: the
   * thumbnail sizes its album's layout shows first); absent: nothing yet.
   */
  readonly prepared?: string;
}

/**
 * 2: videos carry their playback plan. 3: photos carry their ThumbHash. 4: the date taken
 * (older files lack them, so are read again). 5: what was prepared (a file of version 4 reads
 * as nothing prepared: its facts stay, its thumbnails are looked at again).
 */
const FILE_VERSION = 5;
const READABLE_VERSIONS = [4, FILE_VERSION];

/** The entries of an album's file, by file name: empty when there is none (or one of another version). */
export async function readAlbumFacts(file: string): Promise<Map<string, Stored>> {
  const entries = new Map<string, Stored>();
  for (const version of READABLE_VERSIONS) {
    const stored = await readJsonCache(file, version);
    if (!stored) continue;
    const { entries: raw } = stored;
    if (typeof raw !== 'object' || raw === null) break;
    for (const [name, value] of Object.entries(raw)) if (isStored(value)) entries.set(name, value);
    break;
  }
  return entries;
}

/** Writes an album's entries (the caller leaves out the files it no longer has). */
export function writeAlbumFacts(file: string, entries: Readonly<Record<string, Stored>>): Promise<void> {
  return writeJsonCache(file, FILE_VERSION, { entries });
}

/**
 * A ThumbHash as the worker writes it: base64 of a few dozen bytes at most (workers/thumb-hash.ts). Checked
 * on the way in and out of the cache file, because the page puts it into an attribute.
 */
export function isThumbHash(v: unknown): v is string {
  return typeof v === 'string' && /^[A-Za-z0-9+/]{6,64}={0,2}$/.test(v);
}

const PLANS: readonly unknown[] = ['direct', 'faststart', 'transcode'] satisfies PlaybackPlan[];

function isPlayback(v: unknown): v is VideoPlayback {
  if (typeof v !== 'object' || v === null) return false;
  const p = v as Record<string, unknown>;
  return PLANS.includes(p.plan) && (p.type === undefined || typeof p.type === 'string');
}

function isStored(v: unknown): v is Stored {
  if (typeof v !== 'object' || v === null) return false;
  const s = v as Record<string, unknown>;
  const positive = (x: unknown) => typeof x === 'number' && Number.isFinite(x) && x > 0;
  return (
    typeof s.mtimeMs === 'number' &&
    typeof s.size === 'number' &&
    (s.rotation === undefined || isRotation(s.rotation)) &&
    positive(s.width) &&
    positive(s.height) &&
    (s.duration === undefined || positive(s.duration)) &&
    (s.thumbHash === undefined || isThumbHash(s.thumbHash)) &&
    (s.playback === undefined || isPlayback(s.playback)) &&
    (s.taken === undefined || isTakenDate(s.taken)) &&
    (s.prepared === undefined || typeof s.prepared === 'string')
  );
}
