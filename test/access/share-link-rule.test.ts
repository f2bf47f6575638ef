import fs from 'node:fs';
import { expect } from 'chai';
import request from 'supertest';
import { AlbumRecordError, parseAlbumRecord } from '../../server/core/albums/album-record.js';
import type { Album, TreeNode } from '../../server/core/albums/album-tree.js';
import { expiryTime, isShareLinkId, newShareLinkId, parseShareLinks } from '../../server/core/albums/share-links.js';
import { allowsDownloads, resolveAccess } from '../../server/core/access/resolve-access.js';
import { liveLink } from '../../server/core/access/secret-directory.js';
import { accessCookie, GalleryFixture } from '../support/gallery-fixture.js';
import { unzip } from '../zip/support.js';

const CREATED = '2024-05-01T10:00:00.000Z';
const linkRecord = (extra: Record<string, unknown> = {}) => ({ id: newShareLinkId(), name: 'Grandma', created: CREATED, downloads: true, ...extra });

/** A tree node of album.json text, without a scan (the rule is a pure function of the chain). */
function albumNode(meta: Record<string, unknown>, parent?: TreeNode, name = 'a'): Album {
  const parsed = parseAlbumRecord(JSON.stringify({ token: `token-of-${name}`, ...meta }));
  const node = { path: parent?.path ? `${parent.path}/${name}` : name, name, meta: parsed, parent, children: [], media: [] } as Album;
  // The rule finds tokens and links through the tree the node belongs to.
  if (parent) (parent.children as TreeNode[]).push(node);
  return node;
}

describe('share links: the record and the rule', () => {
  describe('parseShareLinks (album.json)', () => {
    it('should read a valid list with the link fields, an absent list as none', () => {
      const expires = '2030-01-02T03:04:05+02:00';
      const raw = linkRecord({ expires, downloads: false });
      const [link] = parseShareLinks([raw])!;
      expect(link).to.include({ id: raw.id, name: 'Grandma', created: CREATED, expires, downloads: false });
      expect(link!.expiresAt).to.equal(Date.parse('2030-01-02T01:04:05Z'));
      expect(parseShareLinks(undefined)).to.deep.equal([]);
    });

    for (const [what, list] of [
      ['an id too short to hold 128 bits', [linkRecord({ id: 'abcdefghijklmnopqrstu' })]],
      ['an id with characters outside base64url', [linkRecord({ id: 'abcdefghijklmnopqrstu/+' })]],
      ['the same id twice', ((l) => [l, { ...l, name: 'Other' }])(linkRecord())],
      ['an empty name', [linkRecord({ name: '  ' })]],
      ['a name with a control character', [linkRecord({ name: 'Gran\nma' })]],
      ['a creation time that is no ISO time', [linkRecord({ created: 'yesterday' })]],
      ['an expiry that is no date', [linkRecord({ expires: 'next week' })]],
      ['downloads that is not a boolean', [linkRecord({ downloads: 'yes' })]],
      ['a revocation that is no time', [linkRecord({ revoked: true })]],
      ['no list at all', { id: 'x' }],
    ] as const) {
      it(`should refuse ${what}, and the album with it`, () => {
        expect(parseShareLinks(list)).to.equal(undefined);
        expect(() => parseAlbumRecord(JSON.stringify({ title: 'T', shareLinks: list }))).to.throw(AlbumRecordError, /shareLinks must be/);
      });
    }

    it('should read a day alone as the whole of that day (UTC)', () => {
      expect(expiryTime('2030-01-02')).to.equal(Date.parse('2030-01-03T00:00:00Z'));
      expect(expiryTime('2030-01-02T10:00:00Z')).to.equal(Date.parse('2030-01-02T10:00:00Z'));
      expect(expiryTime('2030-02-30T10:00')).to.equal(undefined);
    });

    it('should make ids of 144 random bits, each different', () => {
      const ids = new Set(Array.from({ length: 1000 }, newShareLinkId));
      expect(ids.size).to.equal(1000);
      for (const id of ids) expect(isShareLinkId(id) && id.length === 24).to.equal(true);
    });
  });

  describe('resolveAccess with links', () => {
    const now = Date.parse('2025-01-01T00:00:00Z');
    const full = linkRecord();
    const viewOnly = linkRecord({ downloads: false });
    const lapsed = linkRecord({ expires: '2024-12-31T23:59:59Z' });
    const parent = albumNode({ title: 'Parent', password: 'pw', shareLinks: [full, viewOnly, lapsed] }, undefined, 'parent');
    const child = albumNode({ title: 'Child' }, parent, 'child');
    const locked = albumNode({ title: 'Locked child', password: 'pw2' }, parent, 'locked');
    const visitor = (links: string[], held: string[] = []) => ({ held, urlToken: undefined, links });

    it('should open the album and the children without a password, reporting the link', () => {
      for (const node of [parent, child]) {
        const r = resolveAccess(node, visitor([full.id]), now);
        expect(r.granted && r.link?.id).to.equal(full.id);
        expect(r.granted && r.openedBy).to.equal(parent);
      }
      expect(resolveAccess(locked, visitor([full.id]), now)).to.deep.include({ granted: false, blocking: locked });
    });

    it("should not open with a link its album's rotation revoked, kept in album.json as revoked", () => {
      const top = albumNode({ title: 'Rotated', password: 'pw', shareLinks: [linkRecord({ revoked: '2024-12-01T10:00:00Z' })] }, undefined, 'rotated');
      const [revoked] = top.meta.shareLinks;
      expect(revoked!.revoked).to.equal('2024-12-01T10:00:00Z');
      expect(resolveAccess(top, visitor([revoked!.id]), now).granted).to.equal(false);
      const root = { path: '', name: '', meta: undefined, parent: undefined, children: [top], media: [] } as TreeNode;
      expect(liveLink(root, revoked!.id, now)).to.equal(undefined);
    });

    it('should not open with an expired link, from the instant it expires', () => {
      expect(resolveAccess(parent, visitor([lapsed.id]), now).granted).to.equal(false);
      expect(resolveAccess(parent, visitor([lapsed.id]), Date.parse('2024-12-31T23:59:58Z')).granted).to.equal(true);
    });

    it('should let a held token win over a link: full access, no link reported', () => {
      const r = resolveAccess(child, visitor([viewOnly.id], ['token-of-parent']), now);
      expect(r.granted && r.link).to.equal(undefined);
      expect(allowsDownloads(r)).to.equal(true);
      expect(allowsDownloads(resolveAccess(child, visitor([viewOnly.id]), now))).to.equal(false);
    });

    it('should report the downloads of the link that opened, the nearest', () => {
      // A tree of its own: the rule looks links up in a snapshot, which never changes once used.
      const top = albumNode({ title: 'Parent', password: 'pw', shareLinks: [full, viewOnly, lapsed] }, undefined, 'top');
      const nearest = albumNode({ title: 'Near', shareLinks: [linkRecord({ id: viewOnly.id, downloads: true })] }, top, 'near');
      const r = resolveAccess(nearest, visitor([viewOnly.id]), now);
      expect(r.granted && r.link?.downloads).to.equal(true);
    });

    it('should grant a public album without reporting a link: a link restricts nothing public', () => {
      const open = albumNode({ title: 'Open', shareLinks: [viewOnly] }, undefined, 'open');
      const r = resolveAccess(open, visitor([viewOnly.id]), now);
      expect(r.granted && r.link).to.equal(undefined);
    });

    it('should find a link by id in the directory only while it works', () => {
      const root = { path: '', name: '', meta: undefined, parent: undefined, children: [parent], media: [] } as TreeNode;
      expect(liveLink(root, full.id, now)?.album).to.equal(parent);
      expect(liveLink(root, lapsed.id, now)).to.equal(undefined);
      expect(liveLink(root, newShareLinkId(), now)).to.equal(undefined);
    });
  });
});

