import type { AlbumMeta } from '../core/albums/album-record.js';
import { type Album, albumChain, hidesLocation, isProtected } from '../core/albums/album-tree.js';
import { pairLivePhotos } from '../core/albums/live-photos.js';
import { sharePath } from '../core/urls.js';
import type { MediaFile } from './media-listing.js';
import { mediaUrl } from './media-listing.js';

/** One album as the admin API shows it: every metadata field (absent ones as null). */
export interface AlbumSummary {
  readonly path: string;
  readonly title: string;
  readonly password: string | null;
  readonly thumbnail: string | null;
  readonly order: number | null;
  readonly hidden: boolean;
  readonly isCollection: boolean;
  readonly allowAnonymous: boolean;
  readonly style: string;
  readonly sort: string;
  readonly token: string | null;
  /** The album's own setting; null: it follows `inheritedHideLocation`. */
  readonly hideLocation: boolean | null;
  /** The setting of the nearest album above that has one (false when none has): what applies when `hideLocation` is null. */
  readonly inheritedHideLocation: boolean;
  readonly photoCount: number;
  readonly videoCount: number;
  /** The album or one above it has a password. */
  readonly protected: boolean;
  /** Path of the nearest album above this one, if any. */
  readonly parent: string | null;
}

export interface AlbumDetail extends AlbumSummary {
  readonly media: ReadonlyArray<MediaFile & { readonly url: string }>;
  /**
   * Public-site path that opens the album without its password when `allowAnonymous` is on
   * (docs/api.md#access); the UI prefixes the public server's address.
   */
  readonly sharePath: string | null;
}

function metaFields(meta: AlbumMeta) {
  return {
    title: meta.title,
    password: meta.password ?? null,
    thumbnail: meta.thumbnail ?? null,
    order: meta.order ?? null,
    hidden: meta.hidden,
    isCollection: meta.isCollection,
    allowAnonymous: meta.allowAnonymous,
    style: meta.style,
    sort: meta.sort,
    token: meta.token ?? null,
    hideLocation: meta.hideLocation ?? null,
  };
}

/** Summary of an album of the in-memory index (the list view). */
export function summaryOfIndexed(album: Album): AlbumSummary {
  let photoCount = 0;
  let videoCount = 0;
  for (const m of album.media) m.kind === 'image' ? photoCount++ : videoCount++;
  const above = albumChain(album)[1];
  return {
    path: album.path,
    ...metaFields(album.meta),
    inheritedHideLocation: above ? hidesLocation(above) : false,
    photoCount,
    videoCount,
    protected: isProtected(album),
    parent: above?.path ?? null,
  };
}

/** Detail of an album read from disk (fresh after a write). */
export function detailOf(
  albumPath: string,
  meta: AlbumMeta,
  media: readonly MediaFile[],
  opts: { protected: boolean; parent: string | null; inheritedHideLocation: boolean },
): AlbumDetail {
  const photoCount = media.filter((m) => m.kind === 'image').length;
  // Counted as the gallery counts them: a Live Photo's movie is part of its photo, not a video (docs/api.md#live-photos).
  const listed = pairLivePhotos(media.map(({ name, kind }) => ({ name, kind })));
  return {
    path: albumPath,
    ...metaFields(meta),
    inheritedHideLocation: opts.inheritedHideLocation,
    photoCount,
    videoCount: listed.length - photoCount,
    protected: opts.protected,
    parent: opts.parent,
    media: media.map((m) => ({ ...m, url: mediaUrl(albumPath, m.name) })),
    sharePath: meta.token ? sharePath(albumPath, meta.token) : null,
  };
}
