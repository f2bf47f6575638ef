import fs from 'node:fs/promises';
import path from 'node:path';
import { Readable, type Writable } from 'node:stream';
import { ZipArchive } from 'archiver';
import { isMissing } from '../../core/paths.js';
import { createLocationPatcher, type LocationPatcher } from '../../media/location-patcher.js';
import { ZIP_IDLE_TIMEOUT_MS, ZIP_STREAM_CHUNK_BYTES } from './download-limits.js';
import { knownCrcLayout, writeKnownCrcZip } from './known-crc-zip.js';
import { ClientClosedError, ClientStalledError, readExactly, type SizedName, type ZipEntry, type ZipLayout, type ZipPlan } from './zip-entry.js';

export { ClientClosedError, ClientStalledError, SourceChangedError } from './zip-entry.js';
export type { SizedName, ZipEntry, ZipLayout, ZipPlan } from './zip-entry.js';

/**
 * Streams a ZIP of album files, and knows its exact length in advance so the response can
 * carry Content-Length. When every file's CRC-32 is known before the request (computed as
 * the album was prepared, server/media/served-crc.ts), known-crc-zip.ts writes it with the
 * CRCs in the local headers and nothing computed; otherwise archiver in store mode, computing
 * each CRC as it streams.
 *
 * Layout written by archiver 8 / zip-stream 7 / compress-commons 7 for a stream source in
 * store mode (read from compress-commons `zip-archive-output-stream.js`):
 * - local header: 30 + name bytes. Sizes are not known when it is written, so it always uses
 *   a data descriptor and never carries a ZIP64 extra field.
 * - the data, unchanged.
 * - data descriptor: 16 bytes, or 24 when the entry is larger than 0xFFFFFFFF.
 * - central header: 46 + name bytes, + 28 (ZIP64 extra: sizes and offset) when the entry is
 *   larger than 0xFFFFFFFF or its local header starts past 0xFFFFFFFF.
 * - when ZIP64: end record 56 + locator 20. Always: end of central directory 22.
 * Names are UTF-8 (the UTF-8 flag is set for non-ASCII ones); no comments, no other extras.
 */
const LOCAL_HEADER = 30;
const DATA_DESCRIPTOR = 16;
const DATA_DESCRIPTOR_ZIP64 = 24;
const CENTRAL_HEADER = 46;
const ZIP64_EXTRA = 28;
const ZIP64_END = 56;
const ZIP64_LOCATOR = 20;
const END = 22;
const MAX_16 = 0xffff;
const MAX_32 = 0xffffffff;

/** Files stat'ed at once while planning. */
const STAT_CONCURRENCY = 8;

/**
 * Size of the archive `createZipArchive` writes for these entries, and whether it is ZIP64.
 * `forceZip64` mirrors archiver's option; it is implied whenever a limit is reached.
 */
export function zipLayout(entries: readonly SizedName[], opts: { forceZip64?: boolean } = {}): ZipLayout {
  let offset = 0;
  let central = 0;
  for (const e of entries) {
    const nameBytes = Buffer.byteLength(e.name, 'utf8');
    const large = e.size > MAX_32;
    // compress-commons tests "> 0xFFFFFFFF", so a size or offset of exactly 0xFFFFFFFF is
    // written as the ZIP64 marker with no ZIP64 field behind it: readers would fail.
    if (e.size === MAX_32 || offset === MAX_32) {
      throw new Error(`archiver cannot represent entry "${e.name}" (size or offset is exactly 0xFFFFFFFF)`);
    }
    central += CENTRAL_HEADER + nameBytes + (large || offset > MAX_32 ? ZIP64_EXTRA : 0);
    offset += LOCAL_HEADER + nameBytes + e.size + (large ? DATA_DESCRIPTOR_ZIP64 : DATA_DESCRIPTOR);
  }
  // archiver switches to ZIP64 only past the limits ("> 0xFFFF" entries), and at exactly the
  // limit writes the marker value without the ZIP64 records; we force ZIP64 from the limit on.
  const zip64 = opts.forceZip64 === true || entries.length >= MAX_16 || offset >= MAX_32 || central >= MAX_32;
  return { size: offset + central + (zip64 ? ZIP64_END + ZIP64_LOCATOR : 0) + END, zip64 };
}

