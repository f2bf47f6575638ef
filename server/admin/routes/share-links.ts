import { Router } from 'express';
import type { LinkUsage, LinkUsageStore } from '../../core/access/link-usage.js';
import type { AlbumMeta } from '../../core/albums/album-record.js';
import type { TreeNode } from '../../core/albums/album-tree.js';
import {
  expiryTime,
  isShareLinkName,
  MAX_SHARE_LINK_NAME,
  newShareLinkId,
  parseShareLinks,
  type ShareLink,
  shareLinkRecord,
} from '../../core/albums/share-links.js';
import { badRequest, missingParameter, notFound } from '../../core/errors.js';
import { isLanguageCode, LANGUAGE_CODES } from '../../core/languages.js';
import { shareLinkPath } from '../../core/urls.js';
import type { AdminContext } from '../admin-context.js';
import { conflict } from '../album-files.js';
import { albumPathParam } from '../album-paths.js';
import { jsonObjectBody, queryParam } from '../request-body.js';

/** Links one album may hold: a family's worth, and a bound on what each access check compares. */
export const MAX_LINKS_PER_ALBUM = 100;
const CREATE_FIELDS = new Set(['name', 'expires', 'downloads', 'language']);

/** A share link as the admin shows it: its album.json fields, its address and its use. */
export interface ShareLinkView {
  readonly id: string;
  readonly name: string;
  readonly created: string;
  /** ISO 8601 instant, or null for a link that never expires. */
  readonly expires: string | null;
  readonly downloads: boolean;
  /** The public path (`/s/<id>`); the UI puts the public site's address in front. */
  readonly path: string;
  readonly expired: boolean;
  /** When a rotation of the album's token revoked it (ISO 8601), or null while it works. */
  readonly revoked: string | null;
  /** The language its pages are shown in, or null for the visitor's browser's. */
  readonly language: string | null;
  readonly lastUsed: string | null;
  readonly visits: number;
}

function viewOf(link: ShareLink, usage: LinkUsage | undefined, now: number): ShareLinkView {
  return {
    id: link.id,
    name: link.name,
    created: link.created,
    // The instant it stops working: a day written by hand (`2025-06-01`) lasts through that day.
    expires: link.expiresAt === undefined ? null : new Date(link.expiresAt).toISOString(),
    downloads: link.downloads,
    path: shareLinkPath(link.id),
    expired: link.expiresAt !== undefined && now >= link.expiresAt,
    revoked: link.revoked ?? null,
    language: link.language ?? null,
    lastUsed: usage?.lastUsed ?? null,
    visits: usage?.visits ?? 0,
  };
}

/** A new link from the body of POST /api/share-links/{path}: every problem named, nothing written on any. */
function checkNewLink(body: Record<string, unknown>, now: number): ShareLink {
  const problems: string[] = [];
  for (const key of Object.keys(body)) if (!CREATE_FIELDS.has(key)) problems.push(`unknown field "${key}"`);
  const { name, expires, downloads, language } = body;
  if (!isShareLinkName(name)) problems.push(`name must be 1 to ${MAX_SHARE_LINK_NAME} characters, not all spaces, without control characters`);
  let expiresAt: number | undefined;
  if (expires !== undefined && expires !== null && expires !== '') {
    expiresAt = expiryTime(expires);
    if (expiresAt === undefined) problems.push('expires must be an ISO 8601 time with its zone (2025-06-01T23:59:59+02:00) or a day (2025-06-01)');
    else if (expiresAt <= now) problems.push('expires must be in the future');
  }
  if (downloads !== undefined && typeof downloads !== 'boolean') problems.push('downloads must be a boolean');
  const hasLanguage = language !== undefined && language !== null && language !== '';
  if (hasLanguage && !isLanguageCode(language)) problems.push(`language must be one of ${LANGUAGE_CODES.join(', ')}`);
  if (problems.length > 0) throw badRequest(`Invalid share link: ${problems.join('; ')}`);
  return {
    id: newShareLinkId(),
    name: (name as string).trim(),
    created: new Date(now).toISOString(),
    // Stored as the instant it stands for: one unambiguous form in album.json.
    expires: expiresAt === undefined ? undefined : new Date(expiresAt).toISOString(),
    expiresAt,
    downloads: typeof downloads === 'boolean' ? downloads : true,
    revoked: undefined,
    language: hasLanguage ? (language as string) : undefined,
  };
}

