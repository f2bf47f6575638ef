import { EventEmitter } from 'node:events';
import { type Album, isAlbum, type MediaItem, type TreeNode } from './album-tree.js';
import { type ContentIds, repairLivePhotos } from './live-photos.js';
import { type AdoptableFolderSeen, scanAlbums } from './scan.js';
import type { Logger } from '../logger.js';
import type { WatchSetting } from '../config.js';
import { TreeWatcher, type TreeWatcherOptions, type WatchMode } from '../watch/tree-watcher.js';

export interface AlbumIndexOptions {
  readonly albumsDir: string;
  /** Watch the tree and rescan on changes (default true). */
  readonly watch?: boolean;
  /** How (config `WATCH`, default `auto`): server/core/watch/tree-watcher.ts. */
  readonly watchSetting?: WatchSetting;
  /** Milliseconds between polls when polling (config `WATCH_INTERVAL`, default 5 s). */
  readonly pollIntervalMs?: number;
  /** Test seam: how a directory is watched for events (fs.watch). */
  readonly watchDir?: TreeWatcherOptions['watchDir'];
  /** Test seam: how long WATCH=auto waits for its canary. */
  readonly probeTimeoutMs?: number;
  /** Quiet time after the last change before a rescan. */
  readonly debounceMs?: number;
  readonly log: Logger;
  /** Test seam: runs between reading a token-less album.json and writing it back with a token. */
  readonly beforeTokenWrite?: (file: string) => void | Promise<void>;
}

/**
 * The album tree held in memory (read once at start, never per request), rebuilt as a whole
 * when something changes on disk. Readers always see one consistent snapshot; `version`
 * increases with every rebuild so caches of rendered pages know when to refresh.
 * Emits 'change' after each rebuild, and after new content identifiers re-paired an album's
 * Live Photos (setContentIds).
 */
export class AlbumIndex extends EventEmitter {
  #root: TreeNode;
  #byPath: Map<string, TreeNode>;
  #version = 1;
  #adoptable: readonly AdoptableFolderSeen[] = [];
  readonly #opts: Required<Pick<AlbumIndexOptions, 'albumsDir' | 'watch' | 'debounceMs' | 'log'>> & AlbumIndexOptions;
  /** Tokens that could not be written into a read-only album.json, by version of that file. */
  #memoryTokens: ReadonlyMap<string, string> = new Map();
  /** Content identifiers of Live Photos' files, by album path (setContentIds): kept across rescans. */
  readonly #contentIds = new Map<string, ContentIds>();
  readonly #watcher: TreeWatcher | undefined;
  #timer: NodeJS.Timeout | undefined;
  #scanning: Promise<void> | undefined;
  #rescanAgain = false;
  #closed = false;

