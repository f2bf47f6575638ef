// The "Protected & shared" tab: every album with a password (its own or a parent's) and every
// album that opens with its share link, in one table.
import { copyText, h, replaceChildren } from './dom.js';
import { shareLink } from './settings.js';

export function renderAccessList(albums, onOpen) {
  const container = document.getElementById('access-list');
  const rows = albums.filter((a) => a.protected || a.allowAnonymous);
  if (rows.length === 0) {
    replaceChildren(container, h('p', { class: 'empty', text: 'Every album is public: none has a password or a share link.' }));
    return;
  }
  const byPath = new Map(albums.map((a) => [a.path, a]));
  const lockedBy = (album) => {
    for (let p = album.parent; p; p = byPath.get(p)?.parent) if (byPath.get(p)?.password) return p;
    return null;
  };
  replaceChildren(
    container,
    h(
      'table',
      {},
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          ['Album', 'Password', 'Share link', 'Token'].map((t) => h('th', { text: t })),
        ),
      ),
      h(
        'tbody',
        {},
        rows.map((a) => {
          const link = a.allowAnonymous
            ? shareLink(`/photos/${a.path.split('/').map(encodeURIComponent).join('/')}?token=${encodeURIComponent(a.token ?? '')}`)
            : '';
          return h(
            'tr',
            {},
            h('td', {}, h('a', { href: '#albums', on: { click: () => onOpen(a.path) } }, a.title), h('div', { class: 'hint', text: a.path })),
            h('td', {}, a.password ? h('code', { text: a.password }) : h('span', { class: 'hint', text: lockedBy(a) ? `inherited from ${lockedBy(a)}` : '—' })),
            h(
              'td',
              {},
              link
                ? h(
                    'div',
                    { class: 'row' },
                    h('input', { readonly: true, value: link, 'aria-label': `Share link of ${a.title}` }),
                    h('button', { type: 'button', class: 'small', on: { click: (e) => copyText(link, e.target.previousSibling) } }, 'Copy'),
                  )
                : h('span', { class: 'hint', text: 'not shared' }),
            ),
            h('td', {}, h('code', { text: a.token ?? '' })),
          );
        }),
      ),
    ),
  );
}
