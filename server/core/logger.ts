import { pino, stdSerializers, type DestinationStream } from 'pino';

/** Fields merged into a log line; an `err` field is serialised with its message, stack and cause. */
export type LogFields = Record<string, unknown>;

export interface LogMethod {
  (message: string): void;
  (fields: LogFields, message?: string): void;
}

/**
 * The one logger of both servers and the scripts: JSON lines (level, time, fields, msg).
 * Created once by each entry point and passed down; library modules never log on their own.
 */
export interface Logger {
  readonly info: LogMethod;
  readonly warn: LogMethod;
  readonly error: LogMethod;
  /** A logger whose lines all carry `bindings` as well. */
  child(bindings: LogFields): Logger;
}

export interface LoggerOptions {
  /** Where the lines go (tests: test/support/capture-logger.ts); stdout by default. */
  readonly destination?: DestinationStream;
  /** `silent` for none; `info` by default. */
  readonly level?: 'info' | 'warn' | 'error' | 'silent';
}

/**
 * Secrets never reach a log: tokens and passwords travel in bodies, cookies and headers, so
 * fields by those names are censored wherever a caller puts them. Query strings are scrubbed
 * by the request log itself (server/http/request-log.ts: scrubUrl).
 */
const REDACTED_PATHS = [
  'password',
  'token',
  'cookie',
  '*.password',
  '*.token',
  '*.cookie',
  'headers.cookie',
  'headers["x-album-token"]',
  '*.headers.cookie',
  '*.headers["x-album-token"]',
];

export function createLogger({ destination, level = 'info' }: LoggerOptions = {}): Logger {
  return pino(
    {
      level,
      base: undefined,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      serializers: { err: stdSerializers.err },
      redact: { paths: REDACTED_PATHS, censor: '***' },
    },
    // Synchronous, so the last lines before process.exit() are not lost.
    destination ?? pino.destination({ dest: 1, sync: true }),
  );
}