/**
 * The archive writer used for every download. Photos are already compressed, so entries are
 * stored; DOS times carry no zone and unzip tools read them as local time, hence local time.
 */
export function createZipArchive(zip64: boolean): ZipArchive {
  // The options reach both archiver and its zip engine, two streams of 1 MB a side by default.
  return new ZipArchive({ store: true, forceZip64: zip64, forceLocalTime: true, highWaterMark: ZIP_STREAM_CHUNK_BYTES });
}

/**
 * A file name made safe for archiver, which would otherwise rewrite it: it turns `\` into a
 * folder separator and drops a leading `word:` (a Windows drive). Extractors on Windows
 * refuse both characters anyway.
 */
export function entryName(fileName: string): string {
  return fileName.replace(/[\\/:]/g, '_');
}

/** Makes `name` unique among `taken` by numbering it before the extension: `a (2).jpg`. */
function uniqueName(name: string, taken: Set<string>): string {
  let candidate = name;
  const ext = path.extname(name);
  const stem = name.slice(0, name.length - ext.length);
  for (let n = 2; taken.has(candidate); n++) candidate = `${stem} (${n})${ext}`;
  taken.add(candidate);
  return candidate;
}

/** A file to archive: its entry name, and the real path the access layer vetted for it. */
export interface ZipSource {
  readonly name: string;
  readonly path: string;
  /** Its album hides locations (docs/api.md#location-privacy). */
  readonly hideLocation?: boolean;
}

/** The version of a file as the plan stat'ed it. */
export interface StatedVersion {
  readonly size: number;
  readonly mtimeMs: number;
  readonly ino: number;
}

export interface PlanOptions {
  /** Told about each file left out (gone, not a regular file). */
  readonly onSkip?: (fileName: string, reason: string) => void;
  /**
   * The CRC-32 of the bytes the file would be archived as (patched when it hides its
   * location), when it is known for exactly this version of it (server/media/served-crc.ts).
   */
  readonly knownCrc?: (file: ZipSource, version: StatedVersion) => Promise<number | undefined>;
}

/**
 * Stats the files and fixes what the archive will contain: names, sizes, dates, CRCs where
 * known and the exact total size, which depends on whether every CRC is known (the archive
 * is then written without data descriptors). The paths are taken as given (which files may
 * be archived is decided by the access layer); a file that has vanished since, or that is
 * not a regular file, is left out.
 */
export async function planZip(files: readonly ZipSource[], opts: PlanOptions = {}): Promise<ZipPlan> {
  const found = await mapLimit(files, STAT_CONCURRENCY, async (file) => {
    try {
      // lstat: the path is already real, so a symlink appearing there since is not followed.
      const st = await fs.lstat(file.path);
      if (!st.isFile()) return skip(file.name, 'not a regular file');
      const version = { size: st.size, mtimeMs: st.mtimeMs, ino: st.ino };
      const crc32 = await opts.knownCrc?.(file, version);
      return { fileName: file.name, path: file.path, ...version, mtime: st.mtime, hideLocation: file.hideLocation === true, crc32 };
    } catch (err) {
      if (isMissing(err)) return skip(file.name, 'no longer exists');
      throw err;
    }
  });
  function skip(fileName: string, reason: string): undefined {
    opts.onSkip?.(fileName, reason);
    return undefined;
  }
  const taken = new Set<string>();
  const entries: ZipEntry[] = [];
  for (const { fileName, crc32, ...f } of found.filter((f) => f !== undefined)) {
    entries.push({ name: uniqueName(entryName(fileName), taken), ...f, ...(crc32 === undefined ? {} : { crc32 }) });
  }
  const crcsKnown = entries.every((e) => e.crc32 !== undefined);
  return { entries, crcsKnown, ...(crcsKnown ? knownCrcLayout(entries) : zipLayout(entries)) };
}

export interface WriteZipOptions {
  /** `out` not draining for this long counts as a client that left (ClientStalledError). */
  readonly idleTimeoutMs?: number;
  /** Finds the patches of entries that hide their location (one of its own when absent). */
  readonly locationPatcher?: LocationPatcher;
}

