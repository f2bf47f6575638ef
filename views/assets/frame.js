// The photo frame (views/frame.ejs, docs/api.md#photo-frame): one photo after another, for
// days, on a TV or a tablet. What it is built to survive:
// - time: two <img> take turns and one <video> plays every video and Live Photo; handlers are
//   assigned (never added) and the list is replaced, not grown, at each reading, so the page
//   holds the same after a week as after an hour;
// - new photos: the list is read again about every interval (less often for big lists), a
//   little before the next photo is due, and a photo not seen before is shown next;
// - the server or the network going away: the last photo stays, a note says so, and the list
//   and the next photo are asked again after 0.5 s, 1 s, 2 s … up to 30 s until they come back;
// - losing access (a revoked link, a locked album): the page is loaded again, and the server
//   answers what a visitor sees then (the password form, "this link no longer works").

/** A video shows to its end, but never longer than this. */
const VIDEO_MAX_MS = 10 * 60_000;
const BACKOFF_FIRST_MS = 500;
const BACKOFF_MAX_MS = 30_000;
/** How long controls stay after the last move, tap or key. */
const IDLE_MS = 4000;
/** Reloading the page because the list refused this visitor: at most once in this long. */
const RELOAD_GAP_MS = 5 * 60_000;
const RELOADED_AT = 'gallery.frame.reloadedAt';
// Keys of a keyboard and of a TV's remote (its arrows and media keys).
const NEXT_KEYS = /^(ArrowRight|PageDown|MediaTrackNext)$/;
const PREVIOUS_KEYS = /^(ArrowLeft|PageUp|MediaTrackPrevious)$/;
const PAUSE_KEYS = /^( |k|MediaPlayPause)$/;

// A share link's token has joined the cookie on the server: keep it out of the address bar.
const frameAddress = new URL(window.location.href);
if (frameAddress.searchParams.has('token')) {
  frameAddress.searchParams.delete('token');
  window.history.replaceState(window.history.state, '', frameAddress.pathname + frameAddress.search + frameAddress.hash);
}

const root = document.getElementById('frame');
if (root) void start(root);

