import type { Stats } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Album, MediaItem, TreeNode } from '../core/albums/album-tree.js';
import { type ContentIds, filesOf, isLivePhotoMotion, isLivePhotoStill, pairLivePhotos } from '../core/albums/live-photos.js';
import { HttpError } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import type { MediaKind } from '../core/media-catalogue.js';
import type { AlbumFactsStore } from './dimensions-file.js';
import { isMissing } from '../core/paths.js';
import { MediaTaskError, PoolBusyError } from './pool-errors.js';

/**
 * The content identifiers of Live Photos (docs/api.md#live-photos), read after each scan, in
 * the background, and handed to the index, which pairs with them.
 *
 * The scan reads directories only; reading a file of every photo would cost minutes for a
 * large tree. So identifiers are read only where they can change a pair: in folders holding
 * at least one `.mov` and at least one still (`.heic .heif .jpg .jpeg`). There, every movie
 * is read, and every still paired with one by name (a pair whose two identifiers differ is
 * not one); the other stills only when a movie with an identifier is left without a still
 * (its still may be named otherwise: `IMG_1.JPG` + `IMG_1_export.MOV`). A folder needing more
 * than `maxReadsPerFolder` reads keeps its pairs by name, and says so in the log.
 *
 * Reads go through the pool (the `contentId` task, headers only), a few at a time, and each
 * identifier is kept in its file's entry of the album's facts record (server/media/dimensions.ts,
 * `Stored.contentId`), for the version of the file (size and mtime) it was read from: a restart
 * or a rescan reads nothing that has not changed, only stats the files concerned. The record
 * has one writer per album, so this pass and the album's preparation never lose each other's
 * fields; a file's entry is made first (its header read, as its page would) where it has none.
 * Symbolic links are never read (their identifier counts as absent: they pair by name).
 */

/** What the service needs of the album index (server/core/albums/album-index.ts). */
export interface ContentIdIndex {
  albums(): Iterable<Album>;
  contentIds(albumPath: string): ContentIds | undefined;
  setContentIds(albumPath: string, ids: ContentIds): boolean;
  on(event: 'change', listener: () => void): unknown;
  off(event: 'change', listener: () => void): unknown;
}

/** The pool's task (server/media/pool.ts). */
export interface ContentIdReader {
  contentId(task: { src: string; kind: MediaKind }): Promise<{ contentId: string | null }>;
}

/** Where identifiers are kept: the albums' facts records (server/media/dimensions.ts `DimensionsCache`). */
export interface ContentIdFacts {
  /** Reads what is not known of `items`: afterwards each has its entry, unless its header is unreadable or the pool was busy. */
  complete(node: TreeNode, items: readonly MediaItem[]): Promise<void>;
  readonly records: Pick<AlbumFactsStore, 'entry' | 'amend'>;
  /** Writes the album's record now, when changes wait to be written. */
  save(node: TreeNode): Promise<void>;
}

export interface LivePhotoIdsOptions {
  readonly index: ContentIdIndex;
  readonly albumsDir: string;
  readonly facts: ContentIdFacts;
  readonly pool: ContentIdReader;
  readonly log: Logger;
  /** Reads in flight at once: the pool's main lane also serves thumbnails. */
  readonly concurrency?: number;
  /** Files read in one folder at most (see above). */
  readonly maxReadsPerFolder?: number;
  /** After a full queue refused reads, the pass is tried again this much later. */
  readonly retryMs?: number;
}

export interface LivePhotoIds {
  /** Resolves when no pass is running or due (tests, shutdown). */
  idle(): Promise<void>;
  close(): Promise<void>;
}

/** What is kept per file: its identity and its identifier (null: it has none, or is unreadable). */
interface Known {
  readonly size: number;
  readonly mtimeMs: number;
  readonly id: string | null;
}

const DEFAULT_CONCURRENCY = 2;
const DEFAULT_MAX_READS = 5000;
const DEFAULT_RETRY_MS = 30_000;

