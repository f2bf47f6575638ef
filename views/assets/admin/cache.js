// The Thumbnail cache tab: files and bytes per size preset, the web copies of videos, and a
// button to clear them all.
import { api } from './api.js';
import { formatBytes, h, notify, replaceChildren } from './dom.js';
import { locale, t } from '../strings.js';

/** Sizes as the owner's language writes them. */
const size = (bytes) => formatBytes(bytes, locale());
/** A preset's name (server/core/media-catalogue.ts), in words where the catalogue has them. */
const presetName = (preset) => (['small', 'tile', 'row', 'medium', 'large'].includes(preset) ? t(`cache.${preset}`) : preset);

function table(stats) {
  return h(
    'table',
    { class: 'cache-table' },
    h(
      'thead',
      {},
      h('tr', {}, h('th', { text: t('cache.size') }), h('th', { class: 'num', text: t('cache.files') }), h('th', { class: 'num', text: t('cache.bytes') })),
    ),
    h(
      'tbody',
      {},
      Object.entries(stats.sizes).map(([preset, u]) =>
        h('tr', {}, h('td', { text: presetName(preset) }), h('td', { class: 'num', text: u.files }), h('td', { class: 'num', text: size(u.bytes) })),
      ),
      h('tr', {}, h('th', { text: t('cache.all') }), h('th', { class: 'num', text: stats.files }), h('th', { class: 'num', text: size(stats.bytes) })),
      // Remuxes and H.264 renditions of videos browsers cannot all play as they are.
      h(
        'tr',
        {},
        h('td', { text: t('cache.webVideos') }),
        h('td', { class: 'num', text: stats.webVideo.files }),
        h('td', { class: 'num', text: size(stats.webVideo.bytes) }),
      ),
      // Full-size JPEGs of HEIC and TIFF photos, made when a visitor asks for full resolution.
      h(
        'tr',
        {},
        h('td', { text: t('cache.fullSize') }),
        h('td', { class: 'num', text: stats.fullSize.files }),
        h('td', { class: 'num', text: size(stats.fullSize.bytes) }),
      ),
    ),
  );
}

export async function renderCacheStats() {
  const container = document.getElementById('cache-stats');
  let stats;
  try {
    stats = await api('GET', '/api/cache/stats');
  } catch (err) {
    replaceChildren(container, h('p', { class: 'form-error', text: err.message }));
    return;
  }
  const clear = async () => {
    if (!window.confirm(t('cache.confirmClear'))) return;
    try {
      const answer = await api('DELETE', '/api/cache/stats');
      const { removed } = answer;
      notify(
        t('cache.removed', {
          thumbnails: t('cache.thumbnails', { count: removed.files }),
          thumbnailBytes: size(removed.bytes),
          webVideos: t('cache.webVideoCount', { count: removed.webVideo.files }),
          webVideoBytes: size(removed.webVideo.bytes),
          fullSize: t('cache.fullSizeCount', { count: removed.fullSize.files }),
          fullSizeBytes: size(removed.fullSize.bytes),
        }),
      );
    } catch (err) {
      notify(err.message, { error: true });
    }
    await renderCacheStats();
  };
  replaceChildren(
    container,
    table(stats),
    h(
      'div',
      { class: 'row spaced' },
      h('button', { type: 'button', on: { click: renderCacheStats } }, t('cache.refresh')),
      h('button', { type: 'button', class: 'danger', on: { click: clear } }, t('cache.clearAll')),
    ),
    h('p', { class: 'hint', text: t('cache.hint') }),
  );
}
