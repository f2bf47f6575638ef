// Paints each photo's ThumbHash (the tile's data-th, docs/api.md#placeholders) as the tile's
// background, so a cold album shows every photo's colours at first paint instead of a wall
// of grey squares. The thumbnail covers it once loaded (views/assets/tile-images.js fades it
// in). Tiles without a hash (videos, HEIC, undecodable files) keep the plain tile colour.
//
// The background is set through CSSOM, which the Content-Security-Policy allows (a style
// attribute it would not), and is a data: URL, which its img-src allows.

/**
 * @param {Iterable<HTMLElement>} tiles `.media__item` elements
 * @param {Pick<typeof import('thumbhash'), 'thumbHashToDataURL'>} thumbhash the vendored decoder
 */
export function paintPlaceholders(tiles, { thumbHashToDataURL }) {
  for (const tile of tiles) {
    const hash = tile.dataset.th;
    const link = /** @type {HTMLElement | null} */ (tile.querySelector('.media__link'));
    const img = link?.querySelector('img');
    // A thumbnail already on screen (from the browser's cache) needs no placeholder.
    if (!hash || !link || !img || (img.complete && img.naturalWidth > 0)) continue;
    try {
      link.style.backgroundImage = `url("${thumbHashToDataURL(base64Bytes(hash))}")`;
    } catch {
      // A hash the decoder cannot read: the tile keeps its plain colour.
    }
  }
}

/** @param {string} base64 */
function base64Bytes(base64) {
  return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
}
