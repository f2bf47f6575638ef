/** URL builders shared by views and routes: one place encodes album paths. */

export const encodePath = (relPath: string): string => relPath.split('/').map(encodeURIComponent).join('/');

export const albumPageUrl = (albumPath: string): string => (albumPath === '' ? '/photos' : `/photos/${encodePath(albumPath)}`);

export const originalUrl = (mediaPath: string): string => `/albums/${encodePath(mediaPath)}`;

export type ThumbSize = 'small' | 'medium' | 'large';

export const thumbnailUrl = (mediaPath: string, size: ThumbSize, version: number | undefined): string =>
  `/api/thumbnail?path=${encodeURIComponent(mediaPath)}&size=${size}${version !== undefined ? `&v=${Math.floor(version)}` : ''}`;

/** `srcset` over the three thumbnail sizes, by their maximum widths. */
export const thumbnailSrcset = (mediaPath: string, version: number | undefined): string =>
  (
    [
      ['small', 400],
      ['medium', 1200],
      ['large', 1920],
    ] as const
  )
    .map(([size, w]) => `${thumbnailUrl(mediaPath, size, version)} ${w}w`)
    .join(', ');

export const downloadUrl = (albumPath: string): string => `/api/download-album?path=${encodeURIComponent(albumPath)}`;
