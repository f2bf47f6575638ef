import type { ClientRateLimitInfo, Options, Store } from 'express-rate-limit';
import { RedisStore } from 'rate-limit-redis';
import { HttpError } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import type { RedisCommands } from '../redis-connection.js';

/** Prefix of the lockout's keys in Redis (several galleries may share one Redis with other prefixes). */
export const LOCKOUT_KEY_PREFIX = 'gallery:lockout:';
/** A Redis answer slower than this is no answer: the password check fails closed. */
export const REDIS_DEADLINE_MS = 2000;
const RETRY_AFTER_SECONDS = 5;
/** DECR keeps the key's expiry; a missing or spent count is left alone. */
const GIVE_BACK = "if tonumber(redis.call('GET', KEYS[1]) or '0') > 0 then redis.call('DECR', KEYS[1]) end return 1";

/** 503: the lockout cannot be consulted, so no password is checked (nothing is unlocked). */
export function lockoutUnavailable(): HttpError {
  return new HttpError(503, 'Password checks are unavailable right now, try again shortly', { headers: { 'Retry-After': String(RETRY_AFTER_SECONDS) } });
}

export interface RedisLockoutOptions {
  readonly maxFailures: number;
  readonly lockoutMs: number;
  readonly log: Logger;
  readonly prefix?: string;
  /** Lockouts remembered in this process at most (`lockedUntil`); past it the oldest is forgotten. */
  readonly maxRecords?: number;
}

/** Lockouts remembered at most by default. */
const MAX_REMEMBERED = 50_000;

/**
 * The password lockout shared by every process (docs/api.md#password-endpoints), in Redis
 * through express-rate-limit's own Redis store (rate-limit-redis): INCR in a Lua script, so
 * concurrent attempts on any number of processes get distinct counts and exactly
 * `maxFailures` of them are checked. Around it, what a lockout needs:
 *
 * - rate-limit-redis counts in a fixed window that starts with the first failure; the
 *   attempt that reaches `maxFailures` restarts the key's time to live at `lockoutMs`, so a
 *   lockout lasts its full 15 minutes from the 10th failure, as with one process.
 * - Fail closed: an attempt that cannot be counted (Redis down, or slower than
 *   REDIS_DEADLINE_MS) is a 503 and its password is never checked. A count that lands after
 *   its deadline all the same is given back as it lands: an attempt answered 503 is never a
 *   failure, however right its password was.
 * - `lockedUntil` answers without a round trip, from the lockouts this process's counts and
 *   reads have seen: a lockout reached through another process is known here from this
 *   process's next count or read for that client.
 * - Redis away when the store started (its scripts could not be loaded): they are loaded
 *   again each time the client is ready, so the store works as soon as Redis is back.
 * - `get` (how long a lockout lasts, for the password form) answers undefined, "not known",
 *   rather than failing a page while Redis is away.
 */
export class RedisLockoutStore implements Store {
  readonly localKeys = false;
  readonly prefix: string;
  readonly #store: RedisStore;
  readonly #client: RedisCommands;
  readonly #opts: RedisLockoutOptions;
  #options: Options | undefined;
  /** Lockouts seen, by key: when each ends (ms since the epoch); oldest first. */
  readonly #lockouts = new Map<string, number>();