export function createLivePhotoIds(opts: LivePhotoIdsOptions): LivePhotoIds {
  const { index, log } = opts;
  const concurrency = opts.concurrency ?? DEFAULT_CONCURRENCY;
  const maxReads = opts.maxReadsPerFolder ?? DEFAULT_MAX_READS;
  /**
   * Identifiers of files whose album record has no entry (their header unreadable): kept in
   * memory, by album and file name, so a rescan does not read them again.
   */
  const unrecorded = new Map<string, Map<string, Known>>();
  /** Folders already reported as too large, so a rescan does not repeat the line. */
  const tooLarge = new Set<string>();
  let running: Promise<void> | undefined;
  let again = false;
  let closed = false;
  /** True while this service hands identifiers to the index: the 'change' that follows is its own. */
  let applying = false;
  let retryTimer: NodeJS.Timeout | undefined;

  const onChange = () => {
    if (!applying) schedule();
  };
  index.on('change', onChange);
  schedule();

  function schedule(): void {
    if (closed) return;
    if (running) {
      again = true;
      return;
    }
    running = (async () => {
      try {
        do {
          again = false;
          await pass();
        } while (again && !closed);
      } catch (err) {
        log.error({ err }, 'reading the content identifiers of Live Photos failed');
      } finally {
        running = undefined;
      }
    })();
  }

  /** One look at every album of the current snapshot; a change meanwhile starts the next look. */
  async function pass(): Promise<void> {
    let refused = false;
    for (const album of [...index.albums()]) {
      if (closed || again) return;
      const files = [...filesOf(album.media)];
      const ids = hasStillAndMotion(files) ? await idsOf(album, files) : new Map<string, string>();
      if (ids === undefined) {
        refused = true;
        continue;
      }
      if (closed) return;
      apply(album.path, ids);
    }
    if (refused && !closed) {
      clearTimeout(retryTimer);
      retryTimer = setTimeout(schedule, opts.retryMs ?? DEFAULT_RETRY_MS);
      retryTimer.unref();
    }
  }

  function apply(albumPath: string, ids: ContentIds): void {
    applying = true;
    try {
      index.setContentIds(albumPath, ids);
    } finally {
      applying = false;
    }
  }

  /**
   * The identifiers of the files of one folder that matter to its pairs, by name; undefined
   * when the pool refused reads (busy): the folder keeps what it has, and is looked at again.
   */
  async function idsOf(album: Album, files: readonly MediaItem[]): Promise<Map<string, string> | undefined> {
    const dir = path.join(opts.albumsDir, ...album.path.split('/'));
    const known = new Map<string, string | null>();
    const items = files.map(({ name, kind }) => ({ name, kind }));
    const byName = pairLivePhotos(items);
    // Every movie, and every still paired with one by name.
    const first = [...filesOf(byName.filter((m) => m.motion)), ...byName.filter(isLivePhotoMotion)].map((m) => m.name);
    if (first.length > maxReads) {
      if (!tooLarge.has(album.path)) {
        tooLarge.add(album.path);
        log.warn(`Live Photos of ${album.path} paired by name only: ${first.length} files to read, more than ${maxReads}`);
      }
      return new Map();
    }
    let complete = await readInto(album, dir, files, first, known);

    // A movie with an identifier and no still: its still may have another name.
    const withIds = pairLivePhotos(items, idsFrom(known));
    const lonelyMovie = withIds.some((m) => isLivePhotoMotion(m) && typeof known.get(m.name) === 'string');
    if (lonelyMovie) {
      const second = withIds.filter((m) => isLivePhotoStill(m) && !m.motion && !known.has(m.name)).map((m) => m.name);
      if (first.length + second.length > maxReads) {
        if (!tooLarge.has(album.path)) {
          tooLarge.add(album.path);
          log.warn(`Live Photos of ${album.path} with other names than their movies' not looked for: ${second.length} more stills to read`);
        }
      } else complete = (await readInto(album, dir, files, second, known)) && complete;
    }

    // Only what is still in the folder is kept (the record leaves out the rest as it is saved).
    const present = new Set(files.map((f) => f.name));
    const memo = unrecorded.get(album.path);
    for (const name of memo?.keys() ?? []) if (!present.has(name)) memo!.delete(name);
    await opts.facts.save(album);
    return complete ? idsFrom(known) : undefined;
  }

  /**
   * Fills `known` for `names`: from the album's record when its entry is of the file's size and
   * mtime, else read by the pool and written there. False when some read was refused.
   */
  async function readInto(
    album: Album,
    dir: string,
    items: readonly MediaItem[],
    names: readonly string[],
    known: Map<string, string | null>,
  ): Promise<boolean> {
    const byName = new Map(items.map((m) => [m.name, m]));
    // Entries first, so that what is read has a place to be kept.
    await opts.facts.complete(album, filesNamed(byName, names));
    let refused = false;
    let next = 0;
    const worker = async () => {
      while (next < names.length && !closed) {
        const name = names[next++]!;
        const src = path.join(dir, name);
        let stat: Stats;
        try {
          stat = await fs.lstat(src);
        } catch {
          continue; // Gone since the scan: the next scan will see.
        }
        if (!stat.isFile()) {
          known.set(name, null);
          continue;
        }
        const kept = await keptId(album.path, name, stat);
        if (kept !== undefined) {
          known.set(name, kept);
          continue;
        }
        try {
          const { contentId } = await opts.pool.contentId({ src, kind: byName.get(name)!.kind });
          await remember(name, stat, contentId);
        } catch (err) {
          if (err instanceof PoolBusyError) refused = true;
          // Undecodable: it has no identifier we can use, until it changes.
          else if (err instanceof MediaTaskError) await remember(name, stat, null);
          else if (!(isMissing(err) || err instanceof HttpError)) log.warn({ err }, `could not read the content identifier of ${src}`);
        }
      }
    };
    const remember = async (name: string, stat: Version, id: string | null) => {
      known.set(name, id);
      await opts.facts.records.amend(album, name, (s) => (sameVersion(s, stat) && s.contentId !== id ? { ...s, contentId: id } : undefined));
      const memo = unrecorded.get(album.path) ?? new Map<string, Known>();
      if (sameVersion(await opts.facts.records.entry(album.path, name), stat)) memo.delete(name);
      else memo.set(name, { size: stat.size, mtimeMs: stat.mtimeMs, id });
      if (memo.size > 0) unrecorded.set(album.path, memo);
      else unrecorded.delete(album.path);
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, names.length) }, worker));
    return !refused;
  }

  /** The identifier kept of this version of the file; undefined: not read yet. */
  async function keptId(albumPath: string, name: string, stat: Version): Promise<string | null | undefined> {
    const entry = await opts.facts.records.entry(albumPath, name);
    if (entry && sameVersion(entry, stat) && entry.contentId !== undefined) return entry.contentId;
    const memo = unrecorded.get(albumPath)?.get(name);
    return memo && sameVersion(memo, stat) ? memo.id : undefined;
  }

  return {
    async idle() {
      while (running) await running;
    },
    async close() {
      closed = true;
      clearTimeout(retryTimer);
      index.off('change', onChange);
      while (running) await running;
    },
  };
}

/** A file's identity as its identifier is kept for. */
interface Version {
  readonly size: number;
  readonly mtimeMs: number;
}

function sameVersion(kept: Version | undefined, stat: Version): boolean {
  return kept !== undefined && kept.size === stat.size && kept.mtimeMs === stat.mtimeMs;
}

function filesNamed(byName: ReadonlyMap<string, MediaItem>, names: readonly string[]): MediaItem[] {
  return names.flatMap((name) => byName.get(name) ?? []);
}

function hasStillAndMotion(files: readonly { name: string; kind: MediaKind }[]): boolean {
  return files.some(isLivePhotoStill) && files.some(isLivePhotoMotion);
}

function idsFrom(known: ReadonlyMap<string, string | null>): Map<string, string> {
  const ids = new Map<string, string>();
  for (const [name, id] of known) if (id !== null) ids.set(name, id);
  return ids;
}
