// The two overlays of the lightbox: photo details (`i`) and the key help (`?`), and the
// keyboard handling that has to run before PhotoSwipe sees a key (README "The viewer"): Escape
// closes the help first, then the details, and only then reaches PhotoSwipe, which closes.
// The help is a modal dialog: focus moves into it and stays there (Tab goes round its
// buttons), the keys do nothing behind it, and closing it puts focus back where it was.

/**
 * The keys and what they do (keys of the page's words, views/assets/strings.js). The arrows are
 * shown as the page reads: next is → left to right, ← right to left, where the viewer's arrows
 * and swipes are mirrored (lightbox.js).
 * @type {[string[], string][]}
 */
const KEYS = [
  [['←', '→'], 'help.move'],
  [['i'], 'help.details'],
  [['z'], 'help.zoom'],
  [['s'], 'help.slideshow'],
  [['?'], 'help.help'],
  [['help.escKey'], 'help.escape'],
  [['help.tabKey'], 'help.tab'],
];

/**
 * @param {object} deps
 * @param {typeof import('./exif-format.js')} deps.format
 * @param {() => boolean} deps.isLightboxOpen
 * @param {() => object | undefined} deps.currentItem the item on screen in the lightbox
 * @param {(open: boolean) => void} [deps.onExifToggle] keeps the lightbox's button in step
 * @param {import('./strings.js').Translate} deps.t the page's words
 * @param {string} [deps.locale] the page's locale, for dates
 */
export function createOverlays({ format, isLightboxOpen, currentItem, onExifToggle = () => {}, t, locale }) {
  const help = buildHelp(t);
  const exif = buildExifPanel(t);
  document.body.append(help.root, exif.root);
  /** path → Promise of rows, so going back and forth does not fetch again. */
  const details = new Map();
  let shownPath;

  const isOpen = (o) => (o.root instanceof HTMLDialogElement ? o.root.open : !o.root.hidden);
  /** What had focus when the help opened: it gets it back. */
  let helpOpener = null;
  const setHelp = (open) => {
    if (open === help.root.open) return;
    if (open) {
      helpOpener = document.activeElement;
      // Modal: drawn above the viewer (the top layer), everything else inert while it shows.
      help.root.showModal();
      help.close.focus();
    } else {
      help.root.close();
    }
  };
  help.root.addEventListener('close', () => {
    const opener = helpOpener;
    helpOpener = null;
    if (opener instanceof HTMLElement && opener.isConnected) opener.focus({ preventScroll: true });
  });
  // The browser's own ways to close a modal (a phone's Back gesture) go the same way.
  help.root.addEventListener('cancel', (event) => {
    event.preventDefault();
    setHelp(false);
  });
  // PhotoSwipe pulls focus that leaves its viewer back in (its listener is on the document):
  // focus inside the help stays there.
  help.root.addEventListener('focusin', (event) => event.stopPropagation());
  const setExif = (open) => {
    exif.root.hidden = !open;
    onExifToggle(open);
    if (open) void showDetails(currentItem());
    else shownPath = undefined;
  };

  function detailsOf(item) {
    let rows = details.get(item.path);
    if (!rows) {
      const video = item.kind === 'video';
      const url = `/api/${video ? 'video-info' : 'exif'}?path=${encodeURIComponent(item.path)}`;
      rows = fetch(url, { headers: { Accept: 'application/json' }, credentials: 'same-origin' })
        .then((res) => (res.ok ? res.json() : Promise.reject(new Error(`${url}: ${res.status}`))))
        .then((data) => (video ? format.videoRows(data, t, locale) : format.photoRows(data, t, locale)))
        .then((found) => (item.motion ? [[t('details.kind'), t('details.livePhoto')], ...found] : found));
      rows.catch(() => details.delete(item.path));
      details.set(item.path, rows);
    }
    return rows;
  }

  async function showDetails(item) {
    if (!item || exif.root.hidden) return;
    shownPath = item.path;
    exif.title.textContent = item.name;
    exif.fill([], t('details.loading'));
    try {
      const rows = await detailsOf(item);
      if (shownPath !== item.path) return; // the visitor has moved on
      exif.fill(rows, rows.length ? '' : t('details.none'));
    } catch {
      if (shownPath !== item.path) return;
      const size = format.pixelSize(item.width, item.height, locale);
      exif.fill(size ? [[t('details.size'), size]] : [], t('details.unavailable'));
    }
  }

  function onKeyDown(event) {
    if (isOpen(help) && event.key === 'Tab') {
      // PhotoSwipe's own Tab handling would move focus to the viewer behind.
      event.stopImmediatePropagation();
      trapTab(help.root, event);
      return;
    }
    if (event.ctrlKey || event.metaKey || event.altKey || isTyping(event.target)) return;
    let consumed = true;
    if (event.key === 'Escape') {
      if (isOpen(help)) setHelp(false);
      else if (isOpen(exif)) setExif(false);
      else consumed = false; // PhotoSwipe's turn: it closes the lightbox
    } else if (event.key === '?') {
      setHelp(!isOpen(help));
    } else if ((event.key === 'i' || event.key === 'I') && isLightboxOpen()) {
      setExif(!isOpen(exif));
    } else {
      consumed = false;
    }
    if (consumed) {
      event.preventDefault();
      event.stopImmediatePropagation();
    } else if (isOpen(help)) {
      // Behind a modal, the viewer takes no keys; the help's buttons keep Enter and Space.
      event.stopImmediatePropagation();
    }
  }
  // Capture phase on window: runs before PhotoSwipe's listener on document.
  window.addEventListener('keydown', onKeyDown, true);
  help.close.addEventListener('click', () => setHelp(false));
  help.root.addEventListener('click', (event) => {
    if (event.target === help.root) setHelp(false);
  });
  exif.close.addEventListener('click', () => setExif(false));

  return {
    toggleHelp: () => setHelp(!isOpen(help)),
    toggleExif: () => setExif(!isOpen(exif)),
    /** The slide changed: the details follow it when they are open. */
    follow: (item) => void showDetails(item),
    closeAll() {
      setHelp(false);
      if (isOpen(exif)) setExif(false);
    },
  };
}

