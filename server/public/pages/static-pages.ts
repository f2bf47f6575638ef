import fs from 'node:fs';
import path from 'node:path';
import type { Express } from 'express';
import type { AlbumIndex } from '../../core/albums/album-index.js';
import { isAlbum, isProtected, titleOf, type TreeNode } from '../../core/albums/album-tree.js';
import { type HomeContentStore, heroImage } from '../../core/home-content.js';
import { type CardView, cardFor, isShownLocked, listedChildren } from './cards.js';
import type { MediaStats } from './media-stats.js';
import { pageOf } from './page-cache.js';
import { albumPageUrl, encodePath } from '../../core/urls.js';

export type { CachedPage as StaticPage } from './page-cache.js';
import type { CachedPage as StaticPage } from './page-cache.js';

export type StaticPageName = 'landing' | 'home' | 'photos';

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
 */
export class StaticPages {
  #pages = new Map<StaticPageName, { key: string; page: Promise<StaticPage> }>();

  constructor(
    private readonly app: Express,
    private readonly index: AlbumIndex,
    private readonly home: HomeContentStore,
    private readonly stats: MediaStats,
    private readonly contentDir: string,
  ) {}

  get(name: StaticPageName): Promise<StaticPage> {
    const key = `${this.index.version}:${this.home.version}`;
    const cached = this.#pages.get(name);
    if (cached && cached.key === key) return cached.page;
    const page = this.#render(name);
    this.#pages.set(name, { key, page });
    page.catch(() => this.#pages.delete(name));
    return page;
  }

  async #render(name: StaticPageName): Promise<StaticPage> {
    const locals = await this.#locals(name);
    const html = await new Promise<string>((resolve, reject) => this.app.render(name, locals, (err, out) => (err ? reject(err) : resolve(out))));
    return pageOf(html);
  }

  async #locals(name: StaticPageName): Promise<Record<string, unknown>> {
    const { intro, cards } = this.home.content;
    if (name === 'landing') return { intro, landingImage: this.#firstAsset('landing') };
    if (name === 'home') {
      return {
        intro,
        hero: this.#firstAsset('hero', this.home.content.hero),
        cards: cards.map((c) => ({ ...c, imageUrl: c.image ? `/content/cards/${encodePath(c.image)}` : '' })),
      };
    }
    // Top level: folders (years) first, then the albums that sit at the top, then their children.
    const tree = await this.#section(this.index.root);
    return {
      sections: tree.sections.filter((s) => !s.ofAlbum),
      looseCards: tree.cards,
      albumSections: tree.sections.filter((s) => s.ofAlbum),
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
    return cardFor(node, isProtected(node), this.index, this.stats);
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
