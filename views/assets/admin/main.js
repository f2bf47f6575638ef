// Entry point of the admin page: tabs, and each tab's content loaded when first shown.
import { renderAccessList } from './access-list.js';
import { currentAlbums, initAlbums, onAlbumsChanged, refreshSelectedAlbum, selectAlbum } from './albums.js';
import { renderAssetManager } from './assets.js';
import { renderCacheStats } from './cache.js';
import { renderHomeEditor } from './home.js';
import { initPublicBaseInput } from './settings.js';

const TABS = ['albums', 'access', 'home', 'assets', 'cache'];
const onShow = {
  access: () => renderAccessList(currentAlbums(), openAlbum),
  home: renderHomeEditor,
  assets: renderAssetManager,
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

function start() {
  initPublicBaseInput(() => {
    refreshSelectedAlbum();
    showTab(location.hash.slice(1));
  });
  onAlbumsChanged((albums) => {
    if (location.hash === '#access') renderAccessList(albums, openAlbum);
  });
  initAlbums();
  window.addEventListener('hashchange', () => showTab(location.hash.slice(1)));
  showTab(location.hash.slice(1));
}

start();
