import { createLogger, type Logger } from '../../server/core/logger.js';

/** One parsed log line. */
export interface LogLine {
  readonly level: 'info' | 'warn' | 'error';
  readonly msg?: string;
  readonly err?: { readonly type: string; readonly message: string; readonly stack: string };
  readonly [field: string]: unknown;
}

/** A real Logger whose lines land, parsed, in `lines` (and, as written, in `raw`). */
export function captureLogger(): { logger: Logger; lines: LogLine[]; raw: string[] } {
  const lines: LogLine[] = [];
  const raw: string[] = [];
  const logger = createLogger({
    destination: {
      write(line: string) {
        raw.push(line.trimEnd());
        lines.push(JSON.parse(line) as LogLine);
      },
    },
  });
  return { logger, lines, raw };
}

/** For tests that do not look at the log. */
export const quietLogger: Logger = createLogger({ level: 'silent' });

/** A real Logger that pushes the message of each line into `messages`. */
export function loggerInto(messages: string[]): Logger {
  return createLogger({ destination: { write: (line: string) => void messages.push((JSON.parse(line) as LogLine).msg ?? '') } });
}
