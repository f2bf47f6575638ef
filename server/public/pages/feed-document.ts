import { titleOf, type TreeNode } from '../../core/albums/album-tree.js';
import { TILE_THUMBNAIL } from '../../core/media-catalogue.js';
import type { SiteSettings } from '../../core/site-settings.js';
import { albumPageUrl, thumbnailUrl, versionParam } from '../../core/urls.js';
import type { Translate, Translator } from '../../http/i18n.js';
import { type AtomEntry, type AtomFeed, atomId, escapeXml } from './feed-atom.js';
import type { FeedEntry, FeedFile } from './feed-entries.js';

/** Thumbnails an entry shows at most: a glimpse; the album has the rest. */
export const ENTRY_THUMBNAILS = 6;

/** Which feed is written: the site's, an album's or folder's, or a share link's. */
export type FeedScope =
  | { readonly kind: 'site'; readonly self: string }
  | { readonly kind: 'node'; readonly node: TreeNode; readonly self: string }
  | {
      readonly kind: 'link';
      /** The album the link opens. */
      readonly node: TreeNode;
      readonly self: string;
      /** `/s/<id>`: the link's album is opened there, whatever the reader's browser holds. */
      readonly page: string;
      /** The link's thumbnail route (feed-paths.ts linkThumbnailBase). */
      readonly thumbnails: string;
    };

export interface FeedDocumentInput {
  readonly scope: FeedScope;
  readonly entries: readonly FeedEntry[];
  readonly site: Pick<SiteSettings, 'name'>;
  /** What absolute URLs start with: the site's public address, else the request's origin. */
  readonly origin: string;
  readonly translator: Pick<Translator, 't' | 'language'>;
  /**
   * What makes this gallery's ids differ from another's with the same album paths (the albums
   * directory): hashed into every id with what it names, never shown.
   */
  readonly siteKey: string;
}

/** "12 photos · 1 video", in the reader's language (the catalogue's counts, as album cards say it). */
function countsText(files: readonly FeedFile[], t: Translate): string {
  const photos = files.filter((f) => f.kind === 'image').length;
  const videos = files.length - photos;
  return [photos ? t('counts.photos', { count: photos }) : '', videos ? t('counts.videos', { count: videos }) : ''].filter(Boolean).join(' · ');
}

/** The feed's title, its page and its id's name. */
function scopeFacts(scope: FeedScope, siteName: string, t: Translate): { title: string; page: string; idName: string } {
  if (scope.kind === 'site') return { title: siteName, page: albumPageUrl(''), idName: 'site' };
  const title = t('feed.albumTitle', { album: titleOf(scope.node), site: siteName });
  if (scope.kind === 'node') return { title, page: albumPageUrl(scope.node.path), idName: `node\n${scope.node.path}` };
  return { title, page: scope.page, idName: `link\n${scope.self}` };
}

/** The Atom document of a feed: its words in the translator's language, every URL absolute. */
export function feedDocument(input: FeedDocumentInput): AtomFeed {
  const { scope, origin, translator, siteKey } = input;
  const { t } = translator;
  const facts = scopeFacts(scope, input.site.name, t);
  // Through a link, its own album opens at /s/<id>; an album below it at its page (the link's cookie, set there, opens it).
  const pageOf = (album: TreeNode) => (scope.kind === 'link' && album === scope.node ? scope.page : albumPageUrl(album.path));
  const thumbnailOf = (f: FeedFile) =>
    scope.kind === 'link'
      ? `${scope.thumbnails}?path=${encodeURIComponent(f.mediaPath)}&size=${TILE_THUMBNAIL}&v=${versionParam(f.stat)}`
      : thumbnailUrl(f.mediaPath, TILE_THUMBNAIL, f.stat);

  const entries = input.entries.map((e): AtomEntry => {
    const album = titleOf(e.album);
    const counts = countsText(e.files, t);
    const page = `${origin}${pageOf(e.album)}`;
    const thumbs = e.files
      .slice(0, ENTRY_THUMBNAILS)
      .map((f) => `<a href="${escapeXml(page)}"><img src="${escapeXml(`${origin}${thumbnailOf(f)}`)}" alt="${escapeXml(f.caption ?? '')}" loading="lazy"></a>`)
      .join(' ');
    const html = `<p>${escapeXml(counts)}</p>\n<p>${thumbs}</p>\n<p><a href="${escapeXml(page)}">${escapeXml(t('feed.seeAll', { album }))}</a></p>`;
    return {
      id: atomId(`${siteKey}\nentry\n${e.album.path}\n${e.day}`),
      title: e.kind === 'album' ? t('feed.newAlbum', { album }) : t('feed.newIn', { album, counts }),
      page,
      published: e.published,
      updated: e.updated,
      html,
    };
  });
  return {
    id: atomId(`${siteKey}\nfeed\n${facts.idName}`),
    title: facts.title,
    subtitle: t('feed.subtitle'),
    lang: translator.language.code,
    author: input.site.name,
    self: `${origin}${scope.self}`,
    page: `${origin}${facts.page}`,
    icon: undefined,
    entries,
  };
}
