/**
 * Short H.264 MP4s made with the ffmpeg binary the project ships, and the display rotation
 * phones give portrait video (the samples' rotated clip and the tests' portrait video).
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { promisify } from 'node:util';
import ffmpegInstaller from '@ffmpeg-installer/ffmpeg';
import { ensureDir } from './stills.js';

const run = promisify(execFile);

/**
 * Copies the video stream of `plain` to `out` with a display rotation, meant as in phone videos:
 * the legacy tag "rotate=90" turns the stored frames 90° clockwise for display (ffprobe >= 5
 * reports it as displaymatrix rotation -90). This ffmpeg build (4.1) predates
 * -display_rotation and drops the `rotate` tag when it encodes; a stream-copy remux does write
 * the tag into the track's display matrix, but with the opposite sign (its copy path stores
 * the matrix untransposed), so it is handed 360 - r. Deterministic: no dates, bit-exact muxing.
 */
export async function remuxWithRotation(plain: string, out: string, rotate: number): Promise<void> {
  await run(ffmpegInstaller.path, [
    '-y',
    '-hide_banner',
    '-loglevel',
    'error',
    '-i',
    plain,
    '-map',
    '0:v:0',
    '-c',
    'copy',
    '-map_metadata',
    '-1',
    '-metadata:s:v:0',
    `rotate=${(360 - rotate) % 360}`,
    '-movflags',
    '+faststart',
    '-fflags',
    '+bitexact',
    '-f',
    'mp4',
    out,
  ]);
}

export interface VideoSpec {
  readonly width?: number;
  readonly height?: number;
  readonly seconds?: number;
  /** Stored as a rotation in the container (display matrix), as phones do for portrait video. */
  readonly rotate?: 90;
  /** The container's recording time, an ISO instant ('2024-06-06T10:00:00Z'), as cameras write it; none by default. */
  readonly creationTime?: string;
}

/** A real H.264 MP4 of ffmpeg's test pattern at 29.97 fps. */
export async function writeVideo(file: string, spec: VideoSpec = {}): Promise<void> {
  const { width = 320, height = 240, seconds = 2, rotate, creationTime } = spec;
  ensureDir(file);
  const encoded = rotate ? `${file}.plain.mp4` : file;
  await run(ffmpegInstaller.path, [
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    `testsrc=duration=${seconds}:size=${width}x${height}:rate=30000/1001`,
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-pix_fmt',
    'yuv420p',
    ...(creationTime === undefined ? [] : ['-metadata', `creation_time=${creationTime}`]),
    encoded,
  ]);
  if (rotate) {
    await remuxWithRotation(encoded, file, rotate);
    fs.rmSync(encoded);
  }
}
