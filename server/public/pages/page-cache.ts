import crypto from 'node:crypto';

/** A rendered page and its validator. */
export interface CachedPage {
  readonly html: string;
  readonly etag: string;
}

/**
 * Rendered album pages that are the same for everyone who may see them (docs/api.md#pages):
 * a public album's page depends only on the album tree (its version), the page number and
 * which of its child albums the visitor has unlocked, so it is rendered once per such key and
 * sent from memory with an ETag. A new tree version empties the cache at once; within one,
 * the least recently used pages go first past `maxBytes`.
 */
export class PageCache {
  readonly #entries = new Map<string, CachedPage>();
  #bytes = 0;
  #version: number | undefined;

  constructor(readonly maxBytes = 32 * 1024 * 1024) {}

  get(version: number, key: string): CachedPage | undefined {
    if (version !== this.#version) return undefined;
    const page = this.#entries.get(key);
    if (page) {
      // Least recently used first: a Map iterates in insertion order.
      this.#entries.delete(key);
      this.#entries.set(key, page);
    }
    return page;
  }

  set(version: number, key: string, html: string): CachedPage {
    const page = pageOf(html);
    if (version !== this.#version) {
      this.#entries.clear();
      this.#bytes = 0;
      this.#version = version;
    }
    const old = this.#entries.get(key);
    if (old) this.#bytes -= old.html.length;
    this.#entries.delete(key);
    this.#entries.set(key, page);
    this.#bytes += html.length;
    for (const [k, p] of this.#entries) {
      if (this.#bytes <= this.maxBytes || k === key) break;
      this.#entries.delete(k);
      this.#bytes -= p.html.length;
    }
    return page;
  }

  /** Pages held (tests). */
  get size(): number {
    return this.#entries.size;
  }
}

/** A strong validator of the bytes: the same page always has the same ETag, across restarts too. */
export function pageOf(html: string): CachedPage {
  return { html, etag: `"${crypto.createHash('sha1').update(html).digest('base64url')}"` };
}
