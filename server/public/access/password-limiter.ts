import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { rateLimit, type ClientRateLimitInfo, type Store } from 'express-rate-limit';
import type { Logger } from '../../core/logger.js';
import type { RedisCommands } from '../redis-connection.js';
import { RedisLockoutStore } from './redis-lockout-store.js';
import { clientAddressKey } from './client-address.js';

export const MAX_FAILED_ATTEMPTS = 10;
export const LOCKOUT_MS = 15 * 60 * 1000;
/** Clients remembered at most; past it the one seen least recently is forgotten (about 200 bytes each). */
export const MAX_RECORDS = 50_000;
/** How often an attempt also sweeps the records of clients that never came back. */
const SWEEP_INTERVAL_MS = 60 * 1000;

interface Record {
  /** Times of attempts that count: failures, and attempts still being checked. */
  hits: number[];
  lockedUntil: number;
}

/**
 * express-rate-limit store with the lockout of docs/api.md#password-endpoints: attempts within 15 minutes
 * count, the 10th starts a 15-minute lockout from that moment, and nothing is added while
 * locked out. Every attempt is counted *before* its password is checked (express-rate-limit
 * increments first) and given back afterwards unless it failed, so concurrent guesses can
 * never get more than 10 wrong answers. Held in memory only, and bounded: a record expires
 * with its last attempt or its lockout, expired ones are swept as attempts come in (a client
 * that never comes back leaves nothing behind), and at most `maxRecords` clients are kept.
 */
export class LockoutStore implements Store {
  readonly localKeys = true;
  /** Memory always answers. */
  readonly canCount = true;
  /** In order of last attempt, oldest first: the first entry is the one to forget when full. */
  readonly #records = new Map<string, Record>();
  readonly #now: () => number;
  readonly #maxRecords: number;
  #lastSweep: number;

  constructor(now: () => number = Date.now, maxRecords = MAX_RECORDS) {
    this.#now = now;
    this.#maxRecords = maxRecords;
    this.#lastSweep = now();
  }

  /** Clients currently remembered. */
  get size(): number {
    return this.#records.size;
  }

