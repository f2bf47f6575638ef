import type { Dirent } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { mediaKind } from '../media-catalogue.js';
import type { AlbumMeta } from './album-record.js';
import type { MediaItem, TreeNode } from './album-tree.js';
import { FOLDER_FILE, parseFolderRecord } from './folder-record.js';
import { pairLivePhotos } from './live-photos.js';
import { naturalCompare } from './natural-order.js';
import { type RecordWithToken, readRecordWithToken } from './record-token.js';
import type { Logger } from '../logger.js';
import { signatureOf } from '../watch/tree-watcher.js';

export const ALBUM_FILE = 'album.json';

/**
 * Photos and videos directly in a folder that is not an album yet (no album.json): a folder
 * the owner can adopt (adopt.ts), 0 for an album or a folder of folders.
 */
export function adoptableMedia(entries: readonly Dirent[]): number {
  let media = 0;
  for (const e of entries) {
    if (e.name.startsWith('.')) continue;
    if (e.name === ALBUM_FILE) return 0;
    if ((e.isFile() || e.isSymbolicLink()) && mediaKind(e.name) !== undefined) media++;
  }
  return media;
}

/** The error of an albums directory that cannot be read, naming the setting to fix (a .env copied with its example folder, a typo, an unmounted disk). */
export function unreadableAlbumsDir(absDir: string, err: unknown): Error {
  const code = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
  return new Error(`ALBUMS_DIR ${absDir} cannot be read (${code}): set ALBUMS_DIR (in .env) to your photo folder`, { cause: err });
}

/** A folder holding photos that is not an album yet. */
export interface AdoptableFolderSeen {
  /** Relative to ALBUMS_DIR. */
  readonly path: string;
  readonly media: number;
}

export interface ScanOptions {
  readonly albumsDir: string;
  /**
   * Tokens of the previous scan that could not be written back (read-only tree), keyed by the
   * version of album.json they were made for, never by path: an edited or re-created file gets
   * a new one.
   */
  readonly memoryTokens: ReadonlyMap<string, string>;
  readonly log: Logger;
  /** Test seam: runs between reading a token-less album.json and writing it back with a token. */
  readonly beforeTokenWrite?: (file: string) => void | Promise<void>;
  /**
   * Filled, when given, with the signature of every directory and `album.json` read, each
   * taken just before it was read: the baseline of a poll (server/core/watch/tree-watcher.ts),
   * so a change landing while the tree is read is still seen. One stat more per directory.
   */
  readonly signatures?: Map<string, string>;
}

export interface ScanResult {
  readonly root: TreeNode;
  /** Every directory of the tree that was read (watched for changes). */
  readonly dirs: string[];
  /** The memory tokens still in use: pass them to the next scan. */
  readonly memoryTokens: Map<string, string>;
  /** Folders holding photos but no album.json (not below a broken album), in no set order. */
  readonly adoptable: readonly AdoptableFolderSeen[];
}

interface MutableNode {
  path: string;
  name: string;
  meta: (AlbumMeta & { token: string }) | undefined;
  folderTitle?: string | undefined;
  parent: MutableNode | undefined;
  children: MutableNode[];
  media: MediaItem[];
}

/**
 * Reads the whole tree with readdir only (no stat of media files: 100,000 photos must load
 * in well under a second). A directory with a broken `album.json` is skipped together with
 * everything below it: its children would otherwise lose the password they inherit from it.
 */
export async function scanAlbums(opts: ScanOptions): Promise<ScanResult> {
  const dirs: string[] = [];
  const memoryTokens = new Map<string, string>();
  const adoptable: AdoptableFolderSeen[] = [];
  const root: MutableNode = { path: '', name: '', meta: undefined, parent: undefined, children: [], media: [] };
  await scanInto(root, opts.albumsDir, { ...opts, keptTokens: memoryTokens, adoptable }, dirs);
  return { root: freeze(root), dirs, memoryTokens, adoptable };
}

type ScanState = ScanOptions & { readonly keptTokens: Map<string, string>; readonly adoptable: AdoptableFolderSeen[] };

