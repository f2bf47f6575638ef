import fs from 'node:fs';
import type { WatchSetting } from '../config.js';
import type { Logger } from '../logger.js';
import { isProbeFile, probeEvents, probeName, remoteFilesystemOf, type WatchMode } from './watch-mode.js';

export type { WatchMode };

/** Paths stat'ed at once by one poll: enough to hide a network filesystem's round trips. */
const POLL_CONCURRENCY = 32;

/**
 * What a path looks like to stat: inode, size, mtime and ctime, or `missing`. A directory's
 * mtime and ctime change when an entry is added, removed or renamed; a file's when it is
 * written in place; a file replaced by rename gets another inode.
 */
export async function signatureOf(file: string): Promise<string> {
  try {
    const s = await fs.promises.stat(file);
    return `${s.ino}:${s.size}:${s.mtimeMs}:${s.ctimeMs}`;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR' ? 'missing' : `error:${code ?? 'unknown'}`;
  }
}

/** The signatures of `paths`, each taken before that path is read: the baseline a poll compares with. */
export async function signaturesOf(paths: readonly string[]): Promise<Map<string, string>> {
  return new Map(await Promise.all(paths.map(async (p) => [p, await signatureOf(p)] as const)));
}

export type WatchListener = (event: string, name: string | Buffer | null) => void;

export interface TreeWatcherOptions {
  /** `auto` starts with events and may switch to polling (watch-mode.ts); `events` and `poll` stay as they are. */
  readonly setting: WatchSetting;
  readonly intervalMs: number;
  /** The tree's root: its filesystem is checked, and `auto` probes events with a canary there. */
  readonly root: string;
  /** What is watched, for the log ('album tree', 'content'). */
  readonly label: string;
  readonly log: Logger;
  /** Something changed: the owner reads the tree again (debouncing is its business) and calls update(). */
  readonly onChange: () => void;
  /** Test seam: how a directory is watched (fs.watch). */
  readonly watchDir?: (dir: string, listener: WatchListener) => fs.FSWatcher;
  /** Test seam: how long the canary may take (PROBE_TIMEOUT_MS). */
  readonly probeTimeoutMs?: number;
}

const watchWithFs = (dir: string, listener: WatchListener): fs.FSWatcher => fs.watch(dir, { persistent: false }, listener);

/**
 * Tells its owner when a tree of directories changed, by the kernel's events (one
 * non-recursive fs.watch per directory: Node 20's recursive watch on Linux falls back to
 * polling every file, which does not scale to 100,000 photos) or by polling: every
 * `intervalMs`, each directory and file the owner read is stat'ed and compared with its
 * signature from just before it was read, so nothing that changed after the read is missed.
 * Polling reads no directory: a change inside one shows as the directory's new mtime, an
 * `album.json` saved in place as the file's. Each process polls on its own, so a change made
 * on one machine shows on every instance within the interval (plus the filesystem's own
 * attribute caching: NFS's `actimeo`).
 */
export class TreeWatcher {
  readonly #opts: TreeWatcherOptions;
  readonly #watchDir: (dir: string, listener: WatchListener) => fs.FSWatcher;
  #mode: WatchMode;
  readonly #watchers = new Map<string, fs.FSWatcher>();
  #signatures: Map<string, string> = new Map();
  #pollTimer: NodeJS.Timeout | undefined;
  #polling = false;
  #probeStarted = false;
  /** The canary being looked for, and how to say it was seen. */
  #probe: { name: string; seen: () => void } | undefined;
  #closed = false;
  /** Settles once the filesystem's type is known (and the mode switched if it must). */
  readonly ready: Promise<void>;

  constructor(opts: TreeWatcherOptions) {
    this.#opts = opts;
    this.#watchDir = opts.watchDir ?? watchWithFs;
    this.#mode = opts.setting === 'poll' ? 'poll' : 'events';
    if (opts.setting === 'poll') this.#opts.log.info(`${opts.label}: polling for changes every ${opts.intervalMs / 1000} s (WATCH=poll)`);
    this.ready =
      opts.setting === 'auto'
        ? remoteFilesystemOf(opts.root).then((fsName) => {
            if (fsName) this.#switchToPoll(`${opts.root} is on ${fsName}, where file events from other machines never arrive`);
          })
        : Promise.resolve();
  }

  get mode(): WatchMode {
    return this.#mode;
  }

