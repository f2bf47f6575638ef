// The viewer's slideshow (README "The viewer"): a toolbar button and the `s` key start it;
// it moves to the next photo every few seconds (3, 5 or 10, chosen in its bar and remembered
// in localStorage), across the whole album (pages not loaded yet are fetched first), and
// stops at the album's last photo rather than looping, so a forgotten slideshow lets the
// screen sleep. A video is shown to its end before the next photo. While it plays the screen
// is kept awake (Screen Wake Lock, asked again when the page comes back into view) and the
// page goes fullscreen where the browser allows it (not iPhones).
//
// Any interaction pauses it: a key, a pointer going down (a tap, a click, a swipe, a pinch),
// the wheel; the bar then offers to resume. Pausing lets the screen sleep again but stays
// fullscreen; stopping (the bar's ×, or closing the viewer) also leaves fullscreen.
//
// It uses the album's items as the viewer has them, never the address: visitors of a
// protected album and of a share link (whose token is no longer in the address) get it too.

/** The intervals offered, in ms. */
export const INTERVALS = [3000, 5000, 10000];
const DEFAULT_INTERVAL = 5000;
/** A stored interval outside these bounds is ignored (a hand-edited or stale setting). */
const MIN_INTERVAL = 1000;
const MAX_INTERVAL = 60000;
export const INTERVAL_KEY = 'gallery.slideshow.interval';

const PLAY = 'M8 5v14l11-7L8 5Z';
const PAUSE = 'M7 5h4v14H7V5Zm6 0h4v14h-4V5Z';
const svg = (path) => `<svg aria-hidden="true" class="pswp__icn" viewBox="0 0 24 24" width="24" height="24"><path d="${path}"/></svg>`;

/** A tap that paused the slideshow is reported by PhotoSwipe this long after the finger went down (its double-tap wait). */
const PAUSING_TAP_MS = 800;

/**
 * @param {object} deps
 * @param {import('photoswipe/lightbox').default} deps.lightbox before `init()`
 * @param {import('./lightbox.js').Slides} deps.items the viewer's slides (their order on screen; `step` goes to the album's next)
 * @param {() => HTMLVideoElement | null} deps.currentVideo the video of the current slide, if any
 * @param {import('./strings.js').Translate} deps.t the page's words
 * @param {typeof import('./screen-awake.js').screenAwake} deps.screenAwake the screen kept on (views/assets/screen-awake.js)
 */
