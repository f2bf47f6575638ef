// The right-hand panel: one album's settings, sharing, uploads, media and cache.
import { api } from './api.js';
import { copyText, encodePath, formatBytes, h, notify, replaceChildren } from './dom.js';
import { shareLink } from './settings.js';
import { shareLinksSection } from './share-links.js';
import { albumUploader } from './upload.js';

const STYLES = ['grid', 'masonry', 'single'];

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
 * changed(path) after a write, deleted(), newChild(path).
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
      h('button', { type: 'button', class: 'small', on: { click: () => events.newChild(album.path) } }, 'New child album'),
    ),
    settingsForm(album, save),
    sharingSection(album, url, reload),
    shareLinksSection(album, reload),
    h('section', {}, h('h3', { text: 'Upload' }), uploaderFor(album.path, reload)),
    mediaSection(album, save),
    cacheSection(album),
    dangerSection(album, url, events),
  );
}

function settingsForm(album, save) {
  const field = (input, label) => h('label', {}, label, input);
  const title = h('input', { name: 'title', value: album.title, required: true });
  const password = h('input', { name: 'password', value: album.password ?? '', autocomplete: 'off', placeholder: 'none', spellcheck: 'false' });
  const order = h('input', { name: 'order', type: 'number', step: 'any', value: album.order ?? '' });
  const style = h(
    'select',
    { name: 'style' },
    STYLES.map((s) => h('option', { value: s, selected: s === album.style }, s)),
  );
  const check = (name, label, help) => h('label', { class: 'check', title: help }, h('input', { type: 'checkbox', name, checked: album[name] }), label);
  const form = h(
    'form',
    { class: 'stack', 'aria-label': 'Album settings' },
    h(
      'div',
      { class: 'grid-form' },
      field(title, 'Title'),
      field(password, 'Password (empty: none)'),
      field(style, 'Layout'),
      field(order, 'Order (lower first)'),
    ),
    h(
      'div',
      { class: 'row' },
      check('hidden', 'Hidden', 'Left out of listings, still reachable by its address'),
      check('isCollection', 'Collection', 'The album page shows its child albums as cards'),
      check('allowAnonymous', 'Share link opens it', 'Anyone with the share link sees the album without the password'),
    ),
    album.protected && !album.password
      ? h('p', { class: 'explain warn', text: 'Locked by the password of an album above it: unlocking that one opens this one too.' })
      : null,
    h('div', { class: 'row end' }, h('button', { type: 'submit', class: 'primary' }, 'Save settings')),
  );
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const data = new FormData(form);
    const orderText = String(data.get('order')).trim();
    save(
      {
        title: String(data.get('title')),
        password: String(data.get('password')),
        style: String(data.get('style')),
        order: orderText === '' ? null : Number(orderText),
        hidden: data.get('hidden') === 'on',
        isCollection: data.get('isCollection') === 'on',
        allowAnonymous: data.get('allowAnonymous') === 'on',
      },
      'Settings saved',
    );
  });
  return h('section', {}, h('h3', { text: 'Settings' }), form);
}

function sharingSection(album, url, reload) {
  if (!album.protected) return publicSharingSection(album);
  const link = shareLink(album.sharePath);
  const linkInput = h('input', { readonly: true, value: link, 'aria-label': 'Share link' });
  const rotate = async () => {
    const ok = window.confirm(
      'Rotate the token of this album?\n\nEveryone who unlocked it, and every share link given out so far, loses access at once (also to the child albums this one unlocks). People with the password can unlock it again; share links must be sent anew.',
    );
    if (!ok) return;
    try {
      await api('POST', `${url}?action=rotate-token`);
      notify('Token rotated: old unlocks and links no longer work');
      reload();
    } catch (err) {
      notify(err.message, { error: true });
    }
  };
  return h(
    'section',
    {},
    h('h3', { text: 'Sharing' }),
    h('p', { class: 'explain', text: 'One link for everyone, with the album’s token (links per person are below):' }),
    h('div', { class: 'row' }, linkInput, h('button', { type: 'button', on: { click: () => copyText(linkInput.value, linkInput) } }, 'Copy link')),
    h(
      'p',
      { class: 'explain' },
      album.allowAnonymous
        ? 'Anyone with this link sees the album (and its child albums without a password of their own) without typing the password.'
        : 'This link opens the album only when “Share link opens it” is on; until then visitors need the password.',
    ),
    h('p', { class: 'explain' }, 'Token: ', h('code', { text: album.token ?? '(not generated yet)' })),
    h(
      'div',
      { class: 'row' },
      h('button', { type: 'button', class: 'danger', on: { click: rotate } }, 'Rotate token'),
      h('span', { class: 'explain', text: 'Revokes every unlock and every share link given out so far.' }),
    ),
  );
}

/** A public album needs no link: its address opens it for anyone. */
function publicSharingSection(album) {
  const address = shareLink(`/photos/${encodePath(album.path)}`);
  const input = h('input', { readonly: true, value: address, 'aria-label': 'Address of the album' });
  return h(
    'section',
    {},
    h('h3', { text: 'Sharing' }),
    h(
      'p',
      { class: 'explain' },
      'This album is public: anyone with its address can open it and download its photos, no password or link needed. To keep it to some people, give it a password.',
    ),
    h('div', { class: 'row' }, input, h('button', { type: 'button', on: { click: () => copyText(input.value, input) } }, 'Copy address')),
  );
}

function mediaSection(album, save) {
  if (album.media.length === 0) return h('section', {}, h('h3', { text: 'Media' }), h('p', { class: 'empty', text: 'No photos or videos yet.' }));
  const figures = album.media.map((m) => {
    const src = `${m.url}?v=${encodeURIComponent(m.modified)}`;
    const preview =
      m.kind === 'image'
        ? h('img', { src, alt: m.name, loading: 'lazy', decoding: 'async' })
        : h('video', { src, preload: 'metadata', muted: true, controls: true });
    const isCover = album.thumbnail === m.name;
    return h(
      'figure',
      { class: isCover ? 'cover' : null, dataset: { name: m.name } },
      preview,
      h('figcaption', { text: `${m.name} · ${formatBytes(m.size)}`, title: m.name }),
      isCover ? null : h('button', { type: 'button', class: 'small pick', on: { click: () => save({ thumbnail: m.name }, 'Cover set') } }, 'Cover'),
    );
  });
  return h(
    'section',
    {},
    h(
      'div',
      { class: 'row' },
      h('h3', { text: `Media · ${album.photoCount} photos, ${album.videoCount} videos` }),
      album.thumbnail
        ? h(
            'button',
            { type: 'button', class: 'small', on: { click: () => save({ thumbnail: null }, 'Cover reset to the first photo') } },
            'Use first photo as cover',
          )
        : h('span', { class: 'explain', text: 'Cover: the first photo (pick another with “Cover”).' }),
    ),
    h('div', { class: 'media-grid', id: 'media-grid' }, figures),
  );
}

function cacheSection(album) {
  const url = `/api/cache/album/${encodePath(album.path)}`;
  const out = h('span', { class: 'explain', text: '…' });
  const show = (stats) => {
    out.textContent = `${stats.files} thumbnails, ${formatBytes(stats.bytes)}`;
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
