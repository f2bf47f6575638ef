import type { Album, MediaItem } from '../../core/albums/album-tree.js';
import { isViewableImage, LIGHTBOX_THUMBNAIL, type MediaKind, TILE_THUMBNAIL } from '../../core/media-catalogue.js';
import type { DimensionsProvider, VideoPlayback } from '../../media/dimensions.js';
import { arrivedAt } from './feed-arrivals.js';
import type { MediaStats } from './media-stats.js';
import { fullSizeUrl, originalUrl, thumbnailSrcset, thumbnailUrl } from '../../core/urls.js';
import { type VideoSourceView, videoSources } from './video-sources.js';
import { altText } from './taken-text.js';
import type { Translator } from '../../http/i18n.js';

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
  /**
   * Its caption when the owner wrote one (album.json `captions`), else what it is and when
   * ("Photo taken 3 June 2024 at 14:03", in the visitor's language), never its file name
   * (server/public/pages/taken-text.ts).
   */
  readonly alt: string;
  /**
   * When it was taken, `YYYY-MM-DDTHH:MM:SS` wall-clock without a zone (docs/api.md#dates):
   * the tile's `data-taken`, the viewer's caption. Null until its header has been read.
   */
  readonly taken: string | null;
  /** Its caption in album.json, shown by the viewer; null when it has none. */
  readonly caption: string | null;
  readonly original: string;
  /** What "view full resolution" opens: the original, or a full-size JPEG of a photo browsers cannot display (HEIC) or that the owner turned. */
  readonly full: string;
  readonly src: string;
  readonly large: string;
  readonly srcset: string;
  /**
   * The same sizes as WebP, for the browsers that take it: the page's `<source type="image/webp">`
   * and the lightbox's slides (docs/api.md#get-apithumbnailpathsize).
   */
  readonly webpSrcset: string;
  /**
   * What choosing it adds to a download, in bytes: the file and a Live Photo's movie, as the
   * chosen photos' ZIP holds them (views/assets/select.js); null when it could not be stat'ed.
   */
  readonly bytes: number | null;
  /** Display size; null when it could not be read (yet). */
  readonly width: number | null;
  readonly height: number | null;
  /**
   * The photo's ThumbHash (base64), which the tile paints as its background until the
   * thumbnail arrives (views/assets/tile-placeholders.js); null where there is none (videos,
   * HEIC, undecodable files, or not read yet).
   */
  readonly thumbHash: string | null;
  /** When the file arrived (feed-arrivals.ts), ms since the epoch: the tile's "new" mark compares it. */
  readonly added: number | null;
  /** Seconds, videos only. */
  readonly duration: number | null;
  /** '1:05', for the badge. */
  readonly durationText: string | null;
  /** Videos only: the lightbox's `<source>`s, in order (server/public/pages/video-sources.ts). */
  readonly sources?: readonly VideoSourceView[];
  /** A Live Photo's motion (docs/api.md#live-photos); null for any other photo or video. */
  readonly motion: MotionView | null;
}

/** The movie of a Live Photo, as the viewer plays it over the still. */
export interface MotionView {
  /** Media path of the motion file ('2024/trip/IMG_1.MOV'), for `/api/video-info?path=`. */
  readonly path: string;
  /** `<source>`s in the order a browser should try them. */
  readonly sources: readonly VideoSourceView[];
}

/**
 * Where a browser can fetch a Live Photo's motion: as for any video, by its playback plan
 * (server/public/pages/video-sources.ts), which the page asks the dimensions cache for with the
 * stills: an HEVC movie is offered typed `hvc1` (Safari plays it, others skip it) and then its
 * H.264 web copy. Until the movie is probed it goes first without a `type` (browsers answer
 * `canPlayType('video/quicktime')` with "" although they play the H.264 inside an iPhone's
 * QuickTime file), its web copy after it.
 */
export function motionSources(motionPath: string, playback?: VideoPlayback): VideoSourceView[] {
  return videoSources(motionPath, undefined, playback);
}

