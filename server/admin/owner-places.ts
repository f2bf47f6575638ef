import fs from 'node:fs/promises';
import type { AlbumIndex } from '../core/albums/album-index.js';
import type { Album } from '../core/albums/album-tree.js';
import type { PlacedFile } from '../core/map-points.js';
import { dimensionsFile } from '../core/media-catalogue.js';
import { isMissing } from '../core/paths.js';
import { readAlbumFacts, type Stored } from '../media/dimensions-file.js';

/**
 * Where the owner's photos were taken, for the admin's map (server/admin/routes/places.ts).
 *
 * The admin process has no library (server/media/library/, built and kept current by the public
 * server as it reads files): it reads the same facts records the library is built from
 * (`CACHE_DIR/dimensions/{album}/.dimensions.json`, server/media/dimensions-file.ts), which the
 * public server writes as it learns each file's position. A record is read again only when its
 * file changed (mtime and size), so a map panned and zoomed costs one `stat` per album, and a
 * position the public server learned a moment ago is there on the next request.
 */
export class OwnerPlaces {
  readonly #records = new Map<string, { readonly mtimeMs: number; readonly size: number; readonly entries: ReadonlyMap<string, Stored> }>();

  constructor(
    private readonly opts: {
      readonly index: Pick<AlbumIndex, 'albums'>;
      readonly cacheDir: string;
    },
  ) {}

  /** Every file with a position, of every album: locked and hidden ones, and those that hide locations (the caller is the owner). */
  async positioned(): Promise<PlacedFile[]> {
    const albums = [...this.opts.index.albums()];
    const seen = new Set(albums.map((album) => album.path));
    // Albums gone since the last request take their records with them.
    for (const albumPath of this.#records.keys()) if (!seen.has(albumPath)) this.#records.delete(albumPath);
    const files: PlacedFile[] = [];
    for (const album of albums) {
      const entries = await this.#entriesOf(album);
      if (entries.size === 0) continue;
      for (const item of album.media) {
        const stored = entries.get(item.name);
        // A file shown through a symlink is its own album's: counted there, once.
        if (!stored?.position || stored.elsewhere) continue;
        // The owner's map counts and clusters; it lists no spot's photos newest first, so needs no order.
        files.push({ album, item, sortTime: 0, position: stored.position });
      }
    }
    return files;
  }

  async #entriesOf(album: Album): Promise<ReadonlyMap<string, Stored>> {
    const file = dimensionsFile(this.opts.cacheDir, album.path);
    let stat: { mtimeMs: number; size: number };
    try {
      stat = await fs.stat(file);
    } catch (err) {
      if (!isMissing(err)) throw err;
      // Not read by the public server yet: no positions known.
      this.#records.delete(album.path);
      return new Map();
    }
    const known = this.#records.get(album.path);
    if (known && known.mtimeMs === stat.mtimeMs && known.size === stat.size) return known.entries;
    const entries = await readAlbumFacts(file);
    this.#records.set(album.path, { mtimeMs: stat.mtimeMs, size: stat.size, entries });
    return entries;
  }
}
