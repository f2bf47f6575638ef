import type { Stats } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import express, { type Request, type RequestHandler, type Response } from 'express';
import { isCompressibleText } from './text-compression.js';

export type FileEncoding = 'br' | 'gzip';

/** A file's compressed copies, each kept only when it is smaller than the file. */
type Copies = Readonly<Partial<Record<FileEncoding, Buffer>>>;

/** Which version of a file copies were made of: what its ETag is made of too. */
interface FileVersion {
  readonly size: number;
  readonly mtimeMs: number;
}

interface Entry {
  readonly version: FileVersion;
  readonly copies: Copies;
  readonly bytes: number;
}

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/**
 * The strongest settings there are: a file is compressed once per version and sent many
 * times, so brotli 11 (an album page's scripts and styles 94 → 80 KB against the middleware's
 * quality 4) pays for itself from the second visitor on.
 */
function compress(body: Buffer, encoding: FileEncoding): Promise<Buffer> {
  return encoding === 'br'
    ? brotli(body, {
        params: {
          [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
          [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
          [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
        },
      })
    : gzip(body, { level: zlib.constants.Z_BEST_COMPRESSION });
}

const sameVersion = (a: FileVersion, b: FileVersion) => a.size === b.size && a.mtimeMs === b.mtimeMs;

/**
 * Compressed copies of fixed files (the site's scripts, styles and icons), made once per file
 * version in the background and kept in memory. A copy is made from the first request for a
 * file, which is answered as before it (compressed on the fly): nobody waits for brotli 11.
 * A file changed on disk (another size or mtime) has its copies made again. Bounded by
 * `maxBytes` of copies in all, the oldest made going first: the public site's fixed files
 * come to about 175 KB of copies (27 files, 280 KB as they are) (docs/api.md#compression).
 */
export class PrecompressedFiles {
  readonly #entries = new Map<string, Entry>();
  readonly #making = new Map<string, Promise<void>>();
  #bytes = 0;

  constructor(
    readonly maxBytes = 8 * 1024 * 1024,
    /** Files larger than this are left to the middleware: no fixed asset comes near it. */
    readonly maxFileBytes = 1024 * 1024,
  ) {
    if (!(maxBytes > 0)) throw new RangeError(`maxBytes must be positive, got ${maxBytes}`);
    if (!(maxFileBytes > 0)) throw new RangeError(`maxFileBytes must be positive, got ${maxFileBytes}`);
  }

  /** Bytes of copies kept. */
  get bytes(): number {
    return this.#bytes;
  }

  /** The copies of this version of `file` when made; else undefined, and they are made. */
  copiesOf(file: string, stat: FileVersion): Copies | undefined {
    const entry = this.#entries.get(file);
    if (entry && sameVersion(entry.version, stat)) return entry.copies;
    if (stat.size <= this.maxFileBytes && !this.#making.has(file)) {
      const version = { size: stat.size, mtimeMs: stat.mtimeMs };
      const making = this.#make(file, version).finally(() => this.#making.delete(file));
      this.#making.set(file, making);
    }
    return undefined;
  }

  /** Resolves once no copy is being made (tests; a copy made is sent from the next request on). */
  async settled(): Promise<void> {
    while (this.#making.size > 0) await Promise.all(this.#making.values());
  }

  async #make(file: string, version: FileVersion): Promise<void> {
    try {
      const body = await fs.readFile(file);
      // Changed while it was read: these bytes may be of neither version; the next request starts again.
      const after = await fs.stat(file);
      if (body.length !== version.size || !sameVersion(after, version)) return;
      const [br, gz] = await Promise.all([compress(body, 'br'), compress(body, 'gzip')]);
      const copies: Partial<Record<FileEncoding, Buffer>> = {};
      if (br.length < body.length) copies.br = br;
      if (gz.length < body.length) copies.gzip = gz;
      this.#keep(file, { version, copies, bytes: (copies.br?.length ?? 0) + (copies.gzip?.length ?? 0) });
    } catch {
      // Gone or unreadable: express.static answers it (404, or its error) as it always has.
    }
  }

  #keep(file: string, entry: Entry): void {
    const old = this.#entries.get(file);
    if (old) this.#bytes -= old.bytes;
    this.#entries.delete(file);
    this.#entries.set(file, entry);
    this.#bytes += entry.bytes;
    // Oldest first (a Map iterates in insertion order); the newest is always kept.
    for (const [key, e] of this.#entries) {
      if (this.#bytes <= this.maxBytes || key === file) break;
      this.#entries.delete(key);
      this.#bytes -= e.bytes;
    }
  }
}

/** The copies of the public site's fixed files: one set per process, whichever app asks. */
export const fixedFileCopies = new PrecompressedFiles();

/** How a folder of fixed files is served: as express.static's options say. */
export interface FixedFilesOptions {
  readonly maxAgeSeconds: number;
  readonly immutable: boolean;
  /** express.static's `setHeaders`: the type and the headers a document gets. */
  readonly setHeaders: (res: Response, file: string, stat: Stats) => void;
}

/** Bodies under this go as they are, as the compression middleware sends them (text-compression.ts). */
const COMPRESS_FROM_BYTES = 1024;

/** Brotli wherever the browser takes it, whatever order it lists its encodings in (as the middleware). */
function preferredEncoding(req: Request): FileEncoding | undefined {
  if (req.acceptsEncodings('br') === 'br') return 'br';
  if (req.acceptsEncodings('gzip') === 'gzip') return 'gzip';
  return undefined;
}

const UP_PATH = /(?:^|[\\/])\.\.(?:[\\/]|$)/;

/**
 * The file under `root` a request's path names, checked in send's order (decode, NUL,
 * normalize, `..`, dotfiles); undefined for anything send would not serve as a file, which is
 * then left to express.static to answer as it always has.
 */
function fileUnder(root: string, urlPath: string): string | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return undefined;
  }
  if (decoded.includes('\0') || decoded.endsWith('/')) return undefined;
  const relative = path.normalize(`.${path.sep}${decoded}`);
  if (UP_PATH.test(relative)) return undefined;
  if (relative.split(/[\\/]/).some((part) => part.startsWith('.'))) return undefined;
  return path.join(root, relative);
}

/**
 * Answers a request for a fixed text file with its copy made at the strongest setting, with the
 * headers express.static sends (type, ETag, Last-Modified, Cache-Control, `setHeaders`'), and
 * passes every other request on to express.static, unchanged: no copy made yet (the first
 * request for a file), a browser that takes neither encoding, ranges and `If-Match` /
 * `If-Unmodified-Since` (send answers them on the file itself), a fresh conditional request
 * (send's 304), media and small files.
 */
function precompressedAnswers(root: string, options: FixedFilesOptions, store: PrecompressedFiles): RequestHandler {
  const cacheControl = `public, max-age=${options.maxAgeSeconds}${options.immutable ? ', immutable' : ''}`;
  return async function precompressed(req, res, next) {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    if (req.headers.range || req.headers['if-match'] || req.headers['if-unmodified-since']) return next();
    const encoding = preferredEncoding(req);
    const file = encoding && fileUnder(root, req.path);
    if (!encoding || !file || !isCompressibleText(typeOf(res, file))) return next();
    let stat: Stats;
    try {
      stat = await fs.stat(file);
    } catch {
      return next();
    }
    if (!stat.isFile() || stat.size < COMPRESS_FROM_BYTES) return next();
    const body = store.copiesOf(file, stat)?.[encoding];
    if (!body) return next();

    // send's validators, so a browser's copy validates whichever way it came.
    const etag = `W/"${stat.size.toString(16)}-${stat.mtime.getTime().toString(16)}"`;
    res.setHeader('ETag', etag);
    res.setHeader('Last-Modified', stat.mtime.toUTCString());
    if (req.fresh) {
      res.removeHeader('ETag');
      res.removeHeader('Last-Modified');
      return next();
    }
    options.setHeaders(res, file, stat);
    res.setHeader('Cache-Control', cacheControl);
    if (!res.getHeader('Content-Type')) res.type(path.extname(file));
    res.vary('Accept-Encoding');
    // The compression middleware leaves a body alone that says its encoding already.
    res.setHeader('Content-Encoding', encoding);
    res.setHeader('Content-Length', body.length);
    res.status(200).end(req.method === 'HEAD' ? undefined : body);
  };
}

/** The type express would send `file` with, asked without leaving it on the response. */
function typeOf(res: Response, file: string): unknown {
  const before = res.getHeader('Content-Type');
  const type = res.type(path.extname(file)).getHeader('Content-Type');
  if (before === undefined) res.removeHeader('Content-Type');
  else res.setHeader('Content-Type', before);
  return type;
}

/**
 * A folder of fixed files: text files sent from their copies compressed once at the strongest
 * setting when made (docs/api.md#compression), everything else, and everything before a copy
 * is made, by express.static with the same options.
 */
export function fixedFiles(root: string, options: FixedFilesOptions, store = fixedFileCopies): RequestHandler[] {
  return [
    precompressedAnswers(root, options, store),
    express.static(root, {
      index: false,
      dotfiles: 'ignore',
      maxAge: options.maxAgeSeconds * 1000,
      immutable: options.immutable,
      fallthrough: true,
      setHeaders: options.setHeaders,
    }),
  ];
}
