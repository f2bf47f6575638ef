// The album tree on the left, built from the flat list of /api/albums (folders such as years
// and categories are implied by the paths).
import { h, replaceChildren } from './dom.js';
import { t } from '../strings.js';

function buildTree(albums) {
  const root = { name: '', path: '', album: null, children: new Map() };
  for (const album of albums) {
    let node = root;
    for (const segment of album.path.split('/')) {
      const path = node.path ? `${node.path}/${segment}` : segment;
      if (!node.children.has(segment)) node.children.set(segment, { name: segment, path, album: null, children: new Map() });
      node = node.children.get(segment);
    }
    node.album = album;
  }
  return root;
}

function badges(album) {
  return [
    album.password
      ? h('span', { class: 'badge lock', title: t('tree.hasPassword'), text: t('tree.password') })
      : album.protected
        ? h('span', { class: 'badge lock', title: t('tree.lockedAbove'), text: t('tree.locked') })
        : null,
    album.allowAnonymous ? h('span', { class: 'badge', title: t('tree.sharedTitle'), text: t('tree.shared') }) : null,
    album.hidden ? h('span', { class: 'badge hidden-badge', title: t('tree.hiddenTitle'), text: t('tree.hidden') }) : null,
  ];
}

function renderNode(node, selected, onSelect) {
  const items = [...node.children.values()].map((child) => {
    const label = child.album
      ? h(
          'button',
          {
            type: 'button',
            class: 'album-link',
            'aria-current': child.path === selected ? 'true' : null,
            dataset: { path: child.path },
            on: { click: () => onSelect(child.path) },
          },
          h('span', { text: child.album.title }),
          badges(child.album),
          h('span', { class: 'count', text: `${child.album.photoCount + child.album.videoCount}` }),
        )
      : // A plain folder (a year, a category): opens the order of the albums in it.
        h(
          'button',
          {
            type: 'button',
            class: 'folder',
            'aria-current': child.path === selected ? 'true' : null,
            dataset: { path: child.path },
            on: { click: () => onSelect(child.path) },
          },
          child.name,
        );
    return h('li', {}, label, child.children.size ? renderNode(child, selected, onSelect) : null);
  });
  return h('ul', {}, items);
}

export function renderAlbumTree(container, albums, selected, onSelect) {
  if (albums.length === 0) {
    replaceChildren(container, h('p', { class: 'empty', text: t('tree.noAlbums') }));
    return;
  }
  // The top of the tree (path ''): opens the order of the albums that sit directly at the top.
  const top = h(
    'button',
    {
      type: 'button',
      class: 'folder tree-root',
      'aria-current': selected === '' ? 'true' : null,
      dataset: { path: '' },
      on: { click: () => onSelect('') },
    },
    t('tree.allAlbums'),
  );
  replaceChildren(container, top, renderNode(buildTree(albums), selected, onSelect));
}
