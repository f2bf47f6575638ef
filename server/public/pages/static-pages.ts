import fs from 'node:fs';
import path from 'node:path';
import type { Express } from 'express';
import type { AlbumIndex } from '../../core/albums/album-index.js';
import { isAlbum, isProtected, titleOf } from '../../core/albums/album-tree.js';
import { type HomeContentStore, heroImage } from '../../core/home-content.js';
import type { CoverFocusLookup } from '../../media/cover-focus.js';
import { type CardDatesOf, type CardView, cardFor } from './cards.js';
import type { CardDates } from './card-dates.js';
import { publicPreview } from './link-preview.js';
import type { SiteIdentity } from './site-identity.js';
import type { MediaStats } from './media-stats.js';
import { type CachedPage, type MadePage, type PageCache, pageKey } from './page-cache.js';
import { type OutlineSection, photosOutline } from './photos-outline.js';
import type { CardLayout } from './tile-sizes.js';
import { albumPageUrl, encodePath } from '../../core/urls.js';
import { allAlbumsUrl, allAlbumsText } from './folder-listing.js';
import type { Translator } from '../../http/i18n.js';
import { languageLocals } from './visitor-language.js';

export type { CachedPage as StaticPage } from './page-cache.js';

export type StaticPageName = 'landing' | 'home' | 'photos';

/** Their addresses, where the language switcher comes back to. */
const PAGE_PATHS: Readonly<Record<StaticPageName, string>> = { landing: '/', home: '/home', photos: '/photos' };

/**
 * How long a /photos made while some covers' crops were still being worked out is sent before
 * it is made again (then sent meanwhile, and made again while crops are missing): crops come
 * in one at a time in the background, and a crowd must not have the page made for each.
 */
const PENDING_PAGE_MS = 2000;

/**
 * A heading over a group of cards on /photos: a plain folder (a year, a category), or an
 * album whose child albums are listed under it.
 */
interface Section {
  title: string;
  url: string;
  anchor: string;
  /** The section lists the children of an album (whose own card is shown just above). */
  ofAlbum: boolean;
  cards: CardView[];
  /** Its cards are the newest of all the albums below it, in rows as a category's (site.css `.cards--row`). */
  flat: boolean;
  sections: Section[];
  /** The link to the section's page, when not all its albums are shown here. */
  more: { url: string; text: string } | undefined;
}

/**
 * `/`, `/home` and `/photos` are the same for every visitor, so they are rendered once and
 * kept in memory, and rendered again only when the album tree or the home content changes.
 * They never depend on the visitor: a protected album shows a lock whoever asks. On /photos a
 * small script (views/assets/photos.js) then asks /api/unlocked-albums which of those padlocks
 * this visitor has opened, and shows their covers (server/public/routes/unlocked-albums.ts).
 *
 * /photos never waits for the crops of its covers (server/media/cover-focus.ts): a page made
 * while some are missing shows them centred, and is made again a moment later.
 */
export class StaticPages {
  constructor(
    /** The one page cache of the gallery, shared with album and folder pages (keys by pageKey). */
    private readonly cache: PageCache,
    private readonly app: Express,
    private readonly index: AlbumIndex,
    private readonly home: HomeContentStore,
    private readonly stats: MediaStats,
    private readonly contentDir: string,
    private readonly site: SiteIdentity,
    private readonly coverFocus?: CoverFocusLookup,
    /** The dates under the cards' titles (card-dates.ts); none without it. */
    private readonly cardDates?: CardDates,
  ) {}

