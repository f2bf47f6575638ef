import type { MediaItem, TreeNode } from '../core/albums/album-tree.js';
import { inBatches } from '../core/in-batches.js';
import { HttpError } from '../core/errors.js';
import { type MediaKind, dimensionsFile } from '../core/media-catalogue.js';
import { MediaTaskError, PoolBusyError } from './pool-errors.js';
import type { Logger } from '../core/logger.js';
import { Semaphore } from '../core/semaphore.js';
import {
  AlbumFactsStore,
  type AlbumRecord,
  type MediaDimensions,
  type Stored,
  toDimensions,
  type VideoPlayback,
  withContentIdOf,
  withoutPlace,
} from './dimensions-file.js';
import { type FileVersion, geocoderPlaces, type HeaderReader, type PlacesAt, readFacts } from './file-facts.js';

export type { HeaderReader, MediaDimensions, VideoPlayback };

/** Dimensions of some media of one album, in the order asked; undefined where unknown. */
export interface DimensionsProvider {
  (node: TreeNode, items: readonly MediaItem[]): Promise<(MediaDimensions | undefined)[]>;
  /** True when every one of `items` has been read (or found unreadable): a page made now is final. */
  settled?(items: readonly MediaItem[]): boolean;
  /**
   * What is known of `items` now, without waiting for any header read: the reads still missing
   * start in the background (what the disk cache holds is looked at first, a stat each).
   * For facts about a whole album (its dates) on a page that shows only part of it.
   */
  peek?(node: TreeNode, items: readonly MediaItem[]): Promise<(MediaDimensions | undefined)[]>;
}

/**
 * Where a media item really is and its version, from the one stat of the item the gallery takes
 * (server/public/pages/media-stats.ts); undefined when it must not be read (the symlink rule,
 * server/core/access/media-location.ts) or is not a regular file.
 */
export type LocateFile = (
  node: TreeNode,
  item: MediaItem,
) => Promise<
  { readonly absPath: string; readonly rotation?: number; readonly mtimeMs: number; readonly size: number; readonly realAlbum?: TreeNode } | undefined
>;

export interface DimensionsCacheOptions {
  /** The symlink rule and the file's stat: files are read only where it says, never at a joined path. */
  readonly locate: LocateFile;
  readonly cacheDir: string;
  readonly reader: HeaderReader;
  /** Header reads in flight at once: the pool's queue is shared with thumbnails. */
  readonly concurrency?: number;
  /**
   * Told when a video is probed for the first time (per version) and browsers cannot all play
   * it as it is: the gallery starts its web copy then, in the background, so it is usually
   * ready by the time someone opens the video (server/media/web-video.ts).
   */
  readonly onVideoNeedsCopy?: (video: { readonly relPath: string; readonly absPath: string }) => void;
  /** How often reads of an album still going on are saved (SAVE_EVERY_MS; tests pass less). */
  readonly saveEveryMs?: number;
  /** Told each album's facts as they are saved (server/media/library/library.ts `update`). */
  readonly onSaved?: (albumPath: string, entries: ReadonlyMap<string, Stored>) => void;
  readonly log: Logger;
  /** The names of where a file's position is: the process's offline geocoder unless told (tests). */
  readonly placesAt?: PlacesAt;
}

/**
 * Photo and video sizes for page layout, read from file headers once (in the media pool),
 * then remembered: in memory per MediaItem (a rescan makes new items, so a replaced file
 * is looked at again), and on disk per album under `CACHE_DIR/dimensions/{album}/`, keyed
 * by file name, mtime and size, and the owner's turn of a photo (docs/api.md#rotations), so a restart does not read every header again. A video's
 * probe also gives its playback plan (which sources the page offers), kept the same way, so
 * an album page never probes a video itself; and every header read gives the date the file
 * was taken, so album order and date ranges never read a file of their own.
 */
/** Reads started together: settles when all are over (never rejects). */
interface Filling {
  readonly done: Promise<void>;
}

