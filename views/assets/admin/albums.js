// The Albums tab: the tree, the editor of the selected album, and the "new album" dialog.
import { renderAdoptable } from './adopt.js';
import { followPreparation } from './preparation.js';
import { renderAlbumEditor } from './album-editor.js';
import { albumOrderSection, childAlbumsOf } from './album-order.js';
import { renderAlbumTree } from './album-tree.js';
import { api } from './api.js';
import { encodePath, h, notify, replaceChildren } from './dom.js';
import { publicBaseUrl } from './settings.js';
import { slugOf } from './text.js';
import { t } from '../strings.js';

let albums = [];
let selected = null;
const listeners = new Set();

/** Other tabs (protected & shared) re-render when the album list changes. */
export function onAlbumsChanged(fn) {
  listeners.add(fn);
}

export function currentAlbums() {
  return albums;
}

export async function loadAlbums() {
  try {
    albums = await api('GET', '/api/albums');
  } catch (err) {
    notify(err.message, { error: true });
    return;
  }
  renderAlbumTree(document.getElementById('album-tree'), albums, selected, selectAlbum);
  for (const fn of listeners) fn(albums);
  await renderAdoptable(document.getElementById('adoptable'), loadAlbums);
}

/** Re-renders the open album (after the public site address changed, for its share link). */
export function refreshSelectedAlbum() {
  if (selected !== null) void selectAlbum(selected);
}

export async function selectAlbum(path) {
  selected = path;
  renderAlbumTree(document.getElementById('album-tree'), albums, selected, selectAlbum);
  const panel = document.getElementById('album-panel');
  if (!albums.some((a) => a.path === path)) {
    renderFolder(panel, path);
    return;
  }
  let album;
  try {
    album = await api('GET', `/api/albums/${encodePath(path)}`);
  } catch (err) {
    replaceChildren(panel, h('p', { class: 'form-error', text: err.message }));
    return;
  }
  if (selected !== path) return; // another album was chosen meanwhile
  renderAlbumEditor(panel, album, {
    changed: async (p) => {
      await loadAlbums();
      await selectAlbum(p);
    },
    deleted: async () => {
      selected = null;
      replaceChildren(panel, h('p', { class: 'empty', text: t('albums.deleted') }));
      await loadAlbums();
    },
    newChild: (p) => openNewAlbumDialog(`${p}/`),
    albums: () => albums,
    treeChanged: () => void loadAlbums(),
  });
}

/**
 * A plain folder (a year, a category), or the top of the tree (path ''): the order of the
 * albums directly in it, and a new album there.
 */
function renderFolder(panel, path) {
  const atTop = path === '';
  const order = albumOrderSection(path, albums, () => void loadAlbums());
  const count = childAlbumsOf(path, albums).length;
  const nothingToOrder = t(atTop ? (count === 1 ? 'albums.topOne' : 'albums.topNone') : count === 1 ? 'albums.folderOne' : 'albums.folderNone');
  replaceChildren(
    panel,
    h(
      'div',
      { class: 'panel-head' },
      h('h2', { text: atTop ? t('albums.all') : path.slice(path.lastIndexOf('/') + 1) }),
      h('span', { class: 'path', text: atTop ? t('albums.top') : t('albums.folder', { path }) }),
      h('button', { type: 'button', class: 'small', on: { click: () => openNewAlbumDialog(atTop ? '' : `${path}/`) } }, t('albums.newHere')),
    ),
    order ?? h('p', { class: 'explain', text: nothingToOrder }),
  );
}

/** The new-album dialog and its form (views/admin.ejs). */
function newAlbumDialog() {
  const dialog = /** @type {HTMLDialogElement} */ (document.getElementById('new-album-dialog'));
  const form = /** @type {HTMLFormElement} */ (document.getElementById('new-album-form'));
  const field = (/** @type {string} */ name) => /** @type {HTMLInputElement} */ (form.elements.namedItem(name));
  const error = /** @type {HTMLElement} */ (form.querySelector('.form-error'));
  return { dialog, form, field, error };
}

/** The path last suggested from the title: while the path field still holds it, a new title suggests another. */
let suggestedPath = '';

function openNewAlbumDialog(prefix = '') {
  const { dialog, form, field, error } = newAlbumDialog();
  form.reset();
  field('path').value = prefix;
  suggestedPath = prefix;
  showAddress();
  error.hidden = true;
  dialog.showModal();
  field('title').focus();
}

/** The new album's address on the public site, under the path field. */
function showAddress() {
  const { form, field } = newAlbumDialog();
  const path = field('path').value.trim().replace(/\/+$/, '');
  /** @type {HTMLElement} */ (form.querySelector('.address-preview')).textContent = path
    ? t('albums.address', { url: `${publicBaseUrl()}/photos/${encodePath(path)}` })
    : '';
}

/** "Beach Day" typed as the title makes the path's last folder "beach-day", unless the path was typed by hand. */
function suggestPath() {
  const { field } = newAlbumDialog();
  const path = field('path');
  if (path.value !== suggestedPath && path.value !== '' && !path.value.endsWith('/')) return;
  const dir = path.value.slice(0, path.value.lastIndexOf('/') + 1);
  path.value = `${dir}${slugOf(field('title').value)}`;
  suggestedPath = path.value;
  showAddress();
}

export function initAlbums() {
  const { dialog, form, field, error } = newAlbumDialog();
  document.getElementById('new-album-button').addEventListener('click', () => openNewAlbumDialog());
  form.querySelector('[data-close]').addEventListener('click', () => dialog.close());
  field('title').addEventListener('input', suggestPath);
  field('path').addEventListener('input', showAddress);
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const path = field('path').value.trim().replace(/\/+$/, '');
    try {
      await api('POST', '/api/albums', { path, title: field('title').value });
    } catch (err) {
      error.textContent = err.message;
      error.hidden = false;
      return;
    }
    dialog.close();
    notify(t('albums.created', { path }));
    await loadAlbums();
    await selectAlbum(path);
  });
  followPreparation(document.getElementById('preparation'));
  void loadAlbums();
}
