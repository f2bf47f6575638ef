// Choosing photos on any grid of the gallery's tiles (README "Choosing photos"): a "Select"
// button, a checkbox on each tile (shown on hover with a mouse), a long press then taps on
// touch, shift-click for a range, Space to toggle and Escape to leave, "select this day" on
// tiles grouped by day (or "select this month" under the timeline's month headers), and a bar
// that counts and sizes the choice, downloads it as the album's ZIP of those files
// (docs/api.md#get-apidownload-albumpath, `only`), or, on pages of files from many albums
// (search, timeline), as one ZIP of them all (docs/api.md#get-apidownload-selectionfile), and
// shares it through the system's share sheet. The choice is kept per page in sessionStorage, so it
// survives infinite scroll, Back and a reload of the tab.
//
// What it needs of the page (server/public/pages/media-items.ts renders it):
// - on the grid, `data-assets` (JSON) naming `selectZip`, the versioned address of select-zip.js;
// - tiles: `.media__item` elements, each holding an `a.media__link` with `data-path` (album
//   path/file name), `data-name`, `data-kind` (`image`, `video`) and `data-bytes` (the file
//   and a Live Photo's movie); tiles added later (infinite scroll) are picked up by themselves;
// - optionally, groups of tiles by day: an element with `data-select-group` around them,
//   whose `[data-select-group-head]` (else the group itself) gets the "select this day" button;
// - or headers among the tiles (`options.groups.head`, the timeline's months), each owning the
//   tiles after it up to the next header.

const LONG_PRESS_MS = 450;
/** A finger moving this far is scrolling, not pressing. */
const PRESS_SLOP_PX = 10;

/**
 * @typedef {object} SelectOptions
 * @property {import('./strings.js').Translate} t the page's words
 * @property {(bytes: number) => string} formatSize a size as the page writes it (views/assets/byte-size.js)
 * @property {string} storageKey names this page's choice in sessionStorage ('album:2024/trip')
 * @property {Element} toolbar where the "Select" button goes
 * @property {boolean} [downloads] false through a "no downloads" share link: no Download button
 * @property {(paths: string[]) => string | undefined} [shareUrl] what Share sends for the chosen
 *   files (absolute), or undefined for no Share button
 * @property {string} [shareTitle]
 * @property {boolean} [across] the tiles come from many albums (search, timeline): Download is
 *   one ZIP of every chosen file, whatever its album
 * @property {{ head: string, label: string }} [groups] headers among the tiles (a selector) that
 *   each get a button choosing the tiles after them, labelled with the words `label` names
 */

/** @typedef {{ bytes: number, kind: string }} Chosen */

/**
 * @param {HTMLElement} grid the element holding the tiles (#media)
 * @param {SelectOptions} options
 */
