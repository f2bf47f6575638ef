import type { AlbumStyle } from './albums/album-record.js';
import path from 'node:path';

/**
 * The media catalogue: every fact about which files the gallery serves, the thumbnails it
 * makes of them and where it caches what it learns. Everything else (the scanner, uploads,
 * the thumbnail route and cache, the admin cache statistics, the page srcset, the lightbox,
 * the benchmarks) derives from here, so adding a file extension or a thumbnail size is a
 * change to this file only.
 */

export type MediaKind = 'image' | 'video';

interface MediaType {
  readonly kind: MediaKind;
  readonly contentType: string;
  /** A browser shows it as it is (site assets are served without thumbnails, so only these). */
  readonly web: boolean;
  /**
   * Every browser displays the original itself, so the viewer's "full resolution" opens it;
   * the others (TIFF, HEIC) get a full-size JPEG made from them (docs/api.md#get-apifull-sizepath).
   */
  readonly viewable: boolean;
  /**
   * The HEVC-coded HEIF family: libvips reads the header but cannot decode the pixels (sharp
   * ships without an HEVC decoder), so the media worker decodes them with libheif (server/media/pool.ts, the heif lane).
   */
  readonly heif?: true;
  /** What an upload's decoder must read it as: sharp's format names, ffprobe's container names. */
  readonly decodedAs: readonly string[];
}

/** ffprobe names the whole QuickTime family (mp4, m4v, mov) by one list, Matroska/WebM by another. */
const QUICKTIME = ['mov', 'mp4', 'm4a', '3gp', '3g2', 'mj2'];
const MATROSKA = ['matroska', 'webm'];

/** The only files the gallery ever serves (docs/api.md#the-album-tree). Keys are lower-case extensions, in the order they are listed to people. */
const MEDIA_TYPES: Readonly<Record<string, MediaType>> = Object.freeze({
  '.jpg': { kind: 'image', contentType: 'image/jpeg', web: true, viewable: true, decodedAs: ['jpeg'] },
  '.jpeg': { kind: 'image', contentType: 'image/jpeg', web: true, viewable: true, decodedAs: ['jpeg'] },
  '.png': { kind: 'image', contentType: 'image/png', web: true, viewable: true, decodedAs: ['png'] },
  '.webp': { kind: 'image', contentType: 'image/webp', web: true, viewable: true, decodedAs: ['webp'] },
  '.avif': { kind: 'image', contentType: 'image/avif', web: true, viewable: true, decodedAs: ['heif'] }, // sharp's name for AVIF
  '.gif': { kind: 'image', contentType: 'image/gif', web: false, viewable: true, decodedAs: ['gif'] },
  '.tif': { kind: 'image', contentType: 'image/tiff', web: false, viewable: false, decodedAs: ['tiff'] },
  '.tiff': { kind: 'image', contentType: 'image/tiff', web: false, viewable: false, decodedAs: ['tiff'] },
  // iPhones (since 2017) and many Android phones save photos as HEIC.
  '.heic': { kind: 'image', contentType: 'image/heic', web: false, viewable: false, heif: true, decodedAs: ['heif'] },
  '.heif': { kind: 'image', contentType: 'image/heif', web: false, viewable: false, heif: true, decodedAs: ['heif'] },
  '.mp4': { kind: 'video', contentType: 'video/mp4', web: false, viewable: false, decodedAs: QUICKTIME },
  '.m4v': { kind: 'video', contentType: 'video/mp4', web: false, viewable: false, decodedAs: QUICKTIME },
  '.mov': { kind: 'video', contentType: 'video/quicktime', web: false, viewable: false, decodedAs: QUICKTIME },
  '.webm': { kind: 'video', contentType: 'video/webm', web: false, viewable: false, decodedAs: MATROSKA },
});

const typeOf = (fileName: string): MediaType | undefined => {
  const ext = path.extname(fileName).toLowerCase();
  return Object.hasOwn(MEDIA_TYPES, ext) ? MEDIA_TYPES[ext] : undefined;
};

