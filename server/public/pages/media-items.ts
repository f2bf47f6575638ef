import path from 'node:path';
import type { Album, MediaItem } from '../../core/albums/album-tree.js';
import { LIGHTBOX_THUMBNAIL, type MediaKind, TILE_THUMBNAIL } from '../../core/media-catalogue.js';
import type { DimensionsProvider } from './dimensions.js';
import type { MediaStats } from './media-stats.js';
import { originalUrl, thumbnailSrcset, thumbnailUrl } from '../../core/urls.js';
import { type VideoSourceView, videoSources } from './video-sources.js';

/** Media per album page: a 5,000-photo album must not send megabytes of HTML. */
export const MEDIA_PER_PAGE = 200;

/** One photo or video as the album page and the album-media API show it. */
export interface MediaView {
  /** Position in the whole album (0-based), so the lightbox can span every page. */
  readonly index: number;
  readonly name: string;
  readonly kind: MediaKind;
  /** Path relative to ALBUMS_DIR, for `/api/exif?path=` and friends. */
  readonly path: string;
  readonly alt: string;
  readonly original: string;
  readonly src: string;
  readonly large: string;
  readonly srcset: string;
  /** Display size; null when it could not be read (yet). */
  readonly width: number | null;
  readonly height: number | null;
  /** Seconds, videos only. */
  readonly duration: number | null;
  /** '1:05', for the badge. */
  readonly durationText: string | null;
  /** Videos only: the lightbox's `<source>`s, in order (server/public/pages/video-sources.ts). */
  readonly sources?: readonly VideoSourceView[];
}

/**
 * A video's length as its tile badge shows it: '0:07', '1:05', '1:02:03', never '0:00' (a
 * clip under half a second reads 0:01). The lightbox's details panel says the same through
 * `duration` in views/assets/exif-format.js, which must keep this rule (a test holds both to it).
 */
export function formatDuration(seconds: number | null | undefined): string | null {
  if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds < 0) return null;
  const s = Math.max(1, Math.round(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

/** The album-media API (server/public/routes/album-media-api.ts) for one album. */
export const albumMediaApiUrl = (albumPath: string): string => `/api/album-media?path=${encodeURIComponent(albumPath)}`;

/** Pages of an album, at least one (an empty album still has its page 1). */
export const pageCount = (total: number): number => Math.max(1, Math.ceil(total / MEDIA_PER_PAGE));

export const pageItems = (listed: readonly MediaItem[], page: number): readonly MediaItem[] => listed.slice((page - 1) * MEDIA_PER_PAGE, page * MEDIA_PER_PAGE);

/**
 * Views of one page of an album's media, with thumbnail versions and sizes. `listed` is what
 * the visitor may read of the album (see ReadableMedia), which pages and positions count in.
 */
export async function mediaViews(
  album: Album,
  listed: readonly MediaItem[],
  page: number,
  stats: MediaStats,
  dimensions: DimensionsProvider | undefined,
): Promise<MediaView[]> {
  const items = pageItems(listed, page);
  const offset = (page - 1) * MEDIA_PER_PAGE;
  const [itemStats, dims] = await Promise.all([stats.all(album, items), dimensions ? dimensions(album, items) : Promise.resolve(items.map(() => undefined))]);
  return items.map((m, i) => {
    const mediaPath = `${album.path}/${m.name}`;
    const v = itemStats[i];
    const d = dims[i];
    const duration = m.kind === 'video' && d?.duration !== undefined ? d.duration : null;
    return {
      index: offset + i,
      name: m.name,
      kind: m.kind,
      path: mediaPath,
      alt: altOf(m),
      original: originalUrl(mediaPath),
      src: thumbnailUrl(mediaPath, TILE_THUMBNAIL, v),
      large: thumbnailUrl(mediaPath, LIGHTBOX_THUMBNAIL, v),
      srcset: thumbnailSrcset(mediaPath, v),
      width: d?.width ?? null,
      height: d?.height ?? null,
      duration,
      durationText: formatDuration(duration),
      ...(m.kind === 'video' ? { sources: videoSources(mediaPath, v, d?.playback) } : {}),
    };
  });
}

/** The file name is all we know about a photo; 'IMG_0001' is still better than nothing. */
function altOf(m: MediaItem): string {
  const stem = path.parse(m.name).name;
  return m.kind === 'video' ? `Video: ${stem}` : stem;
}