  /** The page `name` in the visitor's language: one copy kept per language. */
  get(name: StaticPageName, translator: Translator): Promise<CachedPage> {
    // Read before anything is awaited: a page made from a tree a rescan replaced meanwhile is not kept.
    const version = this.index.version;
    return this.cache.make(version, pageKey(translator.language.code, name, this.home.version), () => this.#render(name, translator));
  }

  async #render(name: StaticPageName, translator: Translator): Promise<MadePage> {
    const locals: Record<string, unknown> = { ...languageLocals(translator), pagePath: PAGE_PATHS[name], ...(await this.#locals(name, translator)) };
    const html = await new Promise<string>((resolve, reject) => this.app.render(name, locals, (err, out) => (err ? reject(err) : resolve(out))));
    return { html, keepMs: locals.pending === true ? PENDING_PAGE_MS : undefined };
  }

  async #locals(name: StaticPageName, { t, language }: Translator): Promise<Record<string, unknown>> {
    const { intro, cards } = this.home.content;
    const site = this.site.view;
    if (name === 'landing') {
      const landingImage = this.#firstAsset('landing');
      return { site, intro, landingImage, preview: publicPreview(site, { title: site.name, description: site.subtitle, path: '/', image: landingImage }) };
    }
    if (name === 'home') {
      const hero = this.#firstAsset('hero', this.home.content.hero);
      return {
        site,
        intro,
        hero,
        cards: cards.map((c) => ({ ...c, imageUrl: c.image ? `/content/cards/${encodePath(c.image)}` : '' })),
        preview: publicPreview(site, { title: intro.title, description: intro.body, path: '/home', image: hero }),
      };
    }
    // Top level: folders (years) first, then the albums that sit at the top, then their children.
    const tree = await this.#section(photosOutline(this.index.root), -1, t, this.cardDates?.(language.locale));
    const all = (s: Section): CardView[] => [...s.cards, ...s.sections.flatMap(all)];
    return {
      site,
      sections: tree.sections.filter((s) => !s.ofAlbum),
      looseCards: tree.cards,
      looseFlat: tree.flat,
      albumSections: tree.sections.filter((s) => s.ofAlbum),
      allAlbums: tree.more,
      preview: publicPreview(site, { title: t('site.photos'), description: site.subtitle, path: '/photos' }),
      pending: all(tree).some((c) => c.pending),
    };
  }

  /**
   * The cards and headings of one section of the outline (photos-outline.ts); `depth` is its
   * heading's level below the page's (-1: the top of the tree, whose albums sit in a grid).
   * A protected album is a locked card, with nothing below it listed.
   */
  async #section(outline: OutlineSection, depth: number, t: Translator['t'], datesOf: CardDatesOf | undefined): Promise<Section> {
    const { node } = outline;
    // Cards sit in a grid at the top and in a year's own list, in rows of 260 px below, and so
    // do a section's newest albums when it is too big to show whole (site.css `.cards--row`).
    const layout: CardLayout = depth >= 1 || outline.flat ? 'row' : 'grid';
    const [cards, sections] = await Promise.all([
      Promise.all(outline.cards.map((album) => cardFor(album, isProtected(album), this.index, this.stats, t, this.coverFocus, layout, datesOf))),
      Promise.all(outline.sections.map((s) => this.#section(s, depth + 1, t, datesOf))),
    ]);
    return {
      title: titleOf(node),
      url: albumPageUrl(node.path),
      anchor: `s-${node.path.replace(/[^\w-]+/g, '-')}`,
      ofAlbum: isAlbum(node),
      cards,
      flat: outline.flat,
      sections,
      more: outline.allAlbums === undefined ? undefined : { url: allAlbumsUrl(node), text: allAlbumsText(node, outline.allAlbums, t) },
    };
  }

  /** URL of the image `chosen` in `CONTENT_DIR/assets/<kind>` when it is there, else of the first, if any (heroImage). */
  #firstAsset(kind: 'hero' | 'landing', chosen?: string): string | undefined {
    try {
      const name = heroImage(fs.readdirSync(path.join(this.contentDir, 'assets', kind)), chosen);
      return name ? `/content/${kind}/${encodeURIComponent(name)}` : undefined;
    } catch {
      return undefined;
    }
  }
}