export const mediaKind = (fileName: string): MediaKind | undefined => typeOf(fileName)?.kind;

export const contentTypeOf = (fileName: string): string | undefined => typeOf(fileName)?.contentType;

export const isImage = (fileName: string): boolean => mediaKind(fileName) === 'image';
export const isVideo = (fileName: string): boolean => mediaKind(fileName) === 'video';

/** A photo every browser displays itself; the viewer's "full resolution" of any other is a full-size JPEG. */
export const isViewableImage = (fileName: string): boolean => {
  const type = typeOf(fileName);
  return type?.kind === 'image' && type.viewable;
};

/**
 * How the admin turns a file without re-encoding it (docs/api.md#rotations): a JPEG by its
 * EXIF orientation tag, an MP4/MOV by its display matrix, any other photo by album.json's
 * `rotations`; a WebM has neither (undefined).
 */
export type TurnMethod = 'exif-orientation' | 'display-matrix' | 'album-rotation';

export function turnMethodOf(fileName: string): TurnMethod | undefined {
  const type = typeOf(fileName);
  if (type === undefined) return undefined;
  if (type.kind === 'video') return type.decodedAs === QUICKTIME ? 'display-matrix' : undefined;
  return type.decodedAs.includes('jpeg') ? 'exif-orientation' : 'album-rotation';
}

/** A HEIC/HEIF photo by its name: decoded by libheif in the pool's heif lane, not by libvips. */
export const needsHeifDecoder = (fileName: string): boolean => typeOf(fileName)?.heif === true;

/** The same by its header as sharp reads it: a HEIF container of HEVC pixels (an AVIF is one of AV1, which libvips decodes). */
export const isHevcHeader = (header: { readonly format?: string; readonly compression?: string }): boolean =>
  header.format === 'heif' && header.compression === 'hevc';

/** An image a browser shows as it is: what site assets (hero, cards, landing) may be. */
export const isWebImage = (fileName: string): boolean => typeOf(fileName)?.web === true;

const extensionsWhere = (test: (t: MediaType) => boolean): readonly string[] =>
  Object.freeze(Object.keys(MEDIA_TYPES).filter((ext) => test(MEDIA_TYPES[ext]!)));

/** Extensions by kind, and the web images, in catalogue order: ['.jpg', '.jpeg', …]. */
export const MEDIA_EXTENSIONS: Readonly<Record<MediaKind, readonly string[]>> = Object.freeze({
  image: extensionsWhere((t) => t.kind === 'image'),
  video: extensionsWhere((t) => t.kind === 'video'),
});
export const WEB_IMAGE_EXTENSIONS = extensionsWhere((t) => t.web);

/** What an upload of a kind may decode as (sharp reads AVIF as 'heif'): a file must be one of its kind's, whatever its name says. */
export const decodedFormatsOf = (kind: MediaKind): ReadonlySet<string> =>
  new Set(Object.values(MEDIA_TYPES).flatMap((t) => (t.kind === kind ? t.decodedAs : [])));

/** '.jpg, .jpeg, .png', for messages and `accept` attributes. */
export const listExtensions = (extensions: readonly string[]): string => extensions.join(', ');

/**
 * Thumbnail presets (docs/api.md#get-apithumbnailpathsizeformat): name and maximum width in
 * pixels, smallest first (the srcset and every listing keep this order). `tile` and `row`
 * sit between small and medium so that a tile on a 2× or 3× screen has a candidate just big
 * enough instead of jumping from 400 to 1200 px: `tile` for a 180–250 px square of the grid
 * (540–600 px on a phone at 3× or a desktop at 2×), `row` for the wider tiles of justified rows
 * and cards. Measured on a 600-photo album: 800 px WebP tiles put 1.3 MB on a phone's first
 * screen and 3.3 MB on a 2× desktop's, against 1.0 and 2.0 MB allowed (README, benchmarks).
 */
