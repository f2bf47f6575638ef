/**
 * What the gallery keeps on disk about the files of one album (`CACHE_DIR/dimensions/{album}/
 * .dimensions.json`, through server/core/json-cache.ts): per file name, the version of the
 * file it was read from (mtime, size, the owner's turn) and what was read (size, length,
 * ThumbHash, playback plan, date taken), and whether what visitors ask first was prepared for
 * that version (server/media/preparer.ts), its CRC-32 as the ZIP sends it among them
 * (server/media/served-crc.ts), and its Live Photo content identifier (server/media/live-photo-ids.ts).
 */
import type { TreeNode } from '../core/albums/album-tree.js';
import { filesOf } from '../core/albums/live-photos.js';
import { readJsonCache, writeJsonCache } from '../core/json-cache.js';
import type { Logger } from '../core/logger.js';
import { isRotation } from '../core/albums/rotations.js';
import type { PlaybackPlan } from '../core/media/playback-plan.js';
import { isTakenDate, type TakenDate, wallClockOf } from '../core/media/taken-date.js';

/** A video's playback plan and the `type` of its original's `<source>`. */
export interface VideoPlayback {
  readonly plan: PlaybackPlan;
  readonly type?: string | undefined;
}

/** Display size (EXIF orientation / video rotation applied) and, for videos, duration. */
export interface MediaDimensions {
  readonly width: number;
  readonly height: number;
  readonly duration?: number | undefined;
  /** Photos: the ThumbHash the tile shows until its thumbnail arrives (workers/thumb-hash.ts). */
  readonly thumbHash?: string | undefined;
  /** Videos: what the browser is offered (server/core/media/playback-plan.ts); undefined when not probed. */
  readonly playback?: VideoPlayback | undefined;
  /**
   * When it was taken (docs/api.md#dates): EXIF DateTimeOriginal, a video's container time,
   * else the file's mtime, as a wall-clock `YYYY-MM-DDTHH:MM:SS`. Set once the header is read.
   */
  readonly taken?: TakenDate | undefined;
  /** True when `taken` is only the file's mtime: the file itself carries no date. */
  readonly takenFromFile?: boolean | undefined;
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
  /** The CRC-32 of the bytes a ZIP of the album sends of this version (server/media/served-crc.ts); absent: not computed yet. */
  readonly crc32?: StoredCrc;
  /** The camera as the file names it: EXIF Make and Model joined ("Apple iPhone 15 Pro"), or a video's; absent: none. */
  readonly camera?: string;
  /** Where the file says it was taken (EXIF GPS, a video's ISO 6709 location), in degrees; absent: nowhere. Never served as is. */
  readonly position?: StoredPosition;
  /**
   * Names of where it was taken: those the file carries (XMP/IPTC City, State, Country) and the
   * offline geocoder's city, region and country for its position; absent: none.
   */
  readonly places?: readonly string[];
  /**
   * Apple's Live Photo content identifier of this version of the file (server/media/live-photo-ids.ts,
   * which reads it only where it can change a pair); null: it has none or cannot be read; absent:
   * not read. Kept only while `mtimeMs` and `size` are the file's: a changed file is read again.
   */
  readonly contentId?: string | null;
  /**
   * The file is another album's, shown in this one through a symlink: its facts are kept here
   * for this album's pages, without its place, and views across albums leave it out (they list
   * it under its own album, as its own album's access says).
   */
  readonly elsewhere?: true;
  /**
   * True when the file was read before the camera, the position and the places were (a record
   * of version 6 or older, or one whose such field was damaged): its header is read again for
   * them, its size, placeholder, preparation and CRC kept (server/media/dimensions.ts).
   */
  readonly unreadFacts?: true;
}

/** A position in degrees (WGS 84). */
export interface StoredPosition {
  readonly lat: number;
  readonly lon: number;
}

/** A file's CRC-32 as served, and what it is the CRC of. */
export interface StoredCrc {
  readonly value: number;
  /** The inode the file had, besides the entry's mtime and size: a file replaced in the same second by one of its size is not taken for it. */
  readonly ino: number;
  /** Which bytes: the file's own, or without its location (server/media/served-crc.ts `servedForm`). */
  readonly form: string;
}