  /**
   * After every read of the tree: the directories read (watched for events), and in poll
   * mode the signatures of what was read, taken before it was read (signaturesOf, or the
   * scan's own). Without signatures in poll mode (a read that began before the switch), the
   * owner is asked to read again.
   */
  update(dirs: readonly string[], signatures: ReadonlyMap<string, string> | undefined): void {
    if (this.#closed) return;
    if (this.#mode === 'poll') {
      if (!signatures) {
        this.#opts.onChange();
        return;
      }
      this.#signatures = new Map(signatures);
      this.#schedulePoll();
      return;
    }
    this.#watchDirs(dirs);
    if (this.#opts.setting === 'auto' && !this.#probeStarted && this.#mode === 'events' && this.#watchers.has(this.#opts.root)) {
      this.#probeStarted = true;
      this.#runProbe().catch((err: unknown) => this.#opts.log.warn(`${this.#opts.label}: event probe failed: ${(err as Error).message}`));
    }
  }

  close(): void {
    this.#closed = true;
    clearTimeout(this.#pollTimer);
    for (const w of this.#watchers.values()) w.close();
    this.#watchers.clear();
  }

  #watchDirs(dirs: readonly string[]): void {
    const wanted = new Set(dirs);
    for (const [dir, w] of this.#watchers) {
      if (!wanted.has(dir)) {
        w.close();
        this.#watchers.delete(dir);
      }
    }
    for (const dir of wanted) {
      if (this.#watchers.has(dir) || this.#mode !== 'events') continue;
      try {
        const w = this.#watchDir(dir, (_event, name) => this.#onEvent(name));
        w.on('error', () => {
          w.close();
          this.#watchers.delete(dir);
          this.#opts.onChange();
        });
        this.#watchers.set(dir, w);
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (this.#opts.setting === 'auto' && (code === 'ENOSPC' || code === 'ENOSYS' || code === 'EMFILE')) {
          this.#switchToPoll(`cannot watch ${dir} (${code}: the inotify limits are reached)`);
          return;
        }
        this.#opts.log.warn(`cannot watch ${dir}: ${(err as Error).message}`);
      }
    }
  }

  #onEvent(name: string | Buffer | null): void {
    if (this.#closed) return;
    if (isProbeFile(name)) {
      if (this.#probe && name === this.#probe.name) this.#probe.seen();
      return;
    }
    this.#opts.onChange();
  }

  /** Writes the canary and switches to polling when the root's watcher does not report it. */
  async #runProbe(): Promise<void> {
    const name = probeName();
    const seen = new Promise<void>((resolve) => {
      this.#probe = { name, seen: resolve };
    });
    const arrived = await probeEvents(this.#opts.root, name, seen, this.#opts.probeTimeoutMs);
    this.#probe = undefined;
    if (arrived === false) this.#switchToPoll(`file events do not arrive in ${this.#opts.root} (a canary file went unreported)`);
  }

  #switchToPoll(reason: string): void {
    if (this.#closed || this.#mode === 'poll') return;
    this.#mode = 'poll';
    for (const w of this.#watchers.values()) w.close();
    this.#watchers.clear();
    this.#opts.log.warn(`${this.#opts.label}: ${reason}; polling for changes every ${this.#opts.intervalMs / 1000} s (set WATCH=poll to say so)`);
    // The read this asks for gives the baseline, and whatever changed unseen so far.
    this.#opts.onChange();
  }

  #schedulePoll(): void {
    if (this.#pollTimer || this.#polling || this.#closed) return;
    this.#pollTimer = setTimeout(() => {
      this.#pollTimer = undefined;
      this.#polling = true;
      this.#pollOnce()
        .catch((err: unknown) => this.#opts.log.warn(`${this.#opts.label}: poll failed: ${(err as Error).message}`))
        .finally(() => {
          this.#polling = false;
          this.#schedulePoll();
        });
    }, this.#opts.intervalMs);
    // Polling never keeps a process alive on its own.
    this.#pollTimer.unref();
  }

  async #pollOnce(): Promise<void> {
    const entries = [...this.#signatures];
    let changed = false;
    for (let i = 0; i < entries.length && !changed && !this.#closed; i += POLL_CONCURRENCY) {
      const batch = entries.slice(i, i + POLL_CONCURRENCY);
      const now = await Promise.all(batch.map(([p]) => signatureOf(p)));
      batch.forEach(([p, before], j) => {
        if (now[j] !== before) {
          changed = true;
          // Seen once: the same change is not reported again should the owner's read fail.
          this.#signatures.set(p, now[j]!);
        }
      });
    }
    if (changed && !this.#closed) this.#opts.onChange();
  }
}
