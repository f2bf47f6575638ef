import { expect } from 'chai';
import { parseAlbumRecord } from '../../server/core/albums/album-record.js';
import type { Album, TreeNode } from '../../server/core/albums/album-tree.js';
import { newShareLinkId } from '../../server/core/albums/share-links.js';
import { albumsVisibleTo } from '../../server/core/access/visible-albums.js';
import { ANONYMOUS, type Visitor } from '../../server/core/access/visitor.js';

/** A tree of album.json texts without a scan: the rule is a pure function of the tree and the visitor. */
function node(name: string, parent: TreeNode | undefined, meta?: Record<string, unknown>): TreeNode {
  const path = parent?.path ? `${parent.path}/${name}` : name;
  const parsed = meta ? parseAlbumRecord(JSON.stringify({ token: `token-of-${name}`, ...meta })) : undefined;
  const made = { path, name, meta: parsed, parent, children: [], media: [] } as TreeNode;
  if (parent) (parent.children as TreeNode[]).push(made);
  return made;
}

const link = (extra: Record<string, unknown> = {}) => ({ id: newShareLinkId(), name: 'Grandma', created: '2024-05-01T10:00:00Z', downloads: true, ...extra });
const paths = (albums: readonly Album[]) => albums.map((a) => a.path);
const visitor = (v: Partial<Visitor>): Visitor => ({ ...ANONYMOUS, ...v });

describe('albumsVisibleTo: the albums a view across albums may show', () => {
  const grandmasLink = link();
  const revoked = link({ revoked: '2024-06-01T00:00:00Z' });
  const expired = link({ expires: '2020-01-01' });
  const hiddenLink = link();
  const root = node('', undefined);
  const year = node('2024', root);
  node('public', year, { title: 'Public' });
  const locked = node('locked', year, { title: 'Locked', password: 'pw', shareLinks: [grandmasLink, revoked, expired] });
  node('inner', locked, { title: 'Inner' });
  const hidden = node('hidden', year, { title: 'Hidden', hidden: true, shareLinks: [hiddenLink] });
  node('below-hidden', hidden, { title: 'Below hidden' });
  node('hidden-in-locked', locked, { title: 'Hidden in locked', hidden: true });

  for (const [who, v, expected] of [
    ['an anonymous visitor', ANONYMOUS, ['2024/public']],
    ['a visitor with the locked album unlocked', visitor({ held: ['token-of-locked'] }), ['2024/public', '2024/locked', '2024/locked/inner']],
    ["Grandma's per-person link", visitor({ links: [grandmasLink.id] }), ['2024/public', '2024/locked', '2024/locked/inner']],
    ['a revoked link', visitor({ links: [revoked.id] }), ['2024/public']],
    ['an expired link', visitor({ links: [expired.id] }), ['2024/public']],
    ['the link of the hidden album', visitor({ links: [hiddenLink.id] }), ['2024/public', '2024/hidden', '2024/hidden/below-hidden']],
    // Its token opens it (the rule: a held token grants), and it is a key of its own.
    ['the token of a hidden album inside a locked one', visitor({ held: ['token-of-hidden-in-locked'] }), ['2024/public', '2024/locked/hidden-in-locked']],
    [
      'both the locked and its hidden child unlocked',
      visitor({ held: ['token-of-locked', 'token-of-hidden-in-locked'] }),
      ['2024/public', '2024/locked', '2024/locked/inner', '2024/locked/hidden-in-locked'],
    ],
  ] as const) {
    it(`should show ${who} exactly ${expected.join(', ')}`, () => {
      expect(paths(albumsVisibleTo(root, v))).to.deep.equal(expected);
    });
  }

  it('should show a hidden album only through a key of its own, not one of an album above it', () => {
    expect(paths(albumsVisibleTo(root, visitor({ held: ['token-of-locked'] })))).not.to.include('2024/locked/hidden-in-locked');
  });

  it('should walk the tree once per snapshot for every visitor who holds nothing, and never give that answer to one who holds a key', () => {
    const first = albumsVisibleTo(root, visitor({}));
    expect(albumsVisibleTo(root, visitor({})), 'another keyless visitor, the same snapshot').to.equal(first);
    // A key opens more: never the keyless answer, even right after it was kept.
    expect(paths(albumsVisibleTo(root, visitor({ held: ['token-of-locked'] })))).to.include('2024/locked');
    expect(albumsVisibleTo(root, visitor({ urlToken: 'token-of-locked' })), 'a URL token is asked of the rule').not.to.equal(first);
    expect(paths(albumsVisibleTo(root, visitor({ links: [hiddenLink.id] })))).to.include('2024/hidden');
    // A new snapshot (another root) is walked again.
    const otherRoot = node('', undefined);
    node('only', otherRoot, { title: 'Only' });
    expect(paths(albumsVisibleTo(otherRoot, visitor({})))).to.deep.equal(['only']);
    expect(paths(albumsVisibleTo(root, visitor({})))).to.deep.equal(['2024/public']);
  });
});
