/**
 * Media whose turn shows, for the rotation tests (docs/api.md#rotations): a PNG with one red
 * corner, a movie whose frame is red on the left and blue on the right (made with the ffmpeg
 * we ship), and the test's own readings of what came out: corner colours, and the display
 * rotation ffprobe reads.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import ffmpegInstaller from '@ffmpeg-installer/ffmpeg';
import ffprobeInstaller from '@ffprobe-installer/ffprobe';
import sharp from 'sharp';

const run = promisify(execFile);

/** A PNG of 320 × 240 whose top-left quarter is red, the rest blue. */
export function cornerPng(): Promise<Buffer> {
  const [width, height] = [320, 240];
  const pixels = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) pixels.set(x < width / 2 && y < height / 2 ? [220, 20, 20] : [20, 20, 220], (y * width + x) * 3);
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .png()
    .toBuffer();
}

/**
 * Half a second (`seconds`) of a 160 × 120 frame red on its left half and blue on its right,
 * with a tone: H.264 and AAC in an MP4 or a MOV (the index last, as ffmpeg writes without
 * +faststart), VP8 and Vorbis in a WebM.
 */
export async function writeHalvesMovie(file: string, container: 'mp4' | 'mov' | 'webm', seconds = 0.5): Promise<void> {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const codecs = container === 'webm' ? ['-c:v', 'libvpx', '-c:a', 'libvorbis'] : ['-c:v', 'libx264', '-preset', 'ultrafast', '-c:a', 'aac'];
  await run(ffmpegInstaller.path, [
    ...['-hide_banner', '-loglevel', 'error', '-y'],
    ...['-f', 'lavfi', '-i', 'color=red:size=80x120:rate=10,pad=160:120:0:0:blue'],
    ...['-f', 'lavfi', '-i', `sine=frequency=440:duration=${seconds}`],
    ...['-t', String(seconds), '-pix_fmt', 'yuv420p', ...codecs, '-shortest', file],
  ]);
}

/** The display rotation this ffprobe reads from a file's first video stream: counter-clockwise, so -90 is a clockwise quarter turn. */
export async function probedRotation(file: string): Promise<number> {
  const { stdout } = await run(ffprobeInstaller.path, ['-v', 'error', '-print_format', 'json', '-show_streams', '-select_streams', 'v', file]);
  const [stream] = (JSON.parse(stdout) as { streams: { side_data_list?: { rotation?: number }[] }[] }).streams;
  return stream?.side_data_list?.find((s) => typeof s.rotation === 'number')?.rotation ?? 0;
}

export type Colour = 'red' | 'blue';

/** An image's size and the colour of its corners, as it is stored (a thumbnail carries no orientation). */
export async function cornersOf(image: Buffer): Promise<{ width: number; height: number; topLeft: Colour; topRight: Colour; bottomRight: Colour }> {
  const { data, info } = await sharp(image).raw().toBuffer({ resolveWithObject: true });
  const colour = (x: number, y: number): Colour => {
    const i = (y * info.width + x) * info.channels;
    return data[i]! > data[i + 2]! ? 'red' : 'blue';
  };
  const [right, bottom] = [info.width - 4, info.height - 4];
  return { width: info.width, height: info.height, topLeft: colour(3, 3), topRight: colour(right, 3), bottomRight: colour(right, bottom) };
}

/** The first frame of a movie as ffmpeg decodes it (turned by its display matrix, as posters are). */
export async function firstFrame(file: string): Promise<Buffer> {
  const { stdout } = await run(
    ffmpegInstaller.path,
    ['-hide_banner', '-loglevel', 'error', '-i', file, '-frames:v', '1', '-f', 'image2pipe', '-c:v', 'png', 'pipe:1'],
    {
      encoding: 'buffer',
    },
  );
  return stdout;
}
