// Choosing photos on the pages of files from many albums, search results and the timeline
// (README "Choosing photos"; album.js does their tiles, infinite scroll and viewer as on an
// album page): select.js with one ZIP of every chosen file whatever its album, shared as the
// page's own address. What differs between the pages comes from #media's data attributes:
// - `data-select-key`: names the page's choice in the tab's storage ('timeline', 'search:lisbon');
// - `data-select-share`: the page's address to share (a chosen photo alone opens on it, `#photo=`);
// - `data-select-heads` (optional): the headers among the tiles that get "select this month".

const chooserList = document.getElementById('media');
if (chooserList?.dataset.selectKey) void initChooser(chooserList);

/** @param {HTMLElement} list */
async function initChooser(list) {
  const header = document.querySelector('.album-header');
  if (!header) return;
  const assets = JSON.parse(list.dataset.assets ?? '{}');
  const [{ initSelect }, { formatBytes }, { t, locale }] = await Promise.all([import(assets.selectAcross), import(assets.byteSize), import(assets.strings)]);
  const pageUrl = new URL(list.dataset.selectShare ?? window.location.pathname, window.location.origin);
  const heads = list.dataset.selectHeads;
  initSelect(list, {
    t,
    formatSize: (bytes) => formatBytes(bytes, locale()),
    storageKey: list.dataset.selectKey ?? '',
    toolbar: header,
    across: true,
    ...(heads ? { groups: { head: heads, label: 'select.month' } } : {}),
    // The page's own address, never a share link's: each photo on it shows only to those who
    // may open its album. One chosen photo opens on it in the viewer.
    shareUrl: (paths) => (paths.length === 1 ? `${pageUrl.href}#photo=${encodeURIComponent(paths[0])}` : pageUrl.href),
    shareTitle: document.querySelector('h1')?.textContent ?? document.title,
  });
}
