import crypto from 'node:crypto';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Request, Response } from 'express';

/** A rendered page and its validator. */
export interface CachedPage {
  readonly html: string;
  /** The page's bytes, encoded once rather than on every send. */
  readonly body: Buffer;
  readonly etag: string;
  /** The body compressed, made once on first asking (zlib's threadpool) and kept with the page. */
  encoded(encoding: PageEncoding): Promise<Buffer>;
}

export type PageEncoding = 'br' | 'gzip';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

const PAGE_BROTLI_QUALITY = 6;

/**
 * Compressed once per page, a little harder than the per-response middleware (server/http/
 * text-compression.ts, brotli quality 4). Quality 6, not more: on a 200-photo page of 410 KB
 * it makes 62.4 KB in 5.4 ms where quality 9 makes 62.4 KB in 31 ms (and quality 4 67 KB in
 * 2.5 ms), and the first visitor of every page made anew (each change of the album tree)
 * waits for it.
 */
function compress(body: Buffer, encoding: PageEncoding): Promise<Buffer> {
  return encoding === 'br'
    ? brotli(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: PAGE_BROTLI_QUALITY, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length } })
    : gzip(body, { level: 9 });
}

/** Brotli wherever the browser takes it, whatever order it lists its encodings in (as the middleware). */
function preferredEncoding(req: Request): PageEncoding | undefined {
  if (req.acceptsEncodings('br') === 'br') return 'br';
  if (req.acceptsEncodings('gzip') === 'gzip') return 'gzip';
  return undefined;
}

/** Pages smaller than this go as they are, as text-compression.ts sends them. */
const COMPRESS_FROM_BYTES = 1024;

/**
 * Sends a kept page: 304 when the browser has it, else its bytes, compressed when the browser
 * takes brotli or gzip (the compression middleware leaves a body alone that is encoded
 * already). Every request costs a header lookup, not a UTF-8 encoding and a compression of
 * the whole page.
 */
export async function sendCachedPage(req: Request, res: Response, page: CachedPage, cacheControl: 'no-cache' | 'no-store'): Promise<void> {
  res.set({ 'Cache-Control': cacheControl, ETag: page.etag });
  if (req.fresh) return void res.status(304).end();
  res.type('html');
  res.vary('Accept-Encoding');
  const encoding = page.body.length >= COMPRESS_FROM_BYTES ? preferredEncoding(req) : undefined;
  if (encoding) {
    const body = await page.encoded(encoding);
    res.set('Content-Encoding', encoding).send(body);
  } else res.send(page.body);
}

/**
 * Sends a page made for this request alone (a protected album's, `no-store`): its ETag as a
 * kept page's, and the body left to the compression middleware's quicker setting, since
 * brotli at quality 9 pays only for a page sent many times.
 */
export function sendPageOnce(req: Request, res: Response, html: string): void {
  res.set({ 'Cache-Control': 'no-store', ETag: etagOf(Buffer.from(html)) });
  if (req.fresh) return void res.status(304).end();
  res.type('html').send(html);
}

/**
 * The key a page is kept under: the language it is written in (server/public/pages/
 * visitor-language.ts), then what else it is made from. Every key is built here, so no page
 * is ever sent in another language than the one it was asked in.
 */
export function pageKey(language: string, ...parts: readonly (string | number)[]): string {
  return [language, ...parts].join('\0');
}

/** A page as its maker gives it: kept for good, or only `keepMs` when it is not final yet. */
export interface MadePage {
  readonly html: string;
  readonly keepMs?: number | undefined;
}

interface Entry {
  readonly page: CachedPage;
  /** performance.now() past which it is made again; Infinity for a final page. */
  readonly until: number;
}

