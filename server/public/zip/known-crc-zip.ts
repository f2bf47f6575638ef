import type { Writable } from 'node:stream';
import type { LocationPatcher } from '../../media/location-patcher.js';
import { ClientClosedError, ClientStalledError, readExactly, type SizedName, type ZipEntry, type ZipLayout, type ZipPlan } from './zip-entry.js';

/**
 * The archive of an album whose every file's CRC-32 was known before the request (computed
 * while the album was prepared, server/media/served-crc.ts). archiver cannot write one:
 * it computes each CRC as it streams, so it puts it in a data descriptor after the data.
 * Here each local header carries its CRC and sizes, and the files go from disk to the
 * response with nothing computed and no stream in between: the cost of reading them.
 *
 * Layout (PKWARE APPNOTE 6.3), stored entries, no data descriptors:
 * - local header: 30 + name bytes, + 20 (ZIP64 extra: both sizes) for a file of 0xFFFFFFFF
 *   bytes or more, whose header sizes then read 0xFFFFFFFF.
 * - the data, unchanged (or patched, same length: docs/api.md#location-privacy).
 * - central header: 46 + name bytes, + 28 (ZIP64 extra: sizes and offset) when the file is
 *   that large or its local header starts at 0xFFFFFFFF or past, as archiver writes it.
 * - ZIP64 end record (56) and locator (20) when a limit is reached, then the end record (22).
 * Every other field is archiver's (album-zip.ts): made by Unix, mode 0644, the mtime as a DOS
 * time in local time, the UTF-8 flag on non-ASCII names, so an archive unpacks the same
 * whichever way it was written.
 */
const LOCAL_HEADER = 30;
const LOCAL_ZIP64_EXTRA = 20;
const CENTRAL_HEADER = 46;
const CENTRAL_ZIP64_EXTRA = 28;
const ZIP64_END = 56;
const ZIP64_LOCATOR = 20;
const END = 22;
const MAX_16 = 0xffff;
const MAX_32 = 0xffffffff;

const SIG_LOCAL = 0x04034b50;
const SIG_CENTRAL = 0x02014b50;
const SIG_ZIP64_END = 0x06064b50;
const SIG_ZIP64_LOCATOR = 0x07064b50;
const SIG_END = 0x06054b50;
/** Stored (1.0), or with ZIP64 fields (4.5). */
const VERSION_STORED = 10;
const VERSION_ZIP64 = 45;
/** Unix (3), APPNOTE 4.5: archiver's. */
const MADE_BY = (3 << 8) | 45;
const FLAG_UTF8 = 0x0800;
/** A regular file of mode 0644 (high half), with the DOS archive bit: archiver's. */
const EXTERNAL_ATTRIBUTES = ((0o100644 << 16) | 0x20) >>> 0;
const ZIP64_EXTRA_ID = 0x0001;

const isLarge = (size: number) => size >= MAX_32;

/** Exact size of the archive `writeKnownCrcZip` writes for these entries, and whether it is ZIP64. */
export function knownCrcLayout(entries: readonly SizedName[]): ZipLayout {
  let offset = 0;
  let central = 0;
  for (const e of entries) {
    const nameBytes = Buffer.byteLength(e.name, 'utf8');
    central += CENTRAL_HEADER + nameBytes + (isLarge(e.size) || isLarge(offset) ? CENTRAL_ZIP64_EXTRA : 0);
    offset += LOCAL_HEADER + nameBytes + (isLarge(e.size) ? LOCAL_ZIP64_EXTRA : 0) + e.size;
  }
  const zip64 = entries.length >= MAX_16 || offset >= MAX_32 || central >= MAX_32;
  return { size: offset + central + (zip64 ? ZIP64_END + ZIP64_LOCATOR : 0) + END, zip64 };
}

export interface KnownCrcZipOptions {
  /** `out` not draining for this long counts as a client that left (ClientStalledError). */
  readonly idleTimeoutMs: number;
  /** Finds the patches of entries that hide their location. */
  readonly locationPatcher: LocationPatcher;
}

/**
 * Writes the planned archive, every entry's CRC known, into `out` and ends it; resolves once
 * `out` has taken every byte. On any failure (a file changed or vanished, `out` closed or
 * taking nothing for `idleTimeoutMs`) it closes the open file, destroys `out` (an HTTP
 * client sees a failed download, never a short file that looks complete) and rejects.
 */