export class DimensionsCache {
  readonly #opts: Required<Omit<DimensionsCacheOptions, 'onSaved'>> & Pick<DimensionsCacheOptions, 'onSaved'>;
  /** null: the file could not be read; not asked again until the item changes. */
  readonly #known = new WeakMap<MediaItem, MediaDimensions | null>();
  /** Items whose read is under way: when it ends, and until when a page may wait for it. */
  readonly #filling = new WeakMap<MediaItem, Filling>();
  readonly #records: AlbumFactsStore;
  /** Reads under way; null: unreadable, undefined: not now (a busy pool). */
  readonly #inFlight = new Map<string, Promise<Stored | null | undefined>>();
  readonly #background = new Set<Promise<void>>();
  readonly #slots: Semaphore;
  /**
   * For reads nobody waits for (the rest of an album, for its date span and order): few at
   * once, at background priority, so a cold album of thousands of photos never holds a
   * page's own reads, nor anyone's thumbnails.
   */
  readonly #backgroundSlots = new Semaphore(2);
  /**
   * How far each list asked about (an album's media, every request of its page) is known from
   * its start: an item once known stays known, so each item is looked at about once, not
   * 20,000 per page request of a cold album.
   */
  readonly #knownUpTo = new WeakMap<readonly MediaItem[], number>();
  /** Albums with reads saved later, and when. */
  #closed = false;

