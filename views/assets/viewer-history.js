// The open viewer's place in the browser's history (README "The viewer"). Opening a photo
// adds one entry, the photo's deep link (`#photo=<file name>`), so that Back (a phone's Back
// button, the iOS edge swipe) closes the viewer instead of leaving the album. Moving between
// photos rewrites that entry rather than adding one per photo. Closing by button, Escape or
// swipe takes the entry away again, so the next Back leaves the album as usual.
//
// A deep link opened directly has no album entry under it: one is made (the link's entry
// becomes the album's, the photo's is pushed on top), so Back from that photo lands on the
// album too. Entries are marked in `history.state`, which survives a reload: a reloaded
// photo already has its album below and is not pushed twice.
//
// The album's entry does not restore its scroll position while the viewer is over it: going
// back to it would otherwise put the page where it was when the viewer opened, undoing the
// return to the last photo seen (lightbox.js). It restores as usual again once back on it.

/** The key of the mark in `history.state`. */
const MARK = 'photoViewer';

const isViewerEntry = () => Boolean(window.history.state?.[MARK]);
const albumUrl = () => window.location.pathname + window.location.search;
const photoUrl = (name) => `${albumUrl()}#photo=${encodeURIComponent(name)}`;

/** The page's state without the viewer's mark (other scripts may keep their own in it). */
function unmarked() {
  const state = window.history.state;
  if (!state || typeof state !== 'object') return state ?? null;
  const { [MARK]: _mark, ...rest } = state;
  return Object.keys(rest).length ? rest : null;
}

/**
 * @param {object} hooks
 * @param {() => void} hooks.onBack the visitor went back from the viewer's entry: close it
 */
export function createViewerHistory({ onBack }) {
  /** Our own `history.back()` is under way: its popstate is expected, not a visitor's Back. */
  let leaving = false;
  /** A photo shown while that back was under way, recorded once it has landed. */
  let waiting;

  window.addEventListener('popstate', () => {
    if (!isViewerEntry()) window.history.scrollRestoration = 'auto';
    if (leaving) {
      leaving = false;
      if (waiting !== undefined) {
        const name = waiting;
        waiting = undefined;
        show(name);
      }
      return;
    }
    if (!isViewerEntry()) onBack();
  });

  /** The viewer shows the file `name`: its entry is made, or rewritten. */
  function show(name) {
    if (leaving) {
      waiting = name;
      return;
    }
    const url = photoUrl(name);
    if (isViewerEntry()) {
      if (url !== albumUrl() + window.location.hash) window.history.replaceState(window.history.state, '', url);
      return;
    }
    const state = unmarked();
    window.history.replaceState(state, '', albumUrl());
    window.history.scrollRestoration = 'manual';
    window.history.pushState({ ...(state && typeof state === 'object' ? state : {}), [MARK]: true }, '', url);
  }

  /** The viewer closed: its entry goes, whatever closed it. */
  function leave() {
    waiting = undefined;
    if (leaving) return;
    if (isViewerEntry()) {
      // The entry below is the album's (made by show()).
      leaving = true;
      window.history.back();
    } else if (window.location.hash) {
      window.history.replaceState(window.history.state, '', albumUrl());
    }
  }

  /** The deep link names no photo of the album: the address loses it, and no entry stays marked. */
  function drop() {
    window.history.replaceState(unmarked(), '', albumUrl());
    window.history.scrollRestoration = 'auto';
  }

  return { show, leave, drop };
}
