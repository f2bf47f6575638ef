// An album's share links per recipient (docs/api.md#share-links): made, listed with their use,
// and revoked. Each has its own address on the public site, /s/<id>.
import { api } from './api.js';
import { copyText, encodePath, h, notify, replaceChildren } from './dom.js';
import { shareLink } from './settings.js';

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const dateOnly = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });

/** The end of a day picked in a date input, in this browser's time zone, as an ISO time. */
function endOfLocalDay(value) {
  const [y, m, d] = value.split('-').map(Number);
  return new Date(y, m - 1, d, 23, 59, 59, 999).toISOString();
}

/** Today in this browser's time zone, as a date input's value. */
function localToday() {
  const now = new Date();
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
}

/**
 * The "Links per person" section of the album panel. `album` is GET /api/albums/{path};
 * `reload` redraws the panel (after the album's settings changed).
 */
export function shareLinksSection(album, reload) {
  const url = `/api/share-links/${encodePath(album.path)}`;
  const list = h('div', { class: 'share-links' }, h('p', { class: 'explain', text: 'Loading links…' }));

  const show = (answer) => replaceChildren(list, linksTable(answer.links, revoke));
  const load = () =>
    api('GET', url).then(show, (err) => {
      replaceChildren(list, h('p', { class: 'explain warn', text: err.message }));
    });

  async function revoke(link) {
    const ok = window.confirm(
      link.revoked
        ? `Remove the link of “${link.name}” from the list?\n\nIt stopped working when the token was rotated.`
        : `Revoke the link of “${link.name}”?\n\nIt stops working at once, also for anyone who already opened it or saved it. The others keep working.`,
    );
    if (!ok) return;
    try {
      show(await api('DELETE', `${url}?id=${encodeURIComponent(link.id)}`));
      notify(link.revoked ? `Link of ${link.name} removed` : `Link of ${link.name} revoked`);
    } catch (err) {
      notify(err.message, { error: true });
    }
  }

  const form = createForm(album, url, async (link, hideLocation) => {
    notify(`Link for ${link.name} made: copy it from the list`);
    await load();
    // The new link's address, selected for a copy (a clipboard write needs the owner's own click).
    const input = list.querySelector(`tr[data-id="${CSS.escape(link.id)}"] input`);
    if (input instanceof HTMLInputElement) {
      input.focus();
      input.select();
    }
    // The album's own setting (docs/api.md#location-privacy), suggested with each link.
    if (!hideLocation) return;
    try {
      await api('PUT', `/api/albums/${encodePath(album.path)}`, { hideLocation: true });
      notify('Link made; where photos were taken is now hidden in this album');
      reload();
    } catch (err) {
      notify(`Link made, but the locations could not be hidden: ${err.message}`, { error: true });
    }
  });

  void load();
  return h(
    'section',
    { 'aria-labelledby': 'share-links-title' },
    h('h3', { id: 'share-links-title', text: 'Links per person' }),
    h(
      'p',
      { class: 'explain' },
      album.protected
        ? 'Each person gets a link of their own: it opens this album (and its child albums without a password of their own) without the password, keeps working when bookmarked or added to a home screen, and can be revoked alone. You see when each was last used.'
        : 'This album is public: anyone may open it without a link. A link per person only adds a name and a visit count.',
    ),
    form,
    list,
  );
}

function createForm(album, url, onCreated) {
  const name = h('input', { name: 'name', required: true, maxlength: '100', placeholder: 'Grandma', autocomplete: 'off' });
  const expires = h('input', { name: 'expires', type: 'date', min: localToday() });
  const downloads = h('input', { type: 'checkbox', name: 'downloads', checked: true });
  // A public album can be downloaded by anyone: the choice would mean nothing there.
  const downloadsChoice = album.protected
    ? h('label', { class: 'check', title: 'Originals of photos and the ZIP; videos always play' }, downloads, 'Allow downloads')
    : null;
  // Suggested with every link (checked), unless the album hides them already (its own setting or an album above's).
  const hidden = (album.hideLocation ?? album.inheritedHideLocation) === true;
  const hide = hidden ? null : h('input', { type: 'checkbox', name: 'hideLocation', checked: true });
  const hideChoice = hide
    ? h('label', { class: 'check', title: 'Originals, ZIPs and details served to visitors carry no GPS position' }, hide, 'Hide where photos were taken')
    : null;
  const submit = h('button', { type: 'submit', class: 'primary' }, 'Create link');
  const form = h(
    'form',
    { class: 'stack', 'aria-label': 'New share link' },
    h('div', { class: 'grid-form' }, h('label', {}, 'Name (who it is for)', name), h('label', {}, 'Expires (optional, end of that day)', expires)),
    h(
      'div',
      { class: 'row' },
      downloadsChoice,
      hideChoice,
      hidden ? h('span', { class: 'explain', text: 'Where photos were taken is hidden in this album.' }) : null,
    ),
    h('div', { class: 'row end' }, submit),
  );
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    submit.disabled = true;
    try {
      const body = { name: name.value, downloads: downloads.checked };
      if (expires.value) body.expires = endOfLocalDay(expires.value);
      const hideLocation = hide?.checked === true;
      const link = await api('POST', url, body);
      // The choices stay for the next person; the name and date are theirs alone.
      name.value = '';
      expires.value = '';
      await onCreated(link, hideLocation);
    } catch (err) {
      notify(err.message, { error: true });
    } finally {
      submit.disabled = false;
    }
  });
  return form;
}

function linksTable(links, revoke) {
  if (links.length === 0) return h('p', { class: 'empty', text: 'No links yet.' });
  return h(
    'table',
    { class: 'share-links-table' },
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        ['Name', 'Link', 'Created', 'Expires', 'Last used', 'Visits', 'Downloads', ''].map((t) => h('th', { text: t, class: t === 'Visits' ? 'num' : null })),
      ),
    ),
    h(
      'tbody',
      {},
      links.map((link) => {
        const address = shareLink(link.path);
        const input = h('input', { readonly: true, value: address, 'aria-label': `Link of ${link.name}` });
        // A rotation of the token revoked it: listed so the owner sees what closed, with nothing to copy.
        const closed = link.revoked !== null || link.expired;
        return h(
          'tr',
          { dataset: { id: link.id }, class: closed ? 'expired' : null },
          h('td', { text: link.name }),
          h(
            'td',
            {},
            link.revoked
              ? h('span', { class: 'hint', text: 'no longer works' })
              : h('div', { class: 'row' }, input, h('button', { type: 'button', class: 'small', on: { click: () => copyText(address, input) } }, 'Copy')),
          ),
          h('td', { text: dateOnly.format(new Date(link.created)) }),
          h('td', {
            class: closed ? 'warn' : null,
            text: link.revoked
              ? `revoked ${dateTime.format(new Date(link.revoked))} (token rotated)`
              : link.expires
                ? `${link.expired ? 'expired ' : ''}${dateTime.format(new Date(link.expires))}`
                : 'never',
          }),
          h('td', { text: link.lastUsed ? dateTime.format(new Date(link.lastUsed)) : 'not yet' }),
          h('td', { class: 'num', text: String(link.visits) }),
          h('td', { text: link.downloads ? 'allowed' : 'no' }),
          h('td', {}, h('button', { type: 'button', class: 'small danger', on: { click: () => revoke(link) } }, link.revoked ? 'Remove' : 'Revoke')),
        );
      }),
    ),
  );
}
