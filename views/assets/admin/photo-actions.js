// The media of one album: a grid of previews (thumbnails and video posters, never the
// originals), and for each photo or video a dialog with what the owner can do to it: caption,
// rename, move to another album, rotate (never re-encoded), make it the cover, delete it.
// Every action is one call of the admin API (docs/api.md#admin-server).
import { api } from './api.js';
import { encodePath, formatBytes, h, notify, replaceChildren } from './dom.js';
import { countsOf } from './text.js';

/** A Live Photo's movie is shown with its still, never as a tile of its own. */
const isLiveMovie = (m) => m.kind === 'video' && m.livePair !== null;

const extensionOf = (name) => {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot) : '';
};

/** How "Rotate" turns each kind of file (the server says which applies: `turnedBy`, docs/api.md#rotations). */
const TURN_HINTS = {
  'exif-orientation': 'Turned losslessly, through its orientation tag.',
  'album-rotation': 'The original stays as it is (downloads too); the gallery shows it turned.',
  'display-matrix': 'Turned without re-encoding, through its display matrix.',
};

/**
 * The "Media" section of an album. `ctx`: { save(patch, message) (PUT of the album),
 * reload() (re-render the album after a change), albums() (every album, for "move to") }.
 */
export function mediaSection(album, ctx) {
  const tiles = album.media.filter((m) => !isLiveMovie(m));
  const heading = h('h3', {
    text: `Media · ${
      countsOf([
        [album.photoCount, 'photo'],
        [album.videoCount, 'video'],
      ]) || 'none yet'
    }`,
  });
  if (tiles.length === 0) return h('section', {}, heading, h('p', { class: 'empty', text: 'No photos or videos yet.' }));
  const dialog = photoDialog(album, ctx);
  const figures = tiles.map((m) => {
    const isCover = album.thumbnail === m.name;
    const badges = [
      m.kind === 'video' ? h('span', { class: 'tile-badge', text: '▶ video' }) : null,
      m.livePair ? h('span', { class: 'tile-badge', text: 'LIVE' }) : null,
      isCover ? h('span', { class: 'tile-badge cover-badge', text: 'cover' }) : null,
    ];
    return h(
      'figure',
      { class: isCover ? 'cover' : null, dataset: { name: m.name } },
      h(
        'button',
        {
          type: 'button',
          class: 'tile',
          title: m.caption ?? m.name,
          'aria-label': `${m.name}: caption, rename, move, rotate, delete`,
          on: { click: () => dialog.open(m) },
        },
        preview(m),
        h('span', { class: 'tile-badges' }, badges),
      ),
      h(
        'figcaption',
        {},
        h('span', { class: 'tile-name', text: m.name, title: m.name }),
        m.caption ? h('span', { class: 'tile-caption', text: m.caption }) : null,
      ),
    );
  });
  return h(
    'section',
    {},
    h(
      'div',
      { class: 'row' },
      heading,
      album.thumbnail
        ? h(
            'button',
            { type: 'button', class: 'small', on: { click: () => ctx.save({ thumbnail: null }, 'Cover reset to the first photo') } },
            'Use first photo as cover',
          )
        : h('span', { class: 'explain', text: 'Cover: the first photo (choose another in a photo’s panel).' }),
    ),
    h('p', { class: 'hint', text: 'Click a photo or video to caption, rename, move, rotate or delete it.' }),
    h('div', { class: 'media-grid', id: 'media-grid' }, figures),
  );
}

/** The thumbnail, or a video's poster frame, with a placeholder when it cannot be made (a broken file). */
function preview(m, size = 'small') {
  const img = h('img', { src: m.preview.replace('size=small', `size=${size}`), alt: m.caption ?? m.name, loading: 'lazy', decoding: 'async' });
  img.addEventListener('error', () => img.replaceWith(h('span', { class: 'tile-missing', text: 'No preview' })), { once: true });
  return img;
}

