/**
 * How an MP4 or QuickTime movie is turned when it is shown: the transformation matrix in the
 * track header (`moov/trak/tkhd`) of each video track, which phones use to store portrait
 * video as landscape frames. Browsers, ffprobe and ffmpeg (which turns the frames it decodes:
 * posters, web copies) all honour it, so rewriting those 36 bytes turns a video everywhere
 * without touching a single frame (docs/api.md#rotations).
 *
 * The matrix is { a b u / c d v / x y w }: a, b, c, d, x, y in 16.16 fixed point, u, v, w in
 * 2.30; a point (p, q) of the frame is shown at (a·p + c·q + x, b·p + d·q + y). Only the four
 * plain quarter turns are handled (what cameras and ffmpeg write); a mirrored, scaled or skewed
 * matrix is left alone. New matrices are written as ffmpeg writes them, the translation
 * keeping the turned frame at the origin (Apple's players use it).
 *
 * Only atom headers are read (server/core/media/mp4-atoms.ts), then a few bytes of each track
 * header and handler; nothing of the media data.
 */
import type { ByteSource } from './byte-source.js';
import { readChildAtoms, walkTopLevelAtoms } from './mp4-atoms.js';

/** A movie this module will not turn: the message says why, for the owner. */
export class DisplayMatrixError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DisplayMatrixError';
  }
}

const ONE = 0x10000;
const W_ONE = 0x40000000;
const MATRIX_BYTES = 36;
/** Version and flags, then the times, track id and duration: 4 + 20 bytes (version 0) or 4 + 32 (version 1). */
const TIMES_BYTES = [24, 36] as const;
/** Reserved (8), layer, alternate group, volume, reserved (2 each): between the times and the matrix. */
const BEFORE_MATRIX = 16;

/** [a, b, c, d] of each clockwise quarter turn, in units of ONE. */
const TURNS: readonly (readonly [number, number, number, number])[] = [
  [1, 0, 0, 1],
  [0, 1, -1, 0],
  [-1, 0, 0, -1],
  [0, -1, 1, 0],
];

/** The display matrix of one video track: where it is in the file, the turn it holds, the track's size. */
export interface TrackMatrix {
  /** Offset of the 36 bytes of the matrix in the file. */
  readonly at: number;
  /** Clockwise quarter turns (0–3); undefined when the matrix is not a plain turn. */
  readonly turns: number | undefined;
  /** The track header's width and height, 16.16 fixed point as stored: the frame before the turn. */
  readonly width: number;
  readonly height: number;
}

/** The display matrices of the video tracks of a movie (none for a file that is not an MP4/MOV). */
export async function videoTrackMatrices(file: ByteSource): Promise<TrackMatrix[]> {
  const { atoms } = await walkTopLevelAtoms(file);
  const top = atoms.find((a) => a.type === 'moov');
  if (!top) return [];
  const [moov] = await readChildAtoms(file, top.offset, top.offset + top.size, 1);
  if (moov?.type !== 'moov') return [];
  const found: TrackMatrix[] = [];
  for (const trak of await readChildAtoms(file, moov.bodyAt, moov.end)) {
    if (trak.type !== 'trak') continue;
    const children = await readChildAtoms(file, trak.bodyAt, trak.end);
    const tkhd = children.find((a) => a.type === 'tkhd');
    const mdia = children.find((a) => a.type === 'mdia');
    if (!tkhd || !mdia || (await handlerOf(file, mdia.bodyAt, mdia.end)) !== 'vide') continue;
    const version = (await file.read(tkhd.bodyAt, 1))[0];
    const timesBytes = version === 1 ? TIMES_BYTES[1] : TIMES_BYTES[0];
    const at = tkhd.bodyAt + timesBytes + BEFORE_MATRIX;
    const bytes = await file.read(at, MATRIX_BYTES + 8);
    if ((version !== 0 && version !== 1) || at + MATRIX_BYTES + 8 > tkhd.end || bytes.length < MATRIX_BYTES + 8) continue;
    found.push({ at, turns: turnsOf(bytes), width: bytes.readUInt32BE(MATRIX_BYTES), height: bytes.readUInt32BE(MATRIX_BYTES + 4) });
  }
  return found;
}

/** A new matrix for one video track: its 36 bytes, to be written at `at` in place of the old. */
export interface MatrixEdit {
  readonly at: number;
  readonly bytes: Buffer;
  /** Clockwise quarter turns the track shows with it (0–3). */
  readonly turns: number;
}

/**
 * The edits that turn every video track of `file` by `quarterTurns` more (clockwise;
 * negative: counter-clockwise). Throws DisplayMatrixError when the file has no video track
 * header, or one whose matrix is not a plain turn.
 */
export async function turnPatches(file: ByteSource, quarterTurns: number): Promise<MatrixEdit[]> {
  const tracks = await videoTrackMatrices(file);
  if (tracks.length === 0) throw new DisplayMatrixError('no video track header (tkhd) was found: only MP4 and MOV videos can be turned');
  return tracks.map((track) => {
    if (track.turns === undefined) throw new DisplayMatrixError('its display matrix is mirrored or scaled, not a plain turn');
    const turns = (((track.turns + quarterTurns) % 4) + 4) % 4;
    return { at: track.at, bytes: matrixOf(turns, track.width, track.height), turns };
  });
}

/** The 36 bytes of the matrix of `turns` clockwise quarter turns of a frame of `width` × `height` (16.16). */
export function matrixOf(turns: number, width: number, height: number): Buffer {
  const [a, b, c, d] = TURNS[turns]!;
  const [x, y] = [
    [0, 0],
    [height, 0],
    [width, height],
    [0, width],
  ][turns]!;
  const matrix = Buffer.alloc(MATRIX_BYTES);
  [a * ONE, b * ONE, 0, c * ONE, d * ONE, 0, x!, y!, W_ONE].forEach((value, i) => {
    // Translations are 16.16 like the size they come from, which is unsigned: up to 32767 px fit.
    matrix.writeInt32BE(value | 0, i * 4);
  });
  return matrix;
}

/** The clockwise quarter turns a matrix holds; undefined when it is anything but a plain turn (translation aside). */
function turnsOf(matrix: Buffer): number | undefined {
  const m = Array.from({ length: 9 }, (_, i) => matrix.readInt32BE(i * 4));
  const [a, b, u, c, d, v, , , w] = m;
  if (u !== 0 || v !== 0 || w !== W_ONE) return undefined;
  const turns = TURNS.findIndex(([ta, tb, tc, td]) => a === ta * ONE && b === tb * ONE && c === tc * ONE && d === td * ONE);
  return turns < 0 ? undefined : turns;
}

/** The handler type of a media atom ('vide', 'soun', 'meta'…): its `hdlr` is version and flags (4), pre-defined (4), then the type. */
async function handlerOf(file: ByteSource, start: number, end: number): Promise<string | undefined> {
  const hdlr = (await readChildAtoms(file, start, end)).find((a) => a.type === 'hdlr');
  if (!hdlr || hdlr.end - hdlr.bodyAt < 12) return undefined;
  return (await file.read(hdlr.bodyAt + 8, 4)).toString('latin1');
}