export function createSlideshow({ lightbox, items, currentVideo, t, screenAwake }) {
  const pswp = () => lightbox.pswp;
  /** @type {'off' | 'playing' | 'paused' | 'ended'} */
  let state = 'off';
  let interval = readInterval();
  let timer;
  /** Waiting for the current slide's photo to load, or its video to end. */
  let waitingFor = null;
  // The screen stays on while the slideshow plays.
  const awake = screenAwake(() => state === 'playing');
  /** Fullscreen entered by the slideshow, left when it stops. */
  let ownFullscreen = false;
  let pausedByPointerAt = -Infinity;
  /** @type {{ button?: HTMLElement, bar?: HTMLElement, toggle?: HTMLButtonElement, status?: HTMLElement, choices?: HTMLButtonElement[] }} */
  const ui = {};

  // --- Playing.

  /** Starts or resumes; from a tap, a click or a key (what fullscreen needs). */
  function play() {
    const p = pswp();
    if (!p) return;
    const restart = state === 'ended' || items.toAlbum(p.currIndex) >= items.total - 1;
    state = 'playing';
    enterFullscreen();
    void awake.keep();
    render();
    if (restart && items.total > 1)
      p.goTo(items.toSlide(0)); // its change schedules the next step
    else schedule();
  }

  /** @param {'paused' | 'ended'} [next] */
  function pause(next = 'paused') {
    if (state !== 'playing') return;
    state = next;
    clearWait();
    awake.letGo();
    render();
  }

  function stop() {
    if (state === 'off') return;
    state = 'off';
    clearWait();
    awake.letGo();
    leaveFullscreen();
    render();
  }

  const toggle = () => (state === 'playing' ? pause() : play());

  function clearWait() {
    clearTimeout(timer);
    waitingFor?.();
    waitingFor = null;
  }

  function schedule() {
    clearWait();
    if (state === 'playing') timer = setTimeout(() => void advance(), interval);
  }

  async function advance() {
    const p = pswp();
    if (!p || state !== 'playing') return;
    const slide = p.currSlide;
    // A photo still loading gets its full time once it shows; a video plays to its end.
    if (slide?.content?.state === 'loading') {
      waitFor(
        () => schedule(),
        (done) => {
          const onLoad = ({ slide: loaded }) => loaded === slide && done();
          lightbox.pswp?.on('loadComplete', onLoad);
          return () => lightbox.pswp?.off('loadComplete', onLoad);
        },
      );
      return;
    }
    const video = currentVideo();
    if (video && !video.paused && !video.ended) {
      waitFor(
        () => void advanceNow(),
        (done) => {
          video.addEventListener('ended', done);
          return () => video.removeEventListener('ended', done);
        },
      );
      return;
    }
    await advanceNow();
  }

  async function advanceNow() {
    const p = pswp();
    if (!p || state !== 'playing') return;
    // The album's next photo: to the right, or to the left right to left.
    const next = p.currIndex + items.step;
    if (next < 0 || next >= items.total) {
      pause('ended');
      return;
    }
    // The next photo's page of the album, when the viewer has not fetched it yet.
    await items.ensure(next).catch(() => undefined);
    if (state !== 'playing' || pswp() !== p) return;
    p.goTo(next);
  }

  /**
   * Runs `then` once `listen` reports (listen returns how to stop listening); a pause or a
   * new slide cancels the wait.
   */
  function waitFor(then, listen) {
    clearWait();
    let stopListening = () => {};
    const done = () => {
      stopListening();
      waitingFor = null;
      if (state === 'playing') then();
    };
    stopListening = listen(done);
    waitingFor = stopListening;
  }

  // --- Fullscreen.

  function enterFullscreen() {
    const root = document.documentElement;
    if (!document.fullscreenEnabled || document.fullscreenElement || typeof root.requestFullscreen !== 'function') return;
    // The whole page, so the details panel and the help stay visible over the viewer.
    root.requestFullscreen({ navigationUI: 'hide' }).then(
      () => {
        ownFullscreen = true;
        // Stopped while the browser was switching: leave at once.
        if (state === 'off') leaveFullscreen();
      },
      () => {},
    );
  }

  function leaveFullscreen() {
    if (ownFullscreen && document.fullscreenElement) void document.exitFullscreen().catch(() => {});
    ownFullscreen = false;
  }

  document.addEventListener('fullscreenchange', () => {
    if (document.fullscreenElement) return;
    // Left by the visitor (Esc, a gesture): an interaction like any other.
    ownFullscreen = false;
    pause();
  });

  // --- Interactions pause it.

  const isOwnControl = (target) => target instanceof Element && Boolean(target.closest('.pswp__slideshow, .pswp__button--slideshow-button'));

  function onKeyDown(event) {
    // Enter or Space on its own buttons is their click, not an interaction that pauses.
    if (!pswp() || isTyping(event.target) || isOwnControl(event.target)) return;
    // Behind a modal dialog (the key help) `s` does nothing; any key still pauses.
    const inDialog = event.target instanceof Element && Boolean(event.target.closest('dialog'));
    if ((event.key === 's' || event.key === 'S') && !event.ctrlKey && !event.metaKey && !event.altKey && !inDialog) {
      event.preventDefault();
      event.stopImmediatePropagation();
      toggle();
      return;
    }
    if (!MODIFIERS.has(event.key)) pause();
  }
  // Capture phase on window, before PhotoSwipe and before the overlays' keys (which stop the
  // ones they use): created ahead of them (lightbox.js), so every key pauses.
  window.addEventListener('keydown', onKeyDown, true);

  function onPointerDown(event) {
    if (state !== 'playing' || isOwnControl(event.target)) return;
    pausedByPointerAt = performance.now();
    pause();
  }
  function onWheel(event) {
    if (!isOwnControl(event.target)) pause();
  }

  lightbox.on('afterInit', () => {
    const root = pswp()?.element;
    root?.addEventListener('pointerdown', onPointerDown, true);
    root?.addEventListener('wheel', onWheel, { capture: true, passive: true });
  });
  // The tap that paused the slideshow shows the controls (to resume) instead of toggling them away.
  lightbox.on('tapAction', (event) => {
    if (performance.now() - pausedByPointerAt > PAUSING_TAP_MS) return;
    event.preventDefault();
    pswp()?.element?.classList.add('pswp--ui-visible');
  });
  lightbox.on('change', () => {
    if (state === 'playing') schedule();
    else if (state === 'ended') {
      state = 'paused';
      render();
    }
  });
  lightbox.on('close', stop);

  // --- Its controls: the toolbar button, and a bar while it runs.

  lightbox.on('uiRegister', () => {
    const { ui: registry } = pswp();
    registry.registerElement({
      name: 'slideshow-button',
      order: 10,
      isButton: true,
      title: t('slideshow.button'),
      html: svg(PLAY),
      onInit: (el) => {
        ui.button = el;
        el.setAttribute('aria-pressed', 'false');
      },
      onClick: () => toggle(),
    });
    registry.registerElement({
      name: 'slideshow',
      order: 10,
      appendTo: 'root',
      onInit: (el) => buildBar(el),
    });
  });

  /** @param {HTMLElement} bar */
  function buildBar(bar) {
    bar.hidden = true;
    bar.setAttribute('role', 'group');
    bar.setAttribute('aria-label', t('slideshow.bar'));
    const toggleButton = button('pswp__slideshow-toggle', '', () => toggle());
    const status = document.createElement('span');
    status.className = 'pswp__slideshow-status';
    status.setAttribute('aria-live', 'polite');
    const choices = INTERVALS.map((ms) => {
      const choice = button('pswp__slideshow-interval', t('slideshow.seconds', { seconds: ms / 1000 }), () => chooseInterval(ms));
      choice.title = t('slideshow.secondsPerPhoto', { count: ms / 1000 });
      return choice;
    });
    const group = document.createElement('span');
    group.className = 'pswp__slideshow-intervals';
    group.setAttribute('role', 'group');
    group.setAttribute('aria-label', t('slideshow.interval'));
    group.append(...choices);
    const close = button('pswp__slideshow-stop', '×', () => stop());
    close.setAttribute('aria-label', t('slideshow.stop'));
    close.title = t('slideshow.stop');
    bar.append(toggleButton, status, group, close);
    Object.assign(ui, { bar, toggle: toggleButton, status, choices });
  }

  function chooseInterval(ms) {
    interval = ms;
    try {
      window.localStorage.setItem(INTERVAL_KEY, String(ms));
    } catch {
      // Storage refused (private mode, a policy): kept for this visit only.
    }
    render();
    if (state === 'playing') schedule();
  }

  function render() {
    const playing = state === 'playing';
    if (ui.button) {
      ui.button.setAttribute('aria-pressed', String(playing));
      ui.button.innerHTML = svg(playing ? PAUSE : PLAY);
      const title = t(playing ? 'slideshow.pauseButton' : 'slideshow.button');
      ui.button.title = title;
      ui.button.setAttribute('aria-label', title);
    }
    pswp()?.element?.classList.toggle('pswp--slideshow', state !== 'off');
    if (!ui.bar) return;
    ui.bar.hidden = state === 'off';
    ui.toggle.innerHTML = svg(playing ? PAUSE : PLAY);
    ui.toggle.setAttribute('aria-label', t(playing ? 'slideshow.pause' : state === 'ended' ? 'slideshow.again' : 'slideshow.resume'));
    ui.toggle.title = ui.toggle.getAttribute('aria-label');
    ui.status.textContent = t(playing ? 'slideshow.playing' : state === 'ended' ? 'slideshow.ended' : 'slideshow.paused');
    for (const [i, choice] of ui.choices.entries()) choice.setAttribute('aria-pressed', String(INTERVALS[i] === interval));
  }
}

const MODIFIERS = new Set(['Shift', 'Control', 'Alt', 'Meta', 'CapsLock', 'AltGraph']);

/** The interval remembered from an earlier visit, if it is a sensible one. */
function readInterval() {
  let stored = null;
  try {
    stored = window.localStorage.getItem(INTERVAL_KEY);
  } catch {
    // No storage: the default.
  }
  const ms = Number(stored);
  return stored !== null && Number.isFinite(ms) && ms >= MIN_INTERVAL && ms <= MAX_INTERVAL ? ms : DEFAULT_INTERVAL;
}

function button(className, text, onClick) {
  const el = document.createElement('button');
  el.type = 'button';
  el.className = className;
  el.textContent = text;
  el.addEventListener('click', onClick);
  return el;
}

function isTyping(target) {
  return target instanceof HTMLElement && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName));
}
