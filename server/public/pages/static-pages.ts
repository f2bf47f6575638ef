import fs from 'node:fs';
import path from 'node:path';
import type { Express } from 'express';
import type { AlbumIndex } from '../../core/albums/album-index.js';
import { isAlbum, isProtected, titleOf, type TreeNode } from '../../core/albums/album-tree.js';
import { type HomeContentStore, heroImage } from '../../core/home-content.js';
import type { CoverFocusLookup } from '../../media/cover-focus.js';
import { type CardView, cardFor, isShownLocked, listedChildren, photosCardLayout } from './cards.js';
import { publicPreview } from './link-preview.js';
import type { SiteIdentity } from './site-identity.js';
import type { MediaStats } from './media-stats.js';
import { type CachedPage, type MadePage, PageCache } from './page-cache.js';
import { albumPageUrl, encodePath } from '../../core/urls.js';

export type { CachedPage as StaticPage } from './page-cache.js';

export type StaticPageName = 'landing' | 'home' | 'photos';

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
  sections: Section[];
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
  readonly #cache = new PageCache();

  constructor(
    private readonly app: Express,
    private readonly index: AlbumIndex,
    private readonly home: HomeContentStore,
    private readonly stats: MediaStats,
    private readonly contentDir: string,
    private readonly site: SiteIdentity,
    private readonly coverFocus?: CoverFocusLookup,
  ) {}

  get(name: StaticPageName): Promise<CachedPage> {
    // Read before anything is awaited: a page made from a tree a rescan replaced meanwhile is not kept.
    const version = this.index.version;
    return this.#cache.make(version, `${name}\0${this.home.version}`, () => this.#render(name));
  }

  async #render(name: StaticPageName): Promise<MadePage> {
    const locals = await this.#locals(name);
    const html = await new Promise<string>((resolve, reject) => this.app.render(name, locals, (err, out) => (err ? reject(err) : resolve(out))));
    return { html, keepMs: locals.pending === true ? PENDING_PAGE_MS : undefined };
  }

  async #locals(name: StaticPageName): Promise<Record<string, unknown>> {
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
    const tree = await this.#section(this.index.root);
    const all = (s: Section): CardView[] => [...s.cards, ...s.sections.flatMap(all)];
    return {
      site,
      sections: tree.sections.filter((s) => !s.ofAlbum),
      looseCards: tree.cards,
      albumSections: tree.sections.filter((s) => s.ofAlbum),
      preview: publicPreview(site, { title: 'Photos', description: site.subtitle, path: '/photos' }),
      pending: all(tree).some((c) => c.pending),
    };
  }

  /**
   * The whole tree below `node`, nested: plain folders become sections; albums become cards,
   * followed by a section of their own child albums. A protected album is shown as a locked
   * card and nothing below it is listed: the names of its albums are its content too.
   */
  async #section(node: TreeNode): Promise<Section> {
    const section: Section = {
      title: titleOf(node),
      url: albumPageUrl(node.path),
      anchor: `s-${node.path.replace(/[^\w-]+/g, '-')}`,
      ofAlbum: isAlbum(node),
      cards: [],
      sections: [],
    };
    for (const child of listedChildren(node)) {
      if (isAlbum(child)) section.cards.push(await this.#card(child));
      if (isShownLocked(child)) continue;
      const sub = await this.#section(child);
      if (sub.cards.length > 0 || sub.sections.length > 0) section.sections.push(sub);
    }
    return section;
  }

  #card(node: TreeNode): Promise<CardView> {
    return cardFor(node, isProtected(node), this.index, this.stats, this.coverFocus, photosCardLayout(node));
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
