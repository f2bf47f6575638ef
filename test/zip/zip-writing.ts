import path from 'node:path';
import { Writable } from 'node:stream';
import { SourceChangedError, type ZipPlan, writeZip } from '../../server/public/zip/album-zip.js';
import { eventually, expect, openFds } from './support.js';

/**
 * What the tests of the ZIP writer (server/public/zip/) share: where its output goes, the files
 * it is handed, and the refusal of a file that changes while it is sent.
 */

/** Collects what writeZip sends, or only its last `keep` bytes and its head; `onData` sees the running total. */
export class ZipSink extends Writable {
  received = 0;
  #chunks: Buffer[] = [];
  #kept = 0;
  head = Buffer.alloc(0);

  constructor(
    private readonly onData: (received: number) => void = () => {},
    private readonly keep = Number.POSITIVE_INFINITY,
  ) {
    super();
  }

  override _write(chunk: Buffer, _enc: BufferEncoding, cb: (err?: Error | null) => void): void {
    if (this.head.length < 256 * 1024) this.head = Buffer.concat([this.head, chunk.subarray(0, 256 * 1024 - this.head.length)]);
    this.#chunks.push(chunk);
    this.#kept += chunk.length;
    if (this.#kept > 2 * this.keep) {
      this.#chunks = [Buffer.concat(this.#chunks).subarray(this.#kept - this.keep)];
      this.#kept = this.keep;
    }
    this.received += chunk.length;
    this.onData(this.received);
    cb();
  }

  get body(): Buffer {
    return Buffer.concat(this.#chunks);
  }
}

/** Files of `dir` as the download route hands them over: names and (already vetted) paths. */
export const zipSources = (dir: string, names: readonly string[]) => names.map((name) => ({ name, path: path.join(dir, name) }));

/** The error `promise` rejects with; fails when it resolves. */
export async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (err) {
    return err as Error;
  }
  throw new Error('expected a rejection');
}

/**
 * Writes `plan` of the files of `dir` and runs `change` once the first 1,000 bytes are out (the
 * first file, IMG_01.jpg, open and being read; the second not yet): the write must reject with
 * a SourceChangedError matching `message`, destroy its output short of the planned size, and
 * close the file.
 */
export async function expectRefusedWhenChanged(plan: ZipPlan, dir: string, change: (file: (name: string) => string) => void, message: RegExp): Promise<void> {
  const fdsBefore = openFds();
  let changed = false;
  const sink = new ZipSink((received) => {
    if (changed || received < 1000) return;
    changed = true;
    change((name) => path.join(dir, name));
  });
  const err = await rejection(writeZip(plan, sink));
  expect(err).to.be.instanceOf(SourceChangedError);
  expect(err.message).to.match(message);
  expect(sink.destroyed).to.equal(true);
  expect(sink.received).to.be.below(plan.size);
  expect(await eventually(() => openFds() <= fdsBefore), 'the file is closed').to.equal(true);
}
