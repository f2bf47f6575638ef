/**
 * The albums of one snapshot of the tree, numbered, with what a search asks of each album
 * itself, found once per snapshot instead of once per album and query: the words it is found
 * by (one index over all albums, so a query's word finds its albums at once), the albums
 * above it, and whether it hides locations. It knows nothing of visitors: which of these
 * albums a query may use is the caller's (server/core/access/visible-albums.ts).
 */
import { type Album, hidesLocation, isAlbum, titleOf, type TreeNode } from '../../core/albums/album-tree.js';
import { TokenIndex } from './token-index.js';
import { wordsOf } from './words.js';

/** The words an album is found by: its title and description, and the names and titles of the folders on its path. */
export function wordsOfAlbum(album: Album): string[] {
  const words = [...wordsOf(album.meta.title), ...wordsOf(album.meta.description ?? '')];
  // Folder names are in the album's address; a plain folder's title is shown to all. An
  // album above it is another matter (ancestors): its title may be locked.
  for (let n: TreeNode | undefined = album; n?.parent; n = n.parent) {
    words.push(...wordsOf(n.name));
    if (!isAlbum(n)) words.push(...wordsOf(titleOf(n)));
  }
  return words;
}

const NO_ANCESTORS = new Int32Array(0);

/** Each of some albums' number in a directory, and which numbers are of those albums. */
export interface PlacedAlbums {
  readonly numbers: Int32Array;
  readonly visible: Uint8Array;
}

export class AlbumDirectory {
  readonly albums: readonly Album[];
  readonly #numbers: Map<Album, number>;
  /** Album numbers by their own words (wordsOfAlbum). */
  readonly words: TokenIndex;
  /** Numbers of the albums above each album that are in this directory, nearest first. */
  readonly ancestors: readonly Int32Array[];
  /** 1 where the album hides locations (hidesLocation). */
  readonly hides: Uint8Array;
  /** 1 where the album has captions (album.json). */
  readonly hasCaptions: Uint8Array;

  constructor(albums: Iterable<Album>) {
    this.albums = [...new Set(albums)];
    this.#numbers = new Map(this.albums.map((album, n) => [album, n]));
    this.words = TokenIndex.build(this.albums.length, (n) => wordsOfAlbum(this.albums[n] as Album));
    this.ancestors = this.albums.map((album) => {
      const above: number[] = [];
      for (let p = album.parent; p; p = p.parent) {
        const n = isAlbum(p) ? this.#numbers.get(p) : undefined;
        if (n !== undefined) above.push(n);
      }
      return above.length > 0 ? Int32Array.from(above) : NO_ANCESTORS;
    });
    this.hides = Uint8Array.from(this.albums, (album) => (hidesLocation(album) ? 1 : 0));
    this.hasCaptions = Uint8Array.from(this.albums, (album) => (album.meta.captions.size > 0 ? 1 : 0));
  }

  numberOf(album: Album): number | undefined {
    return this.#numbers.get(album);
  }

  /**
   * Where `albums` are in this directory; undefined when one is not in it. Kept per list: the
   * access rule hands every visitor who holds no key the same list for a snapshot of the tree
   * (server/core/access/visible-albums.ts), so most searches find their albums' numbers made,
   * not 5,000 lookups and two arrays per query.
   */
  placesOf(albums: readonly Album[]): PlacedAlbums | undefined {
    const known = this.#placed.get(albums);
    if (known) return known;
    const numbers = new Int32Array(albums.length);
    const visible = new Uint8Array(this.albums.length);
    for (let k = 0; k < albums.length; k++) {
      const n = this.#numbers.get(albums[k] as Album);
      if (n === undefined) return undefined;
      numbers[k] = n;
      visible[n] = 1;
    }
    const placed = { numbers, visible };
    this.#placed.set(albums, placed);
    return placed;
  }

  readonly #placed = new WeakMap<readonly Album[], PlacedAlbums>();

  /** The number of the album at `path` (the first: a directory of one snapshot has one). */
  numberAt(path: string): number | undefined {
    this.#paths ??= new Map(this.albums.map((album, n) => [album.path, n]));
    return this.#paths.get(path);
  }

  #paths: Map<string, number> | undefined;
}
