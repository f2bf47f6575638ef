// The lightbox: PhotoSwipe 5 over the album's whole media list (not only the tiles loaded
// on the page), with videos fitted to the screen and played on arrival, the original photo on
// demand, a deep link per photo (#photo=<file name>) that is also a history entry (Back
// closes the viewer: viewer-history.js), the details and help overlays and a slideshow
// (slideshow.js). Closing returns to the tile of the last photo seen (README "The viewer").

const ICONS = {
  help: 'M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20Zm1 16h-2v-2h2v2Zm2.07-7.75-.9.92C13.45 11.9 13 12.5 13 14h-2v-.5c0-1.1.45-2.1 1.17-2.83l1.24-1.26A2 2 0 1 0 10 8H8a4 4 0 1 1 7.07 2.25Z',
  info: 'M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20Zm1 15h-2v-6h2v6Zm0-8h-2V7h2v2Z',
  original: 'M4 4h6v2H6v4H4V4Zm10 0h6v6h-2V6h-4V4ZM4 14h2v4h4v2H4v-6Zm14 0h2v6h-6v-2h4v-4Z',
  download: 'M11 3h2v9.17l3.59-3.58L18 10l-6 6-6-6 1.41-1.41L11 12.17V3Zm-6 15h14v2H5v-2Z',
};
const icon = (path) => `<svg aria-hidden="true" class="pswp__icn" viewBox="0 0 24 24" width="24" height="24"><path d="${path}"/></svg>`;

/** Size used until a photo's real one is known: PhotoSwipe needs one to lay the slide out. */
const FALLBACK = { image: [1600, 1200], video: [1280, 720] };

/**
 * @param {object} deps
 * @param {HTMLElement} deps.list the #media list
 * @param {import('./album-items.js').AlbumItems} deps.items
 * @param {Record<string, string>} deps.assets versioned module URLs
 * @param {(index: number) => Promise<HTMLAnchorElement | undefined>} [deps.ensureTile] the tile
 *   of a photo, its page of the album loaded first when needed (infinite-scroll.js)
 */
