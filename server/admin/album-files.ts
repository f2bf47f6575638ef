/**
 * Where and when the admin writes the album tree: each album.json changed inside its album's
 * queue, read with its version and replaced only if unchanged, new album folders kept inside
 * ALBUMS_DIR, deleted albums moved to the trash. What goes into album.json is album-fields.ts.
 */
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { type AlbumMeta, AlbumRecordError, parseAlbumRecord, toAlbumMeta } from '../core/albums/album-record.js';
import { hasPassword } from '../core/albums/album-tree.js';
import { type RecordWithToken, readRecordWithToken } from '../core/albums/record-token.js';
import { ALBUM_FILE } from '../core/albums/scan.js';
import { revokeAllLinks } from '../core/albums/share-links.js';
import { type FileVersion, readVersioned, replaceIfUnchanged } from '../core/albums/versioned-file.js';
import { renameDurably, writeFileAtomic } from '../core/fs-atomic.js';
import { HttpError, badRequest, notFound } from '../core/errors.js';
import { isInside, isMissing, resolveInside } from '../core/paths.js';
import { type AlbumRecord, applyPatch, checkPatch, checkThumbnail, invalidMetadata, serializeRecord } from './album-fields.js';
import { parseJsonObject } from './json-object.js';
import type { KeyedQueue } from './keyed-queue.js';

/** Folder under ALBUMS_DIR that receives deleted albums; dot-prefixed, so never scanned or served. */
export const TRASH_DIR = '.trash';

export const conflict = (message: string) => new HttpError(409, message);

export interface StoredAlbum {
  readonly path: string;
  /** Real absolute directory of the album. */
  readonly dir: string;
  /** `token` is undefined only when album.json has none and cannot be written (a read-only tree). */
  readonly meta: AlbumMeta;
}

/** An album whose queue is held (AlbumFiles.withAlbums): its album.json is read and changed from inside. */
export interface AlbumInQueue {
  readonly path: string;
  /** Real absolute directory of the album. */
  readonly dir: string;
  /** album.json as on disk now; 409 when it is not a JSON object. */
  record(): Promise<AlbumRecord>;
  /** Changes album.json (read-modify-write, validated, atomic); `change` answering undefined leaves it as it is. */
  edit(change: (record: AlbumRecord) => AlbumRecord | undefined): Promise<StoredAlbum>;
}

/** Saves by hand that keep landing between our read and our rename before an edit gives up with 409. */
const MAX_EDIT_TRIES = 3;

/**
 * The admin's writes to the album tree. Every change of an album.json is a read-modify-write
 * inside the album's queue and ends in an atomic rename, so concurrent edits never tear the
 * file and a rejected edit leaves it as it was.
 */
export class AlbumFiles {
  readonly #albumsDir: string;
  readonly #queue: KeyedQueue;

  constructor(opts: { albumsDir: string; queue: KeyedQueue }) {
    this.#albumsDir = opts.albumsDir;
    this.#queue = opts.queue;
  }

