// Entry point of the admin page: tabs, and each tab's content loaded when first shown.
import { renderAccessList } from './access-list.js';
import { currentAlbums, initAlbums, onAlbumsChanged, refreshSelectedAlbum, selectAlbum } from './albums.js';
import { renderAssetManager } from './assets.js';
import { renderCacheStats } from './cache.js';
import { renderHomeEditor } from './home.js';
import { renderPlaces } from './places.js';
import { loadSiteSettings, onSiteChanged } from './settings.js';
import { renderAddressBanner, renderSiteEditor } from './site.js';

const TABS = ['albums', 'access', 'home', 'assets', 'site', 'places', 'cache'];
const onShow = {
  access: () => void renderAccessList(currentAlbums(), openAlbum),
  home: renderHomeEditor,
  assets: renderAssetManager,
  site: renderSiteEditor,
  places: () => void renderPlaces(),
  cache: renderCacheStats,
};

function showTab(name) {
  const tab = TABS.includes(name) ? name : 'albums';
  for (const panel of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll('[data-panel]'))) panel.hidden = panel.dataset.panel !== tab;
  for (const link of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll('[data-tab]'))) {
    if (link.dataset.tab === tab) link.setAttribute('aria-current', 'page');
    else link.removeAttribute('aria-current');
  }
  onShow[tab]?.();
}

function openAlbum(path) {
  location.hash = '#albums';
  void selectAlbum(path);
}

async function start() {
  // Share links are built from the stored public address: known before any is shown.
  await loadSiteSettings().catch(() => undefined);
  renderAddressBanner();
  onSiteChanged(() => {
    renderAddressBanner();
    refreshSelectedAlbum();
    showTab(location.hash.slice(1));
  });
  onAlbumsChanged((albums) => {
    if (location.hash === '#access') void renderAccessList(albums, openAlbum);
  });
  initAlbums();
  window.addEventListener('hashchange', () => showTab(location.hash.slice(1)));
  showTab(location.hash.slice(1));
}

void start();
