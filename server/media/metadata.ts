import fs from 'node:fs/promises';
import type { Dimensions, ExifRecord, VideoInfo } from '../../workers/tasks.js';
import { notFound } from '../core/errors.js';
import type { MediaKind } from '../core/media-catalogue.js';
import { isMissing } from '../core/paths.js';
import type { MediaPool } from './pool.js';
import { sourceTagOf } from '../core/media/source-tag.js';

export type { Dimensions, ExifRecord, VideoInfo };

export interface MetadataService {
  exif(absPath: string): Promise<ExifRecord>;
  videoInfo(absPath: string): Promise<VideoInfo>;
  /** Size as displayed, for page layout. */
  dimensions(absPath: string, kind: MediaKind): Promise<Dimensions>;
}

export interface MetadataServiceOptions {
  readonly pool: Pick<MediaPool, 'exif' | 'videoInfo' | 'dimensions'>;
  /** Entries kept in memory (each a few hundred bytes). */
  readonly maxEntries?: number;
}

/**
 * EXIF, video info and dimensions through the pool, remembered per file version: the key
 * holds the absolute path and the file's identity (size, mtime and inode), so a replaced
 * file is read again, even one with an older or the same mtime. The promise is
 * cached, so concurrent lookups of one file share one task; a failure is not remembered.
 */
export function createMetadataService({ pool, maxEntries = 2000 }: MetadataServiceOptions): MetadataService {
  const cache = new LruCache<Promise<unknown>>(maxEntries);

  async function lookup<R>(what: string, absPath: string, task: () => Promise<R>): Promise<R> {
    const key = `${what}\0${absPath}\0${await versionOf(absPath)}`;
    let entry = cache.get(key) as Promise<R> | undefined;
    if (!entry) {
      entry = task();
      cache.set(key, entry);
      entry.catch(() => cache.delete(key));
    }
    return entry;
  }

  return {
    exif: (absPath) => lookup('exif', absPath, () => pool.exif({ src: absPath })),
    videoInfo: (absPath) => lookup('video', absPath, () => pool.videoInfo({ src: absPath })),
    dimensions: (absPath, kind) => lookup(`dimensions-${kind}`, absPath, () => pool.dimensions({ src: absPath, kind })),
  };
}

async function versionOf(file: string): Promise<string> {
  try {
    return sourceTagOf(await fs.stat(file));
  } catch (err) {
    if (isMissing(err)) throw notFound('File not found');
    throw err;
  }
}

/** A Map keeps insertion order: re-inserting on read makes its first key the least recent. */
export class LruCache<V> {
  readonly #entries = new Map<string, V>();
  constructor(readonly maxEntries: number) {}

  get(key: string): V | undefined {
    const value = this.#entries.get(key);
    if (value !== undefined) {
      this.#entries.delete(key);
      this.#entries.set(key, value);
    }
    return value;
  }

  set(key: string, value: V): void {
    this.#entries.delete(key);
    this.#entries.set(key, value);
    if (this.#entries.size > this.maxEntries) {
      const oldest = this.#entries.keys().next();
      if (!oldest.done) this.#entries.delete(oldest.value);
    }
  }

  delete(key: string): void {
    this.#entries.delete(key);
  }
}
