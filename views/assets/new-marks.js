// "New" marks (README "What is new"): on /photos, folder and album pages, the tiles and cards
// whose files arrived since this browser's last visit of the page carry a mark. The page says
// when each arrived (`data-added`, ms, the server's clock: server/public/pages/feed-arrivals.ts);
// what this browser has seen is kept in the browser only, never sent anywhere.
//
// Per page address, localStorage holds the newest arrival the page showed (the server's time,
// so a wrong clock on the phone changes nothing). A visit compares with what the previous one
// saw; sessionStorage keeps that comparison for the rest of the visit, so a reload or a trip
// into the viewer and back does not wipe the marks the visitor has not looked at yet. A first
// visit marks nothing: everything would be new.

const SEEN_KEY = `gallery.seen:${location.pathname}`;

/** The page's words (views/assets/strings.js), by the versioned URL the page gives (/assets is cached for a year). */
const markStrings = () =>
  /** @type {Promise<typeof import('./strings.js')>} */ (import(document.getElementById('strings')?.dataset.module ?? '/assets/strings.js'));

/** @param {Storage} storage @param {string} key @returns {string | null} */
function read(storage, key) {
  try {
    return storage.getItem(key);
  } catch {
    return null; // storage refused (private mode, a blocked site): no marks, nothing breaks
  }
}

/** @param {Storage} storage @param {string} key @param {string} value */
function write(storage, key, value) {
  try {
    storage.setItem(key, value);
  } catch {
    // full or refused: the next visit marks nothing new, as a first one
  }
}

/** @param {Element} el */
const addedOf = (el) => Number(el.getAttribute('data-added'));

const dated = [...document.querySelectorAll('[data-added]')].filter((el) => Number.isFinite(addedOf(el)) && addedOf(el) > 0);
// How many marks the page shows, once it is decided (`data-new-marks` on <body>: the page's tests wait for it).
void mark().then((count) => {
  document.body.dataset.newMarks = String(count);
});

/** @returns {Promise<number>} */
async function mark() {
  if (dated.length === 0) return 0;
  // The last visit's newest arrival, read once per visit.
  let since = read(sessionStorage, SEEN_KEY);
  if (since === null) {
    since = read(localStorage, SEEN_KEY) ?? '';
    write(sessionStorage, SEEN_KEY, since);
  }
  const newest = Math.max(...dated.map(addedOf));
  const seen = Number(read(localStorage, SEEN_KEY) ?? 0);
  if (!(newest <= seen)) write(localStorage, SEEN_KEY, String(newest));
  if (since === '') return 0;
  const fresh = dated.filter((el) => addedOf(el) > Number(since));
  if (fresh.length === 0) return 0;
  const { t } = await markStrings();
  for (const el of fresh) {
    // On the tile's link (its accessible name gains the word), or the card's cover.
    const host = el.matches('.media__link') ? el : el.querySelector('.card__cover');
    if (!host || host.querySelector('.badge--new')) continue;
    const badge = document.createElement('span');
    badge.className = 'badge badge--new';
    badge.textContent = t('newMarks.new');
    badge.title = t('newMarks.newTitle');
    host.append(badge);
  }
  return fresh.length;
}
