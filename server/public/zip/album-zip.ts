import { constants as fsConstants } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Readable, type Writable } from 'node:stream';
import { ZipArchive } from 'archiver';
import { applyPatches } from '../../core/media/location/byte-patches.js';
import { isMissing } from '../../core/paths.js';
import { createLocationPatcher, type LocationPatcher } from '../../media/location-patcher.js';
import { ZIP_IDLE_TIMEOUT_MS, ZIP_STREAM_CHUNK_BYTES } from './download-limits.js';

/**
 * Streams a ZIP of album files with archiver in store mode, and knows its exact length in
 * advance so the response can carry Content-Length.
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

export interface SizedName {
  /** Entry name exactly as archiver will write it (see `entryName`). */
  readonly name: string;
  readonly size: number;
}

export interface ZipLayout {
  /** Exact length of the archive in bytes. */
  readonly size: number;
  /** Whether the archive needs (and will be written with) the ZIP64 end records. */
  readonly zip64: boolean;
}

/** A file to archive, as it was when stat'ed: the archive promises exactly these bytes. */
export interface ZipEntry extends SizedName {
  /** Real absolute path to read from. */
  readonly path: string;
  readonly mtime: Date;
  /** Archived without its location: patched as it is read, same length (docs/api.md#location-privacy). */
  readonly hideLocation?: boolean;
}

export interface ZipPlan extends ZipLayout {
  readonly entries: readonly ZipEntry[];
}

/** The file on disk no longer matches the plan (changed size, vanished): the archive cannot be finished. */
export class SourceChangedError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'SourceChangedError';
  }
}

/** The reader went away before the archive was complete. */
export class ClientClosedError extends Error {
  constructor(message = 'Client closed the connection before the archive was complete') {
    super(message);
    this.name = 'ClientClosedError';
  }
}

/** The reader took nothing for too long and was disconnected: as good as gone. */
export class ClientStalledError extends ClientClosedError {
  constructor(idleMs: number) {
    super(`Client read nothing for ${idleMs} ms and was disconnected`);
    this.name = 'ClientStalledError';
  }
}

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

export interface PlanOptions {
  /** Told about each file left out (gone, not a regular file). */
  readonly onSkip?: (fileName: string, reason: string) => void;
}

/**
 * Stats the files and fixes what the archive will contain: names, sizes, dates and the exact
 * total size. The paths are taken as given (which files may be archived is decided by the
 * access layer); a file that has vanished since, or that is not a regular file, is left out.
 */
export async function planZip(files: readonly ZipSource[], opts: PlanOptions = {}): Promise<ZipPlan> {
  const found = await mapLimit(files, STAT_CONCURRENCY, async (file) => {
    try {
      // lstat: the path is already real, so a symlink appearing there since is not followed.
      const st = await fs.lstat(file.path);
      if (!st.isFile()) return skip(file.name, 'not a regular file');
      return { fileName: file.name, path: file.path, size: st.size, mtime: st.mtime, hideLocation: file.hideLocation === true };
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
  for (const f of found) {
    if (f) entries.push({ name: uniqueName(entryName(f.fileName), taken), path: f.path, size: f.size, mtime: f.mtime, hideLocation: f.hideLocation });
  }
  return { entries, ...zipLayout(entries) };
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

/**
 * Reads exactly the planned bytes of a file, its location patched out when the entry hides
 * it: the same length, and archiver computes the entry's CRC over the bytes it is given, so
 * the CRC is that of the patched bytes. Opening is deferred to the first read, and the
 * handle is closed when the generator finishes, fails or is returned (stream destroyed).
 */
async function* readExactly(entry: ZipEntry, locationPatcher: LocationPatcher): AsyncGenerator<Buffer> {
  let handle: fs.FileHandle;
  try {
    // The plan holds the real path; a symlink appearing there since is not followed.
    handle = await fs.open(entry.path, fsConstants.O_RDONLY | fsConstants.O_NOFOLLOW);
  } catch (err) {
    throw new SourceChangedError(`${entry.name}: cannot be opened any more (${(err as Error).message})`, { cause: err });
  }
  try {
    const st = await handle.stat();
    if (!st.isFile() || st.size !== entry.size) {
      throw new SourceChangedError(`${entry.name}: size changed from ${entry.size} to ${st.size} bytes`);
    }
    const patches = entry.hideLocation ? await locationPatcher.patchesFor(entry.path, handle, st) : [];
    let position = 0;
    while (position < entry.size) {
      const want = Math.min(ZIP_STREAM_CHUNK_BYTES, entry.size - position);
      const buf = Buffer.allocUnsafe(want);
      const { bytesRead } = await handle.read(buf, 0, want, position);
      if (bytesRead === 0) {
        throw new SourceChangedError(`${entry.name}: shrank to ${position} of ${entry.size} bytes while being read`);
      }
      const chunk = bytesRead === want ? buf : buf.subarray(0, bytesRead);
      applyPatches(chunk, position, patches);
      position += bytesRead;
      yield chunk;
    }
    // One more byte proves the file did not grow: the archive must hold the whole file.
    const { bytesRead } = await handle.read(Buffer.alloc(1), 0, 1, position);
    if (bytesRead !== 0) throw new SourceChangedError(`${entry.name}: grew past ${entry.size} bytes while being read`);
  } finally {
    await handle.close();
  }
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