/** The raw `shareLinks` of a record being edited (checked by the album's validation after the change). */
function storedLinks(record: Readonly<Record<string, unknown>>): unknown[] {
  const links = record.shareLinks;
  return Array.isArray(links) ? links : [];
}

/**
 * GET/POST/DELETE /api/share-links/{path} (docs/api.md#admin-server): an album's share links
 * per recipient. They live in its album.json (`shareLinks`), changed by a read-modify-write in
 * the album's queue and an atomic rename like every edit; their visits come from the usage
 * store the public server writes (never album.json).
 */
export function shareLinkRoutes(ctx: AdminContext, usage: LinkUsageStore): Router {
  const router = Router();
  const { albums } = ctx;

  async function listOf(albumPath: string, meta: AlbumMeta) {
    const used = await usage.read();
    const now = Date.now();
    return { path: albumPath, links: meta.shareLinks.map((link) => viewOf(link, used.get(link.id), now)) };
  }

  // Every album's links at once, for the overview of who can open what (the admin's "Who can
  // see what" tab): from the index, which holds every album.json as last read.
  router.get('/api/share-links', async (_req, res) => {
    const used = await usage.read();
    const now = Date.now();
    const albumsWithLinks: { path: string; links: ShareLinkView[] }[] = [];
    const walk = (node: TreeNode) => {
      if (node.meta && node.meta.shareLinks.length > 0) {
        albumsWithLinks.push({ path: node.path, links: node.meta.shareLinks.map((link) => viewOf(link, used.get(link.id), now)) });
      }
      for (const child of node.children) walk(child);
    };
    walk(ctx.index.root);
    res.json({ albums: albumsWithLinks });
  });

  router.get('/api/share-links/*albumPath', async (req, res) => {
    const album = await albums.read(albumPathParam(req));
    const { protected: locked } = await albums.ancestry(album);
    res.json({ ...(await listOf(album.path, album.meta)), protected: locked });
  });

  router.post('/api/share-links/*albumPath', async (req, res) => {
    const albumPath = albumPathParam(req);
    const link = checkNewLink(jsonObjectBody(req), Date.now());
    await albums.edit(albumPath, (record) => {
      const links = storedLinks(record);
      if (links.length >= MAX_LINKS_PER_ALBUM) throw conflict(`An album holds at most ${MAX_LINKS_PER_ALBUM} share links: revoke some first`);
      return { ...record, shareLinks: [...links, shareLinkRecord(link)] };
    });
    await ctx.refreshIndex();
    res.status(201).json(viewOf(link, undefined, Date.now()));
  });

  router.delete('/api/share-links/*albumPath', async (req, res) => {
    const albumPath = albumPathParam(req);
    const id = queryParam(req, 'id');
    if (id === undefined) throw missingParameter('id');
    const album = await albums.edit(albumPath, (record) => {
      const links = storedLinks(record);
      // Only a list the gallery reads can be edited safely; a broken one is refused as a whole by the album's validation.
      const parsed = parseShareLinks(links);
      const at = parsed?.findIndex((link) => link.id === id) ?? -1;
      if (at < 0) throw notFound(`Share link not found: ${id}`);
      const { shareLinks: _all, ...rest } = record;
      const left = links.filter((_, i) => i !== at);
      // No empty list left behind: album.json keeps only what was set on purpose.
      return left.length > 0 ? { ...rest, shareLinks: left } : rest;
    });
    await ctx.refreshIndex();
    res.json({ ...(await listOf(album.path, album.meta)), revoked: id });
  });

  return router;
}
