/**
 * The ways a visitor gets the bytes of a file of an album that hides locations, for the
 * location oracle test: the original, the original fetched in Range pieces, the web copy of
 * a video, the full-size JPEG of a photo browsers cannot show, and the album's ZIP. Each is
 * written to a file of its own, so ExifTool reads them all in one run. And the pixels of a
 * file as its decoder gives them, to compare a served file with the one on disk.
 */
import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import ffmpegInstaller from '@ffmpeg-installer/ffmpeg';
import sharp from 'sharp';
import type request from 'supertest';
import yauzl from 'yauzl';
import { bufferSource } from '../../server/core/media/byte-source.js';
import { decodeHeif } from '../../workers/heif-decode.js';
import { readHeifLayout } from '../../workers/heif-items.js';
import type { Decoder } from './location-corpus.js';

const run = promisify(execFile);

/** supertest's parser for a binary body of any type. */
export function rawBody(res: request.Response, done: (err: Error | null, body: Buffer) => void): void {
  const chunks: Buffer[] = [];
  res.on('data', (c: Buffer) => chunks.push(c));
  res.on('end', () => done(null, Buffer.concat(chunks)));
}

/** The file fetched in `pieces` Range requests of uneven sizes (a fixed pattern), put back together. */
export async function fetchInPieces(app: ReturnType<typeof request>, url: string, size: number, pieces = 5): Promise<Buffer> {
  const cuts = [0];
  for (let i = 1; i < pieces; i++) cuts.push(Math.floor((size * (i * i)) / (pieces * pieces)));
  cuts.push(size);
  const parts: Buffer[] = [];
  for (let i = 0; i < pieces; i++) {
    const [start, end] = [cuts[i]!, cuts[i + 1]! - 1];
    if (end < start) continue;
    const res = await app.get(url).set('Range', `bytes=${start}-${end}`).buffer(true).parse(rawBody).expect(206);
    parts.push(res.body as Buffer);
  }
  return Buffer.concat(parts);
}

/** Every entry of a ZIP, by name. */
export async function unzip(zip: Buffer): Promise<Map<string, Buffer>> {
  const zipfile = await yauzl.fromBufferPromise(zip, { lazyEntries: true });
  const out = new Map<string, Buffer>();
  for await (const entry of zipfile.eachEntry()) {
    const chunks: Buffer[] = [];
    for await (const chunk of await zipfile.openReadStreamPromise(entry)) chunks.push(chunk as Buffer);
    out.set(entry.fileName, Buffer.concat(chunks));
  }
  return out;
}

/** A digest of what `decoder` makes of the file: its pixels (every page or frame), so two files can be compared. */
export async function decodedDigest(file: string, decoder: Decoder): Promise<string> {
  const hash = (b: Buffer | string) => crypto.createHash('sha256').update(b).digest('hex');
  switch (decoder) {
    case 'sharp':
      return hash(await sharp(file).raw().toBuffer());
    case 'sharp-pages':
      return hash(await sharp(file, { pages: -1 }).raw().toBuffer());
    case 'heif':
      return hash((await decodeHeif(file, await readHeifLayout(bufferSource(fs.readFileSync(file))))).data);
    case 'ffmpeg': {
      // The decoded frames of every video and sound stream, one MD5 each (ffmpeg's framemd5, without its header of file names).
      const args = ['-v', 'error', '-i', file, '-map', '0:v', '-map', '0:a?', '-f', 'framemd5', '-'];
      const { stdout } = await run(ffmpegInstaller.path, args, { maxBuffer: 64 * 1024 * 1024 });
      const frames = stdout.split('\n').filter((l) => l && !l.startsWith('#'));
      if (frames.length === 0) throw new Error(`${path.basename(file)}: no frame decoded`);
      return hash(frames.join('\n'));
    }
  }
}

/** Writes `bytes` as `dir/name`, making `dir`. */
export function keep(dir: string, name: string, bytes: Buffer): string {
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, name);
  fs.writeFileSync(file, bytes);
  return file;
}
