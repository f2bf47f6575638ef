import type { Album, MediaItem } from '../../core/albums/album-tree.js';
import { downloadUrl } from '../../core/urls.js';
import type { ReadableFile } from '../resolvers.js';
import type { MediaStats } from './media-stats.js';
import type { Translator } from '../../http/i18n.js';
// How every size is written, on the site and in the admin: one module, which the admin's
// browser scripts import as well (a browser module, so it lives with them in views/assets).
import { formatBytes } from '../../../views/assets/byte-size.js';

export { formatBytes };

/** One way to download the album, as its button says it. */
export interface DownloadChoice {
  readonly href: string;
  /** What the button shows, in the visitor's language: 'Download 48 photos · 312 MB', 'With 3 videos · 1.5 GB'. */
  readonly label: string;
  /** Said before the label to screen readers only, where the label alone is not enough ('Download 48 photos '). */
  readonly context: string;
}

/** The album page's download button: the photos' ZIP and, when the album has videos, the ZIP with them. */
export interface DownloadOffer {
  readonly main: DownloadChoice;
  readonly withVideos: DownloadChoice | undefined;
}

/**
 * What the album's ZIPs hold for this visitor (the files the ZIP route archives: zipFiles),
 * counted and sized from the files' stats: photos (a Live Photo's movie adds its bytes, not
 * a photo) and, as a second choice, the same with the videos. Undefined when there is
 * nothing to download: the page shows no button.
 */
export async function downloadOffer(
  album: Album,
  readable: readonly ReadableFile[],
  stats: MediaStats,
  { t, language }: Pick<Translator, 't' | 'language'>,
): Promise<DownloadOffer | undefined> {
  // The files the two ZIPs hold (zip/zip-contents.ts: photos with their Live Photo movies,
  // then videos), counted and summed in one pass: a page of an album of 20,000 photos is
  // rendered often while its tiles are cold, and this runs each time.
  const photoFiles: MediaItem[] = [];
  const videoFiles: MediaItem[] = [];
  let photos = 0;
  for (const f of readable) {
    if (f.item.kind === 'image') {
      photos++;
      photoFiles.push(f.item);
      if (f.motion) photoFiles.push(f.motion.item);
    } else if (f.item.kind === 'video') videoFiles.push(f.item);
  }
  const videos = videoFiles.length;
  if (photos === 0 && videos === 0) return undefined;
  const sizes = await stats.all(album, photoFiles.concat(videoFiles));
  let photoBytes = 0;
  let videoBytes = 0;
  sizes.forEach((stat, i) => {
    if (i < photoFiles.length) photoBytes += stat?.size ?? 0;
    else videoBytes += stat?.size ?? 0;
  });
  const allBytes = photoBytes + videoBytes;
  const size = (bytes: number) => formatBytes(bytes, language.locale);
  const photosText = t('download.photos', { count: photos });
  if (photos === 0) {
    return {
      main: { href: downloadUrl(album.path, true), label: `${t('download.videos', { count: videos })} · ${size(allBytes)}`, context: '' },
      withVideos: undefined,
    };
  }
  return {
    main: { href: downloadUrl(album.path), label: `${photosText} · ${size(photoBytes)}`, context: '' },
    withVideos:
      videos > 0
        ? { href: downloadUrl(album.path, true), label: `${t('download.withVideos', { count: videos })} · ${size(allBytes)}`, context: `${photosText} ` }
        : undefined,
  };
}