export async function createLightbox({ list, items, assets, ensureTile = async (index) => tileLink(list, index) }) {
  const [
    { default: PhotoSwipeLightbox },
    { createOverlays, trapTab },
    format,
    { createLivePhotos },
    { createSlideshow },
    { createViewerHistory },
    { fetchWhenAvailable },
  ] = await Promise.all([
    // Versioned URLs (views/album.ejs), typed by the modules they name.
    /** @type {Promise<typeof import('photoswipe/lightbox')>} */ (import(assets.pswpLightbox)),
    /** @type {Promise<typeof import('./overlays.js')>} */ (import(assets.overlays)),
    /** @type {Promise<typeof import('./exif-format.js')>} */ (import(assets.exifFormat)),
    /** @type {Promise<typeof import('./live-photo.js')>} */ (import(assets.livePhoto)),
    /** @type {Promise<typeof import('./slideshow.js')>} */ (import(assets.slideshow)),
    /** @type {Promise<typeof import('./viewer-history.js')>} */ (import(assets.viewerHistory)),
    // The page has loaded it already, for its tiles: no request of its own.
    /** @type {Promise<typeof import('./tile-images.js')>} */ (import(assets.tileImages)),
  ]);
  const cropped = list.dataset.style === 'grid';
  /** Width of the thumbnail shown here (the server's media catalogue puts it on #media): wider photos have their original offered. */
  const largeWidth = Number(list.dataset.lightboxWidth);
  /** Indices shown from the original file instead of the large thumbnail. */
  const fullResolution = new Set();

  const lightbox = new PhotoSwipeLightbox({
    pswpModule: () => /** @type {Promise<typeof import('photoswipe')>} */ (import(assets.pswp)),
    // Only a length: the slides themselves come from the itemData filter below.
    dataSource: /** @type {import('photoswipe').DataSource} */ (/** @type {unknown} */ ({ length: items.total })),
    preload: [1, 2],
    bgOpacity: 1,
    showHideAnimationType: 'zoom',
    imageClickAction: 'zoom-or-close',
    tapAction: 'toggle-controls',
    closeTitle: 'Close (Esc)',
    zoomTitle: 'Zoom (z)',
    arrowPrevTitle: 'Previous (←)',
    arrowNextTitle: 'Next (→)',
    errorMsg: 'This file could not be loaded.',
    // Focus goes back to the tile of the last photo seen, not to the one that opened it (below).
    returnFocus: false,
  });
  const pswp = () => lightbox.pswp;
  const current = () => (pswp() ? items.get(pswp().currIndex) : undefined);

  // The slideshow: its own module (button, `s`, interval, wake lock, fullscreen). Made before
  // the overlays, so that its key listener sees every key first (any key pauses it).
  createSlideshow({ lightbox, items, currentVideo: () => videoIn(pswp()?.currSlide?.content?.element) });

  const overlays = createOverlays({
    format,
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
    message.textContent = 'Loading…';
    void fetchWhenAvailable(url, {
      maxAttempts: SLIDE_ATTEMPTS,
      onBusy: () => {
        message.textContent = 'The server is busy: trying again…';
      },
    }).then((outcome) => {
      const open = pswp();
      if (outcome === 'available' && open && !open.isDestroying) {
        remade.set(index, (remade.get(index) ?? 0) + 1);
        open.refreshSlideContent(index);
      } else message.textContent = open?.options.errorMsg ?? 'This file could not be loaded.';
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
      return { html: '<div class="pswp__loading-slide">Loading…</div>' };
    }
    const [fw, fh] = FALLBACK[item.kind] ?? FALLBACK.image;
    const width = item.width ?? fw;
    const height = item.height ?? (item.width ? Math.round((fw * item.height) / item.width) : fh);
    // The tile, for the zoom animation from and back to it (absent for items off the page).
    const element = tileLink(list, index);
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
    if (fullResolution.has(index)) return { ...base, src: item.full };
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

  // --- Videos: a custom content type, a <video controls playsinline> with the large
  // thumbnail as poster and the video's <source>s in the page's order (the original, the copy
  // made for browsers that cannot play it: server/public/pages/video-sources.ts). PhotoSwipe
  // sizes and places the frame around it like an image.
  lightbox.on('contentLoad', (event) => {
    const { content } = event;
    if (content.type !== 'video') return;
    event.preventDefault();
    if (content.element) return;
    // A custom content type may use any element (PhotoSwipe's types name only its own two).
    const data = /** @type {VideoSlide} */ (/** @type {unknown} */ (content.data));
    const frame = createVideoFrame(data, () => pswp()?.currSlide?.content?.element === frame);
    content.element = /** @type {HTMLDivElement} */ (frame);
    content.state = 'loaded';
    content.onLoaded();
  });
  lightbox.on('contentDestroy', ({ content }) => stopWatching(content.element));
  lightbox.addFilter('isContentZoomable', (zoomable, content) => (content.type === 'video' ? false : zoomable));
  lightbox.on('contentDeactivate', ({ content }) => videoIn(content.element)?.pause());
  // A video fills the screen like a photo, keeping its shape: PhotoSwipe never enlarges
  // content past its own size (a 640×360 clip stayed a small box on a 1440×900 screen), and a
  // video, which is not zoomable, has one zoom level: the one that fits.
  lightbox.on('zoomLevelsUpdate', ({ zoomLevels, slideData }) => {
    const { elementSize: size, panAreaSize: area } = zoomLevels;
    if (slideData.type !== 'video' || !size?.x || !size?.y || !area) return;
    const fit = Math.min(area.x / size.x, area.y / size.y);
    Object.assign(zoomLevels, { fit, fill: fit, vFill: fit, initial: fit, secondary: fit, max: fit, min: fit });
  });
  lightbox.on('pointerDown', (event) => {
    // Leave the bottom of a video (its controls: seek bar, volume) to the video itself.
    const target = event.originalEvent.target;
    if (!(target instanceof HTMLVideoElement)) return;
    const rect = target.getBoundingClientRect();
    if (event.originalEvent.clientY > rect.bottom - 64) event.preventDefault();
  });

  // --- The original on demand: a button, or zooming in past what the thumbnail holds.
  function showOriginal(index) {
    const item = items.get(index);
    if (item?.kind !== 'image' || fullResolution.has(index)) return;
    fullResolution.add(index);
    const content = pswp()?.currSlide?.index === index ? pswp().currSlide.content : undefined;
    const img = content?.element;
    if (img instanceof HTMLImageElement) {
      // Swapped in place, so the zoom level stays; the thumbnail shows until the original arrives.
      // `full` is the original, or for a photo browsers cannot display (HEIC) a full-size JPEG of it.
      content.data.src = item.full;
      delete content.data.srcset;
      img.removeAttribute('srcset');
      img.src = item.full;
    }
    updateButtons();
  }
  /** False through a "no downloads" share link (docs/api.md#share-links): no original, no download button. */
  const downloads = list.dataset.downloads !== 'false';
  const needsOriginal = (item) => downloads && item?.kind === 'image' && (item.width === null || item.width > largeWidth);
  lightbox.on('zoomPanUpdate', ({ slide }) => {
    const item = items.get(slide.index);
    if (!slide.isActive || !needsOriginal(item) || slide.currZoomLevel <= slide.zoomLevels.initial * 1.01) return;
    if (slide.currZoomLevel * slide.width * (window.devicePixelRatio || 1) > largeWidth * 1.1) showOriginal(slide.index);
  });

  // --- Buttons in the top bar, and a caption.
  lightbox.on('uiRegister', () => {
    const { ui, element } = pswp();
    // PhotoSwipe's root is a dialog without a name: screen readers announce this one on opening.
    element.setAttribute('aria-label', list.dataset.viewerName ?? 'Photo viewer');
    element.setAttribute('aria-modal', 'true');
    ui.registerElement({
      name: 'help-button',
      order: 8,
      isButton: true,
      title: 'Keyboard shortcuts (?)',
      html: icon(ICONS.help),
      onClick: () => overlays.toggleHelp(),
    });
    ui.registerElement({
      name: 'info-button',
      order: 9,
      isButton: true,
      title: 'Details (i)',
      html: icon(ICONS.info),
      onInit: (el) => el.setAttribute('aria-pressed', 'false'),
      onClick: () => overlays.toggleExif(),
    });
    ui.registerElement({
      name: 'original-button',
      order: 11,
      isButton: true,
      title: 'View at full resolution',
      html: icon(ICONS.original),
      onClick: () => showOriginal(pswp().currIndex),
    });
    ui.registerElement({
      name: 'download-button',
      order: 12,
      isButton: true,
      tagName: 'a',
      title: 'Download the original',
      html: icon(ICONS.download),
      onInit: (el) => el.setAttribute('download', ''),
    });
    ui.registerElement({ name: 'caption', order: 9, appendTo: 'root', onInit: (el) => el.setAttribute('aria-live', 'polite') });
  });

  function updateButtons() {
    const root = pswp()?.element;
    const item = current();
    if (!root) return;
    const original = /** @type {HTMLButtonElement | null} */ (root.querySelector('.pswp__button--original-button'));
    if (original) original.hidden = !needsOriginal(item) || fullResolution.has(pswp().currIndex);
    const download = /** @type {HTMLAnchorElement | null} */ (root.querySelector('.pswp__button--download-button'));
    if (download) {
      download.hidden = !downloads;
      if (item) download.href = item.original;
      else download.removeAttribute('href');
    }
    const caption = root.querySelector('.pswp__caption');
    // The owner's caption, then when it was taken in the visitor's format; the file name is in
    // the details panel.
    if (caption) caption.textContent = [item?.caption, format.takenAt(item?.taken)].filter(Boolean).join(' · ');
  }

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
    updateButtons();
    overlays.follow(item);
    setNeighboursInert(p);
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
    if (!tileLink(list, index)) tileTimer = setTimeout(() => void ensureTile(index), TILE_AHEAD_MS);
  }
  lightbox.addFilter('thumbEl', (thumb, _data, index) => (thumb?.isConnected ? thumb : tileLink(list, index)?.querySelector('img')));
  /** @param {number} index */
  function returnToTile(index) {
    clearTimeout(tileTimer);
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
  createLivePhotos({ lightbox, items });

  lightbox.init();

  function open(index) {
    if (pswp()) pswp().goTo(index);
    else lightbox.loadAndOpen(index);
  }

  return {
    open,
    toggleHelp: () => overlays.toggleHelp(),
    /** Opens the photo named in `#photo=`; a name the album does not have is dropped. */
    async openFromHash() {
      const name = new URLSearchParams(window.location.hash.slice(1)).get('photo');
      if (!name) return;
      if (current()?.name === name) return;
      const index = await items.indexOfName(name);
      if (index >= 0) open(index);
      else viewerHistory.drop();
    },
  };
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

/**
 * Plays a video the visitor arrives on; a browser that refuses to start it with sound
 * without a tap (autoplay policies) gets it muted, which every browser allows. The visitor
 * can unmute it with its controls.
 * @param {HTMLVideoElement} video
 */
function autoplay(video) {
  video.play().catch((err) => {
    if (err?.name !== 'NotAllowedError' || video.muted) return;
    video.muted = true;
    void video.play().catch(() => {});
  });
}

/** @typedef {{ sources: { src: string, type?: string }[], poster: string, alt: string }} VideoSlide */

/** How often a viewer waiting for a video's web copy asks whether it is made. */
const PREPARING_POLL_MS = 4000;
/** Timers of frames waiting for their copy, so a slide that goes away stops asking. */
const watchers = new WeakMap();

/**
 * The frame of a video slide: the <video> with its sources, and a notice over the poster for
 * when no source plays yet (the web copy is being made: /api/web-video answers 503 until it
 * is), never a dead player. The notice offers a retry and asks by itself every few seconds.
 * @param {VideoSlide} data
 * @param {() => boolean} isCurrent whether the frame is on the current slide: it plays once it can
 */
function createVideoFrame(data, isCurrent) {
  const frame = document.createElement('div');
  frame.className = 'pswp__video-frame';
  const video = document.createElement('video');
  video.className = 'pswp__video';
  video.controls = true;
  video.playsInline = true;
  video.preload = 'metadata';
  video.poster = data.poster;
  video.setAttribute('aria-label', data.alt);
  const notice = document.createElement('div');
  notice.className = 'pswp__video-notice';
  notice.hidden = true;
  notice.style.backgroundImage = `url("${data.poster.replace(/["\\]/g, '')}")`;
  const message = document.createElement('p');
  const retry = document.createElement('button');
  retry.type = 'button';
  retry.className = 'button pswp__video-retry';
  retry.textContent = 'Retry';
  notice.append(message, retry);
  frame.append(video, notice);

  const copy = data.sources.find((s) => s.src.startsWith('/api/web-video'));
  const load = () => {
    stopWatching(frame);
    notice.hidden = true;
    video.hidden = false;
    video.replaceChildren(
      ...data.sources.map(({ src, type }) => {
        const source = document.createElement('source');
        source.src = src;
        if (type) source.type = type;
        return source;
      }),
    );
    // Source errors do not bubble; the last one failing means none of them played.
    video.lastElementChild?.addEventListener('error', () => void explain(), { once: true });
    video.load();
  };
  /** Says why nothing plays, and keeps asking while the copy is being made. */
  const explain = async () => {
    const state = copy ? await copyState(copy.src) : 'failed';
    // Playing by now (the browser tried a source again meanwhile): nothing to explain.
    if (video.readyState >= HTMLMediaElement.HAVE_CURRENT_DATA) return;
    if (!frame.isConnected && state !== 'preparing') return;
    message.textContent =
      state === 'ready'
        ? 'The video is ready.'
        : state === 'preparing'
          ? 'This video is being prepared for your browser'
          : 'This video cannot be played in this browser.';
    notice.hidden = false;
    video.hidden = true;
    if (state === 'ready') load();
    else if (state === 'preparing')
      watchers.set(
        frame,
        setTimeout(() => void explain(), PREPARING_POLL_MS),
      );
  };
  // However it came to play (a retry, or the browser trying the source again by itself once
  // the copy was made), a video with frames puts the notice away.
  video.addEventListener('loadeddata', () => {
    stopWatching(frame);
    notice.hidden = true;
    video.hidden = false;
    // A copy that became ready (or a retry) while the visitor waits on this slide.
    if (video.paused && !video.ended && video.currentTime === 0 && isCurrent()) autoplay(video);
  });
  retry.addEventListener('click', load);
  load();
  return frame;
}

/** 'preparing' while /api/web-video answers 503, 'ready' once it answers 200, 'failed' otherwise. */
async function copyState(url) {
  try {
    const res = await fetch(url, { method: 'HEAD', credentials: 'same-origin' });
    return res.ok ? 'ready' : res.status === 503 ? 'preparing' : 'failed';
  } catch {
    // Offline for a moment: ask again later.
    return 'preparing';
  }
}

function stopWatching(frame) {
  if (!frame) return;
  clearTimeout(watchers.get(frame));
  watchers.delete(frame);
}

/** Tries of a slide the server is busy for before it says it cannot be loaded (about 40 s at 1 s Retry-After). */
const SLIDE_ATTEMPTS = 5;

/** The <video> of a slide's element, if it is a video slide. */
function videoIn(element) {
  return element instanceof HTMLElement ? element.querySelector('video') : null;
}

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
