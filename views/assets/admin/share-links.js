// The people an album is shared with (docs/api.md#share-links): their links listed with their
// use, sent again, and revoked. Links are made by the share dialog (share-dialog.js).
import { api } from './api.js';
import { encodePath, h, notify, replaceChildren } from './dom.js';
import { showHandover } from './share-dialog.js';
import { shareLink } from './settings.js';

export const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
export const dateOnly = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });

/** Until when a link works, as the owner reads it. */
export function untilText(link) {
  if (link.revoked) return `revoked ${dateTime.format(new Date(link.revoked))} (token rotated)`;
  if (!link.expires) return 'never expires';
  return `${link.expired ? 'expired' : 'until'} ${dateOnly.format(new Date(link.expires))}`;
}

export const lastVisitText = (link) => (link.lastUsed ? dateTime.format(new Date(link.lastUsed)) : 'not yet');

/**
 * Revokes `link` of the album at `albumPath` after asking; resolves with the album's links as
 * they are then, or undefined when the owner said no or it failed (said in a notice).
 */
export async function revokeLink(albumPath, link) {
  const ok = window.confirm(
    link.revoked
      ? `Remove the link of “${link.name}” from the list?\n\nIt stopped working when the token was rotated.`
      : `Revoke the link of “${link.name}”?\n\nIt stops working at once, also for anyone who already opened it or saved it. The others keep working.`,
  );
  if (!ok) return undefined;
  try {
    const answer = await api('DELETE', `/api/share-links/${encodePath(albumPath)}?id=${encodeURIComponent(link.id)}`);
    notify(link.revoked ? `Link of ${link.name} removed` : `Link of ${link.name} revoked`);
    return answer.links;
  } catch (err) {
    notify(err.message, { error: true });
    return undefined;
  }
}

/** The list of `album`'s links, loaded now. */
export function linksList(album) {
  const list = h('div', { class: 'share-links' }, h('p', { class: 'explain', text: 'Loading links…' }));
  const show = (links) => replaceChildren(list, linksTable(album, links, revoke));
  async function revoke(link) {
    const links = await revokeLink(album.path, link);
    if (links) show(links);
  }
  api('GET', `/api/share-links/${encodePath(album.path)}`).then(
    (answer) => show(answer.links),
    (err) => replaceChildren(list, h('p', { class: 'explain warn', text: err.message })),
  );
  return list;
}

function linksTable(album, links, revoke) {
  if (links.length === 0) return h('p', { class: 'empty', text: 'Nobody has a link of their own yet.' });
  const columns = ['Who', 'Until', 'Last visit', 'Visits', 'Downloads', ''];
  return h(
    'table',
    { class: 'share-links-table' },
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        columns.map((t) => h('th', { text: t, class: t === 'Visits' ? 'num' : null })),
      ),
    ),
    h(
      'tbody',
      {},
      links.map((link) => {
        // A rotation of the token revoked it, or it expired: listed so the owner sees what closed, with nothing to send.
        const closed = link.revoked !== null || link.expired;
        const send = () => showHandover({ address: shareLink(link.path), who: link.name, album, expires: link.expires });
        return h(
          'tr',
          { dataset: { id: link.id }, class: closed ? 'expired' : null },
          h('td', { text: link.name }),
          h('td', { class: closed ? 'warn' : null, text: untilText(link) }),
          h('td', { text: lastVisitText(link) }),
          h('td', { class: 'num', text: String(link.visits) }),
          h('td', { text: link.downloads ? 'allowed' : 'no' }),
          h(
            'td',
            { class: 'actions' },
            closed
              ? null
              : h('button', { type: 'button', class: 'small', 'aria-label': `Send ${link.name} their link again`, on: { click: send } }, 'Send again'),
            h(
              'button',
              {
                type: 'button',
                class: 'small danger',
                'aria-label': `${link.revoked ? 'Remove' : 'Revoke'} the link of ${link.name}`,
                on: { click: () => revoke(link) },
              },
              link.revoked ? 'Remove' : 'Revoke',
            ),
          ),
        );
      }),
    ),
  );
}
