import type { AlbumMeta } from '../core/albums/album-record.js';
import { type Album, albumChain, hidesLocation, isProtected } from '../core/albums/album-tree.js';
import { pairLivePhotos } from '../core/albums/live-photos.js';
import { type Rotation, rotationIn } from '../core/albums/rotations.js';
import { sharePath } from '../core/urls.js';
import { type TurnMethod, turnMethodOf } from '../core/media-catalogue.js';
import type { MediaFile } from './media-listing.js';
import { mediaUrl, previewUrl } from './media-listing.js';

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
  readonly description: string | null;
  /** `YYYY-MM-DD`. */
  readonly date: string | null;
  readonly photoCount: number;
  readonly videoCount: number;
  /** The album or one above it has a password. */
  readonly protected: boolean;
  /** Path of the nearest album above this one, if any. */
  readonly parent: string | null;
}

/** One file of an album as the admin's detail lists it. */
export interface MediaEntry extends MediaFile {
  /** The original, for "open" links. */
  readonly url: string;
  /** Its thumbnail (a video's poster): what the admin shows (routes/thumbnail-previews.ts). */
  readonly preview: string;
  /** Its caption in album.json, or null. */
  readonly caption: string | null;
  /** The owner's turn of a photo in album.json, degrees clockwise (docs/api.md#rotations); 0 when none. */
  readonly rotation: Rotation;
  /** How "Rotate" turns it without re-encoding it; null when it cannot be (a WebM). */
  readonly turnedBy: TurnMethod | null;
  /** A Live Photo's other file (paired by name, docs/api.md#live-photos): the still's movie, or the movie's still; else null. */
  readonly livePair: string | null;
}

export interface AlbumDetail extends AlbumSummary {
  readonly media: readonly MediaEntry[];
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
    description: meta.description ?? null,
    date: meta.date ?? null,
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
  const pairs = new Map<string, string>();
  for (const item of listed) {
    if (item.motion) pairs.set(item.name, item.motion.name).set(item.motion.name, item.name);
  }
  return {
    path: albumPath,
    ...metaFields(meta),
    inheritedHideLocation: opts.inheritedHideLocation,
    photoCount,
    videoCount: listed.length - photoCount,
    protected: opts.protected,
    parent: opts.parent,
    media: media.map((m) => ({
      ...m,
      url: mediaUrl(albumPath, m.name),
      preview: previewUrl(albumPath, m.name, m.modified, rotationIn(meta, m.name, m.kind)),
      caption: meta.captions.get(m.name) ?? null,
      rotation: rotationIn(meta, m.name, m.kind),
      turnedBy: turnMethodOf(m.name) ?? null,
      livePair: pairs.get(m.name) ?? null,
    })),
    sharePath: meta.token ? sharePath(albumPath, meta.token) : null,
  };
}
