import type { Request } from 'express';
import type { MediaKind } from './media-types.js';

/**
 * What routes get back from the access layer: a media file or an album the visitor may see.
 * Both resolvers validate the path (400), find it (404) and enforce access (401) before
 * returning, so a route that uses them cannot forget a check.
 */
export interface ResolvedMedia {
  /** Validated path relative to ALBUMS_DIR, '/'-separated ('2024/trip/IMG_1.jpg'). */
  readonly relPath: string;
  /** Real absolute path on disk (symlinks resolved, inside ALBUMS_DIR). */
  readonly absPath: string;
  readonly kind: MediaKind;
  /** Path of the album holding the file ('2024/trip'). */
  readonly albumPath: string;
  /** True when the album or an ancestor has a password: answers must be `private`. */
  readonly protected: boolean;
}

export interface ResolvedAlbum {
  readonly path: string;
  /** The album directory's own name, used for `<name>.zip`. */
  readonly name: string;
  readonly title: string;
  /** Absolute path of the album directory. */
  readonly dir: string;
  /** File names of the album's own images, in the album's order. */
  readonly images: readonly string[];
  readonly protected: boolean;
}

/** `raw` is the untrusted `path` value (query parameter or URL tail, already decoded). */
export type MediaResolver = (req: Request, raw: unknown) => Promise<ResolvedMedia>;
export type AlbumResolver = (req: Request, raw: unknown) => Promise<ResolvedAlbum>;
