// The one way to share an album (README "Sharing"): "Share…" asks who it is for, until when,
// whether they may download and whether places stay hidden, makes their own link
// (POST /api/share-links/{path}) and hands it over at once (handover.js). A public album needs
// no link: its address is handed over as it is.
import { api } from './api.js';
import { encodePath, h, notify } from './dom.js';
import { handoverPanel } from './handover.js';
import { shareLink } from './settings.js';

/** How long a new link works unless the owner says otherwise. */
const DEFAULT_DAYS = 90;

/** A day in this browser's time zone as a date input's value. */
function dateValue(day) {
  return `${day.getFullYear()}-${String(day.getMonth() + 1).padStart(2, '0')}-${String(day.getDate()).padStart(2, '0')}`;
}

function inDays(days) {
  const day = new Date();
  day.setDate(day.getDate() + days);
  return day;
}

/** The end of a day picked in a date input, in this browser's time zone, as an ISO time. */
function endOfLocalDay(value) {
  const [y, m, d] = value.split('-').map(Number);
  return new Date(y, m - 1, d, 23, 59, 59, 999).toISOString();
}

/** A modal dialog around `content`, removed from the page once closed. */
function modal(label, ...content) {
  const dialog = h('dialog', { class: 'share-dialog', 'aria-label': label }, ...content);
  dialog.addEventListener('close', () => dialog.remove());
  document.body.append(dialog);
  dialog.showModal();
  return dialog;
}

const closeButton = (dialog, text = 'Done') => h('div', { class: 'row end' }, h('button', { type: 'button', on: { click: () => dialog.close() } }, text));

/** Hands over an existing link or address again (from the list of links). */
export function showHandover({ address, who, album, expires }) {
  const dialog = modal(`Send the link${who ? ` for ${who}` : ''}`);
  dialog.append(
    h('h2', { text: who ? `Send ${who} their link` : `Send the address of “${album.title}”` }),
    handoverPanel({ address, who, albumTitle: album.title, expires }),
    closeButton(dialog),
  );
}

/**
 * Opens the share dialog of `album` (GET /api/albums/{path}); `made` runs after a link was
 * made (and the album's places hidden, when asked), while the dialog hands it over.
 */
export function openShareDialog(album, made) {
  if (!album.protected) {
    showHandover({ address: shareLink(`/photos/${encodePath(album.path)}`), who: '', album, expires: null });
    return;
  }
  const name = h('input', { name: 'name', required: true, maxlength: '100', placeholder: 'Grandma', autocomplete: 'off' });
  const until = h('input', { name: 'expires', type: 'date', min: dateValue(inDays(1)), value: dateValue(inDays(DEFAULT_DAYS)), required: true });
  const forever = h('input', { type: 'checkbox', name: 'forever', on: { change: () => (until.disabled = forever.checked) } });
  const downloads = h('input', { type: 'checkbox', name: 'downloads', checked: true });
  // Suggested with every link, unless the album hides places already (its own setting or an album above's).
  const hidden = (album.hideLocation ?? album.inheritedHideLocation) === true;
  const hide = hidden ? null : h('input', { type: 'checkbox', name: 'hideLocation', checked: true });
  const error = h('p', { class: 'form-error', hidden: true, role: 'alert' });
  const submit = h('button', { type: 'submit', class: 'primary' }, 'Make the link');
  const form = h(
    'form',
    { class: 'stack', 'aria-label': 'Share with someone' },
    h('label', {}, 'Who is it for?', name),
    h('div', { class: 'row' }, h('label', {}, 'Works until', until), h('label', { class: 'check' }, forever, 'Never expires')),
    h('label', { class: 'check', title: 'Originals of photos and the ZIP; videos always play' }, downloads, 'May download the photos'),
    hide
      ? h('label', { class: 'check', title: 'Originals, ZIPs and details they get carry no GPS position or place name' }, hide, 'Hide where photos were taken')
      : h('p', { class: 'explain', text: 'Where photos were taken is hidden in this album.' }),
    h('p', {
      class: 'explain',
      text: 'Their own link opens this album (and its child albums without a password of their own) without the password. You can revoke it alone at any time.',
    }),
    error,
    h('div', { class: 'row end' }, h('button', { type: 'button', on: { click: () => dialog.close() } }, 'Cancel'), submit),
  );
  const dialog = modal(`Share “${album.title}”`, h('h2', { text: `Share “${album.title}”` }), form);
  name.focus();

  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    submit.disabled = true;
    error.hidden = true;
    try {
      const body = { name: name.value, downloads: downloads.checked };
      if (!forever.checked) body.expires = endOfLocalDay(until.value);
      const link = await api('POST', `/api/share-links/${encodePath(album.path)}`, body);
      if (hide?.checked) await hideLocations(album);
      dialog.replaceChildren(
        h('h2', { text: `Send ${link.name} their link` }),
        handoverPanel({ address: shareLink(link.path), who: link.name, albumTitle: album.title, expires: link.expires }),
        closeButton(dialog),
      );
      made(link);
    } catch (err) {
      error.textContent = err.message;
      error.hidden = false;
      submit.disabled = false;
    }
  });
}

/** The album's own location setting (docs/api.md#location-privacy), turned on with a link. */
async function hideLocations(album) {
  try {
    await api('PUT', `/api/albums/${encodePath(album.path)}`, { hideLocation: true });
  } catch (err) {
    notify(`Link made, but the places could not be hidden: ${err.message}`, { error: true });
  }
}