function el(tag, props = {}, children = []) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (key === 'text') node.textContent = value;
    else if (key === 'class') node.className = value;
    else node.setAttribute(key, value);
  }
  node.append(...children);
  return node;
}

function closeButton(label) {
  const button = el('button', { type: 'button', class: 'overlay__close', 'aria-label': label, title: label });
  button.textContent = '×';
  return button;
}

/** @param {import('./strings.js').Translate} t */
function buildHelp(t) {
  const close = closeButton(t('help.close'));
  const rtl = document.documentElement.dir === 'rtl';
  const rows = KEYS.flatMap(([keys, what]) => [
    el(
      'dt',
      {},
      (rtl && keys.length === 2 ? [...keys].reverse() : keys).map((k) => el('kbd', { text: k.startsWith('help.') ? t(k) : k })),
    ),
    el('dd', { text: t(what) }),
  ]);
  const box = el('div', { class: 'help-overlay__box' }, [
    close,
    el('h2', { id: 'help-title', text: t('help.title') }),
    el('dl', {}, rows),
    el('p', { text: t('help.touch') }),
  ]);
  // A <dialog> shown with showModal(); role and aria-modal are said outright for assistive
  // technology that does not infer them from the element.
  const root = /** @type {HTMLDialogElement} */ (
    el('dialog', { class: 'overlay help-overlay', role: 'dialog', 'aria-modal': 'true', 'aria-labelledby': 'help-title', id: 'help-overlay' }, [box])
  );
  return { root, close };
}

/** @param {import('./strings.js').Translate} t */
function buildExifPanel(t) {
  const close = closeButton(t('details.close'));
  const title = el('h2', { id: 'exif-title' });
  const list = el('dl');
  const note = el('p');
  const root = el('aside', { class: 'overlay exif-panel', 'aria-labelledby': 'exif-title', 'aria-live': 'polite', id: 'exif-panel' }, [
    close,
    title,
    list,
    note,
  ]);
  root.hidden = true;
  return {
    root,
    close,
    title,
    fill(rows, message) {
      list.replaceChildren(...rows.flatMap(([label, text]) => [el('dt', { text: label }), el('dd', { text })]));
      note.textContent = message;
      note.hidden = !message;
    },
  };
}

const FOCUSABLE = 'button, [href], input, select, textarea, video[controls], [tabindex]:not([tabindex="-1"])';

/**
 * Keeps Tab inside `root` (the help, the viewer): from its last focusable element to the
 * first, and back with Shift+Tab, skipping what is hidden or inert.
 * @param {HTMLElement} root
 * @param {KeyboardEvent} event a Tab keydown
 */
export function trapTab(root, event) {
  const active = document.activeElement;
  // A video's own controls (inside it) come first: the browser walks them.
  if (active instanceof HTMLMediaElement) return;
  const focusable = [...root.querySelectorAll(FOCUSABLE)].filter(
    (node) =>
      node instanceof HTMLElement &&
      !(/** @type {HTMLButtonElement} */ (node).disabled) &&
      !node.closest('[inert]') &&
      node.getClientRects().length > 0 &&
      getComputedStyle(node).visibility !== 'hidden',
  );
  if (!focusable.length) {
    event.preventDefault();
    return;
  }
  const first = /** @type {HTMLElement} */ (focusable[0]);
  const last = /** @type {HTMLElement} */ (focusable[focusable.length - 1]);
  const inside = active instanceof Node && active !== root && root.contains(active);
  const wrapTo = event.shiftKey ? (!inside || active === first ? last : null) : !inside || active === last ? first : null;
  if (wrapTo) {
    event.preventDefault();
    wrapTo.focus();
  }
}

function isTyping(target) {
  return target instanceof HTMLElement && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName));
}
