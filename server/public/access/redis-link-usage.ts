import { type LinkUsage, type LinkUsageStore, readLinkUsageFile, writeLinkUsageFile } from '../../core/access/link-usage.js';
import type { Logger } from '../../core/logger.js';
import type { RedisCommands } from '../redis-connection.js';

const VISITS_KEY = 'gallery:share-links:visits';
const LAST_USED_KEY = 'gallery:share-links:last-used';
/** Set once the usage file's counts are in Redis. */
const SEEDED_KEY = 'gallery:share-links:seeded';
/** The file the admin reads is written from Redis's totals at most this long after a visit. */
const FILE_DELAY_MS = 2000;

/** Views added atomically: the visits counted, the last use moved only forward. */
const RECORD_VIEW = `
redis.call('HINCRBY', KEYS[1], ARGV[1], ARGV[2])
local last = tonumber(redis.call('HGET', KEYS[2], ARGV[1]) or '0')
if tonumber(ARGV[3]) > last then redis.call('HSET', KEYS[2], ARGV[1], ARGV[3]) end
return 1`;

/**
 * Share links' usage shared by every process of the gallery (`REDIS_URL`, README "Running
 * several processes / machines"): the counts live in two Redis hashes, added to by each
 * process as views happen, so they agree whichever process a visitor reaches. The admin,
 * which needs no Redis, keeps reading `CACHE_DIR/share-links/usage.json`: each process writes
 * that file from Redis's totals a couple of seconds after a view (writes of the same totals by
 * two processes are harmless; the file is replaced atomically). Counts the file holds
 * when Redis is first used, or after Redis restarted empty, are carried over (#seed).
 * While Redis is away, views are not counted (logged once); pages never wait for it.
 */
export class RedisLinkUsageStore implements LinkUsageStore {
  readonly #redis: RedisCommands;
  readonly #cacheDir: string;
  readonly #log: Logger;
  readonly #delayMs: number;
  #timer: NodeJS.Timeout | undefined;
  #writing: Promise<void> = Promise.resolve();
  #failing = false;

  constructor(redis: RedisCommands, opts: { readonly cacheDir: string; readonly log: Logger; readonly fileDelayMs?: number }) {
    this.#redis = redis;
    this.#cacheDir = opts.cacheDir;
    this.#log = opts.log;
    this.#delayMs = opts.fileDelayMs ?? FILE_DELAY_MS;
  }

  recordVisit(id: string, { at, newVisit }: { readonly at: number; readonly newVisit: boolean }): void {
    void this.#seed()
      .then(() => this.#redis.sendCommand(['EVAL', RECORD_VIEW, '2', VISITS_KEY, LAST_USED_KEY, id, newVisit ? '1' : '0', String(Math.round(at))]))
      .then(
        () => {
          this.#failing = false;
          this.#scheduleFile();
        },
        (err: unknown) => this.#failed(err, 'a share-link view could not be counted in Redis'),
      );
  }

  async read(): Promise<ReadonlyMap<string, LinkUsage>> {
    await this.#seed();
    const [visits, lastUsed] = await Promise.all([this.#hash(VISITS_KEY), this.#hash(LAST_USED_KEY)]);
    const usage = new Map<string, LinkUsage>();
    for (const [id, count] of visits) {
      const visitsOf = Number(count);
      const last = Number(lastUsed.get(id));
      if (Number.isSafeInteger(visitsOf) && Number.isFinite(last) && last > 0) usage.set(id, { visits: visitsOf, lastUsed: new Date(last).toISOString() });
    }
    return usage;
  }

  flush(): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#writing = this.#writing.then(() => this.#writeFile());
    return this.#writing;
  }

  #scheduleFile(): void {
    if (this.#timer) return;
    this.#timer = setTimeout(() => void this.flush(), this.#delayMs);
    this.#timer.unref();
  }

  async #writeFile(): Promise<void> {
    try {
      await writeLinkUsageFile(this.#cacheDir, await this.read());
    } catch (err) {
      this.#failed(err, 'share-link usage could not be written from Redis');
    }
  }

  /**
   * Carries the file's counts into Redis once per life of Redis's data: the first process to
   * set the marker adds them (to whatever views arrived meanwhile). That is when Redis is
   * first used, and again after Redis restarted empty, the file then holding its last totals.
   */
  async #seed(): Promise<void> {
    if ((await this.#redis.sendCommand(['SET', SEEDED_KEY, '1', 'NX'])) !== 'OK') return;
    for (const [id, u] of await readLinkUsageFile(this.#cacheDir, this.#log)) {
      await this.#redis.sendCommand(['EVAL', RECORD_VIEW, '2', VISITS_KEY, LAST_USED_KEY, id, String(u.visits), String(Date.parse(u.lastUsed))]);
    }
  }

  async #hash(key: string): Promise<Map<string, string>> {
    const reply = await this.#redis.sendCommand(['HGETALL', key]);
    // RESP2 gives a flat list of fields and values, RESP3 (and node-redis's mapping of it) a map.
    if (Array.isArray(reply)) {
      const map = new Map<string, string>();
      for (let i = 0; i + 1 < reply.length; i += 2) map.set(String(reply[i]), String(reply[i + 1]));
      return map;
    }
    const entries = reply instanceof Map ? [...reply.entries()] : Object.entries(reply ?? {});
    return new Map(entries.map(([k, v]) => [String(k), String(v)]));
  }

  /** One log line per outage, not one per view. */
  #failed(err: unknown, message: string): void {
    if (this.#failing) return;
    this.#failing = true;
    this.#log.warn({ err }, message);
  }
}
