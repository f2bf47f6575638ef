import type { Dirent } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { pairLivePhotos } from '../../core/albums/live-photos.js';
import { hasControlCharacter } from '../../core/control-characters.js';
import { HttpError, badRequest, notFound } from '../../core/errors.js';
import { moveAcrossDevices, renameDurably, syncDirectories } from '../../core/fs-atomic.js';
import type { Logger } from '../../core/logger.js';
import { mediaCacheFiles, mediaKind, turnMethodOf } from '../../core/media-catalogue.js';
import { isMissing } from '../../core/paths.js';
import { type AlbumRecord, MAX_CAPTION_LENGTH } from '../album-fields.js';
import { type AlbumFiles, type AlbumInQueue, TRASH_DIR, conflict } from '../album-files.js';
import { listMediaFiles } from '../media-listing.js';
import { isSafeFileName } from '../uploads/safe-file-name.js';
import { addTurns, isRotation, type Rotation } from '../../core/albums/rotations.js';
import { DisplayMatrixError } from '../../core/media/display-matrix.js';
import { OrientationError } from './jpeg-orientation.js';
import { stageJpegTurn } from './rotate-jpeg.js';
import { stageVideoTurn } from './rotate-video.js';
import { ChangedMeanwhileError, type StagedFile } from './staged-file.js';

/** One photo or video of an album, as the admin's media routes name it: `{album path}/{file name}`. */
export interface MediaTarget {
  readonly albumPath: string;
  readonly name: string;
}

/** A file moved by an action, as media paths (relative to ALBUMS_DIR). */
export interface MovedFile {
  readonly from: string;
  readonly to: string;
}

/** Where a rename or a move left the photo: its new media path, and every file that moved (a Live Photo's movie too). */
export interface MediaChange {
  readonly path: string;
  readonly album: string;
  readonly name: string;
  readonly moved: readonly MovedFile[];
}

/** How a still or video was turned (turnMethodOf), and how it is turned now. */
export type StillTurn =
  /** A JPEG: its EXIF orientation tag (1–8), rewritten. */
  | { readonly turnedBy: 'exif-orientation'; readonly orientation: number }
  /** A video: its display matrix, rewritten; the turn it shows now, degrees clockwise. */
  | { readonly turnedBy: 'display-matrix'; readonly rotation: number }
  /** Any other photo: album.json's `rotations` (docs/api.md#rotations), degrees clockwise (0: upright, the entry removed). */
  | { readonly turnedBy: 'album-rotation'; readonly rotation: Rotation };

/** What a rotation did: the file's new turn and, for a Live Photo, its movie's. */
export type RotationChange = StillTurn & {
  readonly path: string;
  readonly motion?: { readonly path: string; readonly rotation: number };
};

export interface MediaActionsOptions {
  readonly albumsDir: string;
  readonly cacheDir: string;
  readonly albums: AlbumFiles;
  readonly log: Logger;
}

/** Quarter turns of a rotation the owner may ask for, by its degrees clockwise. */
const TURNS: ReadonlyMap<unknown, number> = new Map([
  [90, 1],
  [180, 2],
  [270, 3],
  [-90, 3],
]);

/** Hard links are refused here: the move falls back to a rename (after the name was checked free). */
const NO_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'EMLINK', 'ENOSYS', 'EXDEV']);

const mediaPathOf = (albumPath: string, name: string) => `${albumPath}/${name}`;
const mediaNotFound = (mediaPath: string) => notFound(`Photo or video not found: ${mediaPath}`);

/** `{album path}/{file}` split, checked to name a photo or video inside an album (the path itself is validated by the route). */
export function parseMediaTarget(mediaPath: string): MediaTarget {
  const slash = mediaPath.lastIndexOf('/');
  const name = mediaPath.slice(slash + 1);
  if (mediaKind(name) === undefined) throw badRequest('Invalid parameter: path must name a photo or video of an album');
  if (slash < 0) throw mediaNotFound(mediaPath);
  return { albumPath: mediaPath.slice(0, slash), name };
}

