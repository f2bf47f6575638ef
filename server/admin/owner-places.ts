import fs from 'node:fs/promises';
import type { AlbumIndex } from '../core/albums/album-index.js';
import type { Album } from '../core/albums/album-tree.js';
import type { PlacedFile } from '../core/map-points.js';
import { dimensionsFile } from '../core/media-catalogue.js';
import { isMissing } from '../core/paths.js';
import { readAlbumFacts, type StoredPosition } from '../media/dimensions-file.js';

/** What is kept of an album's facts record: the version of its file read, and its files' positions only. */
interface KnownRecord {
  readonly mtimeMs: number;
  readonly size: number;
  readonly positions: ReadonlyMap<string, StoredPosition>;
}

/**
 * Where the owner's photos were taken, for the admin's map (server/admin/routes/places.ts).
 *
 * The admin process has no library (server/media/library/, built and kept current by the public
 * server as it reads files): it reads the same facts records the library is built from
 * (`CACHE_DIR/dimensions/{album}/.dimensions.json`, server/media/dimensions-file.ts), which the
 * public server writes as it learns each file's position. A record is read again only when its
 * file changed (mtime and size), and only the positions are kept of it (the records' sizes,
 * placeholders and plans would be most of the memory).
 */
export class OwnerPlaces {
  readonly #records = new Map<string, KnownRecord>();
  #albums: readonly Album[] = [];

  constructor(
    private readonly opts: {
      readonly index: Pick<AlbumIndex, 'albums'>;
      readonly cacheDir: string;
    },
  ) {}

  /**
   * Looks at every album's record (one `stat` each) and reads those that changed; true when any
   * position may have changed since the last call (a record read, gone, or the albums changed).
   */
  async update(): Promise<boolean> {
    const albums = [...this.opts.index.albums()];
    let changed = albums.length !== this.#albums.length || albums.some((album, i) => album !== this.#albums[i]);
    this.#albums = albums;
    const seen = new Set(albums.map((album) => album.path));
    for (const albumPath of this.#records.keys()) {
      if (seen.has(albumPath)) continue;
      this.#records.delete(albumPath);
      changed = true;
    }
    for (const album of albums) if (await this.#refresh(album.path)) changed = true;
    return changed;
  }

  /** Every file with a position, of every album as of the last update: locked and hidden ones, and those that hide locations (the caller is the owner). */
  *positioned(): Iterable<PlacedFile> {
    for (const album of this.#albums) {
      const positions = this.#records.get(album.path)?.positions;
      if (!positions || positions.size === 0) continue;
      for (const item of album.media) {
        const position = positions.get(item.name);
        // The owner's map counts and clusters; it lists no spot's photos newest first, so needs no order.
        if (position) yield { album, item, sortTime: 0, position };
      }
    }
  }

  /** Reads the album's record again when its file changed; true when it did. */
  async #refresh(albumPath: string): Promise<boolean> {
    const file = dimensionsFile(this.opts.cacheDir, albumPath);
    let stat: { mtimeMs: number; size: number };
    try {
      stat = await fs.stat(file);
    } catch (err) {
      if (!isMissing(err)) throw err;
      // Not read by the public server yet (or its cache cleared): no positions known.
      return this.#records.delete(albumPath);
    }
    const known = this.#records.get(albumPath);
    if (known && known.mtimeMs === stat.mtimeMs && known.size === stat.size) return false;
    const positions = new Map<string, StoredPosition>();
    for (const [name, stored] of await readAlbumFacts(file)) {
      // A file shown through a symlink is its own album's: counted there, once.
      if (stored.position && !stored.elsewhere) positions.set(name, stored.position);
    }
    this.#records.set(albumPath, { mtimeMs: stat.mtimeMs, size: stat.size, positions });
    return true;
  }
}