/**
 * A symlink leading into an album this visitor opened through a "no downloads" link: its
 * original stays back, and the ZIP of the album holding the symlink leaves it out.
 */
describe('share links and symlinks', function () {
  this.timeout(60_000);
  const fx = new GalleryFixture();
  const viewOnly = linkRecord({ downloads: false });

  before(async () => {
    await fx.build({
      best: { meta: { title: 'Best of', password: 'pw', token: 't-best-token' }, files: ['own.jpg'] },
      wedding: { meta: { title: 'Wedding', password: 'pw2', token: 't-wedding-token', shareLinks: [viewOnly] }, files: ['kiss.jpg'] },
    });
    fs.symlinkSync('../wedding/kiss.jpg', fx.path('best/zz-kiss.jpg'));
    await fx.start();
  });
  after(() => fx.close());

  it('should refuse the original through the symlink and leave it out of the ZIP', async () => {
    const cookies = [accessCookie(['t-best-token']), `album-links=${encodeURIComponent(JSON.stringify([viewOnly.id]))}`].join('; ');
    const app = request(fx.gallery.handler);
    await app.get('/albums/best/own.jpg').set('Cookie', cookies).expect(200);
    await app.get('/albums/best/zz-kiss.jpg').set('Cookie', cookies).expect(403);
    await app.get('/api/thumbnail?path=best%2Fzz-kiss.jpg&size=small').set('Cookie', cookies).expect(200);
    const zip = await app
      .get('/api/download-album?path=best')
      .set('Cookie', cookies)
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      })
      .expect(200);
    expect([...(await unzip(zip.body as Buffer)).keys()]).to.deep.equal(['own.jpg']);
    const page = await app.get('/photos/best').set('Cookie', cookies).expect(200);
    expect(page.text).to.include('href="/albums/best/own.jpg"').and.not.include('href="/albums/best/zz-kiss.jpg"');
    // With the wedding's own token, the same file is a download like any.
    await app
      .get('/albums/best/zz-kiss.jpg')
      .set('Cookie', accessCookie(['t-best-token', 't-wedding-token']))
      .expect(200);
  });
});
