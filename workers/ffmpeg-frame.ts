/**
 * One frame decoded by ffmpeg, as PNG bytes: a video's poster for its thumbnails, and the
 * frame of a damaged JPEG that libvips cannot get through (ffmpeg conceals what it cannot
 * read). A child process per frame, killed when the task's budget runs out, before the pool
 * ends the worker, so none is left running with nobody to reap it.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import ffmpegInstaller from '@ffmpeg-installer/ffmpeg';
import type { Budget } from './task-budget.js';
import { probeVideo } from './video-probe.js';

/**
 * One frame near the start, as PNG bytes: at 1 s or 10 % of the duration, whichever comes
 * first, so a fade-in or a black first frame is skipped but a short clip still has a frame.
 * ffmpeg applies the rotation itself, so the frame comes out as displayed.
 */
export async function grabVideoFrame(src: string, budget: Budget): Promise<Buffer> {
  const { duration } = await probeVideo(src, budget);
  const at = Math.min(1, duration * 0.1);
  const frame = await ffmpegFrame(src, at, budget);
  // A duration the container got wrong can put the seek past the end: fall back to frame 0.
  return frame.length > 0 || at === 0 ? frame : ffmpegFrame(src, 0, budget);
}

/** The frame at `atSeconds` (0: the first); no bytes when a seek lands past the end. */
export function ffmpegFrame(src: string, atSeconds: number, budget: Budget): Promise<Buffer> {
  const args = [
    '-hide_banner',
    '-loglevel',
    'error',
    '-nostdin',
    // Input seeking (before -i) jumps to the nearest keyframe instead of decoding up to it.
    ...(atSeconds > 0 ? ['-ss', atSeconds.toFixed(3)] : []),
    '-i',
    src,
    '-frames:v',
    '1',
    '-an',
    '-sn',
    '-dn',
    // PNG keeps the frame lossless; level 1 is quick and keeps the pipe small.
    '-f',
    'image2pipe',
    '-c:v',
    'png',
    '-compression_level',
    '1',
    'pipe:1',
  ];
  return new Promise((resolve, reject) => {
    // SIGKILL: a process blocked opening its input does not always act on SIGTERM.
    const child = spawn(ffmpegInstaller.path, args, { stdio: ['ignore', 'pipe', 'pipe'], timeout: budget.ms(), killSignal: 'SIGKILL' });
    const chunks: Buffer[] = [];
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < 4096) stderr += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (code === 0) resolve(Buffer.concat(chunks));
      else reject(new Error(`ffmpeg could not extract a frame of ${path.basename(src)} (${signal ?? `exit ${code}`}): ${stderr.trim()}`));
    });
  });
}