/** A listed item and, for a Live Photo the visitor may play, its motion file (a ReadableFile fits). */
export interface ListedMedia {
  readonly item: MediaItem;
  readonly motion?: { readonly item: MediaItem } | undefined;
  /** False through a "no downloads" share link: a photo's links then go to its large thumbnail (docs/api.md#share-links). */
  readonly downloadable?: boolean;
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

export const pageItems = <T>(listed: readonly T[], page: number): readonly T[] => listed.slice((page - 1) * MEDIA_PER_PAGE, page * MEDIA_PER_PAGE);

/**
 * Views of one page of an album's media, with thumbnail versions and sizes. `listed` is what
 * the visitor may read of the album (see ReadableMedia), which pages and positions count in.
 */
export async function mediaViews(
  album: Album,
  listed: readonly ListedMedia[],
  page: number,
  stats: MediaStats,
  dimensions: DimensionsProvider | undefined,
  translator: Pick<Translator, 't' | 'language'>,
): Promise<MediaView[]> {
  const onPage = pageItems(listed, page);
  const items = onPage.map((f) => f.item);
  const motions = onPage.flatMap((f) => (f.motion ? [f.motion.item] : []));
  const offset = (page - 1) * MEDIA_PER_PAGE;
  // Live Photos' movies are asked with the page: their playback plan chooses their sources.
  const [allStats, allDims] = await Promise.all([
    stats.all(album, [...items, ...motions]),
    dimensions ? dimensions(album, [...items, ...motions]) : Promise.resolve([...items, ...motions].map(() => undefined)),
  ]);
  const itemStats = allStats.slice(0, items.length);
  const dims = allDims.slice(0, items.length);
  const motionDims = new Map(motions.map((m, i) => [m, allDims[items.length + i]]));
  const motionBytes = new Map(motions.map((m, i) => [m, allStats[items.length + i]?.size]));
  return items.map((m, i) => {
    const mediaPath = `${album.path}/${m.name}`;
    const motion = onPage[i]!.motion;
    const v = itemStats[i];
    const d = dims[i];
    const duration = m.kind === 'video' && d?.duration !== undefined ? d.duration : null;
    const durationText = formatDuration(duration);
    const taken = d?.taken ?? null;
    const caption = album.meta.captions.get(m.name) ?? null;
    // The original is refused to this visitor: the tile and the viewer's full resolution show the large thumbnail.
    const viewOnly = m.kind === 'image' && onPage[i]!.downloadable === false;
    const large = thumbnailUrl(mediaPath, LIGHTBOX_THUMBNAIL, v);
    // Browsers show the original as it is stored: a photo the owner turned in album.json is shown full size as a turned JPEG.
    const fullSize = m.kind === 'image' && (!isViewableImage(m.name) || (v?.rotation ?? 0) !== 0);
    return {
      index: offset + i,
      name: m.name,
      kind: m.kind,
      path: mediaPath,
      alt: caption ?? altText({ kind: m.kind, live: motion !== undefined, taken, durationText, position: offset + i + 1, total: listed.length }, translator),
      taken,
      caption,
      original: viewOnly ? large : originalUrl(mediaPath),
      full: viewOnly ? large : fullSize ? fullSizeUrl(mediaPath, v) : originalUrl(mediaPath),
      src: thumbnailUrl(mediaPath, TILE_THUMBNAIL, v),
      large,
      srcset: thumbnailSrcset(mediaPath, v),
      webpSrcset: thumbnailSrcset(mediaPath, v, 'webp'),
      bytes: v === undefined ? null : v.size + (motion ? (motionBytes.get(motion.item) ?? 0) : 0),
      width: d?.width ?? null,
      height: d?.height ?? null,
      thumbHash: d?.thumbHash ?? null,
      // When it arrived, for this browser's "new" marks (views/assets/new-marks.js).
      added: v ? arrivedAt(v) : null,
      duration,
      durationText,
      motion: motion ? motionView(`${album.path}/${motion.item.name}`, motionDims.get(motion.item)?.playback) : null,
      ...(m.kind === 'video' ? { sources: videoSources(mediaPath, v, d?.playback) } : {}),
    };
  });
}

const motionView = (motionPath: string, playback: VideoPlayback | undefined): MotionView => ({
  path: motionPath,
  sources: motionSources(motionPath, playback),
});
