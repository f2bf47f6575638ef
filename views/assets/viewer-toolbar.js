// The viewer's top bar and caption (lightbox.js): the dialog's accessible name, the help,
// details, full-resolution and download buttons, the caption line, where the visitor is (for
// screen readers), and the original photo on demand (the button, or zooming in past what the
// thumbnail holds). Kept apart from the lightbox's setup, which asks it whether a slide shows
// the original and to follow the slide.

const ICONS = {
  help: 'M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20Zm1 16h-2v-2h2v2Zm2.07-7.75-.9.92C13.45 11.9 13 12.5 13 14h-2v-.5c0-1.1.45-2.1 1.17-2.83l1.24-1.26A2 2 0 1 0 10 8H8a4 4 0 1 1 7.07 2.25Z',
  info: 'M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20Zm1 15h-2v-6h2v6Zm0-8h-2V7h2v2Z',
  original: 'M4 4h6v2H6v4H4V4Zm10 0h6v6h-2V6h-4V4ZM4 14h2v4h4v2H4v-6Zm14 0h2v6h-6v-2h4v-4Z',
  download: 'M11 3h2v9.17l3.59-3.58L18 10l-6 6-6-6 1.41-1.41L11 12.17V3Zm-6 15h14v2H5v-2Z',
};
const icon = (path) => `<svg aria-hidden="true" class="pswp__icn" viewBox="0 0 24 24" width="24" height="24"><path d="${path}"/></svg>`;

/**
 * @param {object} deps
 * @param {import('photoswipe/lightbox').default} deps.lightbox before `init()`
 * @param {import('./lightbox.js').Slides} deps.items the viewer's slides
 * @param {HTMLElement} deps.list the #media list
 * @param {ReturnType<typeof import('./overlays.js').createOverlays>} deps.overlays
 * @param {typeof import('./exif-format.js')} deps.format
 * @param {import('./strings.js').Translate} deps.t the page's words
 * @param {string} [deps.locale] the page's locale, for the caption's date
 */
export function createViewerToolbar({ lightbox, items, list, overlays, format, t, locale }) {
  const pswp = () => lightbox.pswp;
  const current = () => (pswp() ? items.get(pswp().currIndex) : undefined);
  /** Width of the thumbnail shown here (the server's media catalogue puts it on #media): wider photos have their original offered. */
  const largeWidth = Number(list.dataset.lightboxWidth);
  /** Indices shown from the original file instead of the large thumbnail. */
  const fullResolution = new Set();

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
    update();
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
    element.setAttribute('aria-label', list.dataset.viewerName ?? t('viewer.name'));
    element.setAttribute('aria-modal', 'true');
    ui.registerElement({
      name: 'help-button',
      order: 8,
      isButton: true,
      title: t('viewer.help'),
      html: icon(ICONS.help),
      onClick: () => overlays.toggleHelp(),
    });
    ui.registerElement({
      name: 'info-button',
      order: 9,
      isButton: true,
      title: t('viewer.details'),
      html: icon(ICONS.info),
      onInit: (el) => el.setAttribute('aria-pressed', 'false'),
      onClick: () => overlays.toggleExif(),
    });
    ui.registerElement({
      name: 'original-button',
      order: 11,
      isButton: true,
      title: t('viewer.fullResolution'),
      html: icon(ICONS.original),
      onClick: () => showOriginal(pswp().currIndex),
    });
    ui.registerElement({
      name: 'download-button',
      order: 12,
      isButton: true,
      tagName: 'a',
      title: t('viewer.downloadOriginal'),
      html: icon(ICONS.download),
      onInit: (el) => el.setAttribute('download', ''),
    });
    ui.registerElement({ name: 'caption', order: 9, appendTo: 'root', onInit: (el) => el.setAttribute('aria-live', 'polite') });
    // Where the visitor is, said by a screen reader at each slide ("Photo 3 of 48"): the
    // counter's "3 / 48" is read as a fraction, and only when it is reached.
    ui.registerElement({
      name: 'position',
      order: 9,
      appendTo: 'root',
      onInit: (el) => {
        el.classList.add('visually-hidden');
        el.setAttribute('aria-live', 'polite');
        el.setAttribute('aria-atomic', 'true');
      },
    });
  });

  /** The buttons and caption of the slide now shown. */
  function update() {
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
    const position = root.querySelector('.pswp__position');
    // The album's order, also right to left, where the slides run the other way (lightbox.js).
    if (position && item) {
      // `count`: a language may word the place by its number's plural form (positionPhoto_few, …).
      const place = { count: items.toAlbum(pswp().currIndex) + 1, total: items.total };
      position.textContent = t(item.kind === 'video' ? 'viewer.positionVideo' : 'viewer.positionPhoto', place);
    }
    const caption = root.querySelector('.pswp__caption');
    // The owner's caption, then when it was taken in the visitor's format; the file name is in
    // the details panel.
    if (caption) caption.textContent = [item?.caption, format.takenAt(item?.taken, locale)].filter(Boolean).join(' · ');
  }

  return {
    update,
    /** Whether the slide at `index` shows the original file rather than the large thumbnail. */
    showsOriginal: (index) => fullResolution.has(index),
  };
}
