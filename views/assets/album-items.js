// The album's whole media list, as the lightbox needs it: the tiles on the page are known
// from the DOM, everything else is fetched a page at a time from /api/album-media.

export class AlbumItems {
  /** @param {HTMLElement} list the #media list, carrying the album's data-* attributes */
  constructor(list) {
    this.api = list.dataset.api;
    this.total = Number(list.dataset.total) || 0;
    this.perPage = Number(list.dataset.perPage) || 200;
    /** Sparse: index → item. */
    this.items = new Array(this.total);
    /** page → Promise, so a page is fetched once however many slides ask for it. */
    this.pages = new Map();
    this.addFromDom(list.querySelectorAll('.media__item'));
  }

  /** Registers tiles (li elements) that are now on the page. */
  addFromDom(tiles) {
    for (const li of tiles) {
      const link = li.querySelector('a.media__link');
      const img = link?.querySelector('img');
      if (!link || !img) continue;
      const d = link.dataset;
      const index = Number(d.index);
      if (!Number.isInteger(index) || index < 0 || index >= this.total) continue;
      this.items[index] = {
        index,
        name: d.name,
        kind: d.kind,
        path: d.path,
        alt: img.alt,
        // When it was taken, wall-clock 'YYYY-MM-DDTHH:MM:SS' (docs/api.md#dates); null until known.
        taken: d.taken ?? null,
        // The owner's caption (album.json `captions`), or null: the same as the album-media API's `caption`.
        caption: d.caption ?? null,
        original: link.getAttribute('href'),
        // A photo browsers cannot display (HEIC) names its full-size JPEG; any other is its own.
        full: d.full ?? link.getAttribute('href'),
        src: img.getAttribute('src'),
        srcset: img.getAttribute('srcset'),
        // The same sizes as WebP (server/public/pages/media-items.ts), for browsers that take it.
        webpSrcset: link.querySelector('source[type="image/webp"]')?.getAttribute('srcset') ?? null,
        large: d.large,
        width: d.width ? Number(d.width) : null,
        height: d.height ? Number(d.height) : null,
        duration: d.duration ? Number(d.duration) : null,
        // A Live Photo's movie: { path, sources: [{ src, type? }] } (server/public/pages/media-items.ts).
        motion: d.motion ? JSON.parse(d.motion) : null,
        // A video's <source>s in order (server/public/pages/video-sources.ts).
        sources: d.sources ? JSON.parse(d.sources) : [],
      };
    }
  }

  get(index) {
    return this.items[index];
  }

  pageOf(index) {
    return Math.floor(index / this.perPage) + 1;
  }

  /** The item at `index`, fetching its page when needed; undefined if it does not exist. */
  async ensure(index) {
    if (index < 0 || index >= this.total) return undefined;
    if (!this.items[index]) await this.loadPage(this.pageOf(index));
    return this.items[index];
  }

  loadPage(page) {
    let loading = this.pages.get(page);
    if (!loading) {
      loading = this.#fetch(`${this.api}&page=${page}`).catch((err) => {
        this.pages.delete(page); // a failed page may be asked for again
        throw err;
      });
      this.pages.set(page, loading);
    }
    return loading;
  }

  /** Index of the file called `name`, or -1. Looks at known items first, then asks the server. */
  async indexOfName(name) {
    const known = this.items.findIndex((item) => item?.name === name);
    if (known >= 0) return known;
    try {
      const body = await this.#fetch(`${this.api}&name=${encodeURIComponent(name)}`);
      this.pages.set(body.page, Promise.resolve(body));
      return body.items.find((item) => item.name === name)?.index ?? -1;
    } catch {
      return -1;
    }
  }

  async #fetch(url) {
    const res = await fetch(url, { headers: { Accept: 'application/json' }, credentials: 'same-origin' });
    if (!res.ok) throw new Error(`${url}: ${res.status}`);
    const body = await res.json();
    for (const item of body.items) {
      // The album may have changed since the page was rendered: trust the server's indices,
      // within the length the lightbox was opened with.
      if (item.index < this.total) this.items[item.index] ??= item;
    }
    return body;
  }
}
