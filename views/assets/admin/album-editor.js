// The right-hand panel: one album's settings, sharing, uploads, media and cache.
import { api } from './api.js';
import { albumOrderSection } from './album-order.js';
import { encodePath, formatBytes, h, notify, replaceChildren } from './dom.js';
import { mediaSection } from './photo-actions.js';
import { publicBaseUrl } from './settings.js';
import { sharingSection } from './sharing.js';
import { albumUploader } from './upload.js';
import { locale, t } from '../strings.js';

/** album.json `style`: its values and what the owner reads. */
const STYLES = [
  ['grid', 'editor.styleGrid'],
  ['masonry', 'editor.styleMasonry'],
  ['single', 'editor.styleSingle'],
];
/** album.json `sort` (docs/api.md#albumjson): its values and what the owner reads. */
const SORTS = [
  ['name', 'editor.sortName'],
  ['date', 'editor.sortDate'],
];

/**
 * One uploader per album, kept across re-renders of the panel: the panel is redrawn after
 * every upload batch, and the per-file results must stay in view.
 */
const uploaders = new Map();
function uploaderFor(albumPath, reload) {
  if (!uploaders.has(albumPath)) uploaders.set(albumPath, albumUploader(albumPath, reload));
  return uploaders.get(albumPath);
}

/**
 * Renders `album` (GET /api/albums/{path}) into `panel`. `events` has:
 * changed(path) after a write, deleted(), newChild(path), albums() (every album),
 * treeChanged() (refresh the album tree only).
 */
export function renderAlbumEditor(panel, album, events) {
  const url = `/api/albums/${encodePath(album.path)}`;
  const reload = () => events.changed(album.path);

  async function save(patch, message) {
    try {
      await api('PUT', url, patch);
      notify(message);
      reload();
    } catch (err) {
      notify(err.message, { error: true });
    }
  }

  replaceChildren(
    panel,
    h(
      'div',
      { class: 'panel-head' },
      h('h2', { text: album.title }),
      h('span', { class: 'path', text: album.path }),
      h('a', { class: 'view-on-site', href: `${publicBaseUrl()}/photos/${encodePath(album.path)}`, target: '_blank', rel: 'noopener' }, t('editor.viewOnSite')),
      h('button', { type: 'button', class: 'small', on: { click: () => events.newChild(album.path) } }, t('editor.newChild')),
    ),
    settingsForm(album, save),
    albumOrderSection(album.path, events.albums(), events.treeChanged),
    sharingSection(album, { save, reload }),
    h('section', {}, h('h3', { text: t('editor.upload') }), uploaderFor(album.path, reload)),
    mediaSection(album, { save, reload, albums: events.albums }),
    cacheSection(album),
    dangerSection(album, url, events),
  );
}

function settingsForm(album, save) {
  const field = (input, label) => h('label', {}, label, input);
  const title = h('input', { name: 'title', value: album.title, required: true });
  const password = h('input', { name: 'password', value: album.password ?? '', autocomplete: 'off', placeholder: t('editor.none'), spellcheck: 'false' });
  const description = h('textarea', {
    name: 'description',
    value: album.description ?? '',
    maxlength: 5000,
    rows: 3,
    placeholder: t('editor.descriptionHint'),
  });
  // Text, not a date picker: an album's date may be a month or a year (`2019-07`, `2019`), as adopted folders get.
  const date = h('input', {
    name: 'date',
    value: album.date ?? '',
    pattern: '\\d{4}(-\\d{2}(-\\d{2})?)?',
    placeholder: t('editor.datePlaceholder'),
    inputmode: 'numeric',
    spellcheck: 'false',
  });
  const style = h(
    'select',
    { name: 'style' },
    STYLES.map(([value, label]) => h('option', { value, selected: value === album.style }, t(label))),
  );
  const sort = h(
    'select',
    { name: 'sort', title: t('editor.sortHelp') },
    SORTS.map(([value, label]) => h('option', { value, selected: value === album.sort }, t(label))),
  );
  const check = (name, label, help) => h('label', { class: 'check', title: help }, h('input', { type: 'checkbox', name, checked: album[name] }), label);
  const location = locationSwitch(album, save);
  const form = h(
    'form',
    { class: 'stack', 'aria-label': t('editor.settingsForm') },
    h(
      'div',
      { class: 'grid-form' },
      field(title, t('editor.title')),
      field(password, t('editor.password')),
      field(style, t('editor.layout')),
      field(sort, t('editor.order')),
      field(date, t('editor.date')),
    ),
    field(description, t('editor.description')),
    h(
      'div',
      { class: 'row' },
      check('hidden', t('editor.hidden'), t('editor.hiddenHelp')),
      check('isCollection', t('editor.collection'), t('editor.collectionHelp')),
    ),
    location.row,
    album.protected && !album.password ? h('p', { class: 'explain warn', text: t('editor.lockedAbove') }) : null,
    h('div', { class: 'row end' }, h('button', { type: 'submit', class: 'primary' }, t('editor.saveSettings'))),
  );
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const data = new FormData(form);
    save(
      {
        title: String(data.get('title')),
        password: String(data.get('password')),
        style: String(data.get('style')),
        // The default is no field at all: album.json stays as the owner wrote it.
        sort: data.get('sort') === 'date' ? 'date' : null,
        description: String(data.get('description')),
        date: String(data.get('date')),
        hidden: data.get('hidden') === 'on',
        isCollection: data.get('isCollection') === 'on',
        // Sent only once changed: an album that follows the one above keeps following it.
        ...location.patch(),
      },
      t('editor.settingsSaved'),
    );
  });
  return h('section', {}, h('h3', { text: t('editor.settings') }), form);
}

