// The lightbox: PhotoSwipe 5 over the album's whole media list (not only the tiles loaded
// on the page), with a deep link per photo (#photo=<file name>) that is also a history entry
// (Back closes the viewer: viewer-history.js). Closing returns to the tile of the last photo
// seen (README "The viewer"). This file sets PhotoSwipe up and follows the slide; its parts
// live beside it: the top bar, caption and original on demand (viewer-toolbar.js), video
// slides (video-slides.js), the details and help overlays (overlays.js), the slideshow
// (slideshow.js) and Live Photos (live-photo.js).

/** Size used until a photo's real one is known: PhotoSwipe needs one to lay the slide out. */
const FALLBACK = { image: [1600, 1200], video: [1280, 720] };

/**
 * @param {object} deps
 * @param {HTMLElement} deps.list the #media list
 * @param {import('./album-items.js').AlbumItems} deps.items
 * @param {Record<string, string>} deps.assets versioned module URLs
 * @param {(index: number) => Promise<HTMLAnchorElement | undefined>} [deps.ensureTile] the tile
 *   of a photo, its page of the album loaded first when needed (infinite-scroll.js)
 * @param {import('./strings.js').Translate} deps.t the page's words (views/assets/strings.js)
 * @param {string} [deps.locale] the page's locale, for dates
 */
