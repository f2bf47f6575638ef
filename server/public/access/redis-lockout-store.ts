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
}

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
 *   REDIS_DEADLINE_MS) is a 503 and its password is never checked.
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

  async get(key: string): Promise<ClientRateLimitInfo | undefined> {
    try {
      const info = await withDeadline(this.#store.get(key));
      // A missing key comes back as NaN hits and an expiry in the past.
      if (!info || !(info.totalHits > 0) || !info.resetTime || info.resetTime.getTime() <= Date.now()) return undefined;
      return info;
    } catch {
      return undefined;
    }
  }

  async increment(key: string): Promise<ClientRateLimitInfo> {
    if (!this.#client.isReady) throw lockoutUnavailable();
    try {
      const info = await withDeadline(this.#store.increment(key));
      if (info.totalHits === this.#opts.maxFailures) {
        await withDeadline(this.#client.sendCommand(['PEXPIRE', this.#store.prefixKey(key), String(this.#opts.lockoutMs)]));
        return { totalHits: info.totalHits, resetTime: new Date(Date.now() + this.#opts.lockoutMs) };
      }
      return info;
    } catch (err) {
      this.#opts.log.warn({ err }, 'password attempt not counted: Redis did not answer');
      throw lockoutUnavailable();
    }
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
