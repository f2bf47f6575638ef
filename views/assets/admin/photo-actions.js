// The media of one album: a grid of previews (thumbnails and video posters, never the
// originals), and for each photo or video a dialog with what the owner can do to it: caption,
// rename, move to another album, rotate (never re-encoded), make it the cover, delete it.
// Every action is one call of the admin API (docs/api.md#admin-server).
import { api } from './api.js';
import { encodePath, formatBytes, h, notify, replaceChildren } from './dom.js';
import { locale, t } from '../strings.js';

/** A Live Photo's movie is shown with its still, never as a tile of its own. */
const isLiveMovie = (m) => m.kind === 'video' && m.livePair !== null;

const extensionOf = (name) => {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot) : '';
};

/** How "Rotate" turns each kind of file (the server says which applies: `turnedBy`, docs/api.md#rotations). */
const TURN_HINTS = {
  'exif-orientation': 'media.turnExif',
  'album-rotation': 'media.turnAlbum',
  'display-matrix': 'media.turnMatrix',
};

/**
 * The "Media" section of an album. `ctx`: { save(patch, message) (PUT of the album),
 * reload() (re-render the album after a change), albums() (every album, for "move to") }.
 */
export function mediaSection(album, ctx) {
  const tiles = album.media.filter((m) => !isLiveMovie(m));
  const counts = [
    album.photoCount ? t('media.photos', { count: album.photoCount }) : '',
    album.videoCount ? t('media.videos', { count: album.videoCount }) : '',
  ];
  const heading = h('h3', { text: t('media.heading', { counts: counts.filter(Boolean).join(', ') || t('media.noneYet') }) });
  if (tiles.length === 0) return h('section', {}, heading, h('p', { class: 'empty', text: t('media.empty') }));
  const dialog = photoDialog(album, ctx);
  const figures = tiles.map((m) => {
    const isCover = album.thumbnail === m.name;
    const badges = [
      m.kind === 'video' ? h('span', { class: 'tile-badge', text: t('media.videoBadge') }) : null,
      m.livePair ? h('span', { class: 'tile-badge', text: t('media.liveBadge') }) : null,
      isCover ? h('span', { class: 'tile-badge cover-badge', text: t('media.coverBadge') }) : null,
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
          // Its name holds what is seen on and under it (the badges, the caption), so a screen
          // reader says it and a voice command naming it reaches it (WCAG 2.5.3).
          'aria-label': t('media.tileLabel', { name: [m.name, m.caption, ...badges.map((b) => b?.textContent)].filter(Boolean).join(', ') }),
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
        ? h('button', { type: 'button', class: 'small', on: { click: () => ctx.save({ thumbnail: null }, t('media.coverReset')) } }, t('media.useFirst'))
        : h('span', { class: 'explain', text: t('media.coverFirst') }),
    ),
    h('p', { class: 'hint', text: t('media.hint') }),
    h('div', { class: 'media-grid', id: 'media-grid' }, figures),
  );
}

/** The thumbnail, or a video's poster frame, with a placeholder when it cannot be made (a broken file). */
function preview(m, size = 'small') {
  const img = h('img', { src: m.preview.replace('size=small', `size=${size}`), alt: m.caption ?? m.name, loading: 'lazy', decoding: 'async' });
  img.addEventListener('error', () => img.replaceWith(h('span', { class: 'tile-missing', text: t('media.noPreview') })), { once: true });
  return img;
}

function photoDialog(album, ctx) {
  const albumUrl = `/api/albums/${encodePath(album.path)}`;
  // One dialog for the page, kept when the album panel is drawn again behind it (after a caption or a rotation).
  let dialog = /** @type {HTMLDialogElement | null} */ (document.getElementById('photo-dialog'));
  if (!dialog) {
    dialog = /** @type {HTMLDialogElement} */ (h('dialog', { id: 'photo-dialog', class: 'photo-dialog', 'aria-label': t('media.dialog') }));
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

    const caption = h('input', { name: 'caption', value: m.caption ?? '', maxlength: 1000, placeholder: t('media.captionHint') });
    const captionForm = h(
      'form',
      { class: 'row' },
      h('label', { class: 'grow' }, t('media.caption'), caption),
      h('button', { type: 'submit' }, t('media.saveCaption')),
    );
    captionForm.addEventListener('submit', (e) => {
      e.preventDefault();
      void act(post('caption', { caption: caption.value }), t(caption.value.trim() ? 'media.captionSaved' : 'media.captionRemoved'), { close: false });
    });

    const stem = h('input', { name: 'name', value: m.name.slice(0, m.name.length - ext.length), required: true, spellcheck: 'false' });
    const renameForm = h(
      'form',
      { class: 'row' },
      h('label', { class: 'grow' }, t('media.name'), h('span', { class: 'row nowrap' }, stem, h('span', { class: 'ext', text: ext }))),
      h('button', { type: 'submit' }, t('media.rename')),
    );
    renameForm.addEventListener('submit', (e) => {
      e.preventDefault();
      const name = `${stem.value.trim()}${ext}`;
      void act(post('rename', { name }), t(m.livePair ? 'media.renamedLive' : 'media.renamed', { name }));
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
      h('label', { class: 'grow' }, t('media.moveTo'), target),
      h('button', { type: 'submit', disabled: others.length === 0 }, t('media.move')),
    );
    moveForm.addEventListener('submit', (e) => {
      e.preventDefault();
      void act(post('move', { album: target.value }), t('media.movedTo', { album: target.value }));
    });

    const rotate = (degrees) => async () => {
      const done = await act(post('rotate', { degrees }), t(degrees > 0 ? 'media.turnedRight' : 'media.turnedLeft'), { close: false });
      if (!done) return;
      // A new version of the file, or a new turn of it: its preview has a new URL.
      const fresh = (await api('GET', albumUrl)).media.find((f) => f.name === m.name);
      if (fresh) render(fresh);
    };

    const remove = () => {
      if (!window.confirm(t(m.livePair ? 'media.confirmDeleteLive' : 'media.confirmDelete', { name: m.name, movie: m.livePair }))) return;
      void act(api('DELETE', url), t('media.trashed', { name: m.name }));
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
            text: `${t(m.kind === 'video' ? 'media.video' : 'media.photo')} · ${formatBytes(m.size, locale())}${m.livePair ? t('media.liveWith', { movie: m.livePair }) : ''}`,
          }),
          captionForm,
          renameForm,
          moveForm,
          h(
            'div',
            { class: 'row' },
            m.turnedBy
              ? [
                  h('button', { type: 'button', on: { click: rotate(-90) } }, t('media.rotateLeft')),
                  h('button', { type: 'button', on: { click: rotate(90) } }, t('media.rotateRight')),
                  h('span', { class: 'explain', text: TURN_HINTS[m.turnedBy] ? t(TURN_HINTS[m.turnedBy]) : '' }),
                ]
              : h('span', { class: 'explain', text: t('media.noRotate') }),
          ),
          h(
            'div',
            { class: 'row' },
            album.thumbnail === m.name
              ? h('span', { class: 'explain', text: t('media.isCover') })
              : h(
                  'button',
                  { type: 'button', on: { click: () => act(api('PUT', albumUrl, { thumbnail: m.name }), t('media.coverSet')) } },
                  t('media.useAsCover'),
                ),
            h('a', { href: m.url, target: '_blank', rel: 'noopener' }, t('media.openOriginal')),
            h('button', { type: 'button', class: 'danger', on: { click: remove } }, t('common.delete')),
          ),
          h('div', { class: 'row end' }, h('button', { type: 'button', on: { click: () => dialog.close() } }, t('media.close'))),
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
