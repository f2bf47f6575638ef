import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import { type Album, isAlbum, type MediaItem, type TreeNode } from './album-tree.js';
import { scanAlbums } from './scan.js';
import type { Logger } from '../logger.js';

export interface AlbumIndexOptions {
  readonly albumsDir: string;
  /** Watch the tree and rescan on changes (default true). */
  readonly watch?: boolean;
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
 * Emits 'change' after each rebuild.
 */
export class AlbumIndex extends EventEmitter {
  #root: TreeNode;
  #byPath: Map<string, TreeNode>;
  #version = 1;
  readonly #opts: Required<Omit<AlbumIndexOptions, 'beforeTokenWrite'>> & Pick<AlbumIndexOptions, 'beforeTokenWrite'>;
  /** Tokens that could not be written into a read-only album.json, by version of that file. */
  #memoryTokens: ReadonlyMap<string, string> = new Map();
  readonly #watchers = new Map<string, fs.FSWatcher>();
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
  }

  static async open(opts: AlbumIndexOptions): Promise<AlbumIndex> {
    const index = new AlbumIndex(opts);
    await index.rescan();
    return index;
  }

  get version(): number {
    return this.#version;
  }

  get root(): TreeNode {
    return this.#root;
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
    const { root, dirs, memoryTokens } = await scanAlbums({
      albumsDir: this.#opts.albumsDir,
      memoryTokens: this.#memoryTokens,
      log: this.#opts.log,
      beforeTokenWrite: this.#opts.beforeTokenWrite,
    });
    this.#memoryTokens = memoryTokens;
    const byPath = new Map<string, TreeNode>();
    const walk = (n: TreeNode) => {
      byPath.set(n.path, n);
      n.children.forEach(walk);
    };
    walk(root);
    this.#root = root;
    this.#byPath = byPath;
    this.#version++;
    if (this.#opts.watch && !this.#closed) this.#watchDirs(dirs);
    this.emit('change', this.#version);
  }

  /**
   * One non-recursive watcher per directory: Node 20's recursive fs.watch on Linux falls
   * back to polling every file, which does not scale to 100,000 photos.
   */
  #watchDirs(dirs: string[]): void {
    const wanted = new Set(dirs);
    for (const [dir, w] of this.#watchers) {
      if (!wanted.has(dir)) {
        w.close();
        this.#watchers.delete(dir);
      }
    }
    for (const dir of wanted) {
      if (this.#watchers.has(dir)) continue;
      try {
        const w = fs.watch(dir, { persistent: false }, () => this.#schedule());
        w.on('error', () => {
          w.close();
          this.#watchers.delete(dir);
          this.#schedule();
        });
        this.#watchers.set(dir, w);
      } catch (err) {
        this.#opts.log.warn(`cannot watch ${dir}: ${(err as Error).message}`);
      }
    }
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
    for (const w of this.#watchers.values()) w.close();
    this.#watchers.clear();
  }
}