/**
 * 2: videos carry their playback plan. 3: photos carry their ThumbHash. 4: the date taken
 * (older files lack them, so are read again). 5: what was prepared (a file of version 4 reads
 * as nothing prepared: its facts stay, its thumbnails are looked at again). 6: the CRC as
 * served (a file of version 4 or 5 reads as no CRC known: the next preparation computes them).
 * 7: the camera, the position and the places (a file of version 4 to 6 reads with every entry
 * `unreadFacts`: each file's header is read again, nothing else is redone). The Live Photo
 * content identifier came within 7, being optional: an entry without it reads as not read yet.
 */
const FILE_VERSION = 7;
const READABLE_VERSIONS = [4, 5, 6, FILE_VERSION];

/** The entries of an album's file, by file name: empty when there is none (or one of another version). */
export async function readAlbumFacts(file: string): Promise<Map<string, Stored>> {
  const entries = new Map<string, Stored>();
  for (const version of READABLE_VERSIONS) {
    const stored = await readJsonCache(file, version);
    if (!stored) continue;
    const { entries: raw } = stored;
    if (typeof raw !== 'object' || raw === null) break;
    for (const [name, value] of Object.entries(raw)) {
      if (!isStored(value)) continue;
      const place = placeFactsOf(withCheckedContentId(value));
      entries.set(name, version < FILE_VERSION ? { ...place, unreadFacts: true } : place);
    }
    break;
  }
  return entries;
}

/** The entry without a damaged content identifier: it is read again, the rest of the entry stands. */
function withCheckedContentId(stored: Stored): Stored {
  if (stored.contentId === undefined || isContentId(stored.contentId)) return stored;
  const { contentId: _, ...rest } = stored;
  return rest;
}

/** A content identifier as kept: null, or a short string (a UUID as Apple writes it). */
export function isContentId(v: unknown): v is string | null {
  return v === null || (typeof v === 'string' && v.length > 0 && v.length <= MAX_CONTENT_ID_CHARS);
}

const MAX_CONTENT_ID_CHARS = 128;

/** Names as kept: a few words each, a few dozen of them (the file's own and the geocoder's in eleven languages). */
const MAX_PLACES = 40;
const MAX_NAME_CHARS = 120;

/**
 * The entry with its camera, position and places checked: a damaged one is left out, not
 * trusted, and the entry marked to be read again (the size and the rest stand on their own).
 */
function placeFactsOf(stored: Stored): Stored {
  const { camera, position, places, unreadFacts, ...rest } = stored as Stored & Record<string, unknown>;
  const name = (v: unknown): v is string => typeof v === 'string' && v.length > 0 && v.length <= MAX_NAME_CHARS;
  const goodCamera = camera === undefined || name(camera);
  const goodPosition = position === undefined || isStoredPosition(position);
  const goodPlaces = places === undefined || (Array.isArray(places) && places.length <= MAX_PLACES && places.every(name));
  const checked: Stored = {
    ...rest,
    ...(goodCamera && camera !== undefined ? { camera } : {}),
    ...(goodPosition && position !== undefined ? { position } : {}),
    ...(goodPlaces && places !== undefined ? { places } : {}),
  };
  return goodCamera && goodPosition && goodPlaces && unreadFacts !== true ? checked : { ...checked, unreadFacts: true };
}

export function isStoredPosition(v: unknown): v is StoredPosition {
  if (typeof v !== 'object' || v === null) return false;
  const { lat, lon } = v as Record<string, unknown>;
  return typeof lat === 'number' && typeof lon === 'number' && Math.abs(lat) <= 90 && Math.abs(lon) <= 180;
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
    (s.prepared === undefined || typeof s.prepared === 'string') &&
    (s.crc32 === undefined || isStoredCrc(s.crc32)) &&
    (s.elsewhere === undefined || s.elsewhere === true)
  );
}

function isStoredCrc(v: unknown): v is StoredCrc {
  if (typeof v !== 'object' || v === null) return false;
  const c = v as Record<string, unknown>;
  return Number.isInteger(c.value) && (c.value as number) >= 0 && (c.value as number) <= 0xffffffff && typeof c.ino === 'number' && typeof c.form === 'string';
}

/** An album's entries in memory, as loaded and since changed. */
export interface AlbumRecord {
  readonly entries: Map<string, Stored>;
  /** Saves of one album run one after another, so an older snapshot never lands last. */
  saving: Promise<void>;
}

/**
 * The albums' records: each loaded from its file on first need and kept, written back a while
 * after a change (a big album's reads go on meanwhile) or at once when asked.
 */
