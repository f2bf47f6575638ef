// An album's "Sharing" section (README "Sharing"): one "Share…" button that makes a person's
// own link and hands it over, the people it is shared with, and, under "More ways to share",
// the album-wide link of its token, offered only as a link that opens the album, and the
// rotation that takes every access back.
import { api } from './api.js';
import { copyText, encodePath, h, notify } from './dom.js';
import { openShareDialog } from './share-dialog.js';
import { linksList } from './share-links.js';
import { shareLink } from './settings.js';

/**
 * `album` is GET /api/albums/{path}; `save(patch, message)` changes its fields (the album
 * panel's one way to), `reload` redraws the panel after a change of the album.
 */
export function sharingSection(album, { save, reload }) {
  const url = `/api/albums/${encodePath(album.path)}`;
  const list = album.protected ? linksList(album) : null;
  // After a link is made the panel is drawn again: its list, and the album's location setting the link may have turned on.
  const share = h('button', { type: 'button', class: 'primary', on: { click: () => openShareDialog(album, reload) } }, 'Share…');
  return h(
    'section',
    { 'aria-labelledby': 'sharing-title' },
    h('h3', { id: 'sharing-title', text: 'Sharing' }),
    h(
      'p',
      { class: 'explain' },
      album.protected
        ? 'Each person gets a link of their own: it opens this album without the password, keeps working when bookmarked or added to a home screen, and can be revoked alone. People who know the password can open it too.'
        : 'This album is public: anyone with its address can open it and download its photos. To keep it to some people, give it a password, then share it.',
    ),
    h('div', { class: 'row' }, share),
    list,
    album.protected ? moreWays(album, url, { save, reload }) : null,
  );
}

/** The album-wide link and the rotation, folded away: most owners never need them. */
function moreWays(album, url, { save, reload }) {
  let everyone;
  if (album.allowAnonymous) {
    const link = shareLink(album.sharePath);
    const input = h('input', { readonly: true, value: link, 'aria-label': 'Link for everyone' });
    everyone = [
      h('p', {
        class: 'explain',
        text: 'On: anyone who has this link opens the album without the password. It cannot be taken back from one person: only from everyone, by rotating the token below.',
      }),
      h('div', { class: 'row' }, input, h('button', { type: 'button', on: { click: () => copyText(link, input) } }, 'Copy link for everyone')),
      h(
        'div',
        { class: 'row' },
        h(
          'button',
          { type: 'button', class: 'small', on: { click: () => save({ allowAnonymous: false }, 'The link for everyone no longer opens the album') } },
          'Turn it off',
        ),
      ),
    ];
  } else {
    everyone = [
      h('p', {
        class: 'explain',
        text: 'Off. When on, one link opens the album for anyone who has it, without the password; it cannot be taken back from one person alone.',
      }),
      h(
        'div',
        { class: 'row' },
        h(
          'button',
          { type: 'button', on: { click: () => save({ allowAnonymous: true }, 'The link for everyone now opens the album') } },
          'Turn on a link for everyone',
        ),
      ),
    ];
  }
  return h(
    'details',
    { class: 'more-sharing' },
    h('summary', { text: 'More ways to share' }),
    h('h4', { text: 'One link for everyone' }),
    ...everyone,
    h('h4', { text: 'Take every access back' }),
    h(
      'div',
      { class: 'row' },
      h('button', { type: 'button', class: 'danger', on: { click: () => rotate(album, url, reload) } }, 'Rotate token'),
      h('span', {
        class: 'explain',
        text: 'Everyone who unlocked it, the link for everyone and every link per person lose access at once. Those who know the password can unlock it again.',
      }),
    ),
    h('p', { class: 'explain' }, 'Token: ', h('code', { text: album.token ?? '(not generated yet)' })),
  );
}

async function rotate(album, url, reload) {
  // How many links per person will close, said before: they are this album's too.
  let working = 0;
  try {
    const { links } = await api('GET', `/api/share-links/${encodePath(album.path)}`);
    working = links.filter((l) => !l.revoked && !l.expired).length;
  } catch {
    // The question below still names them.
  }
  const perPerson = working === 0 ? 'and every link per person' : `and its ${working === 1 ? 'link' : `${working} links`} per person`;
  const ok = window.confirm(
    `Rotate the token of this album?\n\nEveryone who unlocked it, the link for everyone ${perPerson} lose access at once (also to the child albums this one unlocks). People with the password can unlock it again; links must be sent anew (the old ones stay in the list, marked revoked).`,
  );
  if (!ok) return;
  try {
    const { revokedLinks } = await api('POST', `${url}?action=rotate-token`);
    const closed = revokedLinks === 0 ? '' : revokedLinks === 1 ? ', nor does the link per person' : `, nor do the ${revokedLinks} links per person`;
    notify(`Token rotated: old unlocks and the link for everyone no longer work${closed}`);
    reload();
  } catch (err) {
    notify(err.message, { error: true });
  }
}
