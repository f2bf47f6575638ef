// archiver 8 ships no types (and @types/archiver describes the v7 `archiver('zip')` API).
// Only what server/public/zip uses is declared here.
declare module 'archiver' {
  import type { Stats } from 'node:fs';
  import type { Transform } from 'node:stream';

  export interface ZipArchiveOptions {
    /** Stored entries (method 0) instead of deflate. */
    store?: boolean;
    /** Writes the ZIP64 end records even when no limit is crossed. */
    forceZip64?: boolean;
    /** DOS entry times in the server's local time instead of UTC. */
    forceLocalTime?: boolean;
    comment?: string;
    highWaterMark?: number;
    statConcurrency?: number;
  }

  export interface EntryData {
    name: string;
    date?: Date | string;
    mode?: number;
    prefix?: string;
    stats?: Stats;
  }

  /** A readable-stream Transform at runtime; Node's stream types describe it well enough. */
  export class Archiver extends Transform {
    append(source: NodeJS.ReadableStream | Buffer | string, data: EntryData): this;
    file(filepath: string, data: EntryData): this;
    /** Resolves when the archive's last byte has been produced (not consumed). */
    finalize(): Promise<void>;
    /** Drops queued entries and ends the output; does not destroy an entry's source. */
    abort(): this;
    /** Bytes produced so far. */
    pointer(): number;
  }

  export class ZipArchive extends Archiver {
    constructor(options?: ZipArchiveOptions);
  }
}
