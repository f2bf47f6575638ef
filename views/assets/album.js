// The album page's entry script. Everything here is an enhancement: without it the page is
// a list of links to the originals with plain page links.

// A share link's token has been added to the cookie by the server: take it out of the
// address bar so it is not bookmarked, shared on or leaked through the history.
const url = new URL(window.location.href);
if (url.searchParams.has('token')) {
  url.searchParams.delete('token');
  window.history.replaceState(window.history.state, '', url.pathname + url.search + url.hash);
}

const list = document.getElementById('media');
if (list) initAlbum(list);

function initAlbum(list) {
  // Other modules are loaded by their versioned URLs: /assets is cached for a year, and a
  // plain relative import would keep an old copy after a deploy.
  const assets = JSON.parse(list.dataset.assets ?? '{}');
  applyAspectRatios(list);

  const items = import(assets.albumItems).then(({ AlbumItems }) => new AlbumItems(list));
  void Promise.all([items, import(assets.infiniteScroll)]).then(([albumItems, { initInfiniteScroll }]) =>
    initInfiniteScroll(list, {
      onAdded(tiles) {
        applyAspectRatios(list, tiles);
        albumItems.addFromDom(tiles);
      },
    }),
  );

  // The lightbox (PhotoSwipe and the overlays) loads on first use, or at once for a deep link.
  let lightbox;
  const lightboxReady = () =>
    (lightbox ??= Promise.all([items, import(assets.lightbox)]).then(([albumItems, { createLightbox }]) =>
      createLightbox({ list, items: albumItems, assets }),
    ));

  // Listening from the start: a click while the modules load still opens the lightbox.
  list.addEventListener('click', (event) => {
    const link = event.target instanceof Element ? event.target.closest('a.media__link') : null;
    // Ctrl/Cmd/Shift-click and middle-click keep their usual meaning: open the original.
    if (!link || event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    lightboxReady().then(
      (lb) => lb.open(Number(link.dataset.index)),
      () => window.location.assign(link.href), // no lightbox: the link does what it says
    );
  });
  const openFromHash = async () => {
    if (new URLSearchParams(window.location.hash.slice(1)).has('photo')) (await lightboxReady()).openFromHash();
  };
  window.addEventListener('hashchange', () => void openFromHash());
  void openFromHash();
  // `?` shows the key help on the album page too; once the lightbox module is loaded, its
  // own key handling (overlays.js) takes over.
  window.addEventListener('keydown', (event) => {
    if (event.key === '?' && !lightbox && !isTyping(event.target)) {
      event.preventDefault();
      void lightboxReady().then((lb) => lb.toggleHelp());
    }
  });
}

/**
 * Justified rows need each tile's aspect ratio as a number in CSS. Browsers with typed
 * `attr()` read it from data-ar themselves; for the others it is set here, through CSSOM
 * (allowed by the CSP, unlike a style attribute).
 */
function applyAspectRatios(root, tiles = root.querySelectorAll('.media__item[data-ar]')) {
  if (window.CSS?.supports?.('x: attr(x type(*))')) return;
  for (const li of tiles) if (li.dataset.ar) li.style.setProperty('--ar', li.dataset.ar);
}

function isTyping(target) {
  return target instanceof HTMLElement && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName));
}
