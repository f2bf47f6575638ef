import fs from 'node:fs/promises';
import path from 'node:path';
import type { AlbumIndex } from '../albums/album-index.js';
import { type Album, hidesLocation, isAlbum, type MediaItem, type TreeNode } from '../albums/album-tree.js';
import { filesOf } from '../albums/live-photos.js';
import { type Rotation, rotationIn } from '../albums/rotations.js';
import { mediaKind } from '../media-catalogue.js';
import { hasHiddenSegment, isInside, isMissing, realRootOf } from '../paths.js';

/** Where a media item of an album really is, once the symlink rule has let it through. */
export interface MediaLocation {
  /** Real absolute path of a regular file inside ALBUMS_DIR. */
  readonly absPath: string;
  /** The album that really holds the file: the item's own album, or a symlink's target album. */
  readonly realAlbum: Album;
  /**
   * The owner's turn of the photo (docs/api.md#rotations), as the album that really holds it
   * records it: a link shows the file as its own album does, as it would a JPEG's EXIF turn.
   */
  readonly rotation: Rotation;
}

/**
 * Whether a file of `album` found at `where` goes out without its location
 * (docs/api.md#location-privacy): either album's choice holds, so a link neither carries a
 * location its own album hides nor shows one where the file's album hides it.
 */
export const hidesLocationAt = (album: TreeNode, where: MediaLocation): boolean => hidesLocation(album) || hidesLocation(where.realAlbum);

/**
 * Where `item` of `album` really is, or undefined when it must read as missing: gone, not a
 * regular file, or a symlink the rule does not follow. The same for every visitor: whether
 * this visitor may open `realAlbum` is for the caller (server/public/access/gallery-access.ts).
 */
export type LocateMedia = (album: TreeNode, item: MediaItem) => Promise<MediaLocation | undefined>;

/** Where a listed item is and, for a Live Photo, where its motion file is (undefined when the rule refuses it). */
export interface ItemLocation extends MediaLocation {
  readonly motion?: MediaLocation | undefined;
}

/** The same for every media item of an album, in album order, a Live Photo's motion file located with its still. */
export type LocateAll = (album: TreeNode) => Promise<readonly (ItemLocation | undefined)[]>;

export type MediaLocator = LocateMedia & { readonly all: LocateAll };

/**
 * How long a look at the disk is trusted. A rescan of the index (the watcher sees any change
 * in an album directory, a replaced symlink included) makes new nodes and items, so entries
 * of the old tree are never used again; the time limit bounds what no watcher sees (a
 * symlink's target changing, or `watch: false`).
 */
const TTL_MS = 2000;

/** An album directory as last read: its regular files and its symlinks (anything else is left out). */
interface Listing {
  readonly dir: string;
  readonly files: ReadonlySet<string>;
  readonly links: ReadonlySet<string>;
}

interface Remembered<T> {
  readonly at: number;
  readonly value: Promise<T>;
}

/**
 * The symlink rule. A media item is read from where it really is only when that is a regular
 * file whose own name is a media file of the same kind, lying directly in the directory of an
 * album of the index, as one of that album's media (so never an `album.json`, a dot-path, a
 * plain sub-folder, a FIFO or device, nor anything outside ALBUMS_DIR). One readdir per album
 * tells plain files from links, so a page of a 5,000-photo album costs no syscall per photo;
 * only links are followed, each with one realpath and one stat.
 */
