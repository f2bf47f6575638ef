import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * Versioned URLs for client assets (`/assets/site.css?v=1a2b3c4d`), so they can be cached
 * for a year and still change on deploy. Hashes are computed once per file and process.
 */
export function createAssetUrls(roots: Readonly<Record<string, string>>): (url: string) => string {
  const cache = new Map<string, string>();
  return (url) => {
    let versioned = cache.get(url);
    if (versioned !== undefined) return versioned;
    const prefix = Object.keys(roots).find((p) => url.startsWith(p));
    versioned = url;
    if (prefix) {
      try {
        const file = path.join(roots[prefix]!, url.slice(prefix.length));
        const hash = crypto.createHash('sha1').update(fs.readFileSync(file)).digest('hex').slice(0, 10);
        versioned = `${url}?v=${hash}`;
      } catch {
        // A missing asset keeps its plain URL: the page still renders, the 404 shows in dev tools.
      }
    }
    cache.set(url, versioned);
    return versioned;
  };
}

/**
 * The modules of a page of tiles and its viewer (views/assets/album.js and lightbox.js import
 * them by these keys from #media's data-assets): one list for the album, search and timeline
 * pages. `select` is the album's own choosing of photos; on a page of files from many albums
 * it goes as `selectAcross` (album.js would start an album's select mode with `select`).
 */
const VIEWER_MODULES: Readonly<Record<string, string>> = {
  lightbox: '/assets/lightbox.js',
  livePhoto: '/assets/live-photo.js',
  slideshow: '/assets/slideshow.js',
  screenAwake: '/assets/screen-awake.js',
  viewerHistory: '/assets/viewer-history.js',
  viewerToolbar: '/assets/viewer-toolbar.js',
  videoSlides: '/assets/video-slides.js',
  overlays: '/assets/overlays.js',
  exifFormat: '/assets/exif-format.js',
  albumItems: '/assets/album-items.js',
  infiniteScroll: '/assets/infinite-scroll.js',
  tileImages: '/assets/tile-images.js',
  tilePlaceholders: '/assets/tile-placeholders.js',
  thumbhash: '/vendor/thumbhash/thumbhash.js',
  pswpLightbox: '/vendor/photoswipe/photoswipe-lightbox.esm.min.js',
  pswp: '/vendor/photoswipe/photoswipe.esm.min.js',
  strings: '/assets/strings.js',
  select: '/assets/select.js',
  selectZip: '/assets/select-zip.js',
  byteSize: '/assets/byte-size.js',
};

/**
 * What views are given to name assets: `asset(url)`, a file's versioned URL, and
 * `viewerAssets(selectKey)`, the viewer's modules by their versioned URLs, `select` under the
 * key `selectKey`.
 */
export function assetLocals(roots: Readonly<Record<string, string>>) {
  const asset = createAssetUrls(roots);
  const viewerAssets = (selectKey: 'select' | 'selectAcross'): Record<string, string> =>
    Object.fromEntries(Object.entries(VIEWER_MODULES).map(([key, url]) => [key === 'select' ? selectKey : key, asset(url)]));
  return { asset, viewerAssets };
}
