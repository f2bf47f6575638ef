// The people an album is shared with (docs/api.md#share-links): their links listed with their
// use, sent again, and revoked. Links are made by the share dialog (share-dialog.js).
import { api } from './api.js';
import { encodePath, h, notify, replaceChildren } from './dom.js';
import { showHandover } from './share-dialog.js';
import { shareLink } from './settings.js';
import { languages } from './share-dialog.js';
import { locale, t } from '../strings.js';

export const dateTime = new Intl.DateTimeFormat(locale(), { dateStyle: 'medium', timeStyle: 'short' });
export const dateOnly = new Intl.DateTimeFormat(locale(), { dateStyle: 'medium' });

/** Until when a link works, as the owner reads it. */
export function untilText(link) {
  if (link.revoked) return t('links.revoked', { date: dateTime.format(new Date(link.revoked)) });
  if (!link.expires) return t('links.never');
  return t(link.expired ? 'links.expired' : 'links.until', { date: dateOnly.format(new Date(link.expires)) });
}

export const lastVisitText = (link) => (link.lastUsed ? dateTime.format(new Date(link.lastUsed)) : t('links.notYet'));

/** The language a link's pages are shown in: its own name ("Deutsch"), or their browser's. */
const languageText = (link) => languages().find((l) => l.code === link.language)?.name ?? t('links.browserLanguage');

/**
 * Revokes `link` of the album at `albumPath` after asking; resolves with the album's links as
 * they are then, or undefined when the owner said no or it failed (said in a notice).
 */
export async function revokeLink(albumPath, link) {
  const ok = window.confirm(t(link.revoked ? 'links.confirmRemove' : 'links.confirmRevoke', { name: link.name }));
  if (!ok) return undefined;
  try {
    const answer = await api('DELETE', `/api/share-links/${encodePath(albumPath)}?id=${encodeURIComponent(link.id)}`);
    notify(t(link.revoked ? 'links.removed' : 'links.revokedNotice', { name: link.name }));
    return answer.links;
  } catch (err) {
    notify(err.message, { error: true });
    return undefined;
  }
}

/** The list of `album`'s links, loaded now. */
export function linksList(album) {
  const list = h('div', { class: 'share-links' }, h('p', { class: 'explain', text: t('links.loading') }));
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
  if (links.length === 0) return h('p', { class: 'empty', text: t('links.nobody') });
  const columns = ['links.who', 'links.untilColumn', 'links.lastVisit', 'links.visits', 'links.downloads', 'links.language', ''];
  return h(
    'table',
    { class: 'share-links-table' },
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        columns.map((key) => h('th', { text: key ? t(key) : '', class: key === 'links.visits' ? 'num' : null })),
      ),
    ),
    h(
      'tbody',
      {},
      links.map((link) => {
        // A rotation of the token revoked it, or it expired: listed so the owner sees what closed, with nothing to send.
        const closed = link.revoked !== null || link.expired;
        const send = () => showHandover({ address: shareLink(link.path), who: link.name, album, expires: link.expires, language: link.language ?? '' });
        return h(
          'tr',
          { dataset: { id: link.id }, class: closed ? 'expired' : null },
          h('td', { text: link.name }),
          h('td', { class: closed ? 'warn' : null, text: untilText(link) }),
          h('td', { text: lastVisitText(link) }),
          h('td', { class: 'num', text: String(link.visits) }),
          h('td', { text: t(link.downloads ? 'links.allowed' : 'links.no') }),
          h('td', { text: languageText(link) }),
          h(
            'td',
            { class: 'actions' },
            closed
              ? null
              : h(
                  'button',
                  { type: 'button', class: 'small', 'aria-label': t('links.sendAgainLabel', { name: link.name }), on: { click: send } },
                  t('links.sendAgain'),
                ),
            h(
              'button',
              {
                type: 'button',
                class: 'small danger',
                'aria-label': t(link.revoked ? 'links.removeLabel' : 'links.revokeLabel', { name: link.name }),
                on: { click: () => revoke(link) },
              },
              t(link.revoked ? 'common.remove' : 'common.revoke'),
            ),
          ),
        );
      }),
    ),
  );
}
