import type { Album } from '../../core/albums/album-tree.js';
import { downloadUrl } from '../../core/urls.js';
import type { ReadableFile } from '../resolvers.js';
import { zipFiles } from '../zip/zip-contents.js';
import type { MediaStats } from './media-stats.js';

/** One way to download the album, as its button says it. */
export interface DownloadChoice {
  readonly href: string;
  /** What the button shows: 'Download 48 photos · 312 MB', 'With 3 videos · 1.5 GB'. */
  readonly label: string;
  /** Said before the label to screen readers only, where the label alone is not enough ('Download 48 photos '). */
  readonly context: string;
}

/** The album page's download button: the photos' ZIP and, when the album has videos, the ZIP with them. */
export interface DownloadOffer {
  readonly main: DownloadChoice;
  readonly withVideos: DownloadChoice | undefined;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

const UNITS = ['KB', 'MB', 'GB', 'TB'] as const;

/**
 * A size as people read it: '312 MB', '1.2 GB', '850 KB'. Decimal units (1 MB = 1,000,000
 * bytes), as phones and macOS show file sizes, so the figure matches what the download shows.
 */
export function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${bytes} byte${bytes === 1 ? '' : 's'}`;
  let value = bytes / 1000;
  let unit = 0;
  while (value >= 999.5 && unit < UNITS.length - 1) {
    value /= 1000;
    unit++;
  }
  const text = value < 9.95 ? value.toFixed(1).replace(/\.0$/, '') : String(Math.round(value));
  return `${text} ${UNITS[unit]}`;
}

/**
 * What the album's ZIPs hold for this visitor (the files the ZIP route archives: zipFiles),
 * counted and sized from the files' stats: photos (a Live Photo's movie adds its bytes, not
 * a photo) and, as a second choice, the same with the videos. Undefined when there is
 * nothing to download: the page shows no button.
 */
export async function downloadOffer(album: Album, readable: readonly ReadableFile[], stats: MediaStats): Promise<DownloadOffer | undefined> {
  const photos = readable.filter((f) => f.item.kind === 'image').length;
  const videos = readable.filter((f) => f.item.kind === 'video').length;
  if (photos === 0 && videos === 0) return undefined;
  const all = zipFiles(readable, true);
  const found = await stats.all(
    album,
    all.map((f) => f.item),
  );
  const sizes = new Map(all.map((f, i) => [f, found[i]?.size ?? 0]));
  const bytesOf = (files: readonly ReadableFile[]) => files.reduce((sum, f) => sum + (sizes.get(f) ?? 0), 0);
  const allBytes = bytesOf(all);
  const photosText = `Download ${plural(photos, 'photo')}`;
  if (photos === 0) {
    return {
      main: { href: downloadUrl(album.path, true), label: `Download ${plural(videos, 'video')} · ${formatBytes(allBytes)}`, context: '' },
      withVideos: undefined,
    };
  }
  return {
    main: { href: downloadUrl(album.path), label: `${photosText} · ${formatBytes(bytesOf(zipFiles(readable, false)))}`, context: '' },
    withVideos:
      videos > 0
        ? { href: downloadUrl(album.path, true), label: `With ${plural(videos, 'video')} · ${formatBytes(allBytes)}`, context: `${photosText} ` }
        : undefined,
  };
}
