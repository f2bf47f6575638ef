// Live Photos in the lightbox (README "Live Photos"): a "LIVE" button on the slide of a photo
// that has a motion, and the motion played over the still, muted and inline, for as long as
// the visitor asks for it: while the mouse rests on the button or the photo (desktop), or
// while a finger holds the photo (touch, after HOLD_MS). Then the still is back.
//
// PhotoSwipe keeps its gestures: the movie lies over the photo inside its zoom wrapper but
// takes no pointer events, nothing here cancels a pointer event PhotoSwipe sees, and a hold
// ends the moment the finger moves like a swipe or a second finger pinches. Keys are left
// alone (Esc, arrows and the overlays' keys work as before); a motion stops whenever the
// slide changes, zooms, or the lightbox closes.
//
// The movie's sources come in the page's order (server/public/pages/video-sources.ts): an
// iPhone's HEVC original first, typed with its codec, then the H.264 copy the server makes for
// every browser but Safari. A browser skipping a source fires `error` at it and goes on to the
// next, so only the last source failing means nothing plays. The server starts the copy when
// it first reads the movie's size (server/gallery.ts), and /api/web-video answers 503 until it
// is made: a motion asked for before then waits for it.

/** A touch held this long without moving is a press-and-hold, not a tap or a swipe. */
const HOLD_MS = 300;
/** Movement (px) past which a touch is a swipe or a pan, and never a hold. */
const HOLD_SLOP = 10;
/** PhotoSwipe reports a released touch as a tap up to its double-tap delay later (300 ms). */
const TAP_AFTER_HOLD_MS = 700;
/** How often a motion waiting for its copy asks whether it is made, and for how long at most. */
const COPY_POLL_MS = 1000;
const COPY_WAIT_MS = 30_000;
/** The web copy's address (server/core/urls.ts webVideoUrl). */
const WEB_COPY = '/api/web-video?';

const LIVE_ICON =
  '<svg aria-hidden="true" viewBox="0 0 24 24" width="16" height="16"><circle cx="12" cy="12" r="3" fill="currentColor"/><circle cx="12" cy="12" r="6.5" fill="none" stroke="currentColor" stroke-width="1.6"/><circle cx="12" cy="12" r="10" fill="none" stroke="currentColor" stroke-width="1.4" stroke-dasharray="1.6 2.2"/></svg>';

/**
 * @typedef {{ path: string, sources: { src: string, type?: string }[] }} Motion
 * The `motion` of an album item (server/public/pages/media-items.ts MotionView).
 */

/**
 * @param {object} deps
 * @param {import('photoswipe/lightbox').default} deps.lightbox before `init()`
 * @param {import('./lightbox.js').Slides} deps.items the viewer's slides
 * @param {import('./strings.js').Translate} deps.t the page's words
 */
