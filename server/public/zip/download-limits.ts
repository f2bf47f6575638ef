import type { Writable } from 'node:stream';
import { HttpError } from '../../core/errors.js';

/**
 * What one album download may hold, and how many may run: a ZIP is streamed for minutes to
 * clients the server does not control, so each must cost little while it waits for a slow
 * reader, and a reader that stops must not keep its share for ever.
 */

/**
 * Bytes per file read, and the high-water mark of the archive's streams (archiver and its
 * zip engine default to 1 MB each, on both sides). Each of the half-dozen streams between
 * the file and the socket holds about one chunk when the reader stalls: ~768 KB in all.
 * 64 KB would halve that but costs 10–15 % of the throughput (more reads, more turns of
 * every stream per megabyte); 128 KB keeps pace with archiver alone.
 */
export const ZIP_STREAM_CHUNK_BYTES = 128 * 1024;

/** A client that takes no bytes for this long (the response never drains) is disconnected. */
export const ZIP_IDLE_TIMEOUT_MS = 60_000;

/** Archives written at once by the whole server: the ceiling, however many clients ask. */
export const MAX_CONCURRENT_ZIPS = 16;

/**
 * Archives written at once for one client, counted by its address as the password lockout
 * counts it (server/public/access/client-address.ts): a household behind one router
 * downloading a few albums together. Past it that client is told to wait for one of its own
 * (429), and nobody else is: with the ceiling alone, sixteen idle connections from one
 * address denied every download to everyone.
 */
export const MAX_ZIPS_PER_CLIENT = 4;

/**
 * A download whose reader has taken less than a chunk (ZIP_STREAM_CHUNK_BYTES, its socket's
 * buffer full all along) for this long is stalled. While the server is at its ceiling, a
 * client under its share is not refused for stalled downloads: the one stalled longest is
 * ended to make room (it would be ended at ZIP_IDLE_TIMEOUT_MS anyway). A reader this slow
 * takes under 13 KB/s; a phone on a weak signal that keeps reading is not touched.
 */
export const ZIP_STALLED_MS = 10_000;

/** Downloads take minutes: a retry in a few seconds would only be refused again. */
export const ZIP_RETRY_AFTER_SECONDS = 30;

/** What a download slot watches of its response: whether the reader keeps up. */
type Response = Pick<Writable, 'writableNeedDrain' | 'on' | 'off' | 'destroy'>;

/** One running download's place; `release` it when the download ends, however it ends. */
export interface DownloadSlot {
  /** Set when the slot was taken back for another client (its response destroyed). */
  readonly evicted: boolean;
  release(): void;
}

export interface DownloadSlotsOptions {
  /** The ceiling (MAX_CONCURRENT_ZIPS). */
  readonly total?: number;
  /** One client's share (MAX_ZIPS_PER_CLIENT). */
  readonly perClient?: number;
  /** When a download counts as stalled (ZIP_STALLED_MS). */
  readonly stalledMs?: number;
  readonly now?: () => number;
}

class Slot implements DownloadSlot {
  evicted = false;
  #released = false;
  /** Last time the reader emptied the response's buffer (or the download began). */
  #lastDrain: number;
  readonly #onDrain: () => void;

  constructor(
    readonly client: string,
    readonly out: Response,
    now: () => number,
    readonly free: (slot: Slot) => void,
  ) {
    this.#lastDrain = now();
    this.#onDrain = () => {
      this.#lastDrain = now();
    };
    out.on('drain', this.#onDrain);
  }

  /** Since when the reader has taken nothing, or undefined while it keeps up. */
  stalledSince(): number | undefined {
    return this.out.writableNeedDrain ? this.#lastDrain : undefined;
  }

  evict(): void {
    this.evicted = true;
    this.release();
    this.out.destroy();
  }

  release(): void {
    if (this.#released) return;
    this.#released = true;
    this.out.off('drain', this.#onDrain);
    this.free(this);
  }
}

/**
 * How many ZIPs run, per client and in all (docs/api.md#get-apidownload-albumpath). Taken
 * after the access check (a visitor without access learns nothing of the load) and before the
 * planning, which stats every file.
 */
export class DownloadSlots {
  readonly #total: number;
  readonly #perClient: number;
  readonly #stalledMs: number;
  readonly #now: () => number;
  readonly #running = new Set<Slot>();
  readonly #byClient = new Map<string, number>();

  constructor(opts: DownloadSlotsOptions = {}) {
    const { total = MAX_CONCURRENT_ZIPS, perClient = MAX_ZIPS_PER_CLIENT, stalledMs = ZIP_STALLED_MS, now = Date.now } = opts;
    if (!Number.isInteger(total) || total < 1) throw new RangeError(`total must be an integer >= 1, got ${total}`);
    if (!Number.isInteger(perClient) || perClient < 1) throw new RangeError(`perClient must be an integer >= 1, got ${perClient}`);
    if (!Number.isFinite(stalledMs) || stalledMs <= 0) throw new RangeError(`stalledMs must be a positive number, got ${stalledMs}`);
    this.#total = total;
    this.#perClient = perClient;
    this.#stalledMs = stalledMs;
    this.#now = now;
  }

  /** Downloads running, in all. */
  get running(): number {
    return this.#running.size;
  }

  /**
   * A slot for `client`'s download written into `out`; throws a 429 when the client has its
   * share running, a 503 when the server is at its ceiling with nothing stalled to end.
   */
  take(client: string, out: Response): DownloadSlot {
    const own = this.#byClient.get(client) ?? 0;
    if (own >= this.#perClient) throw clientShareUsed(this.#perClient);
    if (this.#running.size >= this.#total) {
      const stalled = this.#longestStalled();
      if (!stalled) throw serverFull();
      stalled.evict();
    }
    const slot = new Slot(client, out, this.#now, (s) => this.#free(s));
    this.#running.add(slot);
    this.#byClient.set(client, own + 1);
    return slot;
  }

  #longestStalled(): Slot | undefined {
    const cutoff = this.#now() - this.#stalledMs;
    let found: Slot | undefined;
    let since = Number.POSITIVE_INFINITY;
    for (const slot of this.#running) {
      const s = slot.stalledSince();
      if (s !== undefined && s <= cutoff && s < since) {
        found = slot;
        since = s;
      }
    }
    return found;
  }

  #free(slot: Slot): void {
    if (!this.#running.delete(slot)) return;
    const left = (this.#byClient.get(slot.client) ?? 1) - 1;
    if (left > 0) this.#byClient.set(slot.client, left);
    else this.#byClient.delete(slot.client);
  }
}

const retryAfter = { 'Retry-After': String(ZIP_RETRY_AFTER_SECONDS) };

/** 429: it is this client's own downloads that are in the way; let one finish. */
function clientShareUsed(perClient: number): HttpError {
  return new HttpError(429, `${perClient} album downloads are already running from your network: let one finish, then try again`, { headers: retryAfter });
}

/** 503: the server as a whole is busy with other visitors' downloads. */
function serverFull(): HttpError {
  return new HttpError(503, 'Too many album downloads at once, try again shortly', { headers: retryAfter });
}
