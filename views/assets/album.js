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
  // The words of the scripts, in the page's language (views/assets/strings.js): handed to each module.
  /** @type {Promise<typeof import('./strings.js')>} */
  const strings = import(assets.strings);
  applyAspectRatios(list);
  const prepareTiles = tilePreparer(assets, strings);
  prepareTiles(list.querySelectorAll('.media__item'));

  const items = import(assets.albumItems).then(({ AlbumItems }) => new AlbumItems(list));
  /** @type {Promise<import('./infinite-scroll.js').AlbumPages>} */
  const pages = Promise.all([items, import(assets.infiniteScroll), strings]).then(([albumItems, { initInfiniteScroll }, { t }]) =>
    initInfiniteScroll(list, {
      t,
      onAdded(tiles) {
        applyAspectRatios(list, tiles);
        prepareTiles(tiles);
        albumItems.addFromDom(tiles);
      },
    }),
  );

  // Choosing photos to download or share (views/assets/select.js): its button joins the header.
  // Pages of files from many albums (search, timeline) start their own (search-select.js).
  const header = document.querySelector('.album-header');
  if (header && assets.select) {
    void Promise.all([import(assets.select), import(assets.byteSize), strings]).then(([{ initSelect }, { formatBytes }, { t, locale }]) => {
      const album = list.dataset.album ?? '';
      const albumUrl = new URL(`/photos/${album.split('/').map(encodeURIComponent).join('/')}`, window.location.origin);
      initSelect(list, {
        t,
        formatSize: (bytes) => formatBytes(bytes, locale()),
        storageKey: `album:${album}`,
        toolbar: header,
        downloads: list.dataset.downloads !== 'false',
        // The album's own address, never a share link's: it opens only for those who may see
        // the album. One chosen photo opens on it (the viewer's deep link).
        shareUrl: (paths) =>
          paths.length === 1 ? `${albumUrl.href}#photo=${encodeURIComponent(paths[0].slice(paths[0].lastIndexOf('/') + 1))}` : albumUrl.href,
        shareTitle: document.querySelector('h1')?.textContent ?? document.title,
      });
    });
  }

  // The lightbox (PhotoSwipe and the overlays) loads on first use, or at once for a deep link.
  let lightbox;
  const lightboxReady = () =>
    (lightbox ??= Promise.all([items, import(assets.lightbox), strings]).then(([albumItems, { createLightbox }, { t, locale }]) =>
      createLightbox({
        list,
        t,
        locale: locale(),
        items: albumItems,
        assets,
        // Closing returns to the last photo seen, whose page may not be loaded yet.
        ensureTile: (index) => pages.then((p) => p.ensureTile(index)).catch(() => undefined),
      }),
    ));

  // The lightbox's code is fetched ahead of the first tap (a slow phone took 1.5 s to open
  // it): as soon as the page is idle, or when a finger first lands on a tile.
  whenIdle(() => preloadModules(LIGHTBOX_MODULES.map((name) => assets[name])));
  list.addEventListener('pointerdown', (event) => {
    if (event.target instanceof Element && event.target.closest('a.media__link')) void lightboxReady().catch(() => undefined);
  });

  // Listening from the start: a click while the modules load still opens the lightbox.
  list.addEventListener('click', (event) => {
    const link = event.target instanceof Element ? event.target.closest('a.media__link') : null;
    // Ctrl/Cmd/Shift-click and middle-click keep their usual meaning: open the original.
    if (!(link instanceof HTMLAnchorElement) || event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    // The tapped tile shows that something is happening while the lightbox loads.
    link.dataset.opening = '';
    lightboxReady()
      .then(
        (lb) => lb.open(Number(link.dataset.index)),
        () => window.location.assign(link.href), // no lightbox: the link does what it says
      )
      .finally(() => delete link.dataset.opening);
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

/** What the lightbox imports (views/assets/lightbox.js), by their keys in #media's data-assets. */
const LIGHTBOX_MODULES = [
  'lightbox',
  'strings',
  'pswpLightbox',
  'pswp',
  'overlays',
  'exifFormat',
  'livePhoto',
  'slideshow',
  'screenAwake',
  'viewerHistory',
  'viewerToolbar',
  'videoSlides',
];

/**
 * Tiles' placeholders and thumbnails (views/assets/tile-placeholders.js, tile-images.js):
 * a function for the page's tiles and those infinite scroll adds. The thumbnails are
 * watched even when the ThumbHash decoder fails to load.
 * @param {Record<string, string>} assets
 * @param {Promise<typeof import('./strings.js')>} strings
 * @returns {(tiles: Iterable<HTMLElement>) => void}
 */
function tilePreparer(assets, strings) {
  const images = Promise.all([import(assets.tileImages), strings]);
  const placeholders = Promise.all([import(assets.tilePlaceholders), import(assets.thumbhash)]);
  return (tiles) => {
    const batch = [...tiles];
    void placeholders.then(([{ paintPlaceholders }, thumbhash]) => paintPlaceholders(batch, thumbhash)).catch(() => undefined);
    void images.then(([{ watchTileImages }, { t }]) => watchTileImages(batch, t));
  };
}

/**
 * Fetches and compiles modules without running them (`<link rel=modulepreload>`), so a
 * later import of the same URLs only has to evaluate them.
 * @param {string[]} urls
 */
function preloadModules(urls) {
  for (const href of urls) {
    if (!href || document.querySelector(`link[rel=modulepreload][href="${CSS.escape(href)}"]`)) continue;
    const link = document.createElement('link');
    link.rel = 'modulepreload';
    link.href = href;
    document.head.append(link);
  }
}

/** @param {() => void} work */
function whenIdle(work) {
  if ('requestIdleCallback' in window) window.requestIdleCallback(work, { timeout: 3000 });
  else setTimeout(work, 1500);
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