  /** The real directory of an existing album; 404 when there is none at `albumPath`. */
  async locate(albumPath: string): Promise<string> {
    let dir: string;
    try {
      dir = await resolveInside(this.#albumsDir, albumPath);
    } catch (err) {
      if (err instanceof HttpError && err.status === 404) throw notFound(`Album not found: ${albumPath}`);
      throw err;
    }
    if (!(await isFile(path.join(dir, ALBUM_FILE)))) throw notFound(`Album not found: ${albumPath}`);
    return dir;
  }

  /**
   * The album as on disk. A token-less album.json gets its token written here, the same way the
   * public index does it, so the token shown is the one on disk, the one the public server uses.
   */
  async read(albumPath: string): Promise<StoredAlbum> {
    const dir = await this.locate(albumPath);
    return this.#queue.run(dir, async () => {
      let record: RecordWithToken;
      try {
        record = await readRecordWithToken(path.join(dir, ALBUM_FILE));
      } catch (err) {
        if (isMissing(err)) throw notFound(`Album not found: ${albumPath}`);
        // Nothing the client sent is wrong: the file on disk is (edited by hand). A PUT can repair it.
        if (err instanceof AlbumRecordError)
          throw conflict(`The album.json of ${albumPath} is invalid (Invalid album metadata: ${err.message}); fix it with PUT or by hand`);
        throw err;
      }
      return { path: albumPath, dir, meta: record.meta };
    });
  }

  /** Creates `albumPath` (already shape-checked) with `fields`; 409 when it is already an album. */
  async create(albumPath: string, fields: Record<string, unknown>): Promise<StoredAlbum> {
    checkPatch(fields);
    const record = applyPatch({}, fields);
    if (record.token === undefined) record.token = crypto.randomUUID();
    const meta = this.#validate(record);
    const target = await this.#newAlbumDir(albumPath);
    return this.#queue.run(target, async () => {
      try {
        await fs.lstat(path.join(target, ALBUM_FILE));
        throw conflict(`Album already exists: ${albumPath}`);
      } catch (err) {
        if (!isMissing(err)) throw err;
      }
      if (meta.thumbnail !== undefined) await checkThumbnail(target, meta.thumbnail);
      await fs.mkdir(target, { recursive: true });
      await writeRecord(target, record);
      return { path: albumPath, dir: target, meta };
    });
  }

  /** Merges `patch` into the album's record (null removes an optional field). */
  async update(albumPath: string, patch: Record<string, unknown>): Promise<StoredAlbum> {
    if (Object.keys(patch).length === 0) throw badRequest('Invalid album metadata: the body names no field to change');
    checkPatch(patch);
    return this.#modify(albumPath, (record) => applyPatch(record, patch));
  }

  /**
   * Any other read-modify-write of the record (the share links' routes: server/admin/routes/share-links.ts),
   * in the album's queue like every edit. `change` may throw to refuse (nothing is written); the
   * result is validated as a whole before the atomic write.
   */
  async edit(albumPath: string, change: (record: Readonly<AlbumRecord>) => AlbumRecord): Promise<StoredAlbum> {
    return this.#modify(albumPath, change);
  }

  /**
   * A new random token, and the album's links per person marked `revoked` (kept, for the
   * owner to see): everyone who had access loses it, also to the passwordless children it
   * opened. `revokedLinks`: the links that worked until now.
   */
  async rotateToken(albumPath: string): Promise<{ readonly album: StoredAlbum; readonly revokedLinks: number }> {
    let revokedLinks = 0;
    const album = await this.#modify(albumPath, (record) => {
      const { links, revoked } = revokeAllLinks(record.shareLinks, new Date());
      revokedLinks = revoked;
      return { ...record, token: crypto.randomUUID(), ...(record.shareLinks === undefined ? {} : { shareLinks: links }) };
    });
    return { album, revokedLinks };
  }

  /** Moves the album directory (children included) to `.trash/<timestamp>/<album path>`; returns that path. */
  async moveToTrash(albumPath: string): Promise<string> {
    const dir = await this.locate(albumPath);
    return this.#queue.run(dir, async () => {
      await this.locate(albumPath);
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      let trashRel = `${TRASH_DIR}/${stamp}/${albumPath}`;
      for (let n = 2; await exists(path.join(this.#albumsDir, ...trashRel.split('/'))); n++) {
        trashRel = `${TRASH_DIR}/${stamp}-${n}/${albumPath}`;
      }
      const dest = path.join(this.#albumsDir, ...trashRel.split('/'));
      await fs.mkdir(path.dirname(dest), { recursive: true });
      await renameDurably(dir, dest);
      return trashRel;
    });
  }

  /**
   * The nearest album above `album`, whether the album is protected (it or an album above
   * it has a password, docs/api.md#access) and the location setting it inherits (that of the
   * nearest album above that sets one, docs/api.md#location-privacy), read from disk so the
   * answer is right after a write.
   */
  async ancestry(album: StoredAlbum): Promise<{ parent: string | null; protected: boolean; inheritedHideLocation: boolean }> {
    let parent: string | null = null;
    let locked = hasPassword(album.meta);
    let inheritedHideLocation: boolean | undefined;
    const segments = album.path.split('/');
    for (let depth = segments.length - 1; depth > 0; depth--) {
      let meta: AlbumMeta;
      try {
        meta = parseAlbumRecord(await fs.readFile(path.join(this.#albumsDir, ...segments.slice(0, depth), ALBUM_FILE), 'utf8'));
      } catch {
        continue; // a plain folder, or an album.json the public index skips as broken
      }
      parent ??= segments.slice(0, depth).join('/');
      if (hasPassword(meta)) locked = true;
      inheritedHideLocation ??= meta.hideLocation;
    }
    return { parent, protected: locked, inheritedHideLocation: inheritedHideLocation ?? false };
  }

  /**
   * Runs `task` holding the queues of the albums at `albumPaths` (each album once), so that no
   * other admin write to those albums (an edit, an upload, a rename of one of their files)
   * runs meanwhile. The queues are taken in one global order (by directory), so two tasks
   * that each need two albums never wait for each other. 404 when one is not an album.
   */
  async withAlbums<T>(albumPaths: readonly string[], task: (albums: readonly AlbumInQueue[]) => Promise<T>): Promise<T> {
    const located = await Promise.all(albumPaths.map(async (albumPath) => ({ albumPath, dir: await this.locate(albumPath) })));
    const keys = [...new Set(located.map((a) => a.dir))].sort();
    const inQueue = async (): Promise<T> => {
      // Checked again inside: the album may have been deleted while the task waited.
      const albums = await Promise.all(located.map(async ({ albumPath }) => this.#inQueue(albumPath, await this.locate(albumPath))));
      return task(albums);
    };
    const nested = keys.reduceRight<() => Promise<T>>((inner, key) => () => this.#queue.run(key, inner), inQueue);
    return nested();
  }

  /** Merges `change` into one album's record inside its queue (see #edit). */
  async #modify(albumPath: string, change: (record: AlbumRecord) => AlbumRecord): Promise<StoredAlbum> {
    return this.withAlbums([albumPath], ([album]) => album!.edit(change));
  }

  #inQueue(albumPath: string, dir: string): AlbumInQueue {
    return {
      path: albumPath,
      dir,
      record: async () => (await readRecord(dir, albumPath)).record,
      edit: async (change) => {
        const edited = await this.#edit(albumPath, dir, change);
        return edited ?? (await this.#stored(albumPath, dir));
      },
    };
  }

  async #stored(albumPath: string, dir: string): Promise<StoredAlbum> {
    return { path: albumPath, dir, meta: this.#validate((await readRecord(dir, albumPath)).record) };
  }

  /**
   * Read-modify-write of album.json, to be run inside the album's queue (edits through the
   * admin never interleave), ending in a rename only if the file is still the one read: a save
   * by hand or a token written by the public server in between is not overwritten; the edit is
   * redone on it. `change` answering undefined leaves the file as it is (and this answers undefined).
   */
  async #edit(albumPath: string, dir: string, change: (record: AlbumRecord) => AlbumRecord | undefined): Promise<StoredAlbum | undefined> {
    for (let attempt = 1; ; attempt++) {
      const { version, record: current } = await readRecord(dir, albumPath);
      const next = change(current);
      if (next === undefined) return undefined;
      // A file without a token gets one with this write, as the index would have given it.
      if (!Object.hasOwn(next, 'token') || next.token === null) next.token = crypto.randomUUID();
      const meta = this.#validate(next);
      if (meta.thumbnail !== undefined && meta.thumbnail !== current.thumbnail) await checkThumbnail(dir, meta.thumbnail);
      if (await replaceIfUnchanged(path.join(dir, ALBUM_FILE), version, serializeRecord(next))) return { path: albumPath, dir, meta };
      if (attempt === MAX_EDIT_TRIES) throw conflict(`The album.json of ${albumPath} keeps changing on disk; try again`);
    }
  }

  /** The whole record as the public server will read it; fields the admin does not know are kept, unchecked. */
  #validate(record: AlbumRecord): AlbumMeta {
    try {
      return toAlbumMeta(record);
    } catch (err) {
      if (err instanceof AlbumRecordError) throw invalidMetadata([err.message]);
      throw err;
    }
  }

  /**
   * The directory a new album will get. Checked before anything is created: a symlinked
   * folder on the way must not lead the new album out of ALBUMS_DIR.
   */
  async #newAlbumDir(albumPath: string): Promise<string> {
    const realRoot = await fs.realpath(this.#albumsDir);
    const segments = albumPath.split('/');
    for (let depth = segments.length; depth >= 0; depth--) {
      let real: string;
      try {
        real = await fs.realpath(path.join(realRoot, ...segments.slice(0, depth)));
      } catch (err) {
        if (isMissing(err)) continue;
        throw err;
      }
      if (!isInside(realRoot, real)) throw badRequest('Invalid parameter: path leads out of the albums directory');
      // Any depth may be an album, so the path may name a photo or another file of the tree.
      if (!(await fs.stat(real)).isDirectory()) throw conflict(`A file is in the way of the album: ${segments.slice(0, depth).join('/')}`);
      return path.join(real, ...segments.slice(depth));
    }
    return path.join(realRoot, ...segments);
  }
}

async function readRecord(dir: string, albumPath: string): Promise<{ version: FileVersion; record: AlbumRecord }> {
  let version: FileVersion;
  try {
    version = await readVersioned(path.join(dir, ALBUM_FILE));
  } catch (err) {
    if (isMissing(err)) throw notFound(`Album not found: ${albumPath}`);
    throw err;
  }
  const parsed = parseJsonObject(version.text);
  if (!parsed) {
    throw conflict(`The album.json of ${albumPath} is not a JSON object; fix it by hand first`);
  }
  return { version, record: parsed as AlbumRecord };
}

async function writeRecord(dir: string, record: AlbumRecord): Promise<void> {
  await writeFileAtomic(path.join(dir, ALBUM_FILE), serializeRecord(record));
}

async function isFile(file: string): Promise<boolean> {
  try {
    return (await fs.stat(file)).isFile();
  } catch (err) {
    if (isMissing(err)) return false;
    throw err;
  }
}

async function exists(file: string): Promise<boolean> {
  try {
    await fs.lstat(file);
    return true;
  } catch (err) {
    if (isMissing(err)) return false;
    throw err;
  }
}