export function createMediaLocator(index: AlbumIndex, albumsDir: string): MediaLocator {
  const listings = new WeakMap<TreeNode, Remembered<Listing | undefined>>();
  const linkTargets = new WeakMap<MediaItem, Remembered<MediaLocation | undefined>>();
  const namesOf = new WeakMap<TreeNode, ReadonlySet<string>>();
  // Per listing, so it lives as long as one look at the directory: an album page asks for all
  // 5,000 items of an album on every view, and most albums hold no link at all.
  const plainFiles = new WeakMap<Listing, readonly (ItemLocation | undefined)[]>();

  /** Shares one look among concurrent callers, and forgets a failure at once. */
  function remembered<K extends object, T>(map: WeakMap<K, Remembered<T>>, key: K, look: () => Promise<T>): Promise<T> {
    const now = performance.now();
    const known = map.get(key);
    if (known && now - known.at < TTL_MS) return known.value;
    const value = look();
    map.set(key, { at: now, value });
    value.catch(() => {
      if (map.get(key)?.value === value) map.delete(key);
    });
    return value;
  }

  async function readListing(album: TreeNode): Promise<Listing | undefined> {
    const realRoot = await realRootOf(albumsDir);
    const dir = path.join(realRoot, ...album.path.split('/'));
    try {
      // The index saw a real directory here (the scan follows no directory links): reached
      // through a symlink now, it is no longer the directory the index describes.
      if ((await fs.realpath(dir)) !== dir) return undefined;
      const files = new Set<string>();
      const links = new Set<string>();
      for (const e of await fs.readdir(dir, { withFileTypes: true })) {
        if (e.isFile()) files.add(e.name);
        else if (e.isSymbolicLink()) links.add(e.name);
      }
      return { dir, files, links };
    } catch (err) {
      if (isMissing(err)) return undefined;
      throw err;
    }
  }

  function mediaNames(album: Album): ReadonlySet<string> {
    let names = namesOf.get(album);
    if (!names) {
      // A Live Photo's motion file is a media file of its album too, listed or not.
      names = new Set(Array.from(filesOf(album.media), (m) => m.name));
      namesOf.set(album, names);
    }
    return names;
  }

  async function followLink(item: MediaItem, linkPath: string): Promise<MediaLocation | undefined> {
    const realRoot = await realRootOf(albumsDir);
    try {
      const real = await fs.realpath(linkPath);
      if (!isInside(realRoot, real) || real === realRoot) return undefined;
      const rel = path.relative(realRoot, real).split(path.sep).join('/');
      const slash = rel.lastIndexOf('/');
      const name = rel.slice(slash + 1);
      if (hasHiddenSegment(rel) || mediaKind(name) !== item.kind) return undefined;
      const realAlbum = index.album(slash < 0 ? '' : rel.slice(0, slash));
      if (!realAlbum || !mediaNames(realAlbum).has(name)) return undefined;
      // stat never blocks, even on a FIFO; opening one would.
      if (!(await fs.stat(real)).isFile()) return undefined;
      return { absPath: real, realAlbum, rotation: rotationIn(realAlbum.meta, name, item.kind) };
    } catch (err) {
      if (isMissing(err)) return undefined;
      throw err;
    }
  }

  const plainFile = (album: Album, listing: Listing, item: MediaItem): MediaLocation | undefined =>
    listing.files.has(item.name)
      ? { absPath: path.join(listing.dir, item.name), realAlbum: album, rotation: rotationIn(album.meta, item.name, item.kind) }
      : undefined;

  /** The items and motion files that are plain files of the album; links are left undefined for `locateAll`. */
  function plainLocations(album: Album, listing: Listing): readonly (ItemLocation | undefined)[] {
    let plain = plainFiles.get(listing);
    if (!plain) {
      plain = album.media.map((item) => {
        const where = plainFile(album, listing, item);
        return where && item.motion ? { ...where, motion: plainFile(album, listing, item.motion) } : where;
      });
      plainFiles.set(listing, plain);
    }
    return plain;
  }

  /** Where `item` is by the album's listing: a plain file at once, a link once the rule has followed it. */
  function locateIn(album: Album, listing: Listing, item: MediaItem): MediaLocation | Promise<MediaLocation | undefined> | undefined {
    const plain = plainFile(album, listing, item);
    if (plain || !listing.links.has(item.name)) return plain;
    return remembered(linkTargets, item, () => followLink(item, path.join(listing.dir, item.name)));
  }

  const locateAll: LocateAll = async (album) => {
    const listing = isAlbum(album) ? await remembered(listings, album, () => readListing(album)) : undefined;
    if (!listing || !isAlbum(album)) return album.media.map(() => undefined);
    const plain = plainLocations(album, listing);
    if (listing.links.size === 0) return plain;
    return Promise.all(
      album.media.map(async (item, i): Promise<ItemLocation | undefined> => {
        const where = plain[i] ?? (await locateIn(album, listing, item));
        if (!where || !item.motion) return where;
        return { ...where, motion: await locateIn(album, listing, item.motion) };
      }),
    );
  };

  const locateMedia: LocateMedia = async (album, item) => {
    if (!isAlbum(album)) return undefined;
    const listing = await remembered(listings, album, () => readListing(album));
    return listing && locateIn(album, listing, item);
  };

  return Object.assign(locateMedia, { all: locateAll });
}
