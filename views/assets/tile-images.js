// The life of a tile's thumbnail: hidden over its placeholder while it loads, faded in once
// loaded, and never the browser's broken-image glyph with the file name (docs/api.md#tiles).
//
// An <img> cannot tell why it failed, and does not honour Retry-After. So on an error the
// same URL is fetched to find out: a busy server (503 with Retry-After, which the media
// pool answers past its bounded queue) is asked again after the delay it gives, with backoff
// and jitter so a page of failed tiles does not come back all at once; once the server
// answers 200 the thumbnail is in the HTTP cache, and the <img> is told to load it again. A
// file the server cannot show (500 for an undecodable photo, 404, 401) gets a designed
// "cannot show" tile instead, of the tile's size, whose link still opens the original.
//
// The <img> may sit inside a <picture>: its load and error events fire either way.

/** Answers that mean "not now": the same request may well succeed later. */
const TRANSIENT = new Set([429, 502, 503, 504]);
/** Tries of one thumbnail before the tile gives up (about 40 s of waiting at 1 s Retry-After). */
const MAX_ATTEMPTS = 5;
/** The longest wait between two tries. */
const MAX_DELAY_MS = 30_000;
/** How long the fade-in takes (site.css); the placeholder goes once it is over. */
const FADE_MS = 300;

/** @type {WeakMap<HTMLImageElement, number>} tries made so far, kept across errors */
const attempts = new WeakMap();
/** @type {WeakSet<HTMLImageElement>} images whose failure is being looked into */
const recovering = new WeakSet();

/**
 * @param {Iterable<HTMLElement>} tiles `.media__item` elements (the page's, or those infinite
 * scroll added)
 * @param {import('./strings.js').Translate} t the page's words (views/assets/strings.js)
 */
export function watchTileImages(tiles, t) {
  for (const tile of tiles) {
    const link = /** @type {HTMLElement | null} */ (tile.querySelector('.media__link'));
    const img = link?.querySelector('img');
    if (!link || !img) continue;
    img.addEventListener('load', () => shown(link));
    img.addEventListener('error', () => void recover(link, img, t));
    if (!img.complete) link.dataset.image = 'loading';
    else if (img.naturalWidth === 0) void recover(link, img, t); // failed before this script ran
  }
}

/** @param {HTMLElement} link */
function shown(link) {
  if (link.dataset.image !== 'loading') return;
  link.dataset.image = 'loaded';
  setTimeout(() => link.style.removeProperty('background-image'), FADE_MS + 100);
}

/**
 * @param {HTMLElement} link
 * @param {HTMLImageElement} img
 * @param {import('./strings.js').Translate} t
 */
async function recover(link, img, t) {
  if (recovering.has(img) || link.dataset.image === 'unavailable') return;
  recovering.add(img);
  // Hidden while it is looked into: the placeholder shows, not the glyph.
  link.dataset.image = 'loading';
  const url = img.currentSrc || img.src;
  try {
    const outcome = await fetchWhenAvailable(url, {
      from: attempts.get(img) ?? 0,
      maxAttempts: MAX_ATTEMPTS,
      onTry: (attempt) => attempts.set(img, attempt + 1),
    });
    if (outcome === 'available') {
      // The URL is unchanged (&v= names the photo's version): setting it again makes the
      // <img> (and its <picture>'s sources) load anew; error answers are sent no-store, so
      // no cached failure stands in the way.
      img.setAttribute('src', img.getAttribute('src') ?? url);
      return;
    }
    showUnavailable(link, img, t);
  } finally {
    recovering.delete(img);
  }
}

/**
 * Asks for `url` until the server answers it: 'available' once a 200 has landed whole in the
 * HTTP cache (an <img> of that URL then loads at once), 'unavailable' for an answer that will
 * not change (404, 401, 500) or after `maxAttempts` busy answers, each waited out as its
 * Retry-After asks (retryDelay). Also the lightbox's, for a slide the server was too busy for
 * (views/assets/lightbox.js).
 * @param {string} url
 * @param {{ maxAttempts: number, from?: number, onTry?: (attempt: number) => void, onBusy?: (waitMs: number) => void }} opts
 * @returns {Promise<'available' | 'unavailable'>}
 */
export async function fetchWhenAvailable(url, { maxAttempts, from = 0, onTry, onBusy }) {
  for (let attempt = from; attempt < maxAttempts; attempt++) {
    onTry?.(attempt);
    /** @type {Response | undefined} */
    let res;
    try {
      res = await fetch(url, { credentials: 'same-origin' });
      // Read to the end, so a 200 lands whole in the HTTP cache the <img> reads from.
      await res.arrayBuffer();
    } catch {
      res = undefined; // offline for a moment: as good as a 503 without Retry-After
    }
    if (res?.ok) return 'available';
    if (res && !TRANSIENT.has(res.status)) return 'unavailable';
    const wait = retryDelay(res?.headers.get('Retry-After'), attempt);
    onBusy?.(wait);
    await sleep(wait);
  }
  return 'unavailable';
}

/**
 * What Retry-After asks (seconds, or an HTTP date; 1 s when absent), doubled on every try and
 * stretched by up to half again at random, so tiles that failed together retry apart.
 * @param {string | null | undefined} retryAfter
 * @param {number} attempt 0 for the first retry
 */
export function retryDelay(retryAfter, attempt) {
  const asked = retryAfter ? (/^\d+$/.test(retryAfter.trim()) ? Number(retryAfter) * 1000 : Date.parse(retryAfter) - Date.now()) : NaN;
  const base = Number.isFinite(asked) && asked > 0 ? asked : 1000;
  return Math.min(MAX_DELAY_MS, base * 2 ** attempt * (1 + Math.random() * 0.5));
}

/**
 * The designed failure: an icon and a short text in place of the thumbnail, at the tile's
 * size (the tile's aspect ratio comes from its layout, not from the image).
 * @param {HTMLElement} link
 * @param {HTMLImageElement} img
 * @param {import('./strings.js').Translate} t
 */
function showUnavailable(link, img, t) {
  link.dataset.image = 'unavailable';
  link.style.removeProperty('background-image');
  const note = document.createElement('span');
  note.className = 'media__unavailable';
  note.innerHTML =
    '<svg aria-hidden="true" viewBox="0 0 24 24" width="28" height="28"><path fill="currentColor" d="M21 5v11.17l-2-2V5H9.83l-2-2H19a2 2 0 0 1 2 2ZM2.81 2.81 1.39 4.22 3 5.83V19a2 2 0 0 0 2 2h13.17l1.61 1.61 1.41-1.41L2.81 2.81ZM5 19V7.83l5.07 5.07L8 16h8.17l3 3H5Z"/></svg>';
  const text = document.createElement('span');
  text.textContent = t(link.dataset.kind === 'video' ? 'tiles.videoUnavailable' : 'tiles.photoUnavailable');
  note.append(text);
  img.after(note);
}

/** @param {number} ms */
function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
