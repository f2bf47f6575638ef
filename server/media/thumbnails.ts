import { type MediaKind, THUMBNAIL_SIZE_NAMES, THUMBNAIL_SIZES, type ThumbnailSize, thumbnailDir, thumbnailFile } from '../core/media-catalogue.js';
import { isInside } from '../core/paths.js';
import type { MediaPool } from './pool.js';
import { sourceTagOf } from '../core/media/source-tag.js';
import { closeQuietly, type OpenThumbnail, openIfPresent, release, statOriginal, UNTAGGED, WHOLE_READ_MAX } from './tagged-cache-file.js';

export { closeQuietly, WHOLE_READ_MAX };

/** What the cache needs to know about an original (the public app's ResolvedMedia fits). */
export interface ThumbnailSource {
  /** Album-relative path, '/'-separated: the cache file's place. */
  readonly relPath: string;
  /** Real absolute path of the original, already vetted by the access layer. */
  readonly absPath: string;
  readonly kind: MediaKind;
}

export type { OpenThumbnail };

export interface ThumbnailCache {
  /** `CACHE_DIR/thumbnails/{size}/{relPath}.jpg`. */
  pathOf(relPath: string, size: ThumbnailSize): string;
  /** The cache file of one size, generated first when it is missing or was made from another version of the original. */
  open(source: ThumbnailSource, size: ThumbnailSize): Promise<OpenThumbnail>;
  /** The cache file of one size when it is there and fresh; undefined when it would need generating. */
  openIfFresh(source: ThumbnailSource, size: ThumbnailSize): Promise<OpenThumbnail | undefined>;
  /** Makes every size fresh (one task for all of them when any is stale), for the CLI. */
  refresh(source: ThumbnailSource): Promise<'fresh' | 'generated'>;
}

export interface ThumbnailCacheOptions {
  readonly cacheDir: string;
  readonly pool: Pick<MediaPool, 'thumbnail'>;
}

/**
 * Thumbnails live in files keyed by the original's path and the size. A cache file is fresh
 * when the identity of the original written into it (size, mtime and inode, see
 * source-tag.ts) is the original's identity now: a photo replaced by an older file, or an
 * album deleted and made again at the same path, never shows the thumbnail of what was there.
 * The identity is the one seen before generation, so an original replaced while its
 * thumbnails were being made still reads as stale.
 */
export function createThumbnailCache({ cacheDir, pool }: ThumbnailCacheOptions): ThumbnailCache {
  // One generation per version of an original at a time: concurrent requests for any of its sizes share it.
  const inFlight = new Map<string, Promise<void>>();

  function pathOf(relPath: string, size: ThumbnailSize): string {
    const file = thumbnailFile(cacheDir, size, relPath);
    // relPath comes validated from the resolver; this only guards against misuse.
    if (!isInside(thumbnailDir(cacheDir, size), file)) throw new TypeError(`relPath escapes the cache: ${relPath}`);
    return file;
  }

  function generate(source: ThumbnailSource, tag: string): Promise<void> {
    const key = `${source.relPath}\0${tag}`;
    let job = inFlight.get(key);
    if (!job) {
      job = pool
        .thumbnail({
          src: source.absPath,
          kind: source.kind,
          outputs: THUMBNAIL_SIZE_NAMES.map((size) => ({ size, width: THUMBNAIL_SIZES[size], dest: pathOf(source.relPath, size) })),
          tag,
        })
        .then(() => undefined)
        .finally(() => inFlight.delete(key));
      inFlight.set(key, job);
    }
    return job;
  }

  /** The original's current tag, and the cache file when it was made from that version (else released). */
  async function openFresh(source: ThumbnailSource, size: ThumbnailSize): Promise<{ tag: string; cached: OpenThumbnail | undefined }> {
    // Both lookups at once: a cache hit waits for the stat, and for the open and read of the
    // cache file it would need anyway, not for one after the other.
    const [original, cached] = await Promise.allSettled([statOriginal(source.absPath), openIfPresent(pathOf(source.relPath, size), WHOLE_READ_MAX)]);
    if (original.status === 'rejected') {
      if (cached.status === 'fulfilled') release(cached.value);
      throw original.reason;
    }
    if (cached.status === 'rejected') throw cached.reason;
    const tag = sourceTagOf(original.value);
    if (cached.value?.tag === tag) return { tag, cached: cached.value };
    release(cached.value);
    return { tag, cached: undefined };
  }

  return {
    pathOf,

    async open(source, size) {
      const { tag, cached } = await openFresh(source, size);
      if (cached) return cached;
      await generate(source, tag);
      const file = pathOf(source.relPath, size);
      // Whatever version the file holds now (a later generation may have replaced it): its
      // tag, and so its ETag, always describes its own bytes.
      const made = await openIfPresent(file, WHOLE_READ_MAX);
      if (!made || made.tag === UNTAGGED) {
        release(made);
        throw new Error(`thumbnail ${file} is missing or untagged right after its generation`);
      }
      return made;
    },

    async openIfFresh(source, size) {
      return (await openFresh(source, size)).cached;
    },

    async refresh(source) {
      const tag = sourceTagOf(await statOriginal(source.absPath));
      const files = await Promise.all(THUMBNAIL_SIZE_NAMES.map((size) => openIfPresent(pathOf(source.relPath, size), 0)));
      files.forEach(release);
      if (files.every((f) => f?.tag === tag)) return 'fresh';
      await generate(source, tag);
      return 'generated';
    },
  };
}
