/**
 * The per-photo actions of the admin (MediaActions, below) and the order of their steps,
 * queues held and every check before the first change. The steps themselves live beside this
 * file: album.json's per-file entries and covers (album-file-entries.ts), moving files without
 * replacing any (file-moves.ts), the rotation (rotate-files.ts), the target's name
 * (media-target.ts).
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { pairLivePhotos } from '../../core/albums/live-photos.js';
import { hasControlCharacter } from '../../core/control-characters.js';
import { HttpError, badRequest } from '../../core/errors.js';
import { renameDurably } from '../../core/fs-atomic.js';
import type { Logger } from '../../core/logger.js';
import { mediaCacheFiles, turnMethodOf } from '../../core/media-catalogue.js';
import { isMissing } from '../../core/paths.js';
import { MAX_CAPTION_LENGTH } from '../album-fields.js';
import { type AlbumFiles, type AlbumInQueue, TRASH_DIR, conflict } from '../album-files.js';
import { listMediaFiles } from '../media-listing.js';
import { isSafeFileName } from '../uploads/safe-file-name.js';
import { fileEntriesOf, followReferences, withFileEntry } from './album-file-entries.js';
import { anyExists, lstatOrUndefined, moveNoReplace, readNames } from './file-moves.js';
import { type MediaTarget, mediaNotFound, mediaPathOf } from './media-target.js';
import { QUARTER_TURNS, type RotationChange, rotateFiles } from './rotate-files.js';

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

export interface MediaActionsOptions {
  readonly albumsDir: string;
  readonly cacheDir: string;
  readonly albums: AlbumFiles;
  readonly log: Logger;
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
    const turns = QUARTER_TURNS.get(degrees);
    if (turns === undefined) throw badRequest('Invalid rotation: degrees must be one of 90, 180, 270 (clockwise) or -90');
    const method = turnMethodOf(target.name);
    if (method === undefined) {
      throw badRequest(
        `${target.name} cannot be rotated without re-encoding it (only MP4 and MOV videos carry a turn): rotate it in a video editor and upload it again`,
      );
    }
    return this.#opts.albums.withAlbums([target.albumPath], async ([album]) => {
      const files = await this.#filesOf(album!, target.name);
      for (const name of files) {
        if ((await lstatOrUndefined(path.join(album!.dir, name)))?.isSymbolicLink()) {
          throw badRequest(`${name} is a link to a file elsewhere: rotate the original in its own album`);
        }
      }
      const change = await rotateFiles(album!, files, turns, method);
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
