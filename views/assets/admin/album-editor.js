// The right-hand panel: one album's settings, sharing, uploads, media and cache.
import { api } from './api.js';
import { albumOrderSection } from './album-order.js';
import { encodePath, formatBytes, h, notify, replaceChildren } from './dom.js';
import { mediaSection } from './photo-actions.js';
import { publicBaseUrl } from './settings.js';
import { countOf } from './text.js';
import { sharingSection } from './sharing.js';
import { albumUploader } from './upload.js';

const STYLES = ['grid', 'masonry', 'single'];
/** album.json `sort` (docs/api.md#albumjson): its values and what the owner reads. */
const SORTS = [
  ['name', 'File name'],
  ['date', 'Date taken'],
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
      h('a', { class: 'view-on-site', href: `${publicBaseUrl()}/photos/${encodePath(album.path)}`, target: '_blank', rel: 'noopener' }, 'View on site'),
      h('button', { type: 'button', class: 'small', on: { click: () => events.newChild(album.path) } }, 'New child album'),
    ),
    settingsForm(album, save),
    albumOrderSection(album.path, events.albums(), events.treeChanged),
    sharingSection(album, { save, reload }),
    h('section', {}, h('h3', { text: 'Upload' }), uploaderFor(album.path, reload)),
    mediaSection(album, { save, reload, albums: events.albums }),
    cacheSection(album),
    dangerSection(album, url, events),
  );
}

function settingsForm(album, save) {
  const field = (input, label) => h('label', {}, label, input);
  const title = h('input', { name: 'title', value: album.title, required: true });
  const password = h('input', { name: 'password', value: album.password ?? '', autocomplete: 'off', placeholder: 'none', spellcheck: 'false' });
  const description = h('textarea', {
    name: 'description',
    value: album.description ?? '',
    maxlength: 5000,
    rows: 3,
    placeholder: 'Shown under the title on the album page',
  });
  // Text, not a date picker: an album's date may be a month or a year (`2019-07`, `2019`), as adopted folders get.
  const date = h('input', {
    name: 'date',
    value: album.date ?? '',
    pattern: '\\d{4}(-\\d{2}(-\\d{2})?)?',
    placeholder: '2019-07-14, 2019-07 or 2019',
    inputmode: 'numeric',
    spellcheck: 'false',
  });
  const style = h(
    'select',
    { name: 'style' },
    STYLES.map((s) => h('option', { value: s, selected: s === album.style }, s)),
  );
  const sort = h(
    'select',
    { name: 'sort', title: 'Date taken: from the camera (EXIF), else the file time; ties by file name' },
    SORTS.map(([value, label]) => h('option', { value, selected: value === album.sort }, label)),
  );
  const check = (name, label, help) => h('label', { class: 'check', title: help }, h('input', { type: 'checkbox', name, checked: album[name] }), label);
  const location = locationSwitch(album, save);
  const form = h(
    'form',
    { class: 'stack', 'aria-label': 'Album settings' },
    h(
      'div',
      { class: 'grid-form' },
      field(title, 'Title'),
      field(password, 'Password (empty: none)'),
      field(style, 'Layout'),
      field(sort, 'Order of photos'),
      field(date, 'Date (shown in the header)'),
    ),
    field(description, 'Description'),
    h(
      'div',
      { class: 'row' },
      check('hidden', 'Hidden', 'Left out of listings, still reachable by its address'),
      check('isCollection', 'Collection', 'The album page shows its child albums as cards'),
    ),
    location.row,
    album.protected && !album.password
      ? h('p', { class: 'explain warn', text: 'Locked by the password of an album above it: unlocking that one opens this one too.' })
      : null,
    h('div', { class: 'row end' }, h('button', { type: 'submit', class: 'primary' }, 'Save settings')),
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
      'Settings saved',
    );
  });
  return h('section', {}, h('h3', { text: 'Settings' }), form);
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
  const state = (on) => (on ? 'on' : 'off');
  // An album with none above it inherits nothing: unset is the default, off.
  const inherited = album.parent === null ? 'off by default' : `follows the albums above (${state(album.inheritedHideLocation)})`;
  const note = h('span', {
    class: 'explain',
    text: own === null ? `Not set here: ${inherited}.` : `Set here (${state(own)}), for this album and the albums below it that have no setting of their own.`,
  });
  input.addEventListener('change', () => {
    touched = true;
    note.textContent = `Set here (${state(input.checked)}) once saved.`;
  });
  const follow =
    own === null
      ? null
      : h(
          'button',
          { type: 'button', class: 'small', on: { click: () => save({ hideLocation: null }, 'Location setting removed from this album') } },
          album.parent === null ? 'Back to the default' : 'Follow the albums above',
        );
  const help =
    'Visitors get originals, videos and downloads without the GPS position and place names they carry (the files on disk keep them). Thumbnails never carry them.';
  return {
    row: h('div', { class: 'row' }, h('label', { class: 'check', title: help }, input, 'Hide where photos were taken'), note, follow),
    patch: () => (touched ? { hideLocation: input.checked } : {}),
  };
}

function cacheSection(album) {
  const url = `/api/cache/album/${encodePath(album.path)}`;
  const out = h('span', { class: 'explain', text: '…' });
  const show = (stats) => {
    out.textContent = `${countOf(stats.files, 'thumbnail')}, ${formatBytes(stats.bytes)}`;
  };
  api('GET', url).then(show, (err) => {
    out.textContent = err.message;
  });
  const clear = async () => {
    try {
      show(await api('DELETE', url));
      notify('Thumbnails of this album cleared');
    } catch (err) {
      notify(err.message, { error: true });
    }
  };
  return h(
    'section',
    {},
    h('h3', { text: 'Thumbnail cache' }),
    h('div', { class: 'row' }, out, h('button', { type: 'button', class: 'small', on: { click: clear } }, 'Clear')),
  );
}

function dangerSection(album, url, events) {
  const remove = async () => {
    if (
      !window.confirm(
        `Delete “${album.title}” (${album.path}) and everything in it, child albums included?\n\nThe folder is moved to ALBUMS_DIR/.trash/, nothing is destroyed.`,
      )
    )
      return;
    try {
      const answer = await api('DELETE', url);
      notify(`Moved to ${answer.trashedTo}`);
      events.deleted();
    } catch (err) {
      notify(err.message, { error: true });
    }
  };
  return h(
    'section',
    {},
    h('h3', { text: 'Delete' }),
    h(
      'div',
      { class: 'row' },
      h('button', { type: 'button', class: 'danger', on: { click: remove } }, 'Delete album'),
      h('span', { class: 'explain', text: 'Moves the album folder to .trash inside the albums folder.' }),
    ),
  );
}
