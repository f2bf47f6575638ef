/** The bundled ffmpeg and ffprobe: deterministic H.264 from raw frames, and a check of the result. */
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import ffmpegInstaller from '@ffmpeg-installer/ffmpeg';
import ffprobeInstaller from '@ffprobe-installer/ffprobe';
import { remuxWithRotation } from '../image-fixtures/video.js';

function run(cmd: string, args: string[], input?: AsyncIterable<Buffer> | Iterable<Buffer>): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: [input ? 'pipe' : 'ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr?.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`${path.basename(cmd)} exited ${code}\n${stderr.slice(-2000)}`))));
    if (input && child.stdin) {
      const stdin = child.stdin;
      (async () => {
        for await (const chunk of input) {
          if (!stdin.write(chunk)) await new Promise((r) => stdin.once('drain', r));
        }
        stdin.end();
      })().catch(reject);
    }
  });
}

function capture(cmd: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
    });
    child.stderr?.on('data', (d: Buffer) => {
      err += d.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`${path.basename(cmd)} exited ${code}\n${err.slice(-2000)}`))));
  });
}

interface ProbedStream {
  codec_name?: string;
  width?: number;
  height?: number;
  duration?: string;
  tags?: Record<string, string>;
  side_data_list?: Array<{ side_data_type?: string; rotation?: number }>;
}

/** Checks a generated video with ffprobe: codec, size, duration and (optionally) rotation. */
export async function probeVideo(file: string, expect: { w: number; h: number; seconds: number; rotation?: number; codec?: string }): Promise<void> {
  const json = await capture(ffprobeInstaller.path, ['-v', 'error', '-select_streams', 'v:0', '-show_streams', '-of', 'json', file]);
  const stream = (JSON.parse(json) as { streams: ProbedStream[] }).streams[0];
  const problems: string[] = [];
  if (!stream) problems.push('no video stream');
  else {
    if (stream.codec_name !== (expect.codec ?? 'h264')) problems.push(`codec ${stream.codec_name}`);
    if (stream.width !== expect.w || stream.height !== expect.h) problems.push(`size ${stream.width}x${stream.height}`);
    if (Math.abs(Number(stream.duration) - expect.seconds) > 0.1) problems.push(`duration ${stream.duration}`);
    if (expect.rotation !== undefined) {
      const fromSideData = stream.side_data_list?.find((d) => d.rotation !== undefined)?.rotation;
      const fromTag = stream.tags?.rotate !== undefined ? -Number(stream.tags.rotate) : undefined;
      const rotation = fromSideData ?? fromTag;
      if (rotation !== expect.rotation) problems.push(`rotation ${rotation}, expected ${expect.rotation}`);
    }
  }
  if (problems.length) throw new Error(`${file}: ${problems.join(', ')}`);
}

/** H.264 MP4 from raw RGB frames, deterministic (single thread, bit-exact muxing, no dates). */
export async function encodeVideo(
  out: string,
  frames: AsyncIterable<Buffer>,
  size: { w: number; h: number },
  fps: number,
  extra: { crf: number; rotate?: number; hevc?: boolean; container?: 'mp4' | 'mov'; takenAt?: string },
): Promise<void> {
  // HEVC tagged hvc1 in a MOV is what an iPhone writes (Safari plays it; others need the web copy).
  const codec = extra.hevc
    ? ['-c:v', 'libx265', '-preset', 'medium', '-tag:v', 'hvc1', '-crf', String(extra.crf), '-x265-params', 'log-level=error:pools=1:frame-threads=1']
    : ['-c:v', 'libx264', '-preset', 'slow', '-profile:v', 'main', '-crf', String(extra.crf), '-threads', '1', '-x264-params', 'threads=1:lookahead-threads=1'];
  const args = [
    '-y',
    '-hide_banner',
    '-loglevel',
    'error',
    '-f',
    'rawvideo',
    '-pix_fmt',
    'rgb24',
    '-s',
    `${size.w}x${size.h}`,
    '-r',
    String(fps),
    '-i',
    '-',
    '-an',
    ...codec,
    '-pix_fmt',
    'yuv420p',
    '-movflags',
    // A phone's clip says when it was taken, as an iPhone does (local time with its offset):
    // the gallery reads it for the clip's date (docs/api.md#dates).
    extra.takenAt ? '+faststart+use_metadata_tags' : '+faststart',
    '-map_metadata',
    '-1',
    ...(extra.takenAt ? ['-metadata', `com.apple.quicktime.creationdate=${extra.takenAt}`] : []),
    '-fflags',
    '+bitexact',
    '-flags:v',
    '+bitexact',
  ];
  await mkdir(path.dirname(out), { recursive: true });
  if (extra.rotate === undefined) {
    await run(ffmpegInstaller.path, [...args, '-f', extra.container ?? 'mp4', out], frames);
    return;
  }
  // encoded plain first: this ffmpeg writes a rotation only when remuxing
  const tmp = await mkdtemp(path.join(os.tmpdir(), 'make-samples-'));
  try {
    const plain = path.join(tmp, 'plain.mp4');
    await run(ffmpegInstaller.path, [...args, '-f', 'mp4', plain], frames);
    await remuxWithRotation(plain, out, extra.rotate);
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}
