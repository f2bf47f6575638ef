// The "Who can see what" tab: every album someone other than the owner can open, and who:
// people who know a password, whoever has the link for everyone, each person's own link (until
// when, last visit; revoked from here), and the public albums anyone with the address opens.
import { api } from './api.js';
import { copyText, h, notify, replaceChildren } from './dom.js';
import { lastVisitText, revokeLink, untilText } from './share-links.js';
import { shareLink } from './settings.js';

const plural = (n, one, many) => `${n} ${n === 1 ? one : many}`;

/** Albums and who can open each, in a box that scrolls sideways on a phone. */
const table = (rows) =>
  h(
    'div',
    { class: 'access-scroll' },
    h(
      'table',
      { class: 'access-table' },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          ['Album', 'Who can open it'].map((t) => h('th', { text: t })),
        ),
      ),
      h('tbody', {}, rows),
    ),
  );

export async function renderAccessList(albums, onOpen) {
  const container = document.getElementById('access-list');
  let linksByAlbum;
  try {
    const answer = await api('GET', '/api/share-links');
    linksByAlbum = new Map(answer.albums.map((a) => [a.path, a.links]));
  } catch (err) {
    notify(err.message, { error: true });
    return;
  }
  const byPath = new Map(albums.map((a) => [a.path, a]));
  /** The nearest album above with a password: the one whose password and links open `album`. */
  const opener = (album) => {
    for (let p = album.parent; p; p = byPath.get(p)?.parent ?? null) if (byPath.get(p)?.password) return byPath.get(p);
    return null;
  };
  const protectedAlbums = albums.filter((a) => a.protected);
  const publicAlbums = albums.filter((a) => !a.protected);
  const people = new Set(
    [...linksByAlbum.values()]
      .flat()
      .filter((l) => !l.revoked && !l.expired)
      .map((l) => l.name),
  );
  const titleCell = (a) => h('td', {}, h('a', { href: '#albums', on: { click: () => onOpen(a.path) } }, a.title), h('div', { class: 'hint', text: a.path }));
  const rerender = () => void renderAccessList(albums, onOpen);

  const whoOpens = (album) => {
    const items = [];
    if (album.password) items.push(h('li', {}, 'Whoever knows the password ', h('code', { text: album.password })));
    else {
      const above = opener(album);
      if (above) items.push(h('li', { text: `Whoever can open “${above.title}” (its password and its links)` }));
    }
    if (album.allowAnonymous) {
      const link = shareLink(album.sharePath);
      items.push(
        h(
          'li',
          {},
          'Anyone with the link for everyone ',
          h(
            'button',
            { type: 'button', class: 'small', 'aria-label': `Copy the link for everyone of ${album.title}`, on: { click: () => copyText(link) } },
            'Copy',
          ),
        ),
      );
    }
    for (const link of linksByAlbum.get(album.path) ?? []) {
      const closed = link.revoked !== null || link.expired;
      const revoke = async () => {
        if (await revokeLink(album.path, link)) rerender();
      };
      items.push(
        h(
          'li',
          { class: closed ? 'expired' : null },
          h('strong', { text: link.name }),
          ` · ${untilText(link)} · last visit ${lastVisitText(link)} · ${plural(link.visits, 'visit', 'visits')}${link.downloads ? '' : ' · no downloads'} `,
          h(
            'button',
            { type: 'button', class: 'small danger', 'aria-label': `${link.revoked ? 'Remove' : 'Revoke'} the link of ${link.name}`, on: { click: revoke } },
            link.revoked ? 'Remove' : 'Revoke',
          ),
        ),
      );
    }
    return h('ul', { class: 'who' }, items);
  };

  replaceChildren(
    container,
    h(
      'p',
      { class: 'explain' },
      `${plural(protectedAlbums.length, 'album is', 'albums are')} protected, ${plural(people.size, 'person has', 'people have')} a link of their own, ${plural(publicAlbums.length, 'album is', 'albums are')} public.`,
    ),
    h('h3', { text: 'Protected albums' }),
    protectedAlbums.length === 0
      ? h('p', { class: 'empty', text: 'No album has a password: every album is public.' })
      : table(protectedAlbums.map((a) => h('tr', {}, titleCell(a), h('td', {}, whoOpens(a))))),
    h('h3', { text: 'Public albums' }),
    publicAlbums.length === 0
      ? h('p', { class: 'empty', text: 'None: every album has a password, its own or one above it.' })
      : table(
          publicAlbums.map((a) =>
            h('tr', {}, titleCell(a), h('td', { text: a.hidden ? 'Anyone with its address (hidden from the lists)' : 'Anyone: it is listed on the site' })),
          ),
        ),
  );
}
