// The timeline page's own part (album.js does its tiles, infinite scroll and viewer, as on an
// album page): a month header before the first tile of each month that infinite scroll adds
// (the server writes those of the page it sends), and the year scrubber, which scrolls to a
// year already on the page instead of loading it again.

const timelineList = document.getElementById('media');
if (timelineList) initTimeline(timelineList);

/** @param {HTMLElement} list */
function initTimeline(list) {
  const assets = JSON.parse(list.dataset.assets ?? '{}');
  /** @type {Promise<typeof import('./strings.js')>} */
  const strings = import(assets.strings);
  const monthName = strings.then(({ locale }) => new Intl.DateTimeFormat(locale(), { month: 'long', year: 'numeric', timeZone: 'UTC' }));

  // Month headers stick under the site's header, whose height depends on the screen.
  const header = document.querySelector('.site-header');
  const followHeader = () => document.documentElement.style.setProperty('--timeline-top', `${header instanceof HTMLElement ? header.offsetHeight : 0}px`);
  followHeader();
  window.addEventListener('resize', followHeader);

  new MutationObserver((records) => {
    const added = records.flatMap((r) => [...r.addedNodes]).filter((n) => n instanceof HTMLElement && n.classList.contains('media__item'));
    if (added.length) void monthName.then((format) => addMonthHeaders(/** @type {HTMLElement[]} */ (added), format));
  }).observe(list, { childList: true });

  document.querySelector('.timeline-years')?.addEventListener('click', (event) => {
    const link = event.target instanceof Element ? event.target.closest('a[data-year]') : null;
    if (!(link instanceof HTMLAnchorElement)) return;
    const first = list.querySelector(`.timeline__month[data-month^="${link.dataset.year}-"]`);
    if (!(first instanceof HTMLElement)) return; // not on the page: the link loads it
    event.preventDefault();
    first.scrollIntoView({ block: 'start' });
    first.querySelector('h3')?.focus?.();
  });
}

/** The month ('YYYY-MM') a tile's file belongs to: when it was taken, as the server placed it. */
const monthOf = (/** @type {Element | null} */ li) => li?.querySelector('a.media__link')?.getAttribute('data-taken')?.slice(0, 7) ?? '';

/**
 * A header before each added tile whose month differs from the tile before it.
 * @param {HTMLElement[]} tiles
 * @param {Intl.DateTimeFormat} format
 */
function addMonthHeaders(tiles, format) {
  for (const li of tiles) {
    const month = monthOf(li);
    let before = li.previousElementSibling;
    if (before?.classList.contains('timeline__month')) continue;
    if (!month || monthOf(before) === month) continue;
    const heading = document.createElement('li');
    heading.className = 'timeline__month';
    heading.dataset.month = month;
    const h3 = document.createElement('h3');
    const [year, m] = month.split('-').map(Number);
    h3.textContent = format.format(Date.UTC(year, m - 1, 1));
    heading.append(h3);
    li.before(heading);
    before = heading;
  }
}