  /** Drops what has expired from a record; false when nothing is left of it. */
  static #prune(rec: Record, now: number): boolean {
    if (rec.lockedUntil !== 0 && now >= rec.lockedUntil) return false;
    rec.hits = rec.hits.filter((t) => now - t < LOCKOUT_MS);
    return rec.hits.length > 0 || rec.lockedUntil !== 0;
  }

  #live(key: string): Record | undefined {
    const rec = this.#records.get(key);
    if (!rec) return undefined;
    if (LockoutStore.#prune(rec, this.#now())) return rec;
    this.#records.delete(key);
    return undefined;
  }

  /** Forgets every expired record; amortised over attempts, so no timer outlives the store. */
  #sweep(now: number): void {
    this.#lastSweep = now;
    for (const [key, rec] of this.#records) if (!LockoutStore.#prune(rec, now)) this.#records.delete(key);
  }

  /** Room for one more client: the one seen least recently is forgotten (in O(1), even under a flood). */
  #makeRoom(): void {
    for (const key of this.#records.keys()) {
      if (this.#records.size < this.#maxRecords) break;
      this.#records.delete(key);
    }
  }

  #info(rec: Record): ClientRateLimitInfo {
    const resetAt = rec.lockedUntil !== 0 ? rec.lockedUntil : (rec.hits[0] ?? this.#now()) + LOCKOUT_MS;
    return {
      totalHits: rec.lockedUntil !== 0 && rec.hits.length < MAX_FAILED_ATTEMPTS ? MAX_FAILED_ATTEMPTS + 1 : rec.hits.length,
      resetTime: new Date(resetAt),
    };
  }

  async get(key: string): Promise<ClientRateLimitInfo | undefined> {
    const rec = this.#live(key);
    return rec && this.#info(rec);
  }

  lockedUntil(key: string): number {
    return this.#live(key)?.lockedUntil ?? 0;
  }

  increment(key: string): Promise<ClientRateLimitInfo> {
    const now = this.#now();
    if (now - this.#lastSweep >= SWEEP_INTERVAL_MS) this.#sweep(now);
    let rec = this.#live(key);
    if (rec) {
      // Seen again: to the end of the order, the last to be forgotten.
      this.#records.delete(key);
    } else {
      this.#makeRoom();
      rec = { hits: [], lockedUntil: 0 };
    }
    this.#records.set(key, rec);
    if (rec.lockedUntil !== 0) {
      return Promise.resolve({ totalHits: MAX_FAILED_ATTEMPTS + 1, resetTime: new Date(rec.lockedUntil) });
    }
    rec.hits.push(now);
    if (rec.hits.length >= MAX_FAILED_ATTEMPTS) rec.lockedUntil = now + LOCKOUT_MS;
    return Promise.resolve(this.#info(rec));
  }

  /** An attempt that did not fail is given back (and a tentative lockout lifted). */
  async decrement(key: string): Promise<void> {
    const rec = this.#live(key);
    if (!rec || rec.hits.length === 0) return;
    rec.hits.pop();
    if (rec.hits.length < MAX_FAILED_ATTEMPTS) rec.lockedUntil = 0;
    if (rec.hits.length === 0) this.#records.delete(key);
  }

  async resetKey(key: string): Promise<void> {
    this.#records.delete(key);
  }

  async resetAll(): Promise<void> {
    this.#records.clear();
  }
}

/** What the password routes learn from the limiter, kept on `res.locals`. */
export interface AttemptState {
  rateLimited: boolean;
  /** Set by the route when the password was wrong: the attempt then stays counted. */
  failed: boolean;
}

export function attemptState(res: Response): AttemptState {
  res.locals.attempt ??= { rateLimited: false, failed: false };
  return res.locals.attempt as AttemptState;
}

/** Attempts left after the current one (`remainingAttempts` of check-password). */
export function remainingAttempts(req: Request): number {
  const info = (req as Request & { rateLimit?: { remaining: number } }).rateLimit;
  return info ? info.remaining : MAX_FAILED_ATTEMPTS;
}

/**
 * What the limiter counts in: this process's memory (LockoutStore), or Redis when
 * `REDIS_URL` is set (RedisLockoutStore), with the same rules and the same methods.
 */
export interface PasswordStore extends Store {
  /** The client's record, undefined when it has none (or, with Redis, when it cannot be read now). */
  get(key: string): Promise<ClientRateLimitInfo | undefined>;
  increment(key: string): Promise<ClientRateLimitInfo>;
  decrement(key: string): Promise<void>;
  resetKey(key: string): Promise<void>;
  /**
   * When the client's lockout ends (ms since the epoch), 0 when it is not locked out, as far
   * as this process knows now: without a round trip, for a decision that cannot wait (Redis:
   * the lockouts its own counts and reads have seen).
   */
  lockedUntil(key: string): number;
  /** Whether an attempt can be counted now (false while Redis is away). */
  readonly canCount: boolean;
}

/** Where a client stands with the lockout: what the password form tells. */
export interface Standing {
  /** Milliseconds left of its lockout, 0 when it is not locked out. */
  readonly lockedOutMs: number;
  /** When its lockout ends, by the limiter's clock (ms since the epoch); 0 when it is not locked out. */
  readonly lockedUntil: number;
  /** Failed attempts it may still make before the lockout (0 while locked out). */
  readonly attemptsLeft: number;
}

/** A failed guess, and where the client stands after it. */
export interface GuessCount extends Standing {
  /** False when the client was locked out already: the guess was not looked at, nothing was added. */
  readonly counted: boolean;
}

export interface PasswordLimiter {
  readonly middleware: RequestHandler;
  /** Clears an IP's record after a successful unlock (never rejects: a failure is logged). */
  readonly clear: (req: Request) => Promise<void>;
  /**
   * Where the client making `req` stands, by the limiter's own clock (what the password form
   * counts down and warns of); undefined when the shared store cannot be asked. Never rejects.
   */
  readonly standing: (req: Request) => Promise<Standing | undefined>;
  /**
   * Counts one failed guess that is no password: a token or a share link that opens nothing
   * (docs/api.md#password-endpoints). Nothing is added while the client is locked out. Never
   * rejects: the client's standing after it, undefined when it could not be counted (Redis
   * away: logged).
   */
  readonly countGuess: (req: Request) => Promise<GuessCount | undefined>;
  /**
   * Whether a guessable secret of this client (a token written by hand) may be checked now:
   * not while it is locked out, nor while the lockout cannot count. Synchronous, from what
   * this process knows (server/public/access/visitor.ts asks it in the middle of a decision).
   */
  readonly admitsGuesses: (req: Request) => boolean;
  readonly store: PasswordStore;
}

/** Where the lockout is shared between processes (`REDIS_URL`): server/public/access/redis-lockout-store.ts. */
export interface SharedLockout {
  readonly redis: RedisCommands;
  readonly log: Logger;
}

/**
 * One limiter shared by the three password endpoints. It never answers by itself: it marks
 * the request as rate-limited and lets the route answer in its own shape (302 or 429).
 * With `shared`, the counts live in Redis for every process of the gallery; an attempt
 * Redis cannot count is answered 503 by the error handler and its password never checked.
 */
export function createPasswordLimiter(now?: () => number, shared?: SharedLockout): PasswordLimiter {
  const clock = now ?? Date.now;
  const store: PasswordStore = shared
    ? new RedisLockoutStore(shared.redis, { maxFailures: MAX_FAILED_ATTEMPTS, lockoutMs: LOCKOUT_MS, log: shared.log, maxRecords: MAX_RECORDS })
    : new LockoutStore(clock);
  const log = shared?.log;
  // Requests whose record clear() removed: nothing is left to give back. (Redis's DECR would
  // make the removed key again, at -1 and without an expiry.)
  const cleared = new WeakSet<Request>();
  // The key express-rate-limit computed, or would compute (its default: IPv6 addresses
  // grouped by subnet), for a request that did not go through it (the album page).
  const keyOf = (req: Request) => (req as Request & { rateLimit?: { key: string } }).rateLimit?.key ?? clientAddressKey(req);
  const standingOf = (info: ClientRateLimitInfo | undefined): Standing => {
    const now = clock();
    if (!info) return { lockedOutMs: 0, lockedUntil: 0, attemptsLeft: MAX_FAILED_ATTEMPTS };
    const lockedOutMs = info.totalHits >= MAX_FAILED_ATTEMPTS && info.resetTime ? Math.max(0, Math.min(LOCKOUT_MS, info.resetTime.getTime() - now)) : 0;
    if (lockedOutMs > 0) return { lockedOutMs, lockedUntil: now + lockedOutMs, attemptsLeft: 0 };
    return { lockedOutMs: 0, lockedUntil: 0, attemptsLeft: Math.max(0, MAX_FAILED_ATTEMPTS - info.totalHits) };
  };
  const standing = async (req: Request): Promise<Standing | undefined> => {
    if (!store.canCount) return undefined;
    try {
      return standingOf(await store.get(keyOf(req)));
    } catch {
      return undefined;
    }
  };
  const countGuess = async (req: Request): Promise<GuessCount | undefined> => {
    const key = keyOf(req);
    const until = store.lockedUntil(key);
    // Locked out: the guess is not looked at, and nothing is added (the lockout does not grow).
    const now = clock();
    if (until > now) return { lockedOutMs: Math.min(LOCKOUT_MS, until - now), lockedUntil: Math.min(until, now + LOCKOUT_MS), attemptsLeft: 0, counted: false };
    if (!store.canCount) return undefined;
    try {
      return { ...standingOf(await store.increment(key)), counted: true };
    } catch (err) {
      log?.warn({ err }, 'a failed guess could not be counted');
      return undefined;
    }
  };
  const admitsGuesses = (req: Request): boolean => {
    const key = keyOf(req);
    return store.canCount && store.lockedUntil(key) <= clock();
  };
  const middleware = rateLimit({
    windowMs: LOCKOUT_MS,
    limit: MAX_FAILED_ATTEMPTS,
    store,
    standardHeaders: false,
    legacyHeaders: false,
    skipSuccessfulRequests: true,
    requestWasSuccessful: (req, res) => {
      const s = attemptState(res);
      return !s.failed && !s.rateLimited && !cleared.has(req);
    },
    handler: (_req: Request, res: Response, next: NextFunction) => {
      attemptState(res).rateLimited = true;
      next();
    },
    // X-Forwarded-For is ignored unless TRUST_PROXY is set; a spoofed one is expected noise.
    validate: { xForwardedForHeader: false },
    // A give-back that failed (Redis away) is only logged: the attempt stays counted.
    ...(log
      ? { logger: { error: (err: unknown, msg?: string) => log.error({ err }, msg), warn: (err: unknown, msg?: string) => log.warn({ err }, msg) } }
      : {}),
  });
  const wrapped: RequestHandler = (req, res, next) => {
    attemptState(res);
    return middleware(req, res, next);
  };
  const clear = (req: Request) => {
    cleared.add(req);
    return store.resetKey(keyOf(req)).catch((err: unknown) => {
      // The unlock itself stands: the failures it would clear expire with their window.
      log?.warn({ err }, 'could not clear the password attempts of a client that unlocked');
    });
  };
  return { middleware: wrapped, store, clear, standing, countGuess, admitsGuesses };
}
