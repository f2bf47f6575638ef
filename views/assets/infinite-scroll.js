// Loads the album's next page into the list as the visitor nears the end. The server's
// page links stay the fallback: without JavaScript (or IntersectionObserver) they just work.
// The viewer asks for a given photo's tile too (`ensureTile`): closing it returns to the last
// photo seen, whose page may not be on screen yet, before or after the pages shown.

/**
 * The address of the first `selector` link (the server's "next page" link) under `root`.
 * @param {ParentNode | null | undefined} root
 * @param {string} selector
 */
function linkHref(root, selector) {
  return /** @type {HTMLAnchorElement | null | undefined} */ (root?.querySelector(selector))?.href;
}

/**
 * @typedef {object} AlbumPages
 * @property {(index: number) => Promise<HTMLAnchorElement | undefined>} ensureTile the tile
 *   (its link) of the photo at `index`, loading the pages up to it first; undefined when it
 *   cannot be had (a failed page, an index outside the album)
 */

/**
 * @param {HTMLElement} list the #media list
 * @param {{ onAdded: (tiles: HTMLElement[]) => void, t: import('./strings.js').Translate }} hooks
 *   `t`: the page's words (views/assets/strings.js)
 * @returns {AlbumPages}
 */
export function initInfiniteScroll(list, { onAdded, t }) {
  const tileLink = (index) => /** @type {HTMLAnchorElement | null} */ (list.querySelector(`a.media__link[data-index="${index}"]`)) ?? undefined;
  const nav = /** @type {HTMLElement | null | undefined} */ (list.parentElement?.querySelector('.pagination'));
  let nextUrl = linkHref(nav, 'a[rel=next]');
  let prevUrl = linkHref(nav, 'a[rel=prev]');
  if (!nav || !(nextUrl || prevUrl)) return { ensureTile: async (index) => tileLink(index) };

  const total = Number(list.dataset.total);
  const indexOf = (link) => Number(/** @type {HTMLElement | null} */ (link)?.dataset.index ?? 0);
  const firstIndex = () => indexOf(list.querySelector('a.media__link'));
  const lastIndex = () => indexOf(list.lastElementChild?.querySelector('a.media__link'));

  // The nav becomes a status line and a "Show more" button (for keyboards and for when
  // the observer does not fire); "Previous" stays for visitors who landed on a later page.
  const where = nav.querySelector('.pagination__where');
  const nextLink = nav.querySelector('a[rel=next]');
  const more = document.createElement('button');
  more.type = 'button';
  more.className = 'button button--ghost button--small';
  more.textContent = t('tiles.showMore');
  if (nextLink) nextLink.replaceWith(more);
  where?.setAttribute('role', 'status');
  if (where instanceof HTMLElement) where.dataset.loadingText = t('tiles.loading');
  const showCount = () => {
    // Tiles only: the timeline puts a month's header between them (views/timeline.ejs).
    if (where)
      where.textContent = t('tiles.showing', { first: firstIndex() + 1, last: firstIndex() + list.querySelectorAll(':scope > .media__item').length, total });
  };
  showCount();

  /** The page being fetched, so the observer, the button and the viewer share one request. */
  let loading = null;
  const observer =
    'IntersectionObserver' in window && nextUrl
      ? new IntersectionObserver(
          (entries) => {
            if (entries.some((e) => e.isIntersecting)) void loadNext();
          },
          { rootMargin: '0px 0px 1200px 0px' },
        )
      : undefined;
  observer?.observe(nav);
  more.addEventListener('click', () => void loadNext());

  /**
   * The tiles of the page at `url`: same template, same markup, so they are moved over as
   * they are, with the page's own neighbour links.
   */
  async function fetchPage(url) {
    const res = await fetch(url, { headers: { Accept: 'text/html' }, credentials: 'same-origin' });
    if (!res.ok) throw new Error(`${url}: ${res.status}`);
    const doc = new DOMParser().parseFromString(await res.text(), 'text/html');
    const tiles = [.../** @type {NodeListOf<HTMLElement>} */ (doc.querySelectorAll('#media > .media__item'))].map((li) => document.adoptNode(li));
    return { tiles, next: linkHref(doc, '.pagination a[rel=next]'), prev: linkHref(doc, '.pagination a[rel=prev]') };
  }

  /** @returns {Promise<boolean>} whether the next page was added */
  function loadNext() {
    if (loading) return loading.then(() => loadNext());
    if (!nextUrl) return Promise.resolve(false);
    loading = addNext().finally(() => {
      loading = null;
    });
    return loading;
  }

  async function addNext() {
    nav.dataset.loading = '';
    let failed = false;
    try {
      const page = await fetchPage(nextUrl);
      list.append(...page.tiles);
      onAdded(page.tiles);
      nextUrl = page.next;
      showCount();
    } catch {
      failed = true;
    } finally {
      delete nav.dataset.loading;
    }
    if (failed) {
      // No automatic retry (it would hammer a failing server while the end is in view).
      if (where) where.textContent = t('tiles.loadFailed');
      more.textContent = t('tiles.tryAgain');
      return false;
    }
    if (!nextUrl) {
      observer?.disconnect();
      more.remove();
      return true;
    }
    more.textContent = t('tiles.showMore');
    // Observers report changes only: when the end is still in view, look again.
    observer?.unobserve(nav);
    observer?.observe(nav);
    return true;
  }

  /**
   * The page before the first one shown (a visitor who landed on `?page=3` and went back to
   * page 1 in the viewer), put in front of it; the "Previous" link then points further back.
   * @returns {Promise<boolean>} whether it was added
   */
  function loadPrevious() {
    if (loading) return loading.then(() => loadPrevious());
    if (!prevUrl) return Promise.resolve(false);
    loading = fetchPage(prevUrl)
      .then((page) => {
        list.prepend(...page.tiles);
        onAdded(page.tiles);
        prevUrl = page.prev;
        const prevLink = /** @type {HTMLAnchorElement | null} */ (nav.querySelector('a[rel=prev]'));
        if (prevLink && prevUrl) prevLink.href = prevUrl;
        else prevLink?.remove();
        showCount();
        return true;
      })
      .catch(() => false)
      .finally(() => {
        loading = null;
      });
    return loading;
  }

  return {
    async ensureTile(index) {
      if (!Number.isInteger(index) || index < 0 || index >= total) return undefined;
      for (;;) {
        const link = tileLink(index);
        if (link) return link;
        const added = index > lastIndex() ? await loadNext() : index < firstIndex() ? await loadPrevious() : false;
        if (!added) return tileLink(index);
      }
    },
  };
}
