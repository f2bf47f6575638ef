import { fullSizeDir, fullSizeFile } from '../core/media-catalogue.js';
import { sourceTagOf } from '../core/media/source-tag.js';
import { isInside } from '../core/paths.js';
import type { MediaPool } from './pool.js';
import { makeOnce } from './cache-lock.js';
import { openIfPresent, release, statOriginal, UNTAGGED } from './tagged-cache-file.js';
import type { ThumbnailSource } from './thumbnails.js';

/** A fresh full-size JPEG on disk, ready to be sent by path. */
export interface FullSizeFile {
  readonly path: string;
  /** Identity of the original it was made from (server/core/media/source-tag.ts). */
  readonly tag: string;
}

export interface FullSizeCache {
  /** The full-size JPEG of a photo browsers cannot display, made first when missing or stale. */
  open(source: Pick<ThumbnailSource, 'relPath' | 'absPath' | 'rotation'>): Promise<FullSizeFile>;
}

/**
 * Full-size JPEGs of the photos browsers cannot display themselves (HEIC, TIFF), and of those
 * the owner turned in album.json (docs/api.md#rotations): what the viewer's "full resolution"
 * opens for them (docs/api.md#get-apifull-sizepath). Made on
 * demand only, since few photos are ever looked at that closely and each is megabytes; kept
 * fresh like thumbnails, by the original's identity written into the file, and made once
 * however many visitors ask at the same moment, of however many processes (cache-lock.ts).
 */
export function createFullSizeCache({ cacheDir, pool }: { cacheDir: string; pool: Pick<MediaPool, 'fullSize'> }): FullSizeCache {
  const inFlight = new Map<string, Promise<unknown>>();

  function pathOf(relPath: string): string {
    const file = fullSizeFile(cacheDir, relPath);
    // relPath comes validated from the resolver; this only guards against misuse.
    if (!isInside(fullSizeDir(cacheDir), file)) throw new TypeError(`relPath escapes the cache: ${relPath}`);
    return file;
  }

  /** The tag of the cache file, read from its head; undefined when there is none. */
  async function tagOf(file: string): Promise<string | undefined> {
    const opened = await openIfPresent(file, 0);
    release(opened);
    return opened?.tag;
  }

  return {
    async open(source) {
      const file = pathOf(source.relPath);
      const [stats, cachedTag] = await Promise.all([statOriginal(source.absPath), tagOf(file)]);
      const tag = sourceTagOf(stats, source.rotation);
      if (cachedTag === tag) return { path: file, tag };
      const key = `${source.relPath}\0${tag}`;
      let job = inFlight.get(key);
      if (!job) {
        const make = async () => void (await pool.fullSize({ src: source.absPath, dest: file, tag, ...(source.rotation ? { rotate: source.rotation } : {}) }));
        job = makeOnce(file, make, async () => (await tagOf(file)) === tag).finally(() => inFlight.delete(key));
        inFlight.set(key, job);
      }
      await job;
      // Whatever version the file holds now: its own tag names it.
      const madeTag = await tagOf(file);
      if (madeTag === undefined || madeTag === UNTAGGED) throw new Error(`full-size JPEG ${file} is missing or untagged right after its generation`);
      return { path: file, tag: madeTag };
    },
  };
}