export async function writeKnownCrcZip(plan: ZipPlan, out: Writable, opts: KnownCrcZipOptions): Promise<void> {
  const sink = new Sink(out, opts.idleTimeoutMs);
  try {
    const offsets: number[] = [];
    for (const entry of plan.entries) {
      if (entry.crc32 === undefined) throw new Error(`${entry.name}: no CRC known, the archive cannot be written this way`);
      offsets.push(sink.written);
      await sink.write(localHeader(entry));
      for await (const chunk of readExactly(entry, opts.locationPatcher)) await sink.write(chunk);
    }
    const centralStart = sink.written;
    for (const [i, entry] of plan.entries.entries()) await sink.write(centralHeader(entry, offsets[i]!));
    await sink.write(endRecords(plan, centralStart, sink.written - centralStart));
    if (sink.written !== plan.size) throw new Error(`ZIP length ${sink.written} does not match the planned ${plan.size}`);
    await sink.end();
  } catch (err) {
    sink.fail();
    throw err;
  }
}

/** `out` written with its backpressure respected, failing once it closes, errs or stalls. */
class Sink {
  written = 0;
  #gone: Error | undefined;
  readonly #onClose = () => {
    this.#gone ??= new ClientClosedError();
  };

  constructor(
    private readonly out: Writable,
    private readonly idleMs: number,
  ) {
    if (out.destroyed || out.closed) this.#gone = new ClientClosedError();
    out.once('close', this.#onClose);
    // Its error is the close that follows, as far as the archive is concerned.
    out.on('error', this.#onClose);
  }

  async write(chunk: Buffer): Promise<void> {
    if (this.#gone) throw this.#gone;
    this.written += chunk.length;
    if (!this.out.write(chunk)) await this.#drained();
  }

  /** Waits for the reader to take what is buffered: until 'drain', or a close, or idleMs of nothing. */
  #drained(): Promise<void> {
    return new Promise((resolve, reject) => {
      const done = (err?: Error) => {
        clearTimeout(timer);
        this.out.off('drain', onDrain);
        this.out.off('close', onClose);
        if (err) reject(err);
        else resolve();
      };
      const onDrain = () => done();
      const onClose = () => done(this.#gone ?? new ClientClosedError());
      const timer = setTimeout(() => {
        this.#gone = new ClientStalledError(this.idleMs);
        done(this.#gone);
      }, this.idleMs);
      this.out.on('drain', onDrain);
      this.out.on('close', onClose);
    });
  }

  /** Ends `out` and resolves once it has taken every byte. */
  end(): Promise<void> {
    return new Promise((resolve, reject) => {
      if (this.#gone) return reject(this.#gone);
      const onClose = () => reject(this.#gone ?? new ClientClosedError());
      this.out.once('close', onClose);
      this.out.end(() => {
        this.out.off('close', onClose);
        this.#done();
        resolve();
      });
    });
  }

  fail(): void {
    this.#done();
    this.out.destroy();
  }

  #done(): void {
    this.out.off('close', this.#onClose);
    // Left on: a late error from a destroyed response must not be unhandled.
    this.out.on('error', () => undefined);
    this.out.off('error', this.#onClose);
  }
}

function localHeader(entry: ZipEntry): Buffer {
  const name = Buffer.from(entry.name, 'utf8');
  const large = isLarge(entry.size);
  const b = Buffer.alloc(LOCAL_HEADER + name.length + (large ? LOCAL_ZIP64_EXTRA : 0));
  b.writeUInt32LE(SIG_LOCAL, 0);
  b.writeUInt16LE(large ? VERSION_ZIP64 : VERSION_STORED, 4);
  b.writeUInt16LE(flagsOf(entry.name, name), 6);
  b.writeUInt16LE(0, 8); // stored
  b.writeUInt32LE(dosTime(entry.mtime), 10);
  b.writeUInt32LE(entry.crc32 ?? 0, 14);
  b.writeUInt32LE(large ? MAX_32 : entry.size, 18);
  b.writeUInt32LE(large ? MAX_32 : entry.size, 22);
  b.writeUInt16LE(name.length, 26);
  b.writeUInt16LE(large ? LOCAL_ZIP64_EXTRA : 0, 28);
  name.copy(b, LOCAL_HEADER);
  if (large) {
    const at = LOCAL_HEADER + name.length;
    b.writeUInt16LE(ZIP64_EXTRA_ID, at);
    b.writeUInt16LE(16, at + 2);
    writeUInt64(b, entry.size, at + 4);
    writeUInt64(b, entry.size, at + 12);
  }
  return b;
}

function centralHeader(entry: ZipEntry, offset: number): Buffer {
  const name = Buffer.from(entry.name, 'utf8');
  const large = isLarge(entry.size);
  const zip64 = large || isLarge(offset);
  const b = Buffer.alloc(CENTRAL_HEADER + name.length + (zip64 ? CENTRAL_ZIP64_EXTRA : 0));
  b.writeUInt32LE(SIG_CENTRAL, 0);
  b.writeUInt16LE(MADE_BY, 4);
  b.writeUInt16LE(zip64 ? VERSION_ZIP64 : VERSION_STORED, 6);
  b.writeUInt16LE(flagsOf(entry.name, name), 8);
  b.writeUInt16LE(0, 10); // stored
  b.writeUInt32LE(dosTime(entry.mtime), 12);
  b.writeUInt32LE(entry.crc32 ?? 0, 16);
  // As archiver does, ZIP64 puts all three (sizes and offset) in the extra field.
  b.writeUInt32LE(zip64 ? MAX_32 : entry.size, 20);
  b.writeUInt32LE(zip64 ? MAX_32 : entry.size, 24);
  b.writeUInt16LE(name.length, 28);
  b.writeUInt16LE(zip64 ? CENTRAL_ZIP64_EXTRA : 0, 30);
  // Comment length, disk number, internal attributes: 0.
  b.writeUInt32LE(EXTERNAL_ATTRIBUTES, 38);
  b.writeUInt32LE(zip64 ? MAX_32 : offset, 42);
  name.copy(b, CENTRAL_HEADER);
  if (zip64) {
    const at = CENTRAL_HEADER + name.length;
    b.writeUInt16LE(ZIP64_EXTRA_ID, at);
    b.writeUInt16LE(24, at + 2);
    writeUInt64(b, entry.size, at + 4);
    writeUInt64(b, entry.size, at + 12);
    writeUInt64(b, offset, at + 20);
  }
  return b;
}

/** The ZIP64 end record and its locator when the plan needs them, then the end record. */
function endRecords(plan: ZipPlan, centralStart: number, centralLength: number): Buffer {
  const count = plan.entries.length;
  const b = Buffer.alloc((plan.zip64 ? ZIP64_END + ZIP64_LOCATOR : 0) + END);
  let at = 0;
  if (plan.zip64) {
    b.writeUInt32LE(SIG_ZIP64_END, 0);
    writeUInt64(b, ZIP64_END - 12, 4); // the record's size after this field
    b.writeUInt16LE(VERSION_ZIP64, 12);
    b.writeUInt16LE(VERSION_ZIP64, 14);
    // Disk numbers (16, 20): 0.
    writeUInt64(b, count, 24);
    writeUInt64(b, count, 32);
    writeUInt64(b, centralLength, 40);
    writeUInt64(b, centralStart, 48);
    b.writeUInt32LE(SIG_ZIP64_LOCATOR, 56);
    // Disk of the ZIP64 end record (60): 0.
    writeUInt64(b, centralStart + centralLength, 64);
    b.writeUInt32LE(1, 72); // disks in all
    at = ZIP64_END + ZIP64_LOCATOR;
  }
  b.writeUInt32LE(SIG_END, at);
  // Disk numbers (at + 4, at + 6): 0.
  b.writeUInt16LE(plan.zip64 ? MAX_16 : count, at + 8);
  b.writeUInt16LE(plan.zip64 ? MAX_16 : count, at + 10);
  b.writeUInt32LE(plan.zip64 ? MAX_32 : centralLength, at + 12);
  b.writeUInt32LE(plan.zip64 ? MAX_32 : centralStart, at + 16);
  // Comment length (at + 20): 0.
  return b;
}

/** Bit 11 when the name is not plain ASCII: it is UTF-8. */
const flagsOf = (name: string, bytes: Buffer): number => (bytes.length === name.length ? 0 : FLAG_UTF8);

function writeUInt64(b: Buffer, value: number, at: number): void {
  b.writeBigUInt64LE(BigInt(value), at);
}

/** The date as MS-DOS packs it, in the server's local time (as archiver's forceLocalTime), clamped to 1980–2043 as archiver does. */
export function dosTime(d: Date): number {
  const year = d.getFullYear();
  if (year < 1980) return 0x00210000; // 1980-01-01 00:00:00
  if (year >= 2044) return 0x7f9fbf7d; // 2043-12-31 23:59:58
  return (
    (((year - 1980) << 25) | ((d.getMonth() + 1) << 21) | (d.getDate() << 16) | (d.getHours() << 11) | (d.getMinutes() << 5) | (d.getSeconds() >> 1)) >>> 0
  );
}