export const THUMBNAIL_SIZES = Object.freeze({ small: 400, tile: 600, row: 800, medium: 1200, large: 1920 });
export type ThumbnailSize = keyof typeof THUMBNAIL_SIZES;
export const THUMBNAIL_SIZE_NAMES = Object.freeze(Object.keys(THUMBNAIL_SIZES) as ThumbnailSize[]);
/** The size a tile or card falls back on (`src`) where the browser does not pick from the srcset. */
export const TILE_THUMBNAIL: ThumbnailSize = 'small';
/** The size the lightbox and a video poster show; a photo wider than it has its original offered. */
export const LIGHTBOX_THUMBNAIL: ThumbnailSize = 'large';

export function isThumbnailSize(value: unknown): value is ThumbnailSize {
  return typeof value === 'string' && Object.hasOwn(THUMBNAIL_SIZES, value);
}

/**
 * The thumbnails an album's visitors ask first, by its layout, made as its files arrive
 * (server/media/preparer.ts), in every format: the sizes the layout's tiles take on phones,
 * tablets and desktops (server/public/pages/tile-sizes.ts). Square grid tiles take 400 px at 1×
 * and 600 px at 2× and 3×; justified rows up to 800 px; a `single` photo what its large frame
 * needs. The viewer's sizes are made when a photo is opened.
 */
export const PREPARED_SIZES: Readonly<Record<AlbumStyle, readonly ThumbnailSize[]>> = Object.freeze({
  grid: ['small', 'tile'],
  masonry: ['small', 'tile', 'row'],
  single: ['medium', 'large'],
});

/** An album card's cover (its parent's page, /photos): 400 to 800 px (tile-sizes.ts `CARD_SIZES`). */
export const CARD_PREPARED_SIZES: readonly ThumbnailSize[] = Object.freeze(['small', 'tile', 'row']);

/**
 * The widest thumbnail an album page's tiles ask for: sizes up to it are grid work, made
 * before anything else in the media pool; wider ones are the viewer's (docs/api.md#get-apithumbnailpathsizeformat).
 */
export const GRID_THUMBNAIL_MAX_WIDTH = 800;
export const isGridThumbnail = (size: ThumbnailSize): boolean => THUMBNAIL_SIZES[size] <= GRID_THUMBNAIL_MAX_WIDTH;

/**
 * The formats every thumbnail size is made in, from the same resized pixels: JPEG for every
 * browser and the CONTRACT, WebP for the browsers that take it (about a third fewer bytes).
 * The first is the default of the route's `format` parameter.
 */
export const THUMBNAIL_FORMATS = Object.freeze({
  jpeg: { extension: '.jpg', contentType: 'image/jpeg' },
  webp: { extension: '.webp', contentType: 'image/webp' },
});
export type ThumbnailFormat = keyof typeof THUMBNAIL_FORMATS;
export const THUMBNAIL_FORMAT_NAMES = Object.freeze(Object.keys(THUMBNAIL_FORMATS) as ThumbnailFormat[]);
export const DEFAULT_THUMBNAIL_FORMAT: ThumbnailFormat = 'jpeg';

export function isThumbnailFormat(value: unknown): value is ThumbnailFormat {
  return typeof value === 'string' && Object.hasOwn(THUMBNAIL_FORMATS, value);
}

/*
 * The cache layout under CACHE_DIR (docs/api.md#get-apithumbnailpathsizeformat): one tree per thumbnail size,
 * thumbnails/{size}/{album path}/{file}.jpg (and .webp beside it), full-size/{album path}/{file}.jpg for photos
 * browsers cannot display, web-video/{album path}/{file}.mp4 for videos they cannot all play
 * as they are, and one file of facts per album (sizes, dates, Live Photo content identifiers...),
 * dimensions/{album path}/.dimensions.json. Paths given here must be validated relative
 * paths (no '..'): these only join them.
 */

const segments = (relPath: string): string[] => (relPath === '' ? [] : relPath.split('/'));

/** CACHE_DIR/thumbnails/{size}, or its sub-directory for an album. */
export const thumbnailDir = (cacheDir: string, size: ThumbnailSize, albumPath = ''): string => path.join(cacheDir, 'thumbnails', size, ...segments(albumPath));