export async function createLightbox({ list, items: albumItems, assets, t, locale, ensureTile = async (index) => tileLink(list, index) }) {
  const [
    { default: PhotoSwipeLightbox },
    { createOverlays, trapTab },
    format,
    { createLivePhotos },
    { createSlideshow },
    { screenAwake },
    { createViewerHistory },
    { createViewerToolbar },
    { addVideoSlides, autoplay, videoIn },
    { fetchWhenAvailable },
  ] = await Promise.all([
    // Versioned URLs (views/album.ejs), typed by the modules they name.
    /** @type {Promise<typeof import('photoswipe/lightbox')>} */ (import(assets.pswpLightbox)),
    /** @type {Promise<typeof import('./overlays.js')>} */ (import(assets.overlays)),
    /** @type {Promise<typeof import('./exif-format.js')>} */ (import(assets.exifFormat)),
    /** @type {Promise<typeof import('./live-photo.js')>} */ (import(assets.livePhoto)),
    /** @type {Promise<typeof import('./slideshow.js')>} */ (import(assets.slideshow)),
    /** @type {Promise<typeof import('./screen-awake.js')>} */ (import(assets.screenAwake)),
    /** @type {Promise<typeof import('./viewer-history.js')>} */ (import(assets.viewerHistory)),
    /** @type {Promise<typeof import('./viewer-toolbar.js')>} */ (import(assets.viewerToolbar)),
    /** @type {Promise<typeof import('./video-slides.js')>} */ (import(assets.videoSlides)),
    // The page has loaded it already, for its tiles: no request of its own.
    /** @type {Promise<typeof import('./tile-images.js')>} */ (import(assets.tileImages)),
  ]);
  const cropped = list.dataset.style === 'grid';
  // Right to left (Arabic): the next photo is to the left, so the arrows, the keys and the
  // swipes go the other way. PhotoSwipe lays slides out left to right by index: the viewer
  // numbers its slides in that order (`items` below), the album's order reversed.
  const rtl = document.documentElement.dir === 'rtl';
  const items = slidesOf(albumItems, rtl);

  const lightbox = new PhotoSwipeLightbox({
    pswpModule: () => /** @type {Promise<typeof import('photoswipe')>} */ (import(assets.pswp)),
    // Only a length: the slides themselves come from the itemData filter below.
    dataSource: /** @type {import('photoswipe').DataSource} */ (/** @type {unknown} */ ({ length: items.total })),
    preload: [1, 2],
    bgOpacity: 1,
    showHideAnimationType: 'zoom',
    imageClickAction: 'zoom-or-close',
    tapAction: 'toggle-controls',
    closeTitle: t('viewer.close'),
    zoomTitle: t('viewer.zoom'),
    // The arrow on the left goes to the slide on the left: the next photo, right to left.
    arrowPrevTitle: t(rtl ? 'viewer.next' : 'viewer.previous'),
    arrowNextTitle: t(rtl ? 'viewer.previous' : 'viewer.next'),
    errorMsg: t('viewer.loadFailed'),
    // Focus goes back to the tile of the last photo seen, not to the one that opened it (below).
    returnFocus: false,
  });
  const pswp = () => lightbox.pswp;
  const current = () => (pswp() ? items.get(pswp().currIndex) : undefined);

  // The slideshow: its own module (button, `s`, interval, wake lock, fullscreen). Made before
  // the overlays, so that its key listener sees every key first (any key pauses it).
  createSlideshow({ lightbox, items, t, screenAwake, currentVideo: () => videoIn(pswp()?.currSlide?.content?.element) });

  const overlays = createOverlays({
    format,
    t,
    locale,
    isLightboxOpen: () => Boolean(pswp()),
    currentItem: current,
    onExifToggle: (open) => pswp()?.element?.querySelector('.pswp__button--info-button')?.setAttribute('aria-pressed', String(open)),
  });

  // --- Slide data: the whole album, fetched a page at a time as the visitor gets near it.
  lightbox.addFilter('numItems', () => items.total);
  lightbox.addFilter('itemData', (_data, index) => slideData(index));

  // A slide the server was too busy for (a cold large size past the viewer's queue answers 503
  // with Retry-After under a crowd) is asked again as tiles are (tile-images.js), saying so
  // meanwhile, and shown once it has come; one that cannot be shown keeps PhotoSwipe's message.
  // The filter runs while the content still holds the <img> that failed: its currentSrc is the
  // size the browser chose from the srcset.
  /** Slides made again after a busy answer, by index: twice at most, so a photo whose every try fails ends. */
  const remade = new Map();
  lightbox.addFilter('contentErrorElement', (message, content) => {
    const img = content.element;
    const url = img instanceof HTMLImageElement ? img.currentSrc || img.src : '';
    const index = content.index;
    if (!url || (remade.get(index) ?? 0) >= 2) return message;
    message.textContent = t('viewer.loading');
    void fetchWhenAvailable(url, {
      maxAttempts: SLIDE_ATTEMPTS,
      onBusy: () => {
        message.textContent = t('viewer.busy');
      },
    }).then((outcome) => {
      const open = pswp();
      if (outcome === 'available' && open && !open.isDestroying) {
        remade.set(index, (remade.get(index) ?? 0) + 1);
        open.refreshSlideContent(index);
      } else message.textContent = open?.options.errorMsg ?? t('viewer.loadFailed');
    });
    return message;
  });

  /**
   * @param {number} index
   * @returns {import('photoswipe').SlideData}
   */
  function slideData(index) {
    const item = items.get(index);
    if (!item) {
      void items.ensure(index).then(
        () => {
          pswp()?.refreshSlideContent(index);
          if (pswp()?.currIndex === index) onChange();
        },
        () => {},
      );
      const loading = document.createElement('div');
      loading.className = 'pswp__loading-slide';
      loading.textContent = t('viewer.loading');
      return { html: loading.outerHTML };
    }
    const [fw, fh] = FALLBACK[item.kind] ?? FALLBACK.image;
    const width = item.width ?? fw;
    const height = item.height ?? (item.width ? Math.round((fw * item.height) / item.width) : fh);
    // The tile, for the zoom animation from and back to it (absent for items off the page).
    const element = tileLink(list, items.toAlbum(index));
    const base = {
      name: item.name,
      alt: item.alt,
      width,
      height,
      // The placeholder: what the tile already shows (WebP or JPEG, any size), so opening costs no extra request.
      msrc: element?.querySelector('img')?.currentSrc || item.src,
      element,
      thumbCropped: cropped,
    };
    if (item.kind === 'video') {
      const sources = item.sources?.length ? item.sources : [{ src: item.original }];
      return { ...base, type: 'video', src: item.original, sources, poster: item.large };
    }
    if (toolbar.showsOriginal(index)) return { ...base, src: item.full };
    return { ...base, src: item.large, srcset: displaySrcset(takesWebp() && item.webpSrcset ? item.webpSrcset : item.srcset, item.width) };
  }

  /**
   * Whether the slides may use the WebP thumbnails. PhotoSwipe shows a plain <img>, with no
   * <picture> to let the browser choose, so the lightbox asks: first the tiles (a tile whose
   * <picture> chose the WebP source is the browser's own answer), else whether a canvas encodes
   * WebP (every browser that encodes it decodes it; Safari before 17 decodes but does not
   * encode, and keeps the JPEGs, which is only a few more bytes).
   */
  let webp;
  function takesWebp() {
    if (webp !== undefined) return webp;
    const shown = [...list.querySelectorAll('.media__link img')].map((img) => /** @type {HTMLImageElement} */ (img).currentSrc).filter(Boolean);
    if (shown.length) {
      webp = shown.some((src) => src.includes('format=webp'));
    } else {
      const canvas = document.createElement('canvas');
      canvas.width = 1;
      canvas.height = 1;
      webp = canvas.toDataURL('image/webp').startsWith('data:image/webp');
    }
    return webp;
  }

  // --- Videos: a slide type of their own (video-slides.js).
  addVideoSlides(lightbox, t);

  // --- The top bar, its caption and the original on demand (viewer-toolbar.js).
  const toolbar = createViewerToolbar({ lightbox, items, list, overlays, format, t, locale });

  // --- Following the slide: history entry, neighbours' data, buttons, details, the
  // neighbours taken out of the focus order, the video played.
  const viewerHistory = createViewerHistory({ onBack: () => closeWhenOpen() });
  function onChange() {
    const p = pswp();
    if (!p) return;
    const item = items.get(p.currIndex);
    if (item) viewerHistory.show(item.name);
    // Fetch the pages of the slides PhotoSwipe will want next, before it asks.
    for (const step of [-3, 3]) void items.ensure((p.currIndex + step + items.total) % items.total).catch(() => {});
    toolbar.update();
    overlays.follow(item);
    setNeighboursInert(p);
    // PhotoSwipe's counter says the slide's number, written after this listener: the photo's place in the album it must be.
    if (rtl) queueMicrotask(() => showPlace(p));
    const video = videoIn(p.currSlide?.content?.element);
    if (video) autoplay(video);
    loadTileSoon(p.currIndex);
  }
  lightbox.on('change', onChange);
  // Tab goes round the viewer's buttons and the current slide (the others are inert), never
  // out to the album page behind it.
  lightbox.on('keydown', ({ originalEvent: event }) => {
    const root = pswp()?.element;
    if (event.key === 'Tab' && root) trapTab(root, event);
  });
  // Reduced motion (the system's setting): PhotoSwipe leaves out its zoom and its opening and
  // closing animations itself, but a swipe still glides on to the next slide: here it lands.
  lightbox.on('afterInit', () => {
    if (!window.matchMedia('(prefers-reduced-motion: reduce)').matches) return;
    const scroll = pswp().mainScroll;
    const move = scroll.moveIndexBy.bind(scroll);
    scroll.moveIndexBy = (diff, _animate, velocityX) => move(diff, false, velocityX);
  });
  // PhotoSwipe takes keys and gestures once its opening animation is over: say so on the root.
  lightbox.on('openingAnimationEnd', () => pswp()?.element?.classList.add('pswp--opened'));
  lightbox.on('close', () => {
    overlays.closeAll();
    videoIn(pswp()?.currSlide?.content?.element)?.pause();
    viewerHistory.leave();
    returnToTile(pswp().currIndex);
  });

  /** Back pressed while the viewer is open; one still opening closes as soon as it can. */
  function closeWhenOpen() {
    const p = pswp();
    if (!p || p.isDestroying) return;
    if (p.opener.isOpen) p.close();
    else p.on('openingAnimationEnd', () => p.close());
  }

  // --- Back to the album where the visitor left it: the last photo seen has its tile
  // scrolled into view (its page loaded first when infinite scroll has not reached it) and
  // focused, and the closing zoom lands on it.
  let tileTimer;
  /** The tile of a photo the visitor rests on is loaded ahead, so closing can zoom back to it. */
  function loadTileSoon(index) {
    clearTimeout(tileTimer);
    const at = items.toAlbum(index);
    if (!tileLink(list, at)) tileTimer = setTimeout(() => void ensureTile(at), TILE_AHEAD_MS);
  }
  lightbox.addFilter('thumbEl', (thumb, _data, index) => (thumb?.isConnected ? thumb : tileLink(list, items.toAlbum(index))?.querySelector('img')));
  /** @param {number} slide */
  function returnToTile(slide) {
    clearTimeout(tileTimer);
    const index = items.toAlbum(slide);
    // Scrolled now, before PhotoSwipe measures the tile for its closing zoom.
    const link = tileLink(list, index);
    if (link) revealTile(link);
    const focus = (tile) => {
      // A page that came late finds the visitor elsewhere (the viewer opened again, a field): left alone.
      if (!tile || (!link && (lightbox.pswp || (document.activeElement && document.activeElement !== document.body)))) return;
      if (!link) revealTile(tile);
      tile.focus({ preventScroll: true });
    };
    lightbox.pswp.on('destroy', () => void (link ? focus(link) : ensureTile(index).then(focus)));
  }

  // --- Live Photos: their own module (the LIVE button, the motion over the still).
  createLivePhotos({ lightbox, items, t });

  lightbox.init();

  /** Opens the photo at `index` in the album's order (a tile's data-index). */
  function open(index) {
    const slide = items.toSlide(index);
    if (pswp()) pswp().goTo(slide);
    else lightbox.loadAndOpen(slide);
  }

  return {
    open,
    toggleHelp: () => overlays.toggleHelp(),
    /** Opens the photo named in `#photo=`; a name the album does not have is dropped. */
    async openFromHash() {
      const name = new URLSearchParams(window.location.hash.slice(1)).get('photo');
      if (!name) return;
      if (current()?.name === name) return;
      const index = await albumItems.indexOfName(name);
      if (index >= 0) open(index);
      else viewerHistory.drop();
    },
  };
}