/**
 * The "Hide where photos were taken" switch (docs/api.md#location-privacy). An album without
 * its own setting follows the nearest album above that has one: the switch then shows that
 * inherited value, and saving leaves it inherited unless the switch was touched.
 */
function locationSwitch(album, save) {
  const own = album.hideLocation;
  const input = h('input', { type: 'checkbox', name: 'hideLocation', checked: own ?? album.inheritedHideLocation });
  let touched = false;
  const state = (on) => t(on ? 'editor.on' : 'editor.off');
  // An album with none above it inherits nothing: unset is the default, off.
  const inherited = album.parent === null ? t('editor.offByDefault') : t('editor.followsAbove', { state: state(album.inheritedHideLocation) });
  const note = h('span', {
    class: 'explain',
    text: own === null ? t('editor.notSetHere', { inherited }) : t('editor.setHere', { state: state(own) }),
  });
  input.addEventListener('change', () => {
    touched = true;
    note.textContent = t('editor.setHereOnceSaved', { state: state(input.checked) });
  });
  const follow =
    own === null
      ? null
      : h(
          'button',
          { type: 'button', class: 'small', on: { click: () => save({ hideLocation: null }, t('editor.locationRemoved')) } },
          t(album.parent === null ? 'editor.backToDefault' : 'editor.followAbove'),
        );
  const help = t('editor.locationHelp');
  return {
    row: h('div', { class: 'row' }, h('label', { class: 'check', title: help }, input, t('editor.hideLocation')), note, follow),
    patch: () => (touched ? { hideLocation: input.checked } : {}),
  };
}

function cacheSection(album) {
  const url = `/api/cache/album/${encodePath(album.path)}`;
  const out = h('span', { class: 'explain', text: '…' });
  const show = (stats) => {
    out.textContent = `${t('editor.thumbnails', { count: stats.files })}, ${formatBytes(stats.bytes, locale())}`;
  };
  api('GET', url).then(show, (err) => {
    out.textContent = err.message;
  });
  const clear = async () => {
    try {
      show(await api('DELETE', url));
      notify(t('editor.cacheCleared'));
    } catch (err) {
      notify(err.message, { error: true });
    }
  };
  return h(
    'section',
    {},
    h('h3', { text: t('editor.cache') }),
    h('div', { class: 'row' }, out, h('button', { type: 'button', class: 'small', on: { click: clear } }, t('common.clear'))),
  );
}

function dangerSection(album, url, events) {
  const remove = async () => {
    if (!window.confirm(t('editor.confirmDelete', { title: album.title, path: album.path }))) return;
    try {
      const answer = await api('DELETE', url);
      notify(t('editor.movedTo', { path: answer.trashedTo }));
      events.deleted();
    } catch (err) {
      notify(err.message, { error: true });
    }
  };
  return h(
    'section',
    {},
    h('h3', { text: t('editor.delete') }),
    h(
      'div',
      { class: 'row' },
      h('button', { type: 'button', class: 'danger', on: { click: remove } }, t('editor.deleteAlbum')),
      h('span', { class: 'explain', text: t('editor.deleteHelp') }),
    ),
  );
}