/** @param {HTMLElement} root */
async function start(root) {
  const assets = JSON.parse(root.dataset.assets ?? '{}');
  /** @type {[typeof import('./frame-list.js'), typeof import('./strings.js'), typeof import('./screen-awake.js')]} */
  const [{ dayOf, readList, sourceUrl, SourceRefused, Walk }, { t, locale }, { screenAwake }] = await Promise.all([
    import(assets.list),
    import(assets.strings),
    import(assets.awake),
  ]);
  const source = sourceUrl(root.dataset.source ?? '');
  const options = {
    interval: Number(root.dataset.interval) * 1000 || 10_000,
    shuffle: root.dataset.shuffle === '1',
    caption: root.dataset.caption !== '0',
    date: root.dataset.date !== '0',
  };

  const slides = /** @type {HTMLImageElement[]} */ ([...root.querySelectorAll('.frame__slide')]);
  const video = /** @type {HTMLVideoElement} */ (root.querySelector('.frame__video'));
  const captionBox = /** @type {HTMLElement} */ (root.querySelector('.frame__caption'));
  const captionText = /** @type {HTMLElement} */ (root.querySelector('.frame__caption-text'));
  const dateText = /** @type {HTMLElement} */ (root.querySelector('.frame__date'));
  const status = /** @type {HTMLElement} */ (root.querySelector('.frame__status'));
  const statusText = /** @type {HTMLElement} */ (root.querySelector('.frame__status-text'));
  const days = new Intl.DateTimeFormat(locale(), { dateStyle: 'long' });

  /** @type {import('./frame-list.js').FrameItem[]} */
  let list = [];
  let pages = 1;
  /** The keys of the last reading: what is new in the next one is shown first. */
  let known = /** @type {Set<string> | null} */ (null);
  /** Keys of new photos waiting to be shown, oldest first (never more than the list holds). */
  const fresh = /** @type {string[]} */ ([]);
  const walk = new Walk(options.shuffle);
  let nextReadAt = 0;
  /** Readings of the list that failed in a row, and whether the last one answered. */
  let listFailures = 0;
  let listAnswered = false;
  /** Images that would not load in a row. */
  let imageFailures = 0;
  /** The photo whose image would not load: tried again (up to 3 times) before moving on. */
  let retry = /** @type {{ item: import('./frame-list.js').FrameItem, tries: number } | null} */ (null);
  let front = 0;
  let shown = 0;
  let shownAt = 0;
  let dwell = 0;
  let paused = false;
  /** A step asked for while paused: one photo on, then paused again. */
  let stepOnce = false;
  let current = /** @type {import('./frame-list.js').FrameItem | null} */ (null);

  // One pending sleep at a time, which a key, a button or a video's end may cut short.
  let timer = 0;
  let wake = /** @type {((value?: unknown) => void) | null} */ (null);
  const sleep = (ms) =>
    new Promise((resolve) => {
      wake = resolve;
      timer = window.setTimeout(resolve, Math.max(0, ms));
    });
  const wakeNow = () => {
    window.clearTimeout(timer);
    const resolve = wake;
    wake = null;
    resolve?.();
  };

  const backoff = (failures) => Math.min(BACKOFF_MAX_MS, BACKOFF_FIRST_MS * 2 ** Math.min(Math.max(0, failures - 1), 10));
  /** A big list is read less often: a second per page of 200 at least. */
  const readEvery = () => Math.max(options.interval, 1000 * pages);
  /** How long before a photo is due its list is read and its image loaded. */
  const lead = () => Math.min(options.interval / 2, 3000);

  function say(text, centred) {
    statusText.textContent = text;
    status.classList.toggle('frame__status--centre', centred);
    status.hidden = false;
  }
  const quiet = () => {
    status.hidden = true;
  };

  /** Reads the list when it is due (or `now`): true when the list is usable. */
  async function refresh(now) {
    if (!source) {
      say(t('frame.cannotShow'), true);
      return false;
    }
    if (!now && performance.now() < nextReadAt) return list.length > 0;
    try {
      const read = await readList(source);
      const before = known;
      known = new Set(read.items.map((item) => item.key));
      if (before) for (const item of read.items) if (!before.has(item.key)) fresh.push(item.key);
      if (fresh.length > read.items.length) fresh.splice(0, fresh.length - read.items.length);
      list = read.items;
      pages = read.pages;
      listFailures = 0;
      listAnswered = true;
      nextReadAt = performance.now() + readEvery();
      if (list.length === 0) say(t('frame.empty'), true);
      else quiet();
      return true;
    } catch (err) {
      listFailures++;
      listAnswered = false;
      nextReadAt = performance.now() + backoff(listFailures);
      if (err instanceof SourceRefused) refused();
      else say(t('frame.offline'), current === null);
      return list.length > 0;
    }
  }

  /** This visitor may not see the list (any more): the page, loaded again, says why. */
  function refused() {
    const last = Number(window.sessionStorage.getItem(RELOADED_AT));
    if (!(Date.now() - last < RELOAD_GAP_MS)) {
      window.sessionStorage.setItem(RELOADED_AT, String(Date.now()));
      window.location.reload();
      return;
    }
    say(t('frame.cannotShow'), current === null);
  }

  function pick() {
    if (retry) {
      // Tried again while the server is away; dropped once the list no longer has it, or after
      // three tries while the list answers (a file that cannot be shown).
      if (known?.has(retry.item.key) && !(listAnswered && retry.tries >= 3)) return retry.item;
      retry = null;
    }
    while (fresh.length > 0) {
      const key = fresh.shift();
      const item = list.find((candidate) => candidate.key === key);
      if (item) return item;
    }
    return list.length > 0 ? list[walk.next(list.length)] : null;
  }

  /** Loads `item`'s image into the slide behind, at the screen's size: false when it would not load. */
  async function prepare(item) {
    const img = slides[1 - front];
    const ratio = item.width && item.height ? item.width / item.height : null;
    img.sizes = ratio ? `min(100vw, ${(ratio * 100).toFixed(2)}vh)` : '100vw';
    img.srcset = item.srcset;
    img.src = item.src;
    try {
      await img.decode();
      return true;
    } catch {
      return false;
    }
  }

  function show(item) {
    stopVideo();
    const next = slides[1 - front];
    const previous = slides[front];
    next.alt = item.alt;
    next.classList.add('frame__slide--front');
    next.removeAttribute('aria-hidden');
    previous.classList.remove('frame__slide--front');
    previous.setAttribute('aria-hidden', 'true');
    previous.alt = '';
    front = 1 - front;
    current = item;
    shown++;
    shownAt = performance.now();
    // What a test (or a curious owner) can read of the frame: how many shown, and which.
    root.dataset.shown = String(shown);
    root.dataset.current = item.key;
    writeCaption();
    dwell = options.interval;
    if (item.kind === 'video' && playVideo(item.sources, false)) dwell = VIDEO_MAX_MS;
    else if (item.motion) playVideo(item.motion, true);
  }

  function writeCaption() {
    const caption = options.caption ? current?.caption : null;
    const day = options.date ? dayOf(current?.taken, days) : null;
    captionText.textContent = caption ?? '';
    captionText.hidden = !caption;
    dateText.textContent = day ?? '';
    dateText.hidden = !day;
    captionBox.hidden = !caption && !day;
  }

  /** Plays a video muted (a Live Photo's movie once, over its still): false when none of its sources plays here. */
  function playVideo(sources, live) {
    const playable = (sources ?? []).find((s) => !s.type || video.canPlayType(s.type) !== '');
    if (!playable) return false;
    video.classList.toggle('frame__video--live', live);
    video.hidden = false;
    video.muted = true;
    video.onplaying = () => video.classList.add('frame__video--playing');
    // A video's end moves on; a Live Photo's movie fades back to its still.
    video.onended = () => (live ? video.classList.remove('frame__video--playing') : skip());
    video.onerror = () => {
      stopVideo();
      if (!live) skip();
    };
    video.src = playable.src;
    video.play().catch(() => {});
    return true;
  }

  function stopVideo() {
    video.onplaying = null;
    video.onended = null;
    video.onerror = null;
    video.classList.remove('frame__video--playing');
    if (video.hasAttribute('src')) {
      video.pause();
      video.removeAttribute('src');
      // Lets go of the decoder and the buffered bytes at once.
      video.load();
    }
    video.hidden = true;
  }

  /** The next photo now. */
  function skip() {
    dwell = 0;
    stepOnce = paused;
    wakeNow();
  }

  async function run() {
    for (;;) {
      const usable = await refresh(shown === 0);
      const item = usable ? pick() : null;
      if (!item) {
        await sleep(listFailures > 0 ? backoff(listFailures) : Math.max(options.interval, 2000));
        continue;
      }
      if (!(await prepare(item))) {
        // The server or the network is away, or the photo is gone: the list, read at once, tells.
        imageFailures++;
        retry = retry?.item === item ? { item, tries: retry.tries + 1 } : { item, tries: 1 };
        nextReadAt = 0;
        await sleep(backoff(imageFailures));
        continue;
      }
      retry = null;
      imageFailures = 0;
      await sleep(shownAt + dwell - performance.now());
      while (paused && !stepOnce) await sleep(VIDEO_MAX_MS);
      stepOnce = false;
      show(item);
      await sleep(dwell - lead());
    }
  }

  root.style.setProperty('--frame-fade', `${Math.min(1000, options.interval * 0.3)}ms`);
  setUpControls();
  // The screen stays on while the frame shows.
  void screenAwake(() => true).keep();
  void run();

  function setUpControls() {
    const pauseButton = /** @type {HTMLButtonElement} */ (root.querySelector('[data-frame-pause]'));
    const fullscreenButton = /** @type {HTMLButtonElement} */ (root.querySelector('[data-frame-fullscreen]'));
    const settingsButton = /** @type {HTMLButtonElement} */ (root.querySelector('[data-frame-settings]'));
    const settings = /** @type {HTMLFormElement} */ (root.querySelector('.frame__settings'));
    const label = (button, text) => {
      const span = button.querySelector('span');
      if (span) span.textContent = text;
    };

    const togglePause = () => {
      paused = !paused;
      pauseButton.setAttribute('aria-pressed', String(paused));
      label(pauseButton, paused ? t('frame.resume') : t('frame.pause'));
      if (paused) video.pause();
      else {
        if (video.hasAttribute('src')) video.play().catch(() => {});
        wakeNow();
      }
    };
    pauseButton.addEventListener('click', togglePause);

    if (document.fullscreenEnabled) {
      fullscreenButton.hidden = false;
      fullscreenButton.addEventListener('click', () => {
        if (document.fullscreenElement) void document.exitFullscreen();
        else void document.documentElement.requestFullscreen().catch(() => {});
      });
      document.addEventListener('fullscreenchange', () =>
        label(fullscreenButton, document.fullscreenElement ? t('frame.exitFullscreen') : t('frame.fullscreen')),
      );
    }

    const openSettings = (open) => {
      settings.hidden = !open;
      settingsButton.setAttribute('aria-expanded', String(open));
      if (open) settings.querySelector('select')?.focus();
      else settingsButton.focus();
    };
    settingsButton.addEventListener('click', () => openSettings(settings.hidden));
    settings.querySelector('[data-frame-settings-done]')?.addEventListener('click', () => openSettings(false));
    settings.addEventListener('change', () => {
      const data = new FormData(settings);
      options.interval = Number(data.get('interval')) * 1000 || options.interval;
      options.shuffle = data.get('shuffle') !== null;
      options.caption = data.get('caption') !== null;
      options.date = data.get('date') !== null;
      if (walk.shuffle !== options.shuffle) {
        walk.shuffle = options.shuffle;
        walk.newRound();
      }
      root.style.setProperty('--frame-fade', `${Math.min(1000, options.interval * 0.3)}ms`);
      writeCaption();
      if (current?.kind !== 'video' || video.hidden) dwell = options.interval;
      writeAddress();
      wakeNow();
    });
    // The address holds the options: a bookmark (or the TV's home screen) keeps them.
    function writeAddress() {
      const url = new URL(window.location.href);
      const seconds = options.interval / 1000;
      const set = (name, value, byDefault) => (value === byDefault ? url.searchParams.delete(name) : url.searchParams.set(name, value));
      set('interval', String(seconds), '10');
      set('shuffle', options.shuffle ? '1' : '0', '0');
      set('caption', options.caption ? '1' : '0', '1');
      set('date', options.date ? '1' : '0', '1');
      window.history.replaceState(window.history.state, '', url.pathname + url.search + url.hash);
    }

    // Controls and the pointer hide while nobody touches anything.
    let idleTimer = 0;
    const awake = () => {
      root.classList.remove('frame--idle');
      window.clearTimeout(idleTimer);
      idleTimer = window.setTimeout(() => {
        if (settings.hidden && !root.querySelector('.frame__controls')?.contains(document.activeElement)) root.classList.add('frame--idle');
      }, IDLE_MS);
    };
    for (const type of ['pointermove', 'pointerdown', 'keydown', 'focusin']) document.addEventListener(type, awake, { passive: true });
    awake();

    document.addEventListener('keydown', (event) => {
      if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
      const target = /** @type {HTMLElement} */ (event.target);
      if (target.closest('input,select,button,a,textarea')) {
        if (event.key === 'Escape' && !settings.hidden) openSettings(false);
        return;
      }
      if (NEXT_KEYS.test(event.key)) skip();
      else if (PREVIOUS_KEYS.test(event.key)) {
        walk.at = Math.max(0, walk.at - 2);
        skip();
      } else if (PAUSE_KEYS.test(event.key)) togglePause();
      else if (event.key === 'f' && document.fullscreenEnabled) fullscreenButton.click();
      else if (event.key === 'Escape' && !settings.hidden) openSettings(false);
      else return;
      event.preventDefault();
    });
  }
}
