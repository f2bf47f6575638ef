import path from 'node:path';
import { readJsonCache, writeJsonCache } from '../core/json-cache.js';
import type { Logger } from '../core/logger.js';
import { isWebImage, needsHeifDecoder } from '../core/media-catalogue.js';
import { type MediaVersion, versionParam } from '../core/urls.js';
import type { CoverFocusResult, Dimensions } from '../../workers/tasks.js';
import type { MediaPool } from './pool.js';
import { PoolBusyError, TaskCancelledError } from './pool-errors.js';

export type { CoverFocusResult } from '../../workers/tasks.js';

/**
 * The shape of an album card's cover (`.card__cover { aspect-ratio: 3 / 2 }` in
 * views/assets/site.css), small: only where the crop falls is wanted.
 */
export const CARD_COVER_BOX: Dimensions = Object.freeze({ width: 300, height: 200 });

/** What a card asks: where to crop its cover, `pending` when the answer is not in yet. */
export interface CoverFocusAnswer {
  readonly focus: CoverFocusResult | undefined;
  readonly pending: boolean;
}

export interface CoverFocusLookup {
  (cover: { readonly mediaPath: string; readonly absPath: string; readonly version: MediaVersion }): Promise<CoverFocusAnswer>;
  /** Increases whenever a new answer comes in: a page made while one was pending may be made again. */
  readonly version: number;
  /** At shutdown: writes the answers not saved yet; crops still queued are left to the next start. */
  close(): Promise<void>;
  /** Resolves once every crop asked so far is worked out (or refused): `npm run thumbnails` waits for them before closing. */
  settled(): Promise<void>;
}

export interface CoverFocusOptions {
  readonly cacheDir: string;
  readonly pool: Pick<MediaPool, 'coverFocus'>;
  readonly log: Logger;
}

/** What is kept per cover: the version of the file it was read from, and the answer (null: it could not be read). */
type Stored = { readonly v: string; readonly focus: CoverFocusResult | null };

const FILE = 'cover-focus.json';
/** 1: the answers under `covers` (before it, the file was the bare map, and is read as nothing: crops are worked out again). */
const FILE_VERSION = 1;

/**
 * Where each album card's cover is cropped: the cards keep showing the shared thumbnails (a
 * tile's and the viewer's, cached already), and an `object-position` moves the crop of
 * `object-fit: cover` to the part of the photo sharp's attention strategy picks, instead of
 * the centre, where a portrait shows a wall and the top of a head. Answers are computed in
 * the pool once per version of a cover (mtime, size, inode, the owner's turn) and kept in memory and in
 * `CACHE_DIR/cover-focus.json`, so a restart computes nothing again. Videos and HEIC/HEIF
 * covers keep the centre.
 *
 * No page waits for a crop (a first /photos on a new library used to wait seconds for
 * hundreds of them): a card whose crop is not known yet is centred and marked `pending`,
 * the crop is worked out in the background (the pool's lowest priority, behind every
 * visitor's tiles), and `version` moves on when it comes in, so the pages made meanwhile are
 * made again. The only wait is for `cover-focus.json` itself, read once as the service is made.
 */
export function createCoverFocus(opts: CoverFocusOptions): CoverFocusLookup {
  const file = path.join(opts.cacheDir, FILE);
  const inFlight = new Map<string, Promise<void>>();
  let version = 0;
  let closed = false;
  let saveTimer: NodeJS.Timeout | undefined;
  let saving = Promise.resolve();

  // Read now, while the index is scanned: the first page finds the answers a restart kept.
  const known: Promise<Map<string, Stored>> = readJsonCache(file, FILE_VERSION).then(
    (stored) => new Map(Object.entries(typeof stored?.covers === 'object' && stored.covers !== null ? (stored.covers as Record<string, Stored>) : {})),
  );

  /** One write at a time, of everything known: the last one written holds every answer. */
  function save(entries: Map<string, Stored>): Promise<void> {
    saving = saving
      .then(() => writeJsonCache(file, FILE_VERSION, { covers: Object.fromEntries(entries) }))
      .catch((err: unknown) => opts.log.warn({ err }, `cannot write ${file}`));
    return saving;
  }

  let unsaved: Map<string, Stored> | undefined;
  function scheduleSave(entries: Map<string, Stored>): void {
    unsaved = entries;
    clearTimeout(saveTimer);
    // A page's covers come in together: one write for them all.
    saveTimer = setTimeout(() => {
      unsaved = undefined;
      void save(entries);
    }, 500);
    saveTimer.unref();
  }

  function compute(entries: Map<string, Stored>, mediaPath: string, absPath: string, v: string, rotation: number): Promise<void> {
    const key = `${mediaPath}\0${v}`;
    let job = inFlight.get(key);
    if (!job) {
      job = opts.pool
        .coverFocus({ src: absPath, box: CARD_COVER_BOX, ...(rotation ? { rotate: rotation } : {}) })
        .then(
          (focus) => focus,
          // Busy or cancelled: asked again by the next page. Anything else: this version cannot be read.
          (err: unknown) => (err instanceof PoolBusyError || err instanceof TaskCancelledError ? undefined : null),
        )
        .then((focus) => {
          if (focus === undefined || closed) return;
          entries.set(mediaPath, { v, focus });
          version++;
          scheduleSave(entries);
        })
        .finally(() => inFlight.delete(key));
      inFlight.set(key, job);
    }
    return job;
  }

  const lookup = async ({ mediaPath, absPath, version: fileVersion }: Parameters<CoverFocusLookup>[0]): Promise<CoverFocusAnswer> => {
    if (!isWebImage(mediaPath) || needsHeifDecoder(mediaPath)) return { focus: undefined, pending: false };
    const entries = await known;
    const v = versionParam(fileVersion);
    const stored = entries.get(mediaPath);
    if (stored?.v === v) return { focus: stored.focus ?? undefined, pending: false };
    void compute(entries, mediaPath, absPath, v, fileVersion.rotation ?? 0);
    return { focus: undefined, pending: true };
  };
  const close = async () => {
    // Background crops may be queued behind a whole library's: the pool drops them as it closes.
    closed = true;
    clearTimeout(saveTimer);
    if (unsaved) {
      const entries = unsaved;
      unsaved = undefined;
      await save(entries);
    }
    await saving;
  };
  const settled = async () => {
    while (inFlight.size > 0) await Promise.all(inFlight.values());
  };
  return Object.defineProperties(lookup, { version: { get: () => version }, close: { value: close }, settled: { value: settled } }) as CoverFocusLookup;
}
