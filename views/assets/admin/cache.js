// The Thumbnail cache tab: files and bytes per size preset, the web copies of videos, and a
// button to clear them all.
import { api } from './api.js';
import { formatBytes, h, notify, replaceChildren } from './dom.js';
import { countOf } from './text.js';

function table(stats) {
  return h(
    'table',
    { class: 'cache-table' },
    h('thead', {}, h('tr', {}, h('th', { text: 'Size' }), h('th', { class: 'num', text: 'Files' }), h('th', { class: 'num', text: 'Bytes' }))),
    h(
      'tbody',
      {},
      Object.entries(stats.sizes).map(([size, u]) =>
        h('tr', {}, h('td', { text: size }), h('td', { class: 'num', text: u.files }), h('td', { class: 'num', text: formatBytes(u.bytes) })),
      ),
      h('tr', {}, h('th', { text: 'All' }), h('th', { class: 'num', text: stats.files }), h('th', { class: 'num', text: formatBytes(stats.bytes) })),
      // Remuxes and H.264 renditions of videos browsers cannot all play as they are.
      h(
        'tr',
        {},
        h('td', { text: 'web videos' }),
        h('td', { class: 'num', text: stats.webVideo.files }),
        h('td', { class: 'num', text: formatBytes(stats.webVideo.bytes) }),
      ),
      // Full-size JPEGs of HEIC and TIFF photos, made when a visitor asks for full resolution.
      h(
        'tr',
        {},
        h('td', { text: 'full-size JPEGs' }),
        h('td', { class: 'num', text: stats.fullSize.files }),
        h('td', { class: 'num', text: formatBytes(stats.fullSize.bytes) }),
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
    if (!window.confirm('Remove every cached thumbnail, web video and full-size JPEG?')) return;
    try {
      const answer = await api('DELETE', '/api/cache/stats');
      const { removed } = answer;
      notify(
        `Removed ${countOf(removed.files, 'thumbnail')} (${formatBytes(removed.bytes)}), ${countOf(removed.webVideo.files, 'web video')} (${formatBytes(removed.webVideo.bytes)}) and ${countOf(removed.fullSize.files, 'full-size JPEG')} (${formatBytes(removed.fullSize.bytes)})`,
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
      h('button', { type: 'button', on: { click: renderCacheStats } }, 'Refresh'),
      h('button', { type: 'button', class: 'danger', on: { click: clear } }, 'Clear all thumbnails and web videos'),
    ),
    h('p', { class: 'hint', text: 'One album’s thumbnails can be cleared from its page in the Albums tab.' }),
  );
}