export class AlbumFactsStore {
  readonly #records = new Map<string, Promise<AlbumRecord>>();
  readonly #timers = new Map<AlbumRecord, { timer: NodeJS.Timeout; node: TreeNode }>();

  constructor(
    private readonly opts: {
      readonly fileOf: (albumPath: string) => string;
      readonly saveEveryMs: number;
      readonly log: Logger;
      /** Told each album's entries as saved (server/media/library/: the index across albums follows them). */
      readonly onSaved?: ((albumPath: string, entries: ReadonlyMap<string, Stored>) => void) | undefined;
    },
  ) {}

  of(albumPath: string): Promise<AlbumRecord> {
    let record = this.#records.get(albumPath);
    if (!record) {
      record = readAlbumFacts(this.opts.fileOf(albumPath)).then((entries) => ({ entries, saving: Promise.resolve() }));
      this.#records.set(albumPath, record);
    }
    return record;
  }

  /** The entry kept for `name` in the album's record, of whatever version of the file it was read from. */
  async entry(albumPath: string, name: string): Promise<Stored | undefined> {
    return (await this.of(albumPath)).entries.get(name);
  }

  /** Replaces the entry of `name` with what `change` makes of it (nothing when it gives undefined), saved within saveEveryMs. */
  async amend(node: TreeNode, name: string, change: (stored: Stored) => Stored | undefined): Promise<void> {
    const record = await this.of(node.path);
    const stored = record.entries.get(name);
    const changed = stored && change(stored);
    if (!changed) return;
    record.entries.set(name, changed);
    this.saveLater(node, record);
  }

  /** Saves the record within saveEveryMs. */
  saveLater(node: TreeNode, record: AlbumRecord): void {
    if (this.#timers.has(record)) return;
    const timer = setTimeout(() => void this.#saveNow(record), this.opts.saveEveryMs);
    timer.unref();
    this.#timers.set(record, { timer, node });
  }

  /** Saves the album's record now, when changes wait to be saved; resolves once it is written. */
  async saveNow(node: TreeNode): Promise<void> {
    const record = this.#records.get(node.path);
    if (!record) return;
    const loaded = await record;
    // The album as it is now: the files it no longer has are left out of the file.
    const pending = this.#timers.get(loaded);
    if (pending) pending.node = node;
    await this.#saveNow(loaded);
  }

  #saveNow(record: AlbumRecord): Promise<void> {
    const pending = this.#timers.get(record);
    if (!pending) return record.saving;
    clearTimeout(pending.timer);
    this.#timers.delete(record);
    return this.#save(pending.node, record);
  }

  /** Writes the album's record, keeping only files the album still has. */
  #save(node: TreeNode, record: AlbumRecord): Promise<void> {
    record.saving = record.saving.then(async () => {
      // Live Photos' movies are sized too (their plan picks their sources), though not listed.
      const names = new Set(Array.from(filesOf(node.media), (m) => m.name));
      const entries: Record<string, Stored> = {};
      for (const [name, stored] of record.entries) if (names.has(name)) entries[name] = stored;
      this.opts.onSaved?.(node.path, new Map(Object.entries(entries)));
      const file = this.opts.fileOf(node.path);
      try {
        await writeAlbumFacts(file, entries);
      } catch (err) {
        // A read-only cache costs header reads after a restart, not pages.
        this.opts.log.warn({ err }, `could not write ${file}`);
      }
    });
    return record.saving;
  }
}

/** What a page is told of a file, from what is kept of it. */
export function toDimensions(s: Stored): MediaDimensions {
  // The mtime kept is the file's, as it was read: the fallback date of a file that carries none.
  const taken = s.taken ?? wallClockOf(s.mtimeMs);
  const dims = {
    width: s.width,
    height: s.height,
    duration: s.duration,
    ...(s.thumbHash ? { thumbHash: s.thumbHash } : {}),
    ...(taken ? { taken, takenFromFile: s.taken === undefined } : {}),
  };
  return s.playback ? { ...dims, playback: s.playback } : dims;
}

/** `read` with the content identifier `current` holds of the same file version (its turn aside: the bytes are the same). */
export function withContentIdOf(current: Stored | undefined, read: Stored): Stored {
  if (current?.contentId === undefined || current.mtimeMs !== read.mtimeMs || current.size !== read.size) return read;
  return { ...read, contentId: current.contentId };
}

/** A file's facts without where it was taken. */
export function withoutPlace(stored: Stored): Stored {
  const { position: _position, places: _places, ...rest } = stored;
  return rest;
}