/**
 * Rendered album pages that are the same for everyone who may see them (docs/api.md#pages):
 * a public album's page depends only on the album tree (its version), the page number and
 * which of its child albums the visitor has unlocked, so it is rendered once per such key and
 * sent from memory with an ETag. A new tree version empties the cache at once, and a page
 * made from an older one (a rescan landed while it was made) is not kept; within one version,
 * the least recently used pages go first past `maxBytes`.
 *
 * A page that is not final (a cold album's tiles still without sizes, its dates still being
 * read) is kept a moment only, then made again while it is still sent (stale while it is
 * made anew), and made once however many ask for it at the same time: a new album shared with
 * everyone at once is rendered every few seconds at most, not once per visitor while its
 * files are read, and only its first visitor waits for a render.
 */
export class PageCache {
  readonly #entries = new Map<string, Entry>();
  readonly #making = new Map<string, Promise<CachedPage>>();
  #bytes = 0;
  #version: number | undefined;

  constructor(readonly maxBytes = 32 * 1024 * 1024) {}

  get(version: number, key: string): CachedPage | undefined {
    if (version !== this.#version) return undefined;
    const entry = this.#entries.get(key);
    if (!entry || entry.until <= performance.now()) return undefined;
    // Least recently used first: a Map iterates in insertion order.
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    return entry.page;
  }

  set(version: number, key: string, html: string, keepMs = Number.POSITIVE_INFINITY): CachedPage {
    const page = pageOf(html);
    // Made from a tree a rescan has replaced since (pages of the new one are kept already):
    // sent to the visitor who asked for it, kept for nobody.
    if (this.#version !== undefined && version < this.#version) return page;
    if (version !== this.#version) {
      this.#entries.clear();
      this.#bytes = 0;
      this.#version = version;
    }
    const old = this.#entries.get(key);
    if (old) this.#bytes -= weight(old.page);
    this.#entries.delete(key);
    this.#entries.set(key, { page, until: performance.now() + keepMs });
    this.#bytes += weight(page);
    for (const [k, e] of this.#entries) {
      if (this.#bytes <= this.maxBytes || k === key) break;
      this.#entries.delete(k);
      this.#bytes -= weight(e.page);
    }
    return page;
  }

  /**
   * The page under `key`: from the cache, else from a making of it under way, else made now by
   * `make` and kept. A page kept a moment whose moment is over is still sent, while a new one
   * is made for whoever asks next: a cold album's visitors never wait for a render but the
   * first (which may wait seconds for its tiles' sizes).
   */
  make(version: number, key: string, make: () => Promise<MadePage>): Promise<CachedPage> {
    const entry = version === this.#version ? this.#entries.get(key) : undefined;
    if (entry) {
      // Least recently used first: a Map iterates in insertion order.
      this.#entries.delete(key);
      this.#entries.set(key, entry);
      if (entry.until > performance.now()) return Promise.resolve(entry.page);
    }
    const id = `${version}\0${key}`;
    let making = this.#making.get(id);
    if (!making) {
      making = make()
        .then(({ html, keepMs }) => this.set(version, key, html, keepMs))
        .finally(() => this.#making.delete(id));
      this.#making.set(id, making);
      // Nobody may wait for this one (a stale page was sent): its failure is the next asker's.
      making.catch(() => undefined);
    }
    return entry ? Promise.resolve(entry.page) : making;
  }

  /** Pages held (tests). */
  get size(): number {
    return this.#entries.size;
  }
}

/** What a kept page holds in memory, about: its text and its bytes (compressed copies are a tenth). */
const weight = (page: CachedPage) => page.html.length + page.body.length;

const etagOf = (body: Buffer) => `"${crypto.createHash('sha1').update(body).digest('base64url')}"`;

/** A strong validator of the bytes: the same page always has the same ETag, across restarts too. */
export function pageOf(html: string): CachedPage {
  const body = Buffer.from(html);
  const encodings = new Map<PageEncoding, Promise<Buffer>>();
  return {
    html,
    body,
    etag: etagOf(body),
    encoded(encoding) {
      let made = encodings.get(encoding);
      if (!made) {
        made = compress(body, encoding);
        encodings.set(encoding, made);
        // A failure is not kept: the next send tries again.
        made.catch(() => encodings.delete(encoding));
      }
      return made;
    },
  };
}