/**
 * @typedef {object} Slides the album's items as the viewer lays them out, by slide index
 * @property {number} total
 * @property {(slide: number) => any} get
 * @property {(slide: number) => Promise<any>} ensure
 * @property {(slide: number) => number} toAlbum the item's index in the album (a tile's data-index)
 * @property {(index: number) => number} toSlide
 * @property {1 | -1} step from a slide to the one of the album's next item
 */

/**
 * The viewer's slides: the album's items in the order they lie on screen, left to right. In a
 * left-to-right page that is the album's order; right to left, its reverse, so the next photo
 * comes from the left, by the left arrow, the ← key and a swipe to the right.
 * @param {import('./album-items.js').AlbumItems} items
 * @param {boolean} rtl
 * @returns {Slides}
 */
export function slidesOf(items, rtl) {
  const mirror = (i) => (rtl ? items.total - 1 - i : i);
  return {
    get total() {
      return items.total;
    },
    get: (slide) => items.get(mirror(slide)),
    ensure: (slide) => items.ensure(mirror(slide)),
    toAlbum: mirror,
    toSlide: mirror,
    step: rtl ? -1 : 1,
  };
}

/**
 * PhotoSwipe's counter, right to left: the photo's place in the album ("3 / 48"), not its slide's.
 * @param {import('photoswipe').default} pswp
 */
