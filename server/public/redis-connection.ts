import { createClient } from 'redis';
import type { Logger } from '../core/logger.js';

/**
 * The one Redis client of a public server process (`REDIS_URL`): what every process of the
 * gallery must agree on lives there (the password lockout, server/public/access/password-limiter.ts).
 *
 * Kept for the life of the process and never waited for: the server starts and serves pages
 * and media whether Redis is up or not. While it is away, commands fail at once instead of
 * queueing for its return (`disableOfflineQueue`), so a password check answers 503 now rather
 * than hanging; node-redis reconnects by itself, backing off to a try every 2 seconds.
 */
export interface RedisConnection {
  /** What the lockout store needs of the client (node-redis's own methods). */
  readonly client: RedisCommands;
  close(): Promise<void>;
}

export interface RedisCommands {
  sendCommand(args: string[]): Promise<unknown>;
  /** Connected and ready for commands. */
  readonly isReady: boolean;
  on(event: 'ready', listener: () => void): unknown;
}

/** Longest wait between two tries to reconnect. */
const MAX_RECONNECT_DELAY_MS = 2000;
const CONNECT_TIMEOUT_MS = 2000;

/** The URL as it may be logged: without its password. */
export function redactedRedisUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'redis://…';
  }
}

export function connectRedis(url: string, log: Logger): RedisConnection {
  const shown = redactedRedisUrl(url);
  const client = createClient({
    url,
    disableOfflineQueue: true,
    socket: {
      connectTimeout: CONNECT_TIMEOUT_MS,
      reconnectStrategy: (retries) => Math.min(100 * 2 ** retries, MAX_RECONNECT_DELAY_MS),
    },
  });
  // One line per outage, not one per reconnection attempt.
  let down = false;
  client.on('error', (err: Error) => {
    if (down) return;
    down = true;
    log.error({ err }, `Redis at ${shown} is unavailable: password checks answer 503 until it is back`);
  });
  client.on('ready', () => {
    if (down) log.info(`Redis at ${shown} is back`);
    else log.info(`connected to Redis at ${shown}`);
    down = false;
  });
  // Settles once connected (node-redis keeps trying until then); failures are the 'error' events above.
  client.connect().catch(() => undefined);
  return {
    client,
    async close() {
      client.destroy();
    },
  };
}
