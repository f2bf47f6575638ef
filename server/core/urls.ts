/** URL builders of the public site, shared by its views and routes and by the admin: one place encodes album paths. */

import { THUMBNAIL_SIZE_NAMES, THUMBNAIL_SIZES, type ThumbnailSize } from './media-catalogue.js';

export const encodePath = (relPath: string): string => relPath.split('/').map(encodeURIComponent).join('/');

export const albumPageUrl = (albumPath: string): string => (albumPath === '' ? '/photos' : `/photos/${encodePath(albumPath)}`);

/**
 * The share link of an album (docs/api.md#access): its page with the album's token, which
 * opens it without the password when the album allows anonymous access.
 */
export const sharePath = (albumPath: string, token: string): string => `${albumPageUrl(albumPath)}?token=${encodeURIComponent(token)}`;

/** The address of a share link per recipient (docs/api.md#share-links): it opens its album, bookmarked or not. */
export const shareLinkPath = (id: string): string => `/s/${encodeURIComponent(id)}`;

export const originalUrl = (mediaPath: string): string => `/albums/${encodePath(mediaPath)}`;

/** What tells one version of a media file from another (a MediaStat fits). */
export interface MediaVersion {
  readonly mtimeMs: number;
  readonly size: number;
  readonly ino: number;
  /** The owner's turn of a photo in album.json (server/core/albums/rotations.ts); absent or 0: none. */
  readonly rotation?: number;
}

/**
 * The `&v=` of a thumbnail URL: the original's mtime, then its size and inode, so that a
 * photo replaced by a file with the same (or an older, already seen) mtime still gets a new
 * URL, and no browser keeps showing the old thumbnail it was told is immutable; then the
 * owner's turn (`-r90`), which changes what is made of a file that stays the same.
 */
export const versionParam = (version: MediaVersion): string =>
  `${Math.floor(version.mtimeMs)}-${version.size.toString(36)}-${version.ino.toString(36)}${version.rotation ? `-r${version.rotation}` : ''}`;

/**
 * The encodings a thumbnail is offered in (docs/api.md#get-apithumbnailpathsize): JPEG, the
 * one every browser shows and the URL without `format`, and WebP, offered to the browsers
 * that take it through `<picture><source type="image/webp">` (a quarter to a half fewer bytes).
 */
export type ThumbnailFormat = 'jpeg' | 'webp';

export const thumbnailUrl = (mediaPath: string, size: ThumbnailSize, version: MediaVersion | undefined, format: ThumbnailFormat = 'jpeg'): string =>
  `/api/thumbnail?path=${encodeURIComponent(mediaPath)}&size=${size}${format === 'jpeg' ? '' : `&format=${format}`}${version !== undefined ? `&v=${versionParam(version)}` : ''}`;

/** What the viewer's "full resolution" opens for a photo browsers cannot display (HEIC, TIFF). */
export const fullSizeUrl = (mediaPath: string, version: MediaVersion | undefined): string =>
  `/api/full-size?path=${encodeURIComponent(mediaPath)}${version !== undefined ? `&v=${versionParam(version)}` : ''}`;

/** `srcset` over every thumbnail size in one format, by their maximum widths. */
export const thumbnailSrcset = (mediaPath: string, version: MediaVersion | undefined, format: ThumbnailFormat = 'jpeg'): string =>
  THUMBNAIL_SIZE_NAMES.map((size) => `${thumbnailUrl(mediaPath, size, version, format)} ${THUMBNAIL_SIZES[size]}w`).join(', ');

/** The album's ZIP: its photos, or with `withVideos` its videos too (docs/api.md#get-apidownload-albumpath). */
export const downloadUrl = (albumPath: string, withVideos = false): string =>
  `/api/download-album?path=${encodeURIComponent(albumPath)}${withVideos ? '&videos=1' : ''}`;

/**
 * The web copy of a video (docs/api.md#get-apiweb-videopath), versioned like thumbnails: the
 * copy changes with the original, and the answer is cached for a year.
 */
export const webVideoUrl = (mediaPath: string, version: MediaVersion | undefined): string =>
  `/api/web-video?path=${encodeURIComponent(mediaPath)}${version !== undefined ? `&v=${versionParam(version)}` : ''}`;
