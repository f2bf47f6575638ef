/**
 * Writing and rearranging ISO base media boxes (MP4/MOV atoms) by hand, for test files no
 * tool writes: a GoPro-style `gpmd` track, a location in `trak/udta`, a `moov` with hundreds
 * of children. The test's own code: it trusts the files it reads (ffmpeg's output).
 */

/** A box: size, type, then the parts. */
export function box(type: string, ...parts: readonly Buffer[]): Buffer {
  const body = Buffer.concat(parts);
  const header = Buffer.alloc(8);
  header.writeUInt32BE(body.length + 8);
  header.write(type, 4, 'latin1');
  return Buffer.concat([header, body]);
}

/** A full box: version and flags, then the parts. */
export function fullBox(type: string, version: number, flags: number, ...parts: readonly Buffer[]): Buffer {
  const vf = Buffer.alloc(4);
  vf.writeUInt32BE(((version & 0xff) << 24) | (flags & 0xffffff));
  return box(type, vf, ...parts);
}

export const u8 = (v: number): Buffer => Buffer.from([v & 0xff]);

export function u16(...values: number[]): Buffer {
  const b = Buffer.alloc(values.length * 2);
  for (const [i, v] of values.entries()) b.writeUInt16BE(v, i * 2);
  return b;
}

export function u32(...values: number[]): Buffer {
  const b = Buffer.alloc(values.length * 4);
  for (const [i, v] of values.entries()) b.writeUInt32BE(v >>> 0, i * 4);
  return b;
}

/** The same as u32 for a list of any length (a spread of 100,000 values overflows the stack). */
export function u32s(values: readonly number[]): Buffer {
  const b = Buffer.alloc(values.length * 4);
  for (const [i, v] of values.entries()) b.writeUInt32BE(v >>> 0, i * 4);
  return b;
}

export function i32(...values: number[]): Buffer {
  const b = Buffer.alloc(values.length * 4);
  for (const [i, v] of values.entries()) b.writeInt32BE(v, i * 4);
  return b;
}

export interface Box {
  readonly type: string;
  /** Where the header starts, in the buffer read. */
  readonly at: number;
  readonly bodyAt: number;
  readonly end: number;
}

/** The boxes between `start` and `end` of `buf`. */
export function boxesIn(buf: Buffer, start = 0, end = buf.length): Box[] {
  const out: Box[] = [];
  for (let at = start; at + 8 <= end; ) {
    let size = buf.readUInt32BE(at);
    let header = 8;
    if (size === 1) [size, header] = [Number(buf.readBigUInt64BE(at + 8)), 16];
    else if (size === 0) size = end - at;
    if (size < header) throw new Error(`box of size ${size} at ${at}`);
    out.push({ type: buf.toString('latin1', at + 4, at + 8), at, bodyAt: at + header, end: at + size });
    at += size;
  }
  return out;
}

/** The one child of `type` of the box `parent` (a plain container). */
export function child(buf: Buffer, parent: Box, type: string): Box {
  const found = boxesIn(buf, parent.bodyAt, parent.end).find((b) => b.type === type);
  if (!found) throw new Error(`no ${type} in ${parent.type}`);
  return found;
}

/**
 * `movie` (ffmpeg's output, `moov` last, so no sample offset moves) with its `moov` rebuilt by
 * `rebuild` from its children, and `tail` appended after it (a second `mdat`, say, whose
 * offset in the file `rebuild` is told).
 */
export function withMoovRebuilt(movie: Buffer, rebuild: (children: Buffer[], moovAt: number) => Buffer[], tail: Buffer = Buffer.alloc(0)): Buffer {
  const top = boxesIn(movie);
  const moov = top.at(-1);
  if (moov?.type !== 'moov') throw new Error('expected moov last');
  const children = boxesIn(movie, moov.bodyAt, moov.end).map((b) => movie.subarray(b.at, b.end));
  return Buffer.concat([movie.subarray(0, moov.at), box('moov', ...rebuild(children, moov.at)), tail]);
}

export const typeOf = (b: Buffer): string => b.toString('latin1', 4, 8);
