/**
 * The cache files of one original (server/media/thumbnails.ts): a size in a format each, and
 * which originals are decoded once for all their sizes.
 */
import {
  type MediaKind,
  needsHeifDecoder,
  THUMBNAIL_FORMAT_NAMES,
  THUMBNAIL_SIZE_NAMES,
  type ThumbnailFormat,
  type ThumbnailSize,
} from '../core/media-catalogue.js';

/** One cache file of an original: a size in a format. */
export interface Variant {
  readonly size: ThumbnailSize;
  readonly format: ThumbnailFormat;
}

export const variantKey = (v: Variant) => `${v.size}.${v.format}`;

export const ALL_VARIANTS: readonly Variant[] = Object.freeze(
  THUMBNAIL_SIZE_NAMES.flatMap((size) => THUMBNAIL_FORMAT_NAMES.map((format) => ({ size, format }))),
);

/**
 * Where a decode per size would cost more than it saves: a HEIC is decoded whole whatever
 * the size (libheif, in the pool's heif lane, has no shrink-on-load), a video's frame is
 * grabbed by ffmpeg at its full size.
 */
export function decodesOnce(source: { readonly kind: MediaKind; readonly absPath: string }): boolean {
  return source.kind === 'video' || needsHeifDecoder(source.absPath);
}
