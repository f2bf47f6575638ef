// An album's "Sharing" section (README "Sharing"): one "Share…" button that makes a person's
// own link and hands it over, the people it is shared with, and, under "More ways to share",
// the album-wide link of its token, offered only as a link that opens the album, and the
// rotation that takes every access back.
import { api } from './api.js';
import { copyText, encodePath, h, notify } from './dom.js';
import { openShareDialog } from './share-dialog.js';
import { linksList } from './share-links.js';
import { shareLink } from './settings.js';
import { t } from '../strings.js';

/**
 * `album` is GET /api/albums/{path}; `save(patch, message)` changes its fields (the album
 * panel's one way to), `reload` redraws the panel after a change of the album.
 */
export function sharingSection(album, { save, reload }) {
  const url = `/api/albums/${encodePath(album.path)}`;
  const list = album.protected ? linksList(album) : null;
  // After a link is made the panel is drawn again: its list, and the album's location setting the link may have turned on.
  const share = h('button', { type: 'button', class: 'primary', on: { click: () => openShareDialog(album, reload) } }, t('sharing.share'));
  return h(
    'section',
    { 'aria-labelledby': 'sharing-title' },
    h('h3', { id: 'sharing-title', text: t('sharing.title') }),
    h('p', { class: 'explain' }, t(album.protected ? 'sharing.protected' : 'sharing.public')),
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
    const input = h('input', { readonly: true, value: link, 'aria-label': t('sharing.everyoneLink') });
    everyone = [
      h('p', { class: 'explain', text: t('sharing.everyoneOn') }),
      h('div', { class: 'row' }, input, h('button', { type: 'button', on: { click: () => copyText(link, input) } }, t('sharing.copyEveryone'))),
      h(
        'div',
        { class: 'row' },
        h(
          'button',
          { type: 'button', class: 'small', on: { click: () => save({ allowAnonymous: false }, t('sharing.everyoneOffNotice')) } },
          t('sharing.turnOff'),
        ),
      ),
    ];
  } else {
    everyone = [
      h('p', { class: 'explain', text: t('sharing.everyoneOff') }),
      h(
        'div',
        { class: 'row' },
        h('button', { type: 'button', on: { click: () => save({ allowAnonymous: true }, t('sharing.everyoneOnNotice')) } }, t('sharing.turnOn')),
      ),
    ];
  }
  return h(
    'details',
    { class: 'more-sharing' },
    h('summary', { text: t('sharing.more') }),
    h('h4', { text: t('sharing.oneLink') }),
    ...everyone,
    h('h4', { text: t('sharing.takeBack') }),
    h(
      'div',
      { class: 'row' },
      h('button', { type: 'button', class: 'danger', on: { click: () => rotate(album, url, reload) } }, t('sharing.rotate')),
      h('span', { class: 'explain', text: t('sharing.rotateHelp') }),
    ),
    h('p', { class: 'explain', text: t('sharing.token', { token: album.token ?? t('sharing.notGenerated') }) }),
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
  const ok = window.confirm(working === 0 ? t('sharing.confirmRotateNone') : t('sharing.confirmRotate', { count: working }));
  if (!ok) return;
  try {
    const { revokedLinks } = await api('POST', `${url}?action=rotate-token`);
    notify(revokedLinks === 0 ? t('sharing.rotatedNone') : t('sharing.rotated', { count: revokedLinks }));
    reload();
  } catch (err) {
    notify(err.message, { error: true });
  }
}