/** CACHE_DIR/thumbnails: every size under one root. */
export const thumbnailRoot = (cacheDir: string): string => path.join(cacheDir, 'thumbnails');

/** CACHE_DIR/thumbnails/{size}/{media path}.jpg, or .webp (the original's extension stays in the name). */
export const thumbnailFile = (cacheDir: string, size: ThumbnailSize, mediaPath: string, format: ThumbnailFormat = DEFAULT_THUMBNAIL_FORMAT): string =>
  `${thumbnailDir(cacheDir, size, mediaPath)}${THUMBNAIL_FORMATS[format].extension}`;

/** CACHE_DIR/full-size, or its sub-directory for an album: full-size JPEGs of photos browsers cannot display. */
export const fullSizeDir = (cacheDir: string, albumPath = ''): string => path.join(cacheDir, 'full-size', ...segments(albumPath));

/** CACHE_DIR/full-size/{media path}.jpg. */
export const fullSizeFile = (cacheDir: string, mediaPath: string): string => `${fullSizeDir(cacheDir, mediaPath)}.jpg`;

/** CACHE_DIR/web-video, or its sub-directory for an album: the copies of videos made to play in every browser. */
export const webVideoDir = (cacheDir: string, albumPath = ''): string => path.join(cacheDir, 'web-video', ...segments(albumPath));

/** CACHE_DIR/web-video/{media path}.mp4. */
export const webVideoFile = (cacheDir: string, mediaPath: string): string => `${webVideoDir(cacheDir, mediaPath)}.mp4`;

/** The record beside a web copy of what it was made from: `.{file}.mp4.json`, dot-named so nothing serves it (server/media/web-video.ts). */
export const webVideoRecordOf = (copyFile: string): string => path.join(path.dirname(copyFile), `.${path.basename(copyFile)}.json`);
export const webVideoRecordFile = (cacheDir: string, mediaPath: string): string => webVideoRecordOf(webVideoFile(cacheDir, mediaPath));

/**
 * Every cache file made from one original, whichever exist: its thumbnails (every size and
 * format), its full-size JPEG, its web copy and that copy's record. What follows a photo
 * renamed or moved by the admin, and goes with one deleted. (The per-album files of page
 * sizes and Live Photo identifiers are keyed by name, size and mtime: they mend themselves.)
 */
export const mediaCacheFiles = (cacheDir: string, mediaPath: string): string[] => [
  ...THUMBNAIL_SIZE_NAMES.flatMap((size) => THUMBNAIL_FORMAT_NAMES.map((format) => thumbnailFile(cacheDir, size, mediaPath, format))),
  fullSizeFile(cacheDir, mediaPath),
  webVideoFile(cacheDir, mediaPath),
  webVideoRecordFile(cacheDir, mediaPath),
];

/**
 * The lock file beside a cache file that one process is making (server/media/cache-lock.ts):
 * other processes, and background work in the pool (workers/media-worker.ts), leave the file to it.
 */
export const LOCK_SUFFIX = '.lock';
export const lockFileOf = (file: string): string => `${file}${LOCK_SUFFIX}`;

/**
 * CACHE_DIR/site-assets: the admin's previews of the site images (hero, cards, landing), laid
 * out as the thumbnail cache is ({root}/thumbnails/{size}/{kind}/{file}.jpg). The public site
 * serves those images as they are, so nothing else reads them.
 */
export const siteAssetCacheDir = (cacheDir: string): string => path.join(cacheDir, 'site-assets');

/** CACHE_DIR/dimensions, or its sub-directory for an album. */
export const dimensionsDir = (cacheDir: string, albumPath = ''): string => path.join(cacheDir, 'dimensions', ...segments(albumPath));

/** The file of one album's page sizes. Dot-named: no album directory can be called that (docs/api.md#the-album-tree), so it never collides. */
export const DIMENSIONS_FILE = '.dimensions.json';
export const dimensionsFile = (cacheDir: string, albumPath: string): string => path.join(dimensionsDir(cacheDir, albumPath), DIMENSIONS_FILE);