function photoDialog(album, ctx) {
  const albumUrl = `/api/albums/${encodePath(album.path)}`;
  // One dialog for the page, kept when the album panel is drawn again behind it (after a caption or a rotation).
  let dialog = /** @type {HTMLDialogElement | null} */ (document.getElementById('photo-dialog'));
  if (!dialog) {
    dialog = /** @type {HTMLDialogElement} */ (h('dialog', { id: 'photo-dialog', class: 'photo-dialog', 'aria-label': 'Photo or video' }));
    document.body.append(dialog);
  }

  async function act(promise, message, { close = true } = {}) {
    try {
      const result = await promise;
      notify(message);
      if (close) dialog.close();
      ctx.reload();
      return result;
    } catch (err) {
      notify(err.message, { error: true });
      return undefined;
    }
  }

  function render(m) {
    const url = `/api/media/${encodePath(album.path)}/${encodeURIComponent(m.name)}`;
    const post = (action, body) => api('POST', `${url}?action=${action}`, body);
    const ext = extensionOf(m.name);

    const caption = h('input', { name: 'caption', value: m.caption ?? '', maxlength: 1000, placeholder: 'Shown in the viewer and as alt text' });
    const captionForm = h('form', { class: 'row' }, h('label', { class: 'grow' }, 'Caption', caption), h('button', { type: 'submit' }, 'Save caption'));
    captionForm.addEventListener('submit', (e) => {
      e.preventDefault();
      void act(post('caption', { caption: caption.value }), caption.value.trim() ? 'Caption saved' : 'Caption removed', { close: false });
    });

    const stem = h('input', { name: 'name', value: m.name.slice(0, m.name.length - ext.length), required: true, spellcheck: 'false' });
    const renameForm = h(
      'form',
      { class: 'row' },
      h('label', { class: 'grow' }, 'Name', h('span', { class: 'row nowrap' }, stem, h('span', { class: 'ext', text: ext }))),
      h('button', { type: 'submit' }, 'Rename'),
    );
    renameForm.addEventListener('submit', (e) => {
      e.preventDefault();
      const name = `${stem.value.trim()}${ext}`;
      void act(post('rename', { name }), `Renamed to ${name}${m.livePair ? ' (its Live Photo movie too)' : ''}`);
    });

    const others = ctx.albums().filter((a) => a.path !== album.path);
    const target = h(
      'select',
      { name: 'album' },
      others.map((a) => h('option', { value: a.path, text: `${a.title} — ${a.path}` })),
    );
    const moveForm = h(
      'form',
      { class: 'row' },
      h('label', { class: 'grow' }, 'Move to album', target),
      h('button', { type: 'submit', disabled: others.length === 0 }, 'Move'),
    );
    moveForm.addEventListener('submit', (e) => {
      e.preventDefault();
      void act(post('move', { album: target.value }), `Moved to ${target.value}`);
    });

    const rotate = (degrees) => async () => {
      const done = await act(post('rotate', { degrees }), degrees > 0 ? 'Turned right' : 'Turned left', { close: false });
      if (!done) return;
      // A new version of the file, or a new turn of it: its preview has a new URL.
      const fresh = (await api('GET', albumUrl)).media.find((f) => f.name === m.name);
      if (fresh) render(fresh);
    };

    const remove = () => {
      const also = m.livePair ? ` and its Live Photo movie ${m.livePair}` : '';
      if (!window.confirm(`Delete ${m.name}${also}?\n\nThe file is moved to ALBUMS_DIR/.trash/, nothing is destroyed.`)) return;
      void act(api('DELETE', url), `${m.name} moved to the trash`);
    };

    const big =
      m.kind === 'video'
        ? h('video', { controls: true, preload: 'none', poster: m.preview.replace('size=small', 'size=medium'), src: m.url })
        : preview(m, 'medium');

    replaceChildren(
      dialog,
      h(
        'div',
        { class: 'photo-panel' },
        h('div', { class: 'photo-preview' }, big),
        h(
          'div',
          { class: 'stack' },
          h('h2', { text: m.name }),
          h('p', {
            class: 'hint',
            text: `${m.kind === 'video' ? 'Video' : 'Photo'} · ${formatBytes(m.size)}${m.livePair ? ` · Live Photo with ${m.livePair}` : ''}`,
          }),
          captionForm,
          renameForm,
          moveForm,
          h(
            'div',
            { class: 'row' },
            m.turnedBy
              ? [
                  h('button', { type: 'button', on: { click: rotate(-90) } }, '↺ Rotate left'),
                  h('button', { type: 'button', on: { click: rotate(90) } }, '↻ Rotate right'),
                  h('span', { class: 'explain', text: TURN_HINTS[m.turnedBy] ?? '' }),
                ]
              : h('span', { class: 'explain', text: 'This video cannot be rotated without re-encoding it: turn it in a video editor.' }),
          ),
          h(
            'div',
            { class: 'row' },
            album.thumbnail === m.name
              ? h('span', { class: 'explain', text: 'This is the album’s cover.' })
              : h('button', { type: 'button', on: { click: () => act(api('PUT', albumUrl, { thumbnail: m.name }), 'Cover set') } }, 'Use as cover'),
            h('a', { href: m.url, target: '_blank', rel: 'noopener' }, 'Open original'),
            h('button', { type: 'button', class: 'danger', on: { click: remove } }, 'Delete'),
          ),
          h('div', { class: 'row end' }, h('button', { type: 'button', on: { click: () => dialog.close() } }, 'Close')),
        ),
      ),
    );
  }

  return {
    open(m) {
      render(m);
      dialog.showModal();
    },
  };
}