async function scanInto(node: MutableNode, absDir: string, opts: ScanState, dirs: string[]): Promise<void> {
  let entries: Dirent[];
  try {
    if (opts.signatures) opts.signatures.set(absDir, await signatureOf(absDir));
    entries = await fs.readdir(absDir, { withFileTypes: true });
  } catch (err) {
    if (node.path === '') throw unreadableAlbumsDir(absDir, err);
    opts.log.warn(`cannot read directory ${absDir}: ${(err as Error).message}`);
    return;
  }
  dirs.push(absDir);
  const visible = entries.filter((e) => !e.name.startsWith('.'));
  if (visible.some((e) => e.name === ALBUM_FILE && e.isFile())) {
    const meta = await readMeta(absDir, opts);
    if (!meta) {
      node.meta = undefined;
      (node as { broken?: boolean }).broken = true;
      return;
    }
    node.meta = meta;
    // Live Photos are paired by name here, for every reader of the tree; the index pairs again
    // the albums whose content identifiers it was given (see live-photos.ts).
    node.media = pairLivePhotos(
      visible
        .filter((e) => (e.isFile() || e.isSymbolicLink()) && mediaKind(e.name) !== undefined)
        .map((e) => ({ name: e.name, kind: mediaKind(e.name)! }))
        .sort((a, b) => naturalCompare(a.name, b.name)),
    );
  } else {
    const media = node.path === '' ? 0 : adoptableMedia(visible);
    if (media > 0) opts.adoptable.push({ path: node.path, media });
    if (visible.some((e) => e.name === FOLDER_FILE && e.isFile())) node.folderTitle = await readFolderTitle(path.join(absDir, FOLDER_FILE), opts.log);
  }
  // Symlinked directories are not followed: they could loop or leave the tree.
  const subdirs = visible.filter((e) => e.isDirectory());
  const children = await Promise.all(
    subdirs.map(async (e) => {
      const child: MutableNode = {
        path: node.path === '' ? e.name : `${node.path}/${e.name}`,
        name: e.name,
        meta: undefined,
        parent: node,
        children: [],
        media: [],
      };
      await scanInto(child, path.join(absDir, e.name), opts, dirs);
      return child;
    }),
  );
  // Keep albums and folders that lead to albums; drop empty folders and broken albums.
  node.children = children.filter((c) => !(c as { broken?: boolean }).broken && (c.meta !== undefined || c.children.length > 0));
  node.children.sort(childOrder);
}

/**
 * Albums by `order` ascending (albums without one last), then title. Folders (years,
 * categories) by name, newest year first when the names are numbers.
 */
function childOrder(a: MutableNode, b: MutableNode): number {
  if (a.meta && b.meta) {
    const oa = a.meta.order ?? Number.POSITIVE_INFINITY;
    const ob = b.meta.order ?? Number.POSITIVE_INFINITY;
    if (oa !== ob) return oa < ob ? -1 : 1;
    return naturalCompare(a.meta.title, b.meta.title);
  }
  if (a.meta) return 1;
  if (b.meta) return -1;
  if (/^\d+$/.test(a.name) && /^\d+$/.test(b.name)) return naturalCompare(b.name, a.name);
  return naturalCompare(a.name, b.name);
}

/** A folder's title from its folder.json; a bad one is logged and the folder keeps its name. */
async function readFolderTitle(file: string, log: Logger): Promise<string | undefined> {
  try {
    return parseFolderRecord(await fs.readFile(file, 'utf8')).title;
  } catch (err) {
    log.warn(`ignoring ${file}: ${(err as Error).message}`);
    return undefined;
  }
}

async function readMeta(absDir: string, opts: ScanState): Promise<(AlbumMeta & { token: string }) | undefined> {
  const file = path.join(absDir, ALBUM_FILE);
  if (opts.signatures) opts.signatures.set(file, await signatureOf(file));
  let record: RecordWithToken;
  try {
    record = await readRecordWithToken(file, {
      remembered: (versionKey) => opts.memoryTokens.get(versionKey),
      beforeWrite: opts.beforeTokenWrite && (() => opts.beforeTokenWrite!(file)),
    });
  } catch (err) {
    opts.log.error(`skipping album ${file}: ${(err as Error).message}`);
    return undefined;
  }
  if (record.stored) return record.meta;
  if (!opts.memoryTokens.has(record.versionKey)) {
    opts.log.warn(`could not write a token into ${file} (${record.reason}); keeping it in memory while the file stays as it is`);
  }
  opts.keptTokens.set(record.versionKey, record.token);
  return { ...record.meta, token: record.token };
}

function freeze(node: MutableNode): TreeNode {
  for (const c of node.children) freeze(c);
  Object.freeze(node.children);
  Object.freeze(node.media);
  return Object.freeze(node) as TreeNode;
}