/**
 * What the owner does to one photo or video (docs/api.md#admin-server): delete it (to the
 * trash), rename it, move it to another album, rotate it, caption it. Each runs inside the
 * queue of its album (and of the other album, for a move), so it never interleaves with an
 * upload, an edit of album.json or another action there; every check comes before the first
 * change, so a refused action leaves the disk as it was. What refers to the photo follows it:
 * its Live Photo movie, its caption and rotation, a cover naming it (in its album and the albums above),
 * and its cached thumbnails, full-size JPEG and web copy.
 */
export class MediaActions {
  readonly #opts: MediaActionsOptions;

  constructor(opts: MediaActionsOptions) {
    this.#opts = opts;
  }

  /** Moves the file (and its Live Photo movie) to `ALBUMS_DIR/.trash/<time>/<album path>/`; its caption and cache go. */
  async remove(target: MediaTarget): Promise<{ path: string; trashedTo: string[] }> {
    const mediaPath = mediaPathOf(target.albumPath, target.name);
    const trashedTo = await this.#opts.albums.withAlbums([target.albumPath], async ([album]) => {
      const files = await this.#filesOf(album!, target.name);
      await album!.record(); // an album.json that cannot be changed stops the action before anything moves
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      let trashDir = `${TRASH_DIR}/${stamp}/${target.albumPath}`;
      for (let n = 2; await anyExists(this.#abs(trashDir), files); n++) trashDir = `${TRASH_DIR}/${stamp}-${n}/${target.albumPath}`;
      await fs.mkdir(this.#abs(trashDir), { recursive: true });
      const moved: MovedFile[] = [];
      try {
        for (const name of files) {
          await renameDurably(path.join(album!.dir, name), path.join(this.#abs(trashDir), name));
          moved.push({ from: name, to: name });
        }
      } catch (err) {
        await this.#undo(moved, album!.dir, this.#abs(trashDir));
        throw err;
      }
      await album!.edit((record) => followReferences(record, '', target.name, undefined));
      for (const name of files) await this.#dropCache(mediaPathOf(target.albumPath, name));
      return files.map((name) => `${trashDir}/${name}`);
    });
    await this.#followInAncestors(target.albumPath, target.name, undefined);
    return { path: mediaPath, trashedTo };
  }

  /** Gives the file a new name in its album (its Live Photo movie the same stem, its own extension). */
  async rename(target: MediaTarget, rawName: unknown): Promise<MediaChange> {
    const newName = checkNewName(rawName, target.name);
    const change = await this.#opts.albums.withAlbums([target.albumPath], async ([album]) =>
      this.#relocate(album!, album!, target.name, newName, this.#renamesOf(await this.#filesOf(album!, target.name), newName)),
    );
    await this.#followInAncestors(target.albumPath, target.name, newName);
    return change;
  }

  /** Moves the file (and its Live Photo movie) to another album, under the same name. */
  async move(target: MediaTarget, rawAlbum: unknown, parseAlbum: (raw: unknown) => string): Promise<MediaChange> {
    if (rawAlbum === undefined || rawAlbum === null || rawAlbum === '') throw badRequest('Invalid move: album must name the album to move it to');
    const toAlbum = parseAlbum(rawAlbum);
    if (toAlbum === target.albumPath) throw badRequest('Invalid move: the photo is in that album already');
    const change = await this.#opts.albums.withAlbums([target.albumPath, toAlbum], async ([from, to]) => {
      const files = await this.#filesOf(from!, target.name);
      // A relative link would point elsewhere from another folder.
      for (const name of files) {
        if ((await lstatOrUndefined(path.join(from!.dir, name)))?.isSymbolicLink()) {
          throw badRequest(`${name} is a link to a file elsewhere: move the original in its own album instead`);
        }
      }
      return this.#relocate(
        from!,
        to!,
        target.name,
        target.name,
        files.map((name) => ({ from: name, to: name })),
      );
    });
    // Relative to each album above the old place: a cover that now lies outside it is dropped.
    await this.#followInAncestors(target.albumPath, target.name, path.posix.relative(target.albumPath, change.path));
    return change;
  }

  /**
   * Turns a photo or video by a quarter turn, never re-encoding it (docs/api.md#rotations): a
   * JPEG through its EXIF orientation (rotate-jpeg.ts), a video through its display matrix
   * (rotate-video.ts), any other photo (HEIC, PNG, WebP…) through album.json's `rotations`,
   * which everything the gallery makes of it follows while the original stays byte for byte
   * the same. A Live Photo's movie turns with its still. Every new file is written beside its
   * original before anything is replaced, so a refusal (a file that cannot be turned so, an
   * album.json that cannot be changed) leaves the disk as it was.
   */
  async rotate(target: MediaTarget, degrees: unknown): Promise<RotationChange> {
    const turns = TURNS.get(degrees);
    if (turns === undefined) throw badRequest('Invalid rotation: degrees must be one of 90, 180, 270 (clockwise) or -90');
    const method = turnMethodOf(target.name);
    if (method === undefined) {
      throw badRequest(
        `${target.name} cannot be rotated without re-encoding it (only MP4 and MOV videos carry a turn): rotate it in a video editor and upload it again`,
      );
    }
    const mediaPath = mediaPathOf(target.albumPath, target.name);
    return this.#opts.albums.withAlbums([target.albumPath], async ([album]) => {
      const files = await this.#filesOf(album!, target.name);
      for (const name of files) {
        if ((await lstatOrUndefined(path.join(album!.dir, name)))?.isSymbolicLink()) {
          throw badRequest(`${name} is a link to a file elsewhere: rotate the original in its own album`);
        }
      }
      const [name, motion] = files as [string, string | undefined];
      const staged: StagedFile[] = [];
      /** The entry album.json had before this turn wrote it (undefined: none), to put back if a file cannot be replaced. */
      let entryBefore: { readonly rotation: Rotation | undefined } | undefined;
      let change: RotationChange;
      try {
        // Every new version is staged before anything is replaced: were the still refused, its movie is discarded with it.
        const movie = motion === undefined ? undefined : await stageVideoTurn(path.join(album!.dir, motion), turns);
        if (movie) staged.push(movie.staged);
        let still: StillTurn;
        if (method === 'exif-orientation') {
          const jpeg = await stageJpegTurn(path.join(album!.dir, name), turns);
          staged.push(jpeg.staged);
          still = { turnedBy: 'exif-orientation', orientation: jpeg.orientation };
        } else if (method === 'display-matrix') {
          const video = await stageVideoTurn(path.join(album!.dir, name), turns);
          staged.push(video.staged);
          still = { turnedBy: 'display-matrix', rotation: video.rotation };
        } else {
          // An album.json that cannot be changed (not a JSON object, or invalid) stops the action here, before any file is replaced.
          const now = fileEntryOf(await album!.record(), 'rotations', name);
          const rotation = addTurns(isRotation(now) ? now : 0, turns);
          // Back to upright: the entry goes (and the field with its last entry).
          await album!.edit((record) => withFileEntry(record, 'rotations', name, rotation === 0 ? undefined : rotation));
          entryBefore = { rotation: isRotation(now) && now !== 0 ? now : undefined };
          still = { turnedBy: 'album-rotation', rotation };
        }
        change = {
          path: mediaPath,
          ...still,
          ...(movie && motion ? { motion: { path: mediaPathOf(target.albumPath, motion), rotation: movie.rotation } } : {}),
        };
        // Renames only from here: a file replaced by hand between the movie's and the still's is the one case left half turned.
        for (const file of staged) await file.commit();
      } catch (err) {
        await Promise.all(staged.map((file) => file.discard()));
        if (entryBefore) await album!.edit((record) => withFileEntry(record, 'rotations', name, entryBefore!.rotation));
        if (err instanceof OrientationError || err instanceof DisplayMatrixError) {
          throw badRequest(`Cannot rotate ${err instanceof DisplayMatrixError && motion !== undefined ? motion : name}: ${err.message}`);
        }
        if (err instanceof ChangedMeanwhileError) throw conflict(`${name} was not rotated: ${err.message}`);
        throw err;
      }
      // Stale already (a new version of the file, or a new turn); removed so nothing of the old one lingers.
      for (const file of files) await this.#dropCache(mediaPathOf(target.albumPath, file));
      return change;
    });
  }

  /** Sets (or with null or "" removes) the caption of a photo or video, in its album's album.json. */
  async caption(target: MediaTarget, raw: unknown): Promise<{ path: string; caption: string | null }> {
    if (raw !== null && typeof raw !== 'string') throw badRequest('Invalid caption: caption must be a string, or null to remove it');
    const text = (raw ?? '').trim();
    if (text.length > MAX_CAPTION_LENGTH) throw badRequest(`Invalid caption: caption must be at most ${MAX_CAPTION_LENGTH} characters`);
    if (hasControlCharacter(text)) throw badRequest('Invalid caption: caption must be one line without control characters');
    const mediaPath = mediaPathOf(target.albumPath, target.name);
    await this.#opts.albums.withAlbums([target.albumPath], async ([album]) => {
      const stat = await lstatOrUndefined(path.join(album!.dir, target.name));
      if (!stat || !(stat.isFile() || stat.isSymbolicLink())) throw mediaNotFound(mediaPath);
      await album!.edit((record) => withFileEntry(record, 'captions', target.name, text === '' ? undefined : text));
    });
    return { path: mediaPath, caption: text === '' ? null : text };
  }

  /**
   * Moves `files` (name pairs) from `from` to `to` (the same album for a rename), then what
   * follows them: captions, covers within the two albums, cache entries. Both albums' queues
   * are held. Names are checked free (case-insensitively) before anything moves.
   */
  async #relocate(from: AlbumInQueue, to: AlbumInQueue, name: string, newName: string, files: readonly MovedFile[]): Promise<MediaChange> {
    const newPath = mediaPathOf(to.path, newName);
    const unchanged = from === to && newName === name;
    if (!unchanged) {
      const leaving = new Set(from === to ? files.map((f) => f.from) : []);
      const taken = new Set((await readNames(to.dir)).filter((n) => !leaving.has(n)).map((n) => n.toLowerCase()));
      const clash = files.find((f) => taken.has(f.to.toLowerCase()));
      if (clash) throw conflict(`A file named ${clash.to} is already in ${to.path}`);
      // Both album.json files must be ours to change before a file moves.
      await Promise.all([from.record(), to.record()]);
      const moved: MovedFile[] = [];
      try {
        for (const f of files) {
          await moveNoReplace(path.join(from.dir, f.from), path.join(to.dir, f.to));
          moved.push(f);
        }
      } catch (err) {
        await this.#undo(moved, from.dir, to.dir);
        if ((err as NodeJS.ErrnoException).code === 'EEXIST') throw conflict(`A file of that name appeared in ${to.path} meanwhile; nothing was moved`);
        throw err;
      }
      const entries = fileEntriesOf(await from.record(), name);
      if (from === to) await from.edit((record) => followReferences(record, '', name, newName));
      else {
        // A cover of `from` may now name the file below it (moved into a child album): rewritten, else dropped.
        const below = path.posix.relative(from.path, newPath);
        await from.edit((record) => followReferences(record, '', name, below.startsWith('../') ? undefined : below));
        if (entries.length > 0) await to.edit((record) => entries.reduce((next, [field, value]) => withFileEntry(next, field, newName, value) ?? next, record));
      }
      for (const f of files) await this.#moveCache(mediaPathOf(from.path, f.from), mediaPathOf(to.path, f.to));
    }
    return {
      path: newPath,
      album: to.path,
      name: newName,
      moved: unchanged ? [] : files.map((f) => ({ from: mediaPathOf(from.path, f.from), to: mediaPathOf(to.path, f.to) })),
    };
  }

  /** The file named and, when it is the still of a Live Photo (paired by name), its movie; 404 when the file is not there. */
  async #filesOf(album: AlbumInQueue, name: string): Promise<string[]> {
    const stat = await lstatOrUndefined(path.join(album.dir, name));
    if (!stat || !(stat.isFile() || stat.isSymbolicLink())) throw mediaNotFound(mediaPathOf(album.path, name));
    const listed = pairLivePhotos((await listMediaFiles(album.dir)).map(({ name: n, kind }) => ({ name: n, kind })));
    const motion = listed.find((item) => item.name === name)?.motion;
    return motion ? [name, motion.name] : [name];
  }

  /** The renames of a file and its movie: the movie takes the new stem and keeps its own extension. */
  #renamesOf(files: readonly string[], newName: string): MovedFile[] {
    const stem = newName.slice(0, newName.length - path.extname(newName).length);
    return files.map((name, i) => ({ from: name, to: i === 0 ? newName : `${stem}${path.extname(name)}` }));
  }

  /** Covers naming the file in the albums above its own (`child/IMG_1.jpg`), rewritten or dropped; each in its own queue, after the move. */
  async #followInAncestors(albumPath: string, oldName: string, newRel: string | undefined): Promise<void> {
    const segments = albumPath.split('/');
    for (let depth = segments.length - 1; depth > 0; depth--) {
      const ancestor = segments.slice(0, depth).join('/');
      const below = segments.slice(depth).join('/');
      // newRel is relative to the file's old album: from the ancestor it is `below/newRel`, normalised.
      const target = newRel === undefined ? undefined : path.posix.normalize(`${below}/${newRel}`);
      const inside = target !== undefined && !target.startsWith('../') ? target : undefined;
      try {
        await this.#opts.albums.withAlbums([ancestor], ([album]) => album!.edit((record) => followReferences(record, below, oldName, inside)));
      } catch (err) {
        // A plain folder (no album.json), or one the admin cannot change: nothing of it to follow.
        if (!(err instanceof HttpError)) throw err;
        if (err.status !== 404) this.#opts.log.warn(`cover of ${ancestor} not updated after a change to ${albumPath}/${oldName}: ${err.message}`);
      }
    }
  }

  /** Puts files moved so far back where they were (best effort: the error that stopped the action is the one reported). */
  async #undo(moved: readonly MovedFile[], fromDir: string, toDir: string): Promise<void> {
    for (const f of [...moved].reverse()) {
      try {
        await renameDurably(path.join(toDir, f.to), path.join(fromDir, f.from));
      } catch (err) {
        this.#opts.log.error({ err }, `could not move ${f.to} back after a failed action`);
      }
    }
  }

  /** The cache files of the original at `from` put where the original now is: they were made from it, and stay fresh (same inode and mtime). */
  async #moveCache(from: string, to: string): Promise<void> {
    const sources = mediaCacheFiles(this.#opts.cacheDir, from);
    const targets = mediaCacheFiles(this.#opts.cacheDir, to);
    await Promise.all(
      sources.map(async (source, i) => {
        const dest = targets[i]!;
        try {
          await fs.mkdir(path.dirname(dest), { recursive: true });
          await renameDurably(source, dest);
        } catch (err) {
          if (!isMissing(err)) this.#opts.log.warn({ err }, `cache file ${source} not moved; it is made again when asked for`);
          // Not moved, it must not stay under the old name either: a new file of that name would reuse it only if its tag matched.
          await fs.rm(source, { force: true }).catch(() => undefined);
        }
      }),
    );
  }

  async #dropCache(mediaPath: string): Promise<void> {
    await Promise.all(mediaCacheFiles(this.#opts.cacheDir, mediaPath).map((file) => fs.rm(file, { force: true })));
  }

  #abs(rel: string): string {
    return path.join(this.#opts.albumsDir, ...rel.split('/'));
  }
}

/** A new name for `current`: a safe file name (uploads/safe-file-name.ts) with the same extension, in any case. */
function checkNewName(raw: unknown, current: string): string {
  if (typeof raw !== 'string' || raw.trim() === '') throw badRequest('Invalid rename: name must be the new file name');
  const name = raw.normalize('NFC');
  if (!isSafeFileName(name)) {
    throw badRequest(
      'Invalid rename: name must be a file name without "/", "\\", <>:"|?* or control characters, not starting with "." or "-", not ending with a space or ".", at most 200 bytes',
    );
  }
  if (path.extname(name).toLowerCase() !== path.extname(current).toLowerCase()) {
    throw badRequest(`Invalid rename: the extension must stay ${path.extname(current)} (any case)`);
  }
  return name;
}

/**
 * The fields of album.json that hold something per file name (docs/api.md#albumjson): what
 * follows a photo when it is renamed or moved, and goes when it is deleted.
 */
const PER_FILE_FIELDS = ['captions', 'rotations'] as const;
type PerFileField = (typeof PER_FILE_FIELDS)[number];

/** What album.json's `field` holds for `name` (unchecked: the record is validated as a whole when written). */
function fileEntryOf(record: AlbumRecord, field: PerFileField, name: string): unknown {
  const entries = Object.hasOwn(record, field) ? record[field] : undefined;
  if (typeof entries !== 'object' || entries === null || !Object.hasOwn(entries, name)) return undefined;
  return (entries as Record<string, unknown>)[name];
}

/** Every per-file entry of `name`, by field. */
function fileEntriesOf(record: AlbumRecord, name: string): [PerFileField, unknown][] {
  return PER_FILE_FIELDS.flatMap((field) => {
    const value = fileEntryOf(record, field, name);
    return value === undefined ? [] : [[field, value] as [PerFileField, unknown]];
  });
}

/** The record with `name`'s entry in `field` set, or removed (undefined); undefined when nothing changes. */
function withFileEntry(record: AlbumRecord, field: PerFileField, name: string, value: unknown): AlbumRecord | undefined {
  if (fileEntryOf(record, field, name) === value) return undefined;
  const current = Object.hasOwn(record, field) && typeof record[field] === 'object' && record[field] !== null ? (record[field] as Record<string, unknown>) : {};
  // Object.entries/fromEntries define every key as a plain field, "__proto__" included.
  const entries = Object.entries(current).filter(([key]) => key !== name);
  if (value !== undefined) entries.push([name, value]);
  const next: AlbumRecord = { ...record, [field]: Object.fromEntries(entries) };
  if (entries.length === 0) delete next[field];
  return next;
}

/**
 * What album.json says about a file that moved from `below/oldName` (relative to the album;
 * `below` is '' for the file's own album) to `newRel` (relative to the album too; undefined:
 * gone from below it): its caption and rotation follow a rename within the album, a cover
 * naming it is rewritten or dropped (falling back to the first photo). Undefined when nothing
 * changes.
 */
function followReferences(record: AlbumRecord, below: string, oldName: string, newRel: string | undefined): AlbumRecord | undefined {
  const oldRel = below === '' ? oldName : `${below}/${oldName}`;
  let next = record;
  let changed = false;
  if (record.thumbnail === oldRel) {
    next = { ...next };
    if (newRel === undefined) delete next.thumbnail;
    else next.thumbnail = newRel;
    changed = true;
  }
  for (const [field, value] of below === '' ? fileEntriesOf(record, oldName) : []) {
    next = withFileEntry(next, field, oldName, undefined) ?? next;
    // Renamed within the album: the entry goes with it (to another album, the move carries it).
    if (newRel !== undefined && !newRel.includes('/')) next = withFileEntry(next, field, newRel, value) ?? next;
    changed = true;
  }
  return changed ? next : undefined;
}

/**
 * Moves a file to a name that must be free: a hard link fails rather than replace anything
 * (a rename would silently overwrite a file that appeared since the check). Where links are
 * not possible (some filesystems, another device), or for a change of letter case only (on a
 * case-insensitive filesystem the link would find the file itself), a rename.
 */
async function moveNoReplace(from: string, to: string): Promise<void> {
  if (path.dirname(from) === path.dirname(to) && from.toLowerCase() === to.toLowerCase()) {
    await renameDurably(from, to);
    return;
  }
  try {
    await fs.link(from, to);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? '';
    if (!NO_LINKS.has(code)) throw err;
    if (code === 'EXDEV') await moveAcrossDevices(from, to);
    else await renameDurably(from, to);
    return;
  }
  await fs.unlink(from);
  // As a rename would be: both directories' changes on disk (durable writes, server/core/fs-atomic.ts).
  await syncDirectories(to, from);
}

async function readNames(dir: string): Promise<string[]> {
  const entries: Dirent[] = await fs.readdir(dir, { withFileTypes: true });
  return entries.map((e) => e.name);
}

async function lstatOrUndefined(file: string) {
  try {
    return await fs.lstat(file);
  } catch (err) {
    if (isMissing(err)) return undefined;
    throw err;
  }
}

async function anyExists(dir: string, names: readonly string[]): Promise<boolean> {
  for (const name of names) if (await lstatOrUndefined(path.join(dir, name))) return true;
  return false;
}