  private constructor(opts: AlbumIndexOptions) {
    super();
    this.#opts = {
      watch: true,
      debounceMs: 250,
      ...opts,
    };
    this.#root = { path: '', name: '', meta: undefined, parent: undefined, children: [], media: [] };
    this.#byPath = new Map([['', this.#root]]);
    this.#watcher = this.#opts.watch
      ? new TreeWatcher({
          setting: opts.watchSetting ?? 'auto',
          intervalMs: opts.pollIntervalMs ?? 5000,
          root: opts.albumsDir,
          label: 'album tree',
          log: opts.log,
          onChange: () => this.#schedule(),
          watchDir: opts.watchDir,
          probeTimeoutMs: opts.probeTimeoutMs,
        })
      : undefined;
  }

  static async open(opts: AlbumIndexOptions): Promise<AlbumIndex> {
    const index = new AlbumIndex(opts);
    // The filesystem's type first: on NFS the first scan already takes the poll's baseline.
    await index.#watcher?.ready;
    await index.rescan();
    return index;
  }

  /** How changes are noticed now (`auto` may have switched to polling); undefined when not watching. */
  get watchMode(): WatchMode | undefined {
    return this.#watcher?.mode;
  }

  get version(): number {
    return this.#version;
  }

  get root(): TreeNode {
    return this.#root;
  }

  /** Folders holding photos that are not albums yet (README "Your own photos"), by path, as of the last scan. */
  get adoptable(): readonly AdoptableFolderSeen[] {
    return this.#adoptable;
  }

  /** Any node (album or plain folder) by its path; '' is the root. */
  node(path: string): TreeNode | undefined {
    return this.#byPath.get(path);
  }

  album(path: string): Album | undefined {
    const n = this.#byPath.get(path);
    return isAlbum(n) ? n : undefined;
  }

  *albums(): IterableIterator<Album> {
    for (const n of this.#byPath.values()) if (isAlbum(n)) yield n;
  }

  /** The album and media item a media path names, if both exist in the index. */
  findMedia(relPath: string): { album: Album; item: MediaItem } | undefined {
    const slash = relPath.lastIndexOf('/');
    if (slash < 0) return undefined;
    const album = this.album(relPath.slice(0, slash));
    const name = relPath.slice(slash + 1);
    const item = album?.media.find((m) => m.name === name);
    return album && item ? { album, item } : undefined;
  }

  /** The content identifiers the album's Live Photos are paired with (setContentIds), if any. */
  contentIds(albumPath: string): ContentIds | undefined {
    return this.#contentIds.get(albumPath);
  }

  /**
   * Pairs the album's Live Photos with these content identifiers (by file name) from now on,
   * this snapshot and every rescan's (docs/api.md#live-photos); an empty map goes back to
   * pairing by name. The scan never reads a file, so the identifiers come from outside
   * (server/media/live-photo-ids.ts). When they change the pairing of an album in the tree, a
   * new snapshot replaces the old one as after a rescan ('change', `version`). Returns whether
   * anything changed.
   */
  setContentIds(albumPath: string, ids: ContentIds): boolean {
    if (sameIds(this.#contentIds.get(albumPath) ?? NO_IDS, ids)) return false;
    if (ids.size === 0) this.#contentIds.delete(albumPath);
    else this.#contentIds.set(albumPath, new Map(ids));
    const album = this.album(albumPath);
    // Identifiers that confirm the pairs by name change nothing readers see: no new snapshot.
    if (!album || samePairs(album.media, repairLivePhotos(album.media, ids))) return true;
    this.#publish(withContentIds(this.#root, this.#contentIds, new Set([albumPath])));
    this.emit('change', this.#version);
    return true;
  }

  /** Rebuilds the index now; concurrent calls share one scan and one follow-up. */
  async rescan(): Promise<void> {
    if (this.#scanning) {
      this.#rescanAgain = true;
      return this.#scanning;
    }
    this.#scanning = (async () => {
      try {
        do {
          this.#rescanAgain = false;
          await this.#scanOnce();
        } while (this.#rescanAgain && !this.#closed);
      } finally {
        this.#scanning = undefined;
      }
    })();
    return this.#scanning;
  }

  async #scanOnce(): Promise<void> {
    const signatures = this.#watcher?.mode === 'poll' ? new Map<string, string>() : undefined;
    const { root, dirs, memoryTokens, adoptable } = await scanAlbums({
      albumsDir: this.#opts.albumsDir,
      memoryTokens: this.#memoryTokens,
      log: this.#opts.log,
      beforeTokenWrite: this.#opts.beforeTokenWrite,
      signatures,
    });
    this.#memoryTokens = memoryTokens;
    this.#adoptable = [...adoptable].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    // The scan paired by name; albums with identifiers are paired again with them.
    for (const albumPath of this.#contentIds.keys()) if (!isAlbumIn(root, albumPath)) this.#contentIds.delete(albumPath);
    this.#publish(withContentIds(root, this.#contentIds, new Set(this.#contentIds.keys())));
    if (!this.#closed) this.#watcher?.update(dirs, signatures);
    this.emit('change', this.#version);
  }

  /** Makes `root` the snapshot readers see. */
  #publish(root: TreeNode): void {
    const byPath = new Map<string, TreeNode>();
    const walk = (n: TreeNode) => {
      byPath.set(n.path, n);
      n.children.forEach(walk);
    };
    walk(root);
    this.#root = root;
    this.#byPath = byPath;
    this.#version++;
  }

  #schedule(): void {
    if (this.#closed) return;
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      this.rescan().catch((err) => this.#opts.log.error(`rescan of ${this.#opts.albumsDir} failed: ${(err as Error).message}`));
    }, this.#opts.debounceMs);
    this.#timer.unref();
  }

  close(): void {
    this.#closed = true;
    clearTimeout(this.#timer);
    this.#watcher?.close();
  }
}

const NO_IDS: ContentIds = new Map();

function sameIds(a: ContentIds, b: ContentIds): boolean {
  if (a.size !== b.size) return false;
  for (const [name, id] of a) if (b.get(name) !== id) return false;
  return true;
}

function samePairs(a: readonly MediaItem[], b: readonly MediaItem[]): boolean {
  return a.length === b.length && a.every((item, i) => item.name === b[i]!.name && item.motion?.name === b[i]!.motion?.name);
}

function isAlbumIn(root: TreeNode, albumPath: string): boolean {
  let node: TreeNode | undefined = root;
  for (const name of albumPath.split('/')) node = node?.children.find((c) => c.name === name);
  return isAlbum(node);
}

/**
 * A copy of the tree whose albums at `paths` are paired again with their identifiers (none:
 * by name). Nodes link to their parents, so replacing one means new nodes throughout; the
 * media lists of the other albums are shared. `root` itself when there is nothing to do.
 */
function withContentIds(root: TreeNode, ids: ReadonlyMap<string, ContentIds>, paths: ReadonlySet<string>): TreeNode {
  if (paths.size === 0) return root;
  const copy = (node: TreeNode, parent: TreeNode | undefined): TreeNode => {
    const media = paths.has(node.path) && isAlbum(node) ? Object.freeze(repairLivePhotos(node.media, ids.get(node.path) ?? NO_IDS)) : node.media;
    const next: TreeNode & { children: readonly TreeNode[] } = { ...node, parent, media, children: [] };
    next.children = Object.freeze(node.children.map((child) => copy(child, next)));
    return Object.freeze(next);
  };
  return copy(root, undefined);
}