/**
 * Writes the planned archive into `out` and ends it; resolves once `out` has taken every byte.
 * On any failure (a file changed or vanished, `out` closed early or taking nothing for
 * `idleTimeoutMs`, a length that does not match the plan) it stops archiving, destroys the
 * open file and `out` (so an HTTP client sees a failed download, never a short file that
 * looks complete) and rejects.
 */
export function writeZip(plan: ZipPlan, out: Writable, opts: WriteZipOptions = {}): Promise<void> {
  const idleTimeoutMs = opts.idleTimeoutMs ?? ZIP_IDLE_TIMEOUT_MS;
  const locationPatcher = opts.locationPatcher ?? createLocationPatcher();
  // A client that left while the plan was made: its response swallows writes forever.
  if (out.destroyed || out.closed) return Promise.reject(new ClientClosedError());
  if (plan.crcsKnown) return writeKnownCrcZip(plan, out, { idleTimeoutMs, locationPatcher });
  return new Promise<void>((resolve, reject) => {
    const archive = createZipArchive(plan.zip64);
    let current: Readable | undefined;
    let next = 0;
    let settled = false;
    let stopIdleWatch = () => {};

    const fail = (err: unknown) => {
      if (settled) return;
      settled = true;
      stopIdleWatch();
      archive.unpipe(out);
      archive.abort();
      current?.destroy();
      archive.destroy();
      out.destroy();
      reject(err);
    };

    // One entry at a time: only the file being read is open, whatever the album's size.
    const appendNext = () => {
      if (settled) return;
      const entry = plan.entries[next++];
      if (entry === undefined) {
        current = undefined;
        archive.finalize().catch(fail);
        return;
      }
      current = Readable.from(readExactly(entry, locationPatcher), { objectMode: false, highWaterMark: ZIP_STREAM_CHUNK_BYTES });
      // archiver's append() pipes the source into a PassThrough at once and never listens
      // for its errors: without this a changed file would be an uncaught exception.
      current.on('error', fail);
      archive.append(current, { name: entry.name, date: entry.mtime });
    };

    archive.on('entry', appendNext);
    // Stays attached after settling: a late error from a torn-down archive must not crash.
    archive.on('error', fail);
    archive.on('warning', fail);
    // Registered before pipe() so it runs before pipe ends `out`.
    archive.once('end', () => {
      const written = archive.pointer();
      if (written !== plan.size) fail(new Error(`ZIP length ${written} does not match the planned ${plan.size}`));
    });
    out.on('error', fail);
    out.once('close', () => fail(new ClientClosedError()));
    out.once('finish', () => {
      if (settled) return;
      settled = true;
      stopIdleWatch();
      resolve();
    });

    archive.pipe(out);
    // After pipe(): the watch must see each write's outcome, and an early 'data' listener
    // would start the flow before `out` is attached.
    stopIdleWatch = watchIdleReader(archive, out, idleTimeoutMs, () => fail(new ClientStalledError(idleTimeoutMs)));
    appendNext();
  });
}

/**
 * Calls `onIdle` when `out` has stayed full for `idleMs`. A reader that takes nothing leaves
 * `out` full and pipe() waits for a 'drain' that never comes, holding the connection and
 * every buffer of the pipeline. Checked after each chunk pipe() writes (this listener is
 * added after pipe's own, so it sees the write's outcome), cleared by each drain.
 */
function watchIdleReader(source: Readable, out: Writable, idleMs: number, onIdle: () => void): () => void {
  let timer: NodeJS.Timeout | undefined;
  const stop = () => {
    clearTimeout(timer);
    timer = undefined;
  };
  const onData = () => {
    if (timer === undefined && out.writableNeedDrain) timer = setTimeout(onIdle, idleMs);
  };
  source.on('data', onData);
  out.on('drain', stop);
  return () => {
    stop();
    source.off('data', onData);
    out.off('drain', stop);
  };
}

/** `Promise.all(items.map(fn))` with at most `limit` calls in flight, results in order. */
async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