  constructor(client: RedisCommands, opts: RedisLockoutOptions) {
    this.#client = client;
    this.#opts = opts;
    this.prefix = opts.prefix ?? LOCKOUT_KEY_PREFIX;
    this.#store = new RedisStore({ sendCommand: (...args: string[]) => client.sendCommand(args) as Promise<never>, prefix: this.prefix });
    client.on('ready', () => {
      if (this.#options) this.#load(this.#options);
    });
  }

  init(options: Options): void {
    this.#options = options;
    if (this.#client.isReady) this.#load(options);
  }

  #load(options: Options): void {
    this.#store
      .init(options)
      .catch((err: unknown) => this.#opts.log.warn({ err }, 'could not load the lockout scripts into Redis; retried when it reconnects'));
  }

  get canCount(): boolean {
    return this.#client.isReady;
  }

  lockedUntil(key: string): number {
    const until = this.#lockouts.get(key) ?? 0;
    if (until !== 0 && until <= Date.now()) this.#lockouts.delete(key);
    return until > Date.now() ? until : 0;
  }

  /** Remembers what Redis said of `key`: a lockout until its end, nothing otherwise. */
  #saw(key: string, info: ClientRateLimitInfo | undefined): void {
    this.#lockouts.delete(key);
    if (!info || info.totalHits < this.#opts.maxFailures || !info.resetTime) return;
    const now = Date.now();
    if (this.#lockouts.size >= (this.#opts.maxRecords ?? MAX_REMEMBERED)) {
      for (const [k, until] of this.#lockouts) if (until <= now) this.#lockouts.delete(k);
      for (const k of this.#lockouts.keys()) {
        if (this.#lockouts.size < (this.#opts.maxRecords ?? MAX_REMEMBERED)) break;
        this.#lockouts.delete(k);
      }
    }
    this.#lockouts.set(key, info.resetTime.getTime());
  }

  async get(key: string): Promise<ClientRateLimitInfo | undefined> {
    let info: ClientRateLimitInfo | undefined;
    try {
      info = await withDeadline(this.#store.get(key));
    } catch {
      return undefined;
    }
    // A missing key comes back as NaN hits and an expiry in the past.
    const live = info && info.totalHits > 0 && info.resetTime && info.resetTime.getTime() > Date.now() ? info : undefined;
    this.#saw(key, live);
    return live;
  }

  async increment(key: string): Promise<ClientRateLimitInfo> {
    if (!this.#client.isReady) throw lockoutUnavailable();
    const counting = this.#store.increment(key);
    let info: ClientRateLimitInfo;
    try {
      info = await withDeadline(counting);
    } catch (err) {
      // Redis may still run it: a count landing after this attempt was answered 503 is given back.
      counting.then(
        () => this.#giveBack(key),
        () => undefined,
      );
      this.#opts.log.warn({ err }, 'password attempt not counted: Redis did not answer');
      throw lockoutUnavailable();
    }
    if (info.totalHits === this.#opts.maxFailures) {
      try {
        await withDeadline(this.#client.sendCommand(['PEXPIRE', this.#store.prefixKey(key), String(this.#opts.lockoutMs)]));
      } catch (err) {
        // The count is in: this attempt is answered 503, so it goes back.
        this.#giveBack(key);
        this.#opts.log.warn({ err }, 'password attempt not counted: Redis did not answer');
        throw lockoutUnavailable();
      }
      info = { totalHits: info.totalHits, resetTime: new Date(Date.now() + this.#opts.lockoutMs) };
    }
    this.#saw(key, info);
    return info;
  }

  #giveBack(key: string): void {
    this.decrement(key).catch((err: unknown) => this.#opts.log.warn({ err }, 'a password attempt answered 503 could not be given back'));
  }

  /**
   * A give-back (an attempt that was not a failure) lowers the count only while there is one:
   * DECR on a key that expired or was cleared meanwhile (an unlock, the answer's give-back
   * landing late) would make it again at -1 and without an expiry, an extra guess for good.
   */
  async decrement(key: string): Promise<void> {
    await withDeadline(this.#client.sendCommand(['EVAL', GIVE_BACK, '1', this.#store.prefixKey(key)]));
  }

  resetKey(key: string): Promise<void> {
    this.#lockouts.delete(key);
    return withDeadline(this.#store.resetKey(key));
  }
}

/** `work`, or a rejection once REDIS_DEADLINE_MS have passed (the command may still land later). */
function withDeadline<T>(work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Redis did not answer within ${REDIS_DEADLINE_MS} ms`)), REDIS_DEADLINE_MS);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}
