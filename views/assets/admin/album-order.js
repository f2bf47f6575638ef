// The order of the child albums of a folder or album: dragged into place, or moved with the
// ↑ ↓ buttons from the keyboard. Every change is saved at once (PUT /api/album-order writes
// each album's `order`: 1, 2, 3…), and the gallery lists them so.
import { api } from './api.js';
import { h, notify } from './dom.js';
import { t } from '../strings.js';

const parentOf = (path) => (path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '');
const nameOf = (path) => path.slice(path.lastIndexOf('/') + 1);

/** As the gallery lists them (server/core/albums/scan.ts): by `order`, albums without one last, then by title. */
function galleryOrder(a, b) {
  const oa = a.order ?? Number.POSITIVE_INFINITY;
  const ob = b.order ?? Number.POSITIVE_INFINITY;
  if (oa !== ob) return oa < ob ? -1 : 1;
  return a.title.localeCompare(b.title, undefined, { numeric: true });
}

/** The albums directly inside `parentPath` ('' for the top), in the gallery's order. */
export function childAlbumsOf(parentPath, albums) {
  return albums.filter((a) => parentOf(a.path) === parentPath).sort(galleryOrder);
}

/**
 * The section listing the child albums of `parentPath` ('' for the albums at the top of the
 * tree) to reorder; null when there are fewer than two. `onSaved` runs after each saved change (the album tree refreshes).
 */
export function albumOrderSection(parentPath, albums, onSaved) {
  const children = childAlbumsOf(parentPath, albums);
  if (children.length < 2) return null;
  const atTop = parentPath === '';
  const list = h('ol', {
    class: 'order-list',
    'aria-label': t(atTop ? 'order.topLabel' : 'order.childLabel'),
  });

  // One save at a time, each sending the list as it is when its turn comes: quick ↑ ↑ ↑ end
  // in the last order, whatever the network does with the requests.
  let saving = Promise.resolve();
  function save() {
    saving = saving.then(async () => {
      const names = [...list.children].map((li) => nameOf(/** @type {HTMLElement} */ (li).dataset.path));
      try {
        await api('PUT', '/api/album-order', { parent: parentPath, albums: names });
        notify(t('order.saved'));
        onSaved();
      } catch (err) {
        notify(err.message, { error: true });
      }
    });
  }

  function refreshButtons() {
    const items = [...list.children];
    items.forEach((li, i) => {
      /** @type {HTMLButtonElement} */ (li.querySelector('[data-move="-1"]')).disabled = i === 0;
      /** @type {HTMLButtonElement} */ (li.querySelector('[data-move="1"]')).disabled = i === items.length - 1;
    });
  }

  function move(li, delta) {
    const sibling = delta < 0 ? li.previousElementSibling : li.nextElementSibling;
    if (!sibling) return;
    if (delta < 0) sibling.before(li);
    else sibling.after(li);
    refreshButtons();
    // The focus stays with the album; at the first or last place its other arrow takes it.
    const same = /** @type {HTMLButtonElement} */ (li.querySelector(`[data-move="${delta}"]`));
    (same.disabled ? /** @type {HTMLButtonElement} */ (li.querySelector(`[data-move="${-delta}"]`)) : same).focus();
    save();
  }

  let dragged = null;
  let before = '';
  for (const album of children) {
    const li = h(
      'li',
      { draggable: 'true', dataset: { path: album.path } },
      h('span', { class: 'drag-handle', 'aria-hidden': 'true', text: '⠿' }),
      h('span', { class: 'order-title', text: album.title }),
      h('span', { class: 'hint', text: nameOf(album.path) }),
      h(
        'button',
        { type: 'button', class: 'small', dataset: { move: '-1' }, 'aria-label': t('order.moveUp', { title: album.title }), on: { click: () => move(li, -1) } },
        '↑',
      ),
      h(
        'button',
        { type: 'button', class: 'small', dataset: { move: '1' }, 'aria-label': t('order.moveDown', { title: album.title }), on: { click: () => move(li, 1) } },
        '↓',
      ),
    );
    li.addEventListener('dragstart', (e) => {
      dragged = li;
      before = [...list.children].map((x) => /** @type {HTMLElement} */ (x).dataset.path).join('\n');
      li.classList.add('dragging');
      e.dataTransfer.effectAllowed = 'move';
      e.dataTransfer.setData('text/plain', album.path);
    });
    li.addEventListener('dragover', (e) => {
      if (!dragged || dragged === li) return;
      e.preventDefault();
      const box = li.getBoundingClientRect();
      if (e.clientY < box.top + box.height / 2) li.before(dragged);
      else li.after(dragged);
    });
    li.addEventListener('drop', (e) => e.preventDefault());
    li.addEventListener('dragend', () => {
      li.classList.remove('dragging');
      dragged = null;
      refreshButtons();
      const after = [...list.children].map((x) => /** @type {HTMLElement} */ (x).dataset.path).join('\n');
      if (after !== before) save();
    });
    list.append(li);
  }
  refreshButtons();

  return h(
    'section',
    { class: 'order-section' },
    h('h3', { text: t(atTop ? 'order.topTitle' : 'order.childTitle') }),
    h('p', { class: 'hint', text: t('order.hint') }),
    // Folders are ordered by name, years newest first (server/core/albums/scan.ts): nothing to arrange there.
    atTop ? h('p', { class: 'hint', text: t('order.foldersFirst') }) : null,
    list,
  );
}
