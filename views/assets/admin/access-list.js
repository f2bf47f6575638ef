// The "Who can see what" tab: every album someone other than the owner can open, and who:
// people who know a password, whoever has the link for everyone, each person's own link (until
// when, last visit; revoked from here), and the public albums anyone with the address opens.
import { api } from './api.js';
import { copyText, h, notify, replaceChildren } from './dom.js';
import { lastVisitText, revokeLink, untilText } from './share-links.js';
import { shareLink } from './settings.js';
import { t } from '../strings.js';

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
          [t('access.album'), t('access.whoOpens')].map((text) => h('th', { text })),
        ),
      ),
      h('tbody', {}, rows),
    ),
  );

/**
 * A translated sentence with elements in it, wherever the language places them: `text` holds
 * `\ue000name\ue000` markers (given as the sentence's values), each replaced by `elements[name]`.
 * @param {string} text
 * @param {Record<string, Node>} elements
 */
function withElements(text, elements) {
  return text.split(/\ue000(\w+)\ue000/).map((part, i) => (i % 2 === 1 ? elements[part] : part));
}

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
    if (album.password)
      items.push(h('li', {}, ...withElements(t('access.password', { password: '\ue000password\ue000' }), { password: h('code', { text: album.password }) })));
    else {
      const above = opener(album);
      if (above) items.push(h('li', { text: t('access.above', { title: above.title }) }));
    }
    if (album.allowAnonymous) {
      const link = shareLink(album.sharePath);
      const button = h(
        'button',
        { type: 'button', class: 'small', 'aria-label': t('access.copyEveryone', { title: album.title }), on: { click: () => copyText(link) } },
        t('common.copy'),
      );
      items.push(h('li', {}, ...withElements(t('access.everyone', { button: '\ue000button\ue000' }), { button })));
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
          `${t('access.linkLine', { until: untilText(link), lastVisit: lastVisitText(link), visits: t('access.visits', { count: link.visits }) })}${link.downloads ? '' : t('access.noDownloads')} `,
          h(
            'button',
            {
              type: 'button',
              class: 'small danger',
              'aria-label': t(link.revoked ? 'access.removeLink' : 'access.revokeLink', { name: link.name }),
              on: { click: revoke },
            },
            t(link.revoked ? 'common.remove' : 'common.revoke'),
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
      t('access.summary', {
        protected: t('access.albumsAre', { count: protectedAlbums.length }),
        people: t('access.peopleHave', { count: people.size }),
        public: t('access.albumsAre', { count: publicAlbums.length }),
      }),
    ),
    h('h3', { text: t('access.protectedAlbums') }),
    protectedAlbums.length === 0
      ? h('p', { class: 'empty', text: t('access.noneProtected') })
      : table(protectedAlbums.map((a) => h('tr', {}, titleCell(a), h('td', {}, whoOpens(a))))),
    h('h3', { text: t('access.publicAlbums') }),
    publicAlbums.length === 0
      ? h('p', { class: 'empty', text: t('access.nonePublic') })
      : table(publicAlbums.map((a) => h('tr', {}, titleCell(a), h('td', { text: t(a.hidden ? 'access.hiddenPublic' : 'access.listedPublic') })))),
  );
}
