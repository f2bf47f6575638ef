/**
 * The phone-camera videos of the web-video tests, made with the ffmpeg binary we ship (a
 * 2018 static build with libx264 and libx265): what an iPhone writes (HEVC tagged hvc1 with
 * AAC sound, in a MOV), what many cameras write (H.264 with PCM sound and the index at the
 * end), and what plays everywhere as it is (H.264/AAC with the index first).
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import ffmpegInstaller from '@ffmpeg-installer/ffmpeg';
import ffprobeInstaller from '@ffprobe-installer/ffprobe';

const run = promisify(execFile);

/** 2 s of ffmpeg's test pattern (320x240 unless told) and a tone. */
const sources = (size = '320x240'): string[] => [
  '-f',
  'lavfi',
  '-i',
  `testsrc=duration=2:size=${size}:rate=30`,
  '-f',
  'lavfi',
  '-i',
  'sine=frequency=440:duration=2',
];

async function ffmpeg(file: string, args: readonly string[], size?: string): Promise<void> {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  await run(ffmpegInstaller.path, ['-hide_banner', '-loglevel', 'error', '-y', ...sources(size), ...args, '-shortest', file]);
}

/** An iPhone-like clip: HEVC (libx265) tagged hvc1, AAC sound, 320x240, in a MOV. */
export const writeHevcClip = (file: string): Promise<void> =>
  ffmpeg(file, ['-c:v', 'libx265', '-preset', 'ultrafast', '-x265-params', 'log-level=error', '-tag:v', 'hvc1', '-pix_fmt', 'yuv420p', '-c:a', 'aac']);

/** A camera-like clip: H.264 with PCM sound and the index (moov) at the end, as ffmpeg writes without +faststart. */
export const writeLateIndexMov = (file: string): Promise<void> =>
  ffmpeg(file, ['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'pcm_s16le']);

/** A clip every browser plays as it is: H.264/AAC with the index first (`size` as `640x360`). */
export const writeFaststartMp4 = (file: string, size?: string): Promise<void> =>
  ffmpeg(file, ['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-movflags', '+faststart'], size);

export interface StreamFacts {
  readonly codec: string;
  readonly pixelFormat: string;
  readonly width: number;
  readonly height: number;
  readonly audio: string | null;
}

/** What ffprobe says of a file's first video and audio streams (the test's own reading, not the server's). */
export async function probeStreams(file: string): Promise<StreamFacts> {
  const { stdout } = await run(ffprobeInstaller.path, ['-v', 'error', '-print_format', 'json', '-show_streams', file]);
  const streams = (JSON.parse(stdout) as { streams: { codec_type: string; codec_name: string; pix_fmt?: string; width?: number; height?: number }[] }).streams;
  const video = streams.find((s) => s.codec_type === 'video');
  if (!video) throw new Error(`no video stream in ${file}`);
  return {
    codec: video.codec_name,
    pixelFormat: video.pix_fmt ?? '',
    width: video.width ?? 0,
    height: video.height ?? 0,
    audio: streams.find((s) => s.codec_type === 'audio')?.codec_name ?? null,
  };
}
