// The Albums tab: the tree, the editor of the selected album, and the "new album" dialog.
import { renderAlbumEditor } from './album-editor.js';
import { renderAlbumTree } from './album-tree.js';
import { api } from './api.js';
import { encodePath, h, notify, replaceChildren } from './dom.js';

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
}

/** Re-renders the open album (after the public site address changed, for its share link). */
export function refreshSelectedAlbum() {
  if (selected) void selectAlbum(selected);
}

export async function selectAlbum(path) {
  selected = path;
  renderAlbumTree(document.getElementById('album-tree'), albums, selected, selectAlbum);
  const panel = document.getElementById('album-panel');
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
      replaceChildren(panel, h('p', { class: 'empty', text: 'Album deleted.' }));
      await loadAlbums();
    },
    newChild: (p) => openNewAlbumDialog(`${p}/`),
  });
}

/** The new-album dialog and its form (views/admin.ejs). */
function newAlbumDialog() {
  const dialog = /** @type {HTMLDialogElement} */ (document.getElementById('new-album-dialog'));
  const form = /** @type {HTMLFormElement} */ (document.getElementById('new-album-form'));
  const field = (/** @type {string} */ name) => /** @type {HTMLInputElement} */ (form.elements.namedItem(name));
  const error = /** @type {HTMLElement} */ (form.querySelector('.form-error'));
  return { dialog, form, field, error };
}

function openNewAlbumDialog(prefix = '') {
  const { dialog, form, field, error } = newAlbumDialog();
  form.reset();
  field('path').value = prefix;
  error.hidden = true;
  dialog.showModal();
  field('path').focus();
}

export function initAlbums() {
  const { dialog, form, field, error } = newAlbumDialog();
  document.getElementById('new-album-button').addEventListener('click', () => openNewAlbumDialog());
  form.querySelector('[data-close]').addEventListener('click', () => dialog.close());
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
    notify(`Album ${path} created`);
    await loadAlbums();
    await selectAlbum(path);
  });
  void loadAlbums();
}
