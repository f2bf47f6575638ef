import type { Request } from 'express';
import type { Visitor } from '../core/access/visitor.js';
import type { MediaItem } from '../core/albums/album-tree.js';
import type { Rotation } from '../core/albums/rotations.js';
import type { MediaKind } from '../core/media-catalogue.js';

/**
 * What routes get back from the access layer: a media file or an album the visitor may see.
 * Both resolvers validate the path (400), find it (404) and enforce access (401) before
 * returning, so a route that uses them cannot forget a check.
 */
export interface ResolvedMedia {
  /** Validated path relative to ALBUMS_DIR, '/'-separated ('2024/trip/IMG_1.jpg'). */
  readonly relPath: string;
  /** Real absolute path of a regular file, where the symlink rule allows it (see server/core/access/media-location.ts). */
  readonly absPath: string;
  readonly kind: MediaKind;
  /** Path of the album holding the file ('2024/trip'). */
  readonly albumPath: string;
  /** True when the album or an ancestor, or the album a symlink leads into, is protected: answers must be `private`. */
  readonly protected: boolean;
  /** True when the album, or the album a symlink leads into, hides locations: the file goes out without them (docs/api.md#location-privacy). */
  readonly hideLocation: boolean;
  /** The owner's turn of a photo (docs/api.md#rotations): what is made of it is turned so; the original is not. */
  readonly rotation: Rotation;
}

/** A media item of an album that the visitor may read, and where it really is. */
export interface ReadableFile {
  readonly item: MediaItem;
  /** Real absolute path of a regular file (a symlink's vetted target). */
  readonly absPath: string;
  /** True when the album, or the album a symlink leads into, is protected. */
  readonly protected: boolean;
  /** True when the album, or the album a symlink leads into, hides locations (docs/api.md#location-privacy). */
  readonly hideLocation: boolean;
  /** A Live Photo's motion file, when the visitor may read it too (docs/api.md#live-photos). */
  readonly motion?: ReadableFile;
  /**
   * False when this visitor came in through a "no downloads" share link (docs/api.md#share-links):
   * pages then link the photo's large thumbnail, not its original.
   */
  readonly downloadable: boolean;
}

/** The file, or a Live Photo's motion file listed with it, comes from a protected album: whatever shows it must not be stored by shared caches. */
export const isFromProtected = (file: ReadableFile): boolean => file.protected || file.motion?.protected === true;

export interface ResolvedAlbum {
  readonly path: string;
  /** The album directory's own name, used for `<name>.zip`. */
  readonly name: string;
  readonly title: string;
  /**
   * The album's own media this visitor may read, in the album's order, symlinks judged by the
   * album they lead into. Looked up only when called: listing a whole album has a cost.
   */
  readonly readable: () => Promise<readonly ReadableFile[]>;
  readonly protected: boolean;
  /** False when this visitor came in through a "no downloads" share link: no ZIP, no originals of photos. */
  readonly downloads: boolean;
}

/**
 * What a route does with what it resolves (docs/api.md#share-links). `view`: shows it
 * (thumbnails, EXIF, video info, the web copy of a video, a page of the album's media).
 * `original`: hands out a photo's full resolution (the original, its full-size JPEG, the
 * album's ZIP), which a "no downloads" share link refuses with 403. A video's original is
 * streamed for playback either way: it cannot be watched otherwise.
 */
export type MediaUse = 'view' | 'original';

/** `raw` is the untrusted `path` value (query parameter or URL tail, already decoded); `use` says what the route will do with it. */
export type MediaResolver = (req: Request, raw: unknown, use: MediaUse) => Promise<ResolvedMedia>;
export type AlbumResolver = (req: Request, raw: unknown, use: MediaUse) => Promise<ResolvedAlbum>;

/** The media resolver on a plain Visitor, for callers that have no Express request. */
export type VisitorMediaResolver = (visitor: Visitor, raw: unknown, use: MediaUse) => Promise<ResolvedMedia>;