function showPlace(pswp) {
  const counter = pswp.element?.querySelector('.pswp__counter');
  if (counter) counter.textContent = `${pswp.getNumItems() - pswp.currIndex}${pswp.options.indexIndicatorSep}${pswp.getNumItems()}`;
}

/** How long the viewer rests on a photo before its tile's page is loaded behind it. */
const TILE_AHEAD_MS = 400;

/**
 * The tile (link) of the photo at `index`, if its page is on the album page.
 * @param {HTMLElement} list
 * @param {number} index
 * @returns {HTMLAnchorElement | undefined}
 */
function tileLink(list, index) {
  return /** @type {HTMLAnchorElement | null} */ (list.querySelector(`a.media__link[data-index="${index}"]`)) ?? undefined;
}

/** Scrolls a tile to the middle of the window, unless it is already in full view. */
function revealTile(link) {
  const box = link.getBoundingClientRect();
  if (box.top >= 0 && box.bottom <= window.innerHeight) return;
  // At once: the page's smooth scrolling would leave the closing zoom aiming at a moving tile.
  link.scrollIntoView({ block: 'center', behavior: 'instant' });
}

/**
 * The slides next to the current one leave the focus order and the accessibility tree: Tab
 * never walks into a neighbour's video controls. PhotoSwipe keeps three slides, the current
 * one always in the middle holder.
 * @param {import('photoswipe').default} pswp
 */
function setNeighboursInert(pswp) {
  for (const [i, holder] of pswp.mainScroll.itemHolders.entries()) holder.el.inert = i !== 1;
}

/** Tries of a slide the server is busy for before it says it cannot be loaded (about 40 s at 1 s Retry-After). */
const SLIDE_ATTEMPTS = 5;

/**
 * The thumbnail sizes for the lightbox, with widths no larger than the photo's own.
 * @param {string | null | undefined} srcset
 * @param {number | null} width the photo's
 */
function displaySrcset(srcset, width) {
  if (!srcset || !width) return undefined;
  return srcset
    .split(/,\s+/)
    .map((candidate) => {
      const [url, w] = candidate.trim().split(/\s+/);
      return `${url} ${Math.min(parseInt(w, 10), width)}w`;
    })
    .join(', ');
}
