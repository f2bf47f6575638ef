// The one way to share an album (README "Sharing"): "Share…" asks who it is for, until when,
// whether they may download and whether places stay hidden, makes their own link
// (POST /api/share-links/{path}) and hands it over at once (handover.js). A public album needs
// no link: its address is handed over as it is.
import { api } from './api.js';
import { encodePath, h, notify } from './dom.js';
import { handoverPanel } from './handover.js';
import { shareLink } from './settings.js';
import { t } from '../strings.js';

/** The languages of the gallery, `{code, name}` (the admin page's data-languages, server/core/languages.ts). */
export function languages() {
  try {
    return JSON.parse(document.body.dataset.languages ?? '[]');
  } catch {
    return [];
  }
}

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

const closeButton = (dialog, text = t('share.done')) =>
  h('div', { class: 'row end' }, h('button', { type: 'button', on: { click: () => dialog.close() } }, text));

/** Hands over an existing link or address again (from the list of links). */
export function showHandover({ address, who, album, expires, language = '' }) {
  const dialog = modal(who ? t('share.sendLinkFor', { who }) : t('share.sendLink'));
  dialog.append(
    h('h2', { text: who ? t('share.sendWho', { who }) : t('share.sendAddress', { title: album.title }) }),
    handoverPanel({ address, who, albumTitle: album.title, expires, language }),
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
  const name = h('input', { name: 'name', required: true, maxlength: '100', placeholder: t('share.namePlaceholder'), autocomplete: 'off' });
  const until = h('input', { name: 'expires', type: 'date', min: dateValue(inDays(1)), value: dateValue(inDays(DEFAULT_DAYS)), required: true });
  const forever = h('input', { type: 'checkbox', name: 'forever', on: { change: () => (until.disabled = forever.checked) } });
  const downloads = h('input', { type: 'checkbox', name: 'downloads', checked: true });
  // Suggested with every link, unless the album hides places already (its own setting or an album above's).
  const hidden = (album.hideLocation ?? album.inheritedHideLocation) === true;
  const hide = hidden ? null : h('input', { type: 'checkbox', name: 'hideLocation', checked: true });
  // The language of their pages (the share link's `language`, README "Languages"): their browser's unless chosen.
  const language = h(
    'select',
    { name: 'language' },
    h('option', { value: '', text: t('share.languageBrowser') }),
    languages().map((l) => h('option', { value: l.code, lang: l.code, text: l.name })),
  );
  const error = h('p', { class: 'form-error', hidden: true, role: 'alert' });
  const submit = h('button', { type: 'submit', class: 'primary' }, t('share.make'));
  const form = h(
    'form',
    { class: 'stack', 'aria-label': t('share.form') },
    h('label', {}, t('share.who'), name),
    h('div', { class: 'row' }, h('label', {}, t('share.until'), until), h('label', { class: 'check' }, forever, t('share.forever'))),
    h('label', { class: 'check', title: t('share.downloadsHelp') }, downloads, t('share.downloads')),
    hide ? h('label', { class: 'check', title: t('share.hideHelp') }, hide, t('share.hide')) : h('p', { class: 'explain', text: t('share.hidden') }),
    h('label', { title: t('share.languageHelp') }, t('share.language'), language),
    h('p', { class: 'explain', text: t('share.explain') }),
    error,
    h('div', { class: 'row end' }, h('button', { type: 'button', on: { click: () => dialog.close() } }, t('common.cancel')), submit),
  );
  const dialog = modal(t('share.title', { title: album.title }), h('h2', { text: t('share.title', { title: album.title }) }), form);
  name.focus();

  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    submit.disabled = true;
    error.hidden = true;
    try {
      const body = { name: name.value, downloads: downloads.checked };
      if (!forever.checked) body.expires = endOfLocalDay(until.value);
      if (language.value) body.language = language.value;
      const link = await api('POST', `/api/share-links/${encodePath(album.path)}`, body);
      if (hide?.checked) await hideLocations(album);
      dialog.replaceChildren(
        h('h2', { text: t('share.sendWho', { who: link.name }) }),
        handoverPanel({ address: shareLink(link.path), who: link.name, albumTitle: album.title, expires: link.expires, language: link.language ?? '' }),
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
    notify(t('share.hideFailed', { error: err.message }), { error: true });
  }
}