  constructor(opts: DimensionsCacheOptions) {
    // Field by field, so an option passed as undefined still gets its default.
    this.#opts = {
      ...opts,
      concurrency: opts.concurrency ?? 4,
      saveEveryMs: opts.saveEveryMs ?? SAVE_EVERY_MS,
      onVideoNeedsCopy: opts.onVideoNeedsCopy ?? (() => undefined),
      placesAt: opts.placesAt ?? geocoderPlaces(opts.log),
    };
    if (!Number.isInteger(this.#opts.concurrency) || this.#opts.concurrency < 1) {
      throw new RangeError(`concurrency must be an integer >= 1, got ${this.#opts.concurrency}`);
    }
    this.#records = new AlbumFactsStore({
      fileOf: (albumPath) => this.fileOf(albumPath),
      saveEveryMs: this.#opts.saveEveryMs,
      log: this.#opts.log,
      onSaved: this.#opts.onSaved,
    });
    this.#slots = new Semaphore(this.#opts.concurrency);
  }

  /** The DimensionsProvider for the album page and the album-media API. */
  readonly provide: DimensionsProvider = Object.assign((node: TreeNode, items: readonly MediaItem[]) => this.lookup(node, items), {
    settled: (items: readonly MediaItem[]) => this.#settledPrefix(items),
    peek: (node: TreeNode, items: readonly MediaItem[]) => this.peek(node, items),
  });

  async lookup(node: TreeNode, items: readonly MediaItem[]): Promise<(MediaDimensions | undefined)[]> {
    // A page never waits for a header read (issue 27): what the album's record holds now, the
    // rest read at grid priority (a visitor asks) and shown by a later render of the page; only
    // the record's own look (a stat per file, once per file version) is waited for.
    await (await this.#start(node, items))?.checked;
    return this.#answers(items);
  }

  /** As DimensionsProvider.peek: waits for the disk cache, never for a header read. */
  async peek(node: TreeNode, items: readonly MediaItem[]): Promise<(MediaDimensions | undefined)[]> {
    await (await this.#start(node, items, 'background'))?.checked;
    return this.#answers(items);
  }

  /**
   * Reads what is not known of `items` yet, a batch at a time, and resolves once every one is
   * known or found unreadable (reads a page started are waited for too): the preparation of an
   * album (server/media/preparer.ts). At background priority by default; `npm run thumbnails`,
   * which nobody visits, reads at grid priority, as many at once as `concurrency`. Never rejects.
   */
  async complete(node: TreeNode, items: readonly MediaItem[], priority: 'grid' | 'background' = 'background'): Promise<void> {
    const started = await this.#start(node, items, priority, true);
    const under = new Set<Promise<void>>();
    for (const item of items) {
      const filling = this.#filling.get(item);
      if (filling) under.add(filling.done);
    }
    await Promise.all([started?.done, ...under]);
  }

  /** Whether `item`, as it is now (known, read from its current version), was prepared as `stamp` says. */
  async isPrepared(node: TreeNode, item: MediaItem, stamp: string): Promise<boolean> {
    if (!this.#known.get(item)) return false;
    return (await this.#records.of(node.path)).entries.get(item.name)?.prepared === stamp;
  }

  /** Notes that `item`, as it is now, was prepared as `stamp` says; saved with the album's record. */
  async markPrepared(node: TreeNode, item: MediaItem, stamp: string): Promise<void> {
    if (!this.#known.get(item)) return;
    const record = await this.#records.of(node.path);
    const stored = record.entries.get(item.name);
    if (!stored || stored.prepared === stamp) return;
    record.entries.set(item.name, { ...stored, prepared: stamp });
    this.#records.saveLater(node, record);
  }

  /** Writes what is known of the album now, when anything waits to be written (the end of its preparation). */
  async save(node: TreeNode): Promise<void> {
    await this.#records.saveNow(node);
  }

  /** The albums' records, where other facts of a file version are kept beside these (server/media/served-crc.ts). */
  get records(): Pick<AlbumFactsStore, 'entry' | 'amend'> {
    return this.#records;
  }

  #answers(items: readonly MediaItem[]): (MediaDimensions | undefined)[] {
    return items.map((i) => this.#known.get(i) ?? undefined);
  }

  /**
   * Starts finding `items` that are neither known nor under way; undefined when there are none.
   * `checked` settles once each is found in the disk cache or its read has begun, `done` once
   * every read is over and the record saved.
   */
  async #start(
    node: TreeNode,
    items: readonly MediaItem[],
    priority: 'grid' | 'background' = 'grid',
    batched = priority === 'background',
  ): Promise<{ checked: Promise<void>; done: Promise<void> } | undefined> {
    const missing = items.filter((i) => !this.#known.has(i) && !this.#filling.has(i));
    if (missing.length === 0) return undefined;
    let ended!: () => void;
    const filling: Filling = { done: new Promise<void>((resolve) => (ended = resolve)) };
    for (const item of missing) this.#filling.set(item, filling);
    const record = await this.#records.of(node.path);
    // A page's own items are checked and read all at once. A whole cold album (its dates) is
    // gone through a batch at a time (server/core/in-batches.ts): first the disk cache, then
    // the reads, so what waits for its turn is an item, not a stat, a path and a pending read
    // each (80 MB for an album of 20,000).
    const each = <R>(items: readonly MediaItem[], batch: number, fn: (item: MediaItem) => Promise<R>) =>
      batched ? inBatches(items, batch, fn) : Promise.all(items.map(fn));
    const checks = each(missing, CHECK_BATCH, (item) => this.#check(node, item, record));
    // Reads start once every item is checked, in the order asked: a page's first tiles first.
    // What is read is saved every saveEveryMs meanwhile, so a restart during the hours a huge
    // cold album may take loses little.
    const done = checks
      .then((unread) =>
        each(
          missing.filter((_, at) => unread[at]),
          READ_BATCH,
          async (item) => {
            if (await this.#readItem(node, item, record, priority)) this.#records.saveLater(node, record);
          },
        ),
      )
      .then(() => this.#records.saveNow(node))
      .finally(() => {
        for (const item of missing) this.#filling.delete(item);
        ended();
      });
    this.#track(done);
    return {
      checked: checks.then(
        () => undefined,
        () => undefined,
      ),
      done,
    };
  }

  /**
   * Shutdown: reads not begun are dropped (a cold album's thousands would hold the exit for
   * minutes; they are asked again after the restart), the ones under way end, and what was read is saved.
   */
  async close(): Promise<void> {
    this.#closed = true;
    this.#slots.close();
    this.#backgroundSlots.close();
    await this.flush();
  }

  /** Whether every one of `items` is known: counted on from where the last call stopped (see #knownUpTo). */
  #settledPrefix(items: readonly MediaItem[]): boolean {
    let from = this.#knownUpTo.get(items) ?? 0;
    while (from < items.length && this.#known.has(items[from]!)) from++;
    this.#knownUpTo.set(items, from);
    return from === items.length;
  }

  /** Resolves when every read and save started so far has finished (tests, shutdown). */
  async flush(): Promise<void> {
    while (this.#background.size > 0) await Promise.all([...this.#background]);
  }

  /** The cache file of an album. */
  fileOf(albumPath: string): string {
    return dimensionsFile(this.#opts.cacheDir, albumPath);
  }

  /** Where the file of an item is and its version (identity and the owner's turn); undefined (and known unreadable) when it is not a file there. */
  async #locate(node: TreeNode, item: MediaItem): Promise<{ absPath: string; stat: FileVersion; elsewhere: boolean } | undefined> {
    const where = await this.#opts.locate(node, item).catch(() => undefined);
    if (!where) {
      this.#known.set(item, null);
      return undefined;
    }
    const elsewhere = where.realAlbum !== undefined && where.realAlbum !== node;
    return { absPath: where.absPath, stat: { mtimeMs: where.mtimeMs, size: where.size, rotation: where.rotation ?? 0 }, elsewhere };
  }

  /**
   * Takes the item's entry from the album record when it is of the file as it is now; true
   * when nothing is left to read. An entry read before the newer facts were (`unreadFacts`)
   * is taken too, so pages have its size meanwhile, but its header is read again.
   */
  #fromRecord(item: MediaItem, record: AlbumRecord, stat: FileVersion): boolean {
    const stored = this.#sameVersion(record.entries.get(item.name), stat);
    if (!stored) return false;
    this.#known.set(item, toDimensions(stored));
    return !stored.unreadFacts;
  }

  #sameVersion(stored: Stored | undefined, stat: FileVersion): Stored | undefined {
    return stored && stored.mtimeMs === stat.mtimeMs && stored.size === stat.size && (stored.rotation ?? 0) === stat.rotation ? stored : undefined;
  }

  /** Finds one item in the album record; true when its header must be read. */
  async #check(node: TreeNode, item: MediaItem, record: AlbumRecord): Promise<boolean> {
    if (this.#closed) return false;
    const found = await this.#locate(node, item);
    return found !== undefined && !this.#fromRecord(item, record, found.stat);
  }

  /** Reads an item's header, its file looked at again (a big album's turn may come much later); true when the record changed. */
  async #readItem(node: TreeNode, item: MediaItem, record: AlbumRecord, priority: 'grid' | 'background'): Promise<boolean> {
    if (this.#closed) return false;
    const found = await this.#locate(node, item);
    if (!found || this.#fromRecord(item, record, found.stat)) return false;
    return this.#fill(node, item, record, found.absPath, found.stat, priority, found.elsewhere);
  }

  /** Reads one item's header (once per file version, however many ask); true when the record changed. */
  async #fill(
    node: TreeNode,
    item: MediaItem,
    record: AlbumRecord,
    src: string,
    stat: FileVersion,
    priority: 'grid' | 'background',
    elsewhere = false,
  ): Promise<boolean> {
    const key = `${src}\0${stat.mtimeMs}\0${stat.size}\0${stat.rotation}`;
    let reading = this.#inFlight.get(key);
    const firstReader = reading === undefined;
    const previous = this.#sameVersion(record.entries.get(item.name), stat);
    if (!reading) {
      reading = this.#read(src, item.kind, stat, priority, previous).finally(() => this.#inFlight.delete(key));
      this.#inFlight.set(key, reading);
    }
    const read = await reading;
    if (read === null && previous) {
      // Read before, unreadable now: what was read stands, and is not asked again.
      const { unreadFacts: _, ...kept } = previous;
      record.entries.set(item.name, kept);
      return true;
    }
    if (read === null) this.#known.set(item, null);
    if (!read) return false;
    if (firstReader && read.playback && read.playback.plan !== 'direct') {
      this.#opts.onVideoNeedsCopy({ relPath: `${node.path}/${item.name}`, absPath: src });
    }
    // A file shown here through a symlink into another album keeps no place in this album's
    // record (whether its place may be shown is its own album's hideLocation), and is marked so
    // that views across albums leave it out (its own album's access decides who sees it).
    const own: Stored = elsewhere ? { ...withoutPlace(read), elsewhere: true } : read;
    // The Live Photo identifier of this version, found by its own pass (server/media/live-photo-ids.ts)
    // before or during this read, stays: the entry is replaced, not what it held.
    const kept = withContentIdOf(record.entries.get(item.name), own);
    record.entries.set(item.name, kept);
    this.#known.set(item, toDimensions(kept));
    return true;
  }

  async #read(
    src: string,
    kind: MediaKind,
    stat: FileVersion,
    priority: 'grid' | 'background',
    previous: Stored | undefined,
  ): Promise<Stored | null | undefined> {
    const release = await (priority === 'background' ? this.#backgroundSlots : this.#slots).acquire();
    try {
      if (this.#closed) return undefined;
      return await readFacts(this.#opts.reader, this.#opts.placesAt, { src, kind, stat, previous }, priority);
    } catch (err) {
      // A busy pool is a "not now": the next page view asks again. Anything else (a corrupt
      // file) is not asked again until the file changes; the page renders without a size.
      if (err instanceof PoolBusyError) return undefined;
      // The pool logs its own failures, and a file deleted meanwhile is not one; anything else is news.
      if (!(err instanceof MediaTaskError || err instanceof HttpError)) this.#opts.log.warn({ err }, `could not read the size of ${src}`);
      return null;
    } finally {
      release();
    }
  }

  #track(work: Promise<unknown>): void {
    const tracked = work.then(
      () => undefined,
      (err: unknown) => this.#opts.log.warn({ err }, 'dimensions lookup failed'),
    );
    this.#background.add(tracked);
    void tracked.finally(() => this.#background.delete(tracked));
  }
}

/** Background checks of a cold album at once (each is a stat). */
const CHECK_BATCH = 64;
/** Background reads of a cold album handed to the background slots at once (two run at a time). */
const READ_BATCH = 8;
/** How often reads of an album still going on are saved to its cache file. */
const SAVE_EVERY_MS = 5000;
