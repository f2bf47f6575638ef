// Video slides of the lightbox (lightbox.js): a custom PhotoSwipe content type, a <video
// controls playsinline> with the large thumbnail as poster and the video's <source>s in the
// page's order (the original, the copy made for browsers that cannot play it:
// server/public/pages/video-sources.ts), fitted to the screen like a photo, played on arrival,
// and a notice while its web copy is being made. Kept apart from the lightbox's setup, which
// only asks for the <video> of a slide (videoIn) and to play it (autoplay).

/**
 * Makes videos a slide type of `lightbox`. PhotoSwipe sizes and places the frame around the
 * video like an image.
 * @param {import('photoswipe/lightbox').default} lightbox before `init()`
 * @param {import('./strings.js').Translate} t the page's words
 */
export function addVideoSlides(lightbox, t) {
  const pswp = () => lightbox.pswp;
  lightbox.on('contentLoad', (event) => {
    const { content } = event;
    if (content.type !== 'video') return;
    event.preventDefault();
    if (content.element) return;
    // A custom content type may use any element (PhotoSwipe's types name only its own two).
    const data = /** @type {VideoSlide} */ (/** @type {unknown} */ (content.data));
    const frame = createVideoFrame(data, () => pswp()?.currSlide?.content?.element === frame, t);
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
}

/**
 * Plays a video the visitor arrives on; a browser that refuses to start it with sound
 * without a tap (autoplay policies) gets it muted, which every browser allows. The visitor
 * can unmute it with its controls.
 * @param {HTMLVideoElement} video
 */
export function autoplay(video) {
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
 * @param {import('./strings.js').Translate} t
 */
function createVideoFrame(data, isCurrent, t) {
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
  retry.textContent = t('video.retry');
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
    message.textContent = t(state === 'ready' ? 'video.ready' : state === 'preparing' ? 'video.preparing' : 'video.unplayable');
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

/** The <video> of a slide's element, if it is a video slide. */
export function videoIn(element) {
  return element instanceof HTMLElement ? element.querySelector('video') : null;
}
