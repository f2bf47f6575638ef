// Loads the album's next page into the list as the visitor nears the end. The server's
// page links stay the fallback: without JavaScript (or IntersectionObserver) they just work.

/**
 * The address of the first `selector` link (the server's "next page" link) under `root`.
 * @param {ParentNode | null | undefined} root
 * @param {string} selector
 */
function linkHref(root, selector) {
  return /** @type {HTMLAnchorElement | null | undefined} */ (root?.querySelector(selector))?.href;
}

/**
 * @param {HTMLElement} list the #media list
 * @param {{ onAdded: (tiles: HTMLElement[]) => void }} hooks
 */
export function initInfiniteScroll(list, { onAdded }) {
  const nav = /** @type {HTMLElement | null | undefined} */ (list.parentElement?.querySelector('.pagination'));
  let nextUrl = linkHref(nav, 'a[rel=next]');
  if (!nav || !nextUrl || !('IntersectionObserver' in window)) return;

  const total = Number(list.dataset.total);
  const firstIndex = () => Number(/** @type {HTMLElement | null} */ (list.querySelector('a.media__link'))?.dataset.index ?? 0);

  // The nav becomes a status line and a "Show more" button (for keyboards and for when
  // the observer does not fire); "Previous" stays for visitors who landed on a later page.
  const where = nav.querySelector('.pagination__where');
  const nextLink = nav.querySelector('a[rel=next]');
  const more = document.createElement('button');
  more.type = 'button';
  more.className = 'button button--ghost button--small';
  more.textContent = 'Show more';
  nextLink?.replaceWith(more);
  where?.setAttribute('role', 'status');
  const showCount = () => {
    if (where) where.textContent = `Showing ${firstIndex() + 1}–${firstIndex() + list.children.length} of ${total}`;
  };
  showCount();

  let busy = false;
  const observer = new IntersectionObserver(
    (entries) => {
      if (entries.some((e) => e.isIntersecting)) void loadNext();
    },
    { rootMargin: '0px 0px 1200px 0px' },
  );
  observer.observe(nav);
  more.addEventListener('click', () => void loadNext());

  async function loadNext() {
    if (busy || !nextUrl) return;
    busy = true;
    nav.dataset.loading = '';
    let failed = false;
    try {
      const res = await fetch(nextUrl, { headers: { Accept: 'text/html' }, credentials: 'same-origin' });
      if (!res.ok) throw new Error(`${nextUrl}: ${res.status}`);
      const doc = new DOMParser().parseFromString(await res.text(), 'text/html');
      // Same template, same markup: the tiles are moved over as they are.
      const tiles = [.../** @type {NodeListOf<HTMLElement>} */ (doc.querySelectorAll('#media > .media__item'))].map((li) => document.adoptNode(li));
      list.append(...tiles);
      onAdded(tiles);
      nextUrl = linkHref(doc, '.pagination a[rel=next]');
      showCount();
    } catch {
      failed = true;
    } finally {
      busy = false;
      delete nav.dataset.loading;
    }
    if (failed) {
      // No automatic retry (it would hammer a failing server while the end is in view).
      if (where) where.textContent = 'Could not load more photos.';
      more.textContent = 'Try again';
      return;
    }
    if (!nextUrl) {
      observer.disconnect();
      more.remove();
      return;
    }
    more.textContent = 'Show more';
    // Observers report changes only: when the end is still in view, look again.
    observer.unobserve(nav);
    observer.observe(nav);
  }
}
