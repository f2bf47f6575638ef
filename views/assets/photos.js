// /photos is one page for everyone, cached: a protected album is a padlock whoever looks.
// This asks the server which of those this visitor has unlocked (one request, answered for
// this visitor only) and shows their covers, marked as unlocked.

/** @type {Map<string, HTMLAnchorElement>} The padlocks' links, by the album page they open. */
const padlocks = new Map();
for (const link of document.querySelectorAll('.card--locked > a[href]')) {
  if (link instanceof HTMLAnchorElement) padlocks.set(link.getAttribute('href') ?? '', link);
}
if (padlocks.size > 0) void showUnlocked();

/** The page's words (views/assets/strings.js), by the versioned URL the page gives (/assets is cached for a year). */
const strings = () =>
  /** @type {Promise<typeof import('./strings.js')>} */ (import(document.getElementById('strings')?.dataset.module ?? '/assets/strings.js'));

/**
 * @typedef {{ src: string, srcset: string, webpSrcset: string, sizes: string }} CoverView
 * @typedef {{ path: string, url: string, subtitle: string, cover: CoverView | null }} UnlockedAlbum
 */

async function showUnlocked() {
  /** @type {{ albums?: UnlockedAlbum[] }} */
  let answer;
  try {
    const res = await fetch('/api/unlocked-albums', { headers: { Accept: 'application/json' }, cache: 'no-store' });
    if (!res.ok) return;
    answer = await res.json();
  } catch {
    return; // the padlocks stay: the albums still open from their pages
  }
  const { t } = await strings();
  for (const album of answer.albums ?? []) {
    const link = padlocks.get(album.url);
    if (link) markUnlocked(link, album, t('photos.unlocked'));
  }
}

/**
 * @param {HTMLAnchorElement} link
 * @param {UnlockedAlbum} album
 * @param {string} word "Unlocked", in the page's language
 */
function markUnlocked(link, album, word) {
  const card = link.closest('.card');
  const cover = link.querySelector('.card__cover');
  if (!card || !cover) return;
  const padlock = [...cover.childNodes];
  const meta = link.querySelector('.card__meta');
  const lockedMeta = meta?.textContent ?? '';
  card.classList.replace('card--locked', 'card--unlocked');
  if (meta) meta.textContent = album.subtitle;
  const shown = [unlockedMark(word)];
  if (album.cover) {
    const picture = coverPicture(album.cover);
    // Access lapsed in between (or the thumbnail failed): back to the padlock, never a broken image.
    const relock = () => {
      card.classList.replace('card--unlocked', 'card--locked');
      if (meta) meta.textContent = lockedMeta;
      cover.replaceChildren(...padlock);
    };
    picture.querySelector('img')?.addEventListener('error', relock, { once: true });
    shown.unshift(picture);
  } else {
    shown.unshift(Object.assign(document.createElement('span'), { className: 'card__empty' }));
  }
  cover.replaceChildren(...shown);
}

/** @param {CoverView} view */
function coverPicture(view) {
  const picture = document.createElement('picture');
  const source = document.createElement('source');
  source.type = 'image/webp';
  source.srcset = view.webpSrcset;
  source.sizes = view.sizes;
  const img = document.createElement('img');
  img.alt = '';
  img.decoding = 'async';
  img.sizes = view.sizes;
  img.srcset = view.srcset;
  img.src = view.src;
  picture.append(source, img);
  return picture;
}

/** The "unlocked" mark: an open padlock (its shackle lifted off the left) and the word, so it does not rely on the icon alone. */
/** @param {string} word */
function unlockedMark(word) {
  const mark = document.createElement('span');
  mark.className = 'card__mark';
  const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('width', '14');
  svg.setAttribute('height', '14');
  svg.setAttribute('aria-hidden', 'true');
  const path = document.createElementNS('http://www.w3.org/2000/svg', 'path');
  path.setAttribute('fill', 'currentColor');
  path.setAttribute('d', 'M12 1a5 5 0 0 0-5 5h2a3 3 0 0 1 6 0v5H6a2 2 0 0 0-2 2v7a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2v-7a2 2 0 0 0-2-2h-1V6a5 5 0 0 0-5-5Z');
  svg.append(path);
  mark.append(svg, word);
  return mark;
}