export function createLivePhotos({ lightbox, items, t }) {
  const pswp = () => lightbox.pswp;
  /** @returns {Motion | null} */
  const motionOf = (index) => items.get(index)?.motion ?? null;

  /** The movie on screen, and the slide it plays on. */
  let playing = null;
  /** A touch that may become a hold. */
  let hold = null;
  /** The mouse is over the button or the photo; it has played once for this visit. */
  let hovered = false;
  let playedThisHover = false;
  let suppressTapUntil = 0;

  /** The still of the current slide, when it is a Live Photo seen whole (not zoomed in). */
  function currentStill() {
    const slide = pswp()?.currSlide;
    if (!slide || !motionOf(slide.index)) return undefined;
    const img = slide.content?.element;
    if (!(img instanceof HTMLImageElement)) return undefined;
    if (slide.currZoomLevel > slide.zoomLevels.initial * 1.01) return undefined;
    return { slide, img, motion: motionOf(slide.index) };
  }

  function play() {
    const still = currentStill();
    if (!still || playing?.slide === still.slide) return;
    stop();
    const video = document.createElement('video');
    video.className = 'pswp__live-motion';
    // Muted and inline: what lets every browser start it without a click, and what iOS shows.
    video.muted = true;
    video.defaultMuted = true;
    video.playsInline = true;
    video.disablePictureInPicture = true;
    video.preload = 'auto';
    video.setAttribute('aria-hidden', 'true');
    for (const { src, type } of still.motion.sources) {
      const source = document.createElement('source');
      source.src = src;
      if (type) source.type = type;
      video.append(source);
    }
    // Exactly over the still: the same box in the same zoom wrapper, so it follows the slide.
    video.style.width = still.img.style.width;
    video.style.height = still.img.style.height;
    // Shown once frames come, so a slow start never covers the photo with black.
    video.addEventListener('playing', () => video.classList.add('pswp__live-motion--playing'));
    video.addEventListener('ended', () => stop(video));
    // Capture: a <source>'s error does not bubble. A skipped source is not the end (above).
    video.addEventListener(
      'error',
      (event) => {
        if (event.target === video || event.target === video.lastElementChild) void noSourcePlays(video);
      },
      true,
    );
    still.slide.container.append(video);
    playing = { slide: still.slide, video, motion: still.motion, waiting: false, reloaded: false };
    pswp()?.element?.classList.add('pswp--live-playing');
    start(video);
  }

  function start(video) {
    video.play().catch((err) => {
      // Loading again once the copy is made interrupts a play() still pending: not a failure.
      if (err?.name === 'AbortError') return;
      if (err?.name === 'NotSupportedError') void noSourcePlays(video);
      else stop(video);
    });
  }

  /**
   * No source of the movie plays (its last source failed, or play() says so): when the copy
   * is still being made, the motion waits for it while the visitor still asks for it, and
   * loads again, once; otherwise the still stays.
   */
  async function noSourcePlays(video) {
    const current = playing?.video === video ? playing : undefined;
    if (!current || current.waiting) return;
    if (current.reloaded) return stop(video);
    current.waiting = true;
    const copy = current.motion.sources.find((s) => s.src.startsWith(WEB_COPY));
    const made = copy !== undefined && (await copyMade(copy.src, () => playing === current));
    current.waiting = false;
    if (!made || playing !== current) return stop(video);
    current.reloaded = true;
    video.load();
    start(video);
  }

  /** Back to the still. With `video`, only if that movie is still the one playing. */
  function stop(video) {
    if (!playing || (video && playing.video !== video)) return;
    const { video: current } = playing;
    playing = null;
    current.pause();
    current.remove();
    // Dropping the sources lets the browser let go of the connection and the decoder.
    current.replaceChildren();
    current.load();
    pswp()?.element?.classList.remove('pswp--live-playing');
  }

  function cancelHold() {
    if (hold) clearTimeout(hold.timer);
    hold = null;
  }

  // --- Hover (a mouse): the LIVE button or the photo.
  const isHoverTarget = (target) => {
    if (!(target instanceof Element)) return false;
    if (target.closest('.pswp__button--live-button')) return true;
    const still = currentStill();
    return Boolean(still && target === still.img);
  };

  function onPointerOver(event) {
    if (event.pointerType !== 'mouse' || !isHoverTarget(event.target)) return;
    hovered = true;
    if (!playedThisHover) {
      playedThisHover = true;
      play();
    }
  }

  function onPointerOut(event) {
    if (event.pointerType !== 'mouse' || !hovered || isHoverTarget(event.relatedTarget)) return;
    if (!isHoverTarget(event.target)) return;
    hovered = false;
    playedThisHover = false;
    stop();
  }

  // --- Press-and-hold (touch, pen): on the photo or the button.
  function onPointerDown(event) {
    if (event.pointerType === 'mouse') {
      // A drag or a click to zoom starts from the still, as on any photo.
      if (!(event.target instanceof Element && event.target.closest('.pswp__button--live-button'))) stop();
      return;
    }
    if (!event.isPrimary) {
      // A second finger: a pinch, never a hold.
      cancelHold();
      stop();
      return;
    }
    if (!isHoverTarget(event.target) && !(event.target instanceof Element && event.target.closest('.pswp__zoom-wrap'))) return;
    cancelHold();
    hold = { x: event.clientX, y: event.clientY, id: event.pointerId, timer: setTimeout(play, HOLD_MS) };
  }

  function onPointerMove(event) {
    if (!hold || event.pointerId !== hold.id) return;
    if (Math.hypot(event.clientX - hold.x, event.clientY - hold.y) > HOLD_SLOP) {
      cancelHold();
      stop();
    }
  }

  function onPointerUp(event) {
    if (!hold || event.pointerId !== hold.id) return;
    cancelHold();
    if (playing) {
      // The hold was the gesture: the tap PhotoSwipe reports for it must not toggle the UI.
      suppressTapUntil = performance.now() + TAP_AFTER_HOLD_MS;
      stop();
    }
  }

  // A long press on a photo opens the browser's image menu on touch screens.
  function onContextMenu(event) {
    if (hold || playing) event.preventDefault();
  }

  lightbox.on('uiRegister', () => {
    pswp().ui.registerElement({
      name: 'live-button',
      order: 7,
      isButton: true,
      title: t('viewer.live'),
      html: `<span class="pswp__live-label">${LIVE_ICON}</span>`,
      onInit: (el) => {
        // The badge's word as text, never markup.
        el.querySelector('.pswp__live-label')?.append(t('viewer.liveBadge'));
        el.hidden = true;
        // From the keyboard: Enter or Space plays it once through.
        el.addEventListener('click', () => play());
      },
    });
  });

  lightbox.on('afterInit', () => {
    const root = pswp()?.element;
    if (!root) return;
    root.addEventListener('pointerover', onPointerOver);
    root.addEventListener('pointerout', onPointerOut);
    root.addEventListener('pointerdown', onPointerDown);
    root.addEventListener('pointermove', onPointerMove);
    root.addEventListener('pointerup', onPointerUp);
    root.addEventListener('pointercancel', onPointerUp);
    root.addEventListener('contextmenu', onContextMenu);
  });

  for (const action of ['tapAction', 'imageClickAction', 'doubleTapAction']) {
    lightbox.on(/** @type {'tapAction'} */ (action), (event) => {
      if (performance.now() < suppressTapUntil) event.preventDefault();
    });
  }

  function onChange() {
    cancelHold();
    stop();
    hovered = false;
    playedThisHover = false;
    const p = pswp();
    const button = /** @type {HTMLButtonElement | null} */ (p?.element?.querySelector('.pswp__button--live-button'));
    if (button) button.hidden = !motionOf(p.currIndex);
  }
  lightbox.on('change', onChange);
  // The item's data may arrive after the slide (a page fetched from the API).
  lightbox.on('contentActivate', onChange);
  lightbox.on('zoomPanUpdate', ({ slide }) => {
    if (playing?.slide === slide && slide.currZoomLevel > slide.zoomLevels.initial * 1.01) stop();
  });
  lightbox.on('close', () => {
    cancelHold();
    stop();
  });
}

/**
 * Waits while the copy is being made (503): true once it is there, false when it failed, is
 * not needed (404), took longer than COPY_WAIT_MS, or `wanted` says the visitor moved on.
 * Asked every COPY_POLL_MS with HEAD, a look-up on the server: a motion is a few seconds of
 * video, made in about as long, and the visitor is holding the photo meanwhile.
 * @param {string} url
 * @param {() => boolean} wanted
 */
async function copyMade(url, wanted) {
  const until = performance.now() + COPY_WAIT_MS;
  while (wanted() && performance.now() < until) {
    /** @type {Response | undefined} */
    let res;
    try {
      res = await fetch(url, { method: 'HEAD', credentials: 'same-origin' });
    } catch {
      res = undefined; // offline for a moment: ask again
    }
    if (res?.ok) return wanted();
    if (res && res.status !== 503) return false;
    await new Promise((resolve) => setTimeout(resolve, COPY_POLL_MS));
  }
  return false;
}