export function initSelect(grid, options) {
  const { t, formatSize, toolbar } = options;
  /** @type {Promise<typeof import('./select-zip.js')>} */
  const zipModule = import(JSON.parse(grid.dataset.assets ?? '{}').selectZip);
  zipModule.catch(() => undefined);
  const storageName = `gallery-select:${options.storageKey}`;
  /** @type {Map<string, Chosen>} media path → what it adds, in the order chosen */
  const chosen = new Map();
  let selecting = false;
  /** The tile a shift-click extends from. */
  let anchor = '';

  // The page may hold the button already, its place kept so nothing moves (views/album.ejs).
  const startButton = /** @type {HTMLButtonElement} */ (toolbar.querySelector('button[data-select-start]') ?? document.createElement('button'));
  startButton.type = 'button';
  startButton.className = 'button button--ghost button--select';
  startButton.setAttribute('aria-pressed', 'false');
  startButton.textContent = t('select.start');
  startButton.disabled = false;
  if (!startButton.isConnected) toolbar.append(startButton);

  const bar = buildBar();
  document.body.append(bar.root);

  const tiles = () => /** @type {HTMLElement[]} */ ([...grid.querySelectorAll('.media__item')]);
  const linkOf = (tile) => /** @type {HTMLAnchorElement | null} */ (tile.querySelector('a.media__link'));
  const pathOf = (tile) => linkOf(tile)?.dataset.path ?? '';
  const tileOf = (target) => (target instanceof Element ? /** @type {HTMLElement | null} */ (target.closest('.media__item')) : null);

  function buildBar() {
    const root = document.createElement('div');
    root.className = 'select-bar';
    root.setAttribute('role', 'region');
    root.setAttribute('aria-label', t('select.bar'));
    root.hidden = true;
    const count = document.createElement('p');
    count.className = 'select-bar__count';
    count.setAttribute('role', 'status');
    const actions = document.createElement('div');
    actions.className = 'select-bar__actions';
    const button = (label, className) => {
      const b = document.createElement('button');
      b.type = 'button';
      b.className = `button ${className}`;
      b.textContent = label;
      actions.append(b);
      return b;
    };
    const download = button(t('select.download'), 'select-bar__download');
    download.hidden = options.downloads === false;
    const share = button(t('select.share'), 'button--secondary select-bar__share');
    // Only where the system has a share sheet (phones, Safari, Edge): elsewhere there is nothing to open.
    share.hidden = typeof navigator.share !== 'function' || !options.shareUrl;
    const cancel = button(t('select.cancel'), 'button--ghost select-bar__cancel');
    root.append(count, actions);
    return { root, count, download, share, cancel };
  }

  /** Gives a tile its checkbox (once) and shows its state. */
  function prepare(tile) {
    let box = /** @type {HTMLInputElement | null} */ (tile.querySelector('input.select-check'));
    if (!box) {
      const path = pathOf(tile);
      if (!path) return;
      box = document.createElement('input');
      box.type = 'checkbox';
      box.className = 'select-check';
      box.setAttribute('aria-label', t('select.tile', { name: linkOf(tile)?.querySelector('img')?.alt ?? linkOf(tile)?.dataset.name ?? '' }));
      tile.append(box);
    }
    const on = chosen.has(pathOf(tile));
    box.checked = on;
    // In select mode each tile is one stop for Tab, its checkbox; otherwise its link.
    box.tabIndex = selecting ? 0 : -1;
    const link = linkOf(tile);
    if (selecting) link?.setAttribute('tabindex', '-1');
    else link?.removeAttribute('tabindex');
    tile.classList.toggle('is-chosen', on);
  }

  function set(tile, on) {
    const link = linkOf(tile);
    const path = link?.dataset.path;
    if (!path) return;
    if (on) chosen.set(path, { bytes: Number(link.dataset.bytes) || 0, kind: link.dataset.kind ?? 'image' });
    else chosen.delete(path);
  }

  /** Chooses or unchooses one tile, or with `range` every tile from the last one to it. */
  function toggle(tile, range = false) {
    const path = pathOf(tile);
    const on = !chosen.has(path);
    const all = tiles();
    const from = range && anchor ? all.findIndex((x) => pathOf(x) === anchor) : -1;
    const to = all.indexOf(tile);
    if (from >= 0 && to >= 0) {
      // A range takes the state of the tile the range started from, as file managers do.
      const state = chosen.has(anchor);
      for (const x of all.slice(Math.min(from, to), Math.max(from, to) + 1)) set(x, state);
    } else set(tile, on);
    anchor = path;
    update();
  }

  function start() {
    if (selecting) return;
    selecting = true;
    update();
  }

  /** Leaves select mode; the choice goes with it. */
  function leave() {
    selecting = false;
    chosen.clear();
    anchor = '';
    update();
  }

  function update() {
    document.body.classList.toggle('is-selecting', selecting);
    grid.classList.toggle('is-selecting', selecting);
    startButton.setAttribute('aria-pressed', String(selecting));
    startButton.textContent = selecting ? t('select.cancel') : t('select.start');
    bar.root.hidden = !selecting;
    for (const tile of tiles()) prepare(tile);
    for (const group of grid.querySelectorAll('[data-select-group]'))
      prepareGroup(group.querySelector('[data-select-group-head]') ?? group, 'select.day', true);
    if (options.groups) for (const head of grid.querySelectorAll(options.groups.head)) prepareGroup(head, options.groups.label, false);
    bar.count.textContent = summary();
    bar.download.disabled = chosen.size === 0;
    bar.share.disabled = chosen.size === 0;
    save();
  }

  /** '12 photos · 48 MB', in the page's language and plural rules. */
  function summary() {
    if (chosen.size === 0) return t('select.none');
    let videos = 0;
    let bytes = 0;
    for (const c of chosen.values()) {
      if (c.kind === 'video') videos++;
      bytes += c.bytes;
    }
    const count = chosen.size;
    const key = videos === 0 ? 'select.photos' : videos === count ? 'select.videos' : 'select.items';
    // Joined as the album's download button joins its count and size (server/public/pages/download-offer.ts).
    return `${t(key, { count })} · ${formatSize(bytes)}`;
  }

  function save() {
    try {
      if (!selecting) sessionStorage.removeItem(storageName);
      else sessionStorage.setItem(storageName, JSON.stringify({ anchor, chosen: [...chosen] }));
    } catch {
      // Storage full or refused (private mode): the choice just does not outlive the page.
    }
  }

  function restore() {
    try {
      const saved = JSON.parse(sessionStorage.getItem(storageName) ?? 'null');
      if (!saved || !Array.isArray(saved.chosen)) return;
      for (const [path, c] of saved.chosen) if (typeof path === 'string' && c) chosen.set(path, { bytes: Number(c.bytes) || 0, kind: String(c.kind) });
      anchor = typeof saved.anchor === 'string' ? saved.anchor : '';
      selecting = true;
    } catch {
      // A choice saved by another version of this script: start afresh.
    }
  }

  /** The tiles a "select this day" (or "this month") button chooses. */
  function tilesOfGroup(button) {
    const head = options.groups ? button.closest(options.groups.head) : null;
    if (!head) return /** @type {HTMLElement[]} */ ([...(button.closest('[data-select-group]')?.querySelectorAll('.media__item') ?? [])]);
    // A header among the tiles (the timeline's months, items of the tiles' own list so that
    // they stick while it scrolls) owns the tiles after it, up to the next header.
    const own = [];
    for (let x = head.nextElementSibling; x && !x.matches(options.groups?.head ?? ''); x = x.nextElementSibling) {
      if (x.matches('.media__item')) own.push(/** @type {HTMLElement} */ (x));
    }
    return own;
  }

  /**
   * "Select this day" in `where` (made once, first or last in it): chooses every tile of its
   * group, or clears them when all are chosen.
   * @param {Element} where
   * @param {string} label
   * @param {boolean} first
   */
  function prepareGroup(where, label, first) {
    let button = /** @type {HTMLButtonElement | null} */ (where.querySelector(':scope > [data-select-day]'));
    if (!button) {
      button = document.createElement('button');
      button.type = 'button';
      button.className = 'button button--ghost button--small select-day';
      button.dataset.selectDay = '';
      button.textContent = t(label);
      if (first) where.prepend(button);
      else where.append(button);
    }
    const own = tilesOfGroup(button);
    button.hidden = !selecting;
    button.setAttribute('aria-pressed', String(own.length > 0 && own.every((x) => chosen.has(pathOf(x)))));
  }

  /**
   * The ZIP of the choice (views/assets/select-zip.js, loaded by its versioned address from the
   * page's list of scripts): a plain navigation, or a form posted for a long choice.
   */
  function download() {
    void zipModule.then(({ downloadChosen }) => downloadChosen([...chosen.keys()], options.across === true));
  }

  async function share() {
    const url = options.shareUrl?.([...chosen.keys()]);
    if (!url) return;
    try {
      await navigator.share({ title: options.shareTitle ?? document.title, url });
    } catch (err) {
      // Closing the share sheet is no failure.
      if (!(err instanceof DOMException && err.name === 'AbortError')) bar.count.textContent = t('select.shareFailed');
    }
  }

  startButton.addEventListener('click', () => (selecting ? leave() : start()));
  bar.download.addEventListener('click', download);
  bar.share.addEventListener('click', () => void share());
  bar.cancel.addEventListener('click', leave);

  grid.addEventListener(
    'click',
    (event) => {
      const target = /** @type {Element} */ (event.target);
      const tile = tileOf(target);
      if (!tile) return;
      if (target.matches('input.select-check')) {
        // The box has already flipped; put it back and decide here, shift and all.
        const box = /** @type {HTMLInputElement} */ (target);
        box.checked = !box.checked;
        start();
        toggle(tile, event.shiftKey);
        return;
      }
      if (!selecting && !(event.shiftKey && anchor)) return;
      // In select mode a tap chooses instead of opening the viewer (views/assets/album.js listens after this).
      event.preventDefault();
      event.stopPropagation();
      start();
      toggle(tile, event.shiftKey);
    },
    true,
  );

  // A day's (or a month's) button sits beside its tiles, not in one.
  grid.addEventListener('click', (event) => {
    const day = event.target instanceof Element ? event.target.closest('[data-select-day]') : null;
    if (!day) return;
    const own = tilesOfGroup(day);
    const state = !own.every((x) => chosen.has(pathOf(x)));
    for (const x of own) set(/** @type {HTMLElement} */ (x), state);
    update();
  });

  // Touch: a long press enters select mode and chooses the tile. The click that may follow
  // when the finger lifts is not a tap, wherever it lands: the bar has just appeared under it.
  let press;
  let suppressClick = false;
  document.addEventListener('pointerdown', () => (suppressClick = false), true);
  document.addEventListener(
    'click',
    (event) => {
      if (!suppressClick) return;
      suppressClick = false;
      event.preventDefault();
      event.stopPropagation();
    },
    true,
  );
  grid.addEventListener('pointerdown', (event) => {
    if (event.pointerType === 'mouse') return;
    const tile = tileOf(event.target);
    if (!tile || (event.target instanceof Element && event.target.matches('input.select-check'))) return;
    clearTimeout(press?.timer);
    press = {
      x: event.clientX,
      y: event.clientY,
      timer: setTimeout(() => {
        press = undefined;
        suppressClick = true;
        start();
        if (!chosen.has(pathOf(tile))) toggle(tile);
        navigator.vibrate?.(15);
      }, LONG_PRESS_MS),
    };
  });
  const endPress = () => {
    clearTimeout(press?.timer);
    press = undefined;
  };
  grid.addEventListener('pointermove', (event) => {
    if (press && Math.hypot(event.clientX - press.x, event.clientY - press.y) > PRESS_SLOP_PX) endPress();
  });
  grid.addEventListener('pointerup', endPress);
  grid.addEventListener('pointercancel', endPress);
  // The long press's menu (save image, open in new tab) would cover the choice.
  grid.addEventListener('contextmenu', (event) => {
    if (suppressClick || press) event.preventDefault();
  });

  grid.addEventListener('keydown', (event) => {
    const link = event.target instanceof Element ? event.target.closest('a.media__link') : null;
    if (!selecting || !link || event.key !== ' ') return;
    event.preventDefault();
    const tile = tileOf(link);
    if (tile) toggle(tile, event.shiftKey);
  });
  document.addEventListener('keydown', (event) => {
    // The viewer handles its own Escape first (overlays.js, capture phase).
    if (event.key !== 'Escape' || !selecting || event.defaultPrevented || document.querySelector('.pswp--open')) return;
    leave();
    startButton.focus();
  });

  // Tiles arriving later (infinite scroll, a page loading the previous page) show the choice too.
  new MutationObserver((records) => {
    // A header too: the timeline adds a month's header after its tiles.
    const wanted = options.groups ? `.media__item, ${options.groups.head}` : '.media__item';
    const added = records.some((r) => [...r.addedNodes].some((n) => n instanceof Element && (n.matches(wanted) || n.querySelector(wanted))));
    if (added) update();
  }).observe(grid, { childList: true, subtree: true });

  restore();
  update();
  return {
    leave,
    get chosen() {
      return [...chosen.keys()];
    },
  };
}
