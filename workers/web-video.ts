/**
 * The worker side of web videos (docs/api.md#get-apiweb-videopath): the facts a playback plan
 * is decided on, and the ffmpeg runs that make a copy every browser plays. A remux copies the
 * streams with the index moved to the front (`+faststart`); a transcode makes one H.264/AAC
 * rendition of at most 1080p. Either is written to a temp name and renamed, so a reader never
 * sees half a file. ffmpeg runs at low priority on few threads: pages and thumbnails come first,
 * and it is killed (SIGKILL) when the task's budget runs out, before the pool ends the worker.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parentPort } from 'node:worker_threads';
import ffmpegInstaller from '@ffmpeg-installer/ffmpeg';
import { tempNameFor } from '../server/core/fs-atomic.js';
import { ffprobe, type ProbeData, type ProbeStream, streamRotation } from '../server/core/media/ffprobe.js';
import { indexPositionOf } from '../server/core/media/mp4-atoms.js';
import { isQuickTimeFamily, renditionSize } from '../server/core/media/playback-plan.js';
import { childProcessNotice, type TaskClock, taskStarted, type VideoInfo, type WebVideoResult, type WebVideoTask, workerBudgetMs } from './tasks.js';

/** The facts of VideoInfo that the playback plan reads, from a probe already made. */
export type PlaybackFields = Pick<VideoInfo, 'codecTag' | 'pixelFormat' | 'audioCodec' | 'container' | 'indexAtEnd'>;

export async function playbackFactsOf(src: string, data: ProbeData, video: ProbeStream): Promise<PlaybackFields> {
  const container = data.format.format_name ?? 'unknown';
  const audio = data.streams.find((s) => s.codec_type === 'audio');
  const tag = video.codec_tag_string;
  // Only MP4/MOV have a moov to find; the walk reads a few atom headers, never the media.
  const position = isQuickTimeFamily(container) ? await indexPositionOf(src) : 'unknown';
  return {
    codecTag: tag && /^[a-z0-9]{4}$/i.test(tag) ? tag : null,
    pixelFormat: video.pix_fmt ?? null,
    audioCodec: audio?.codec_name ?? null,
    container,
    indexAtEnd: position === 'unknown' ? null : position === 'end',
  };
}

/** Sound MP4 holds and every browser plays there: copied as it is; anything else becomes AAC. */
const COPYABLE_AUDIO = new Set(['aac', 'mp3']);
/** Threads ffmpeg may use: the rendition is background work on a machine serving pages. */
const FFMPEG_THREADS = String(Math.max(1, Math.min(2, os.availableParallelism() - 1)));
/** Below normal (0): the scheduler prefers the server and its thumbnails. */
const NICENESS = 10;

/** Makes the web copy of a video: a faststart remux or an H.264 rendition (workers/tasks.ts). */
export async function webVideo(task: WebVideoTask & TaskClock): Promise<WebVideoResult> {
  parentPort?.postMessage(taskStarted(task.runId));
  const endsAt = Date.now() + workerBudgetMs(task.deadlineMs);
  const budget = () => Math.max(1, endsAt - Date.now());
  const data = await ffprobe(task.src, budget());
  const video = data.streams.find((s) => s.codec_type === 'video');
  if (!video?.width || !video.height) throw new Error(`No video stream in ${path.basename(task.src)}`);
  const audio = data.streams.find((s) => s.codec_type === 'audio');

  await fs.mkdir(path.dirname(task.dest), { recursive: true });
  const tmp = tempNameFor(task.dest);
  try {
    const codecArgs = task.plan === 'faststart' ? remuxArgs(audio) : transcodeArgs(video);
    await runFfmpeg(
      ['-threads', FFMPEG_THREADS, '-i', task.src, '-map', '0:v:0', '-map', '0:a:0?', '-sn', '-dn', ...codecArgs, '-movflags', '+faststart', '-f', 'mp4', tmp],
      task.src,
      budget(),
    );
    const { size } = await fs.stat(tmp);
    await fs.rename(tmp, task.dest);
    return { bytes: size };
  } catch (err) {
    await fs.rm(tmp, { force: true });
    throw err;
  }
}

/** Video copied bit for bit (its rotation with it); the sound copied too where MP4 players take it. */
function remuxArgs(audio: ProbeStream | undefined): string[] {
  const sound = audio && !COPYABLE_AUDIO.has(audio.codec_name ?? '') ? ['-c:a', 'aac', '-b:a', '128k'] : ['-c:a', 'copy'];
  return ['-c:v', 'copy', ...sound];
}

/**
 * H.264 High, 8-bit 4:2:0 (what every browser decodes), CRF 23 at the veryfast preset: near
 * the original's look at a fraction of an HEVC file's decode cost, in about real time.
 * ffmpeg turns the frames upright itself (autorotate) before the scale filter, so the
 * rendition is sized as displayed and carries no rotation.
 */
function transcodeArgs(video: ProbeStream): string[] {
  const rotated = Math.abs(streamRotation(video)) % 180 === 90;
  const [w, h] = rotated ? [video.height ?? 0, video.width ?? 0] : [video.width ?? 0, video.height ?? 0];
  const size = renditionSize(w, h);
  return [
    '-vf',
    `scale=${size.width}:${size.height},setsar=1`,
    '-c:v',
    'libx264',
    '-preset',
    'veryfast',
    '-crf',
    '23',
    '-pix_fmt',
    'yuv420p',
    '-threads',
    FFMPEG_THREADS,
    '-c:a',
    'aac',
    '-b:a',
    '128k',
    '-ac',
    '2',
    // Phones write sparse sound tracks; the default queue is too small to interleave them.
    '-max_muxing_queue_size',
    '4096',
  ];
}

function runFfmpeg(args: readonly string[], src: string, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    // SIGKILL: a process blocked opening its input does not always act on SIGTERM.
    const child = spawn(ffmpegInstaller.path, ['-hide_banner', '-loglevel', 'error', '-nostdin', '-y', ...args], {
      stdio: ['ignore', 'ignore', 'pipe'],
      timeout: timeoutMs,
      killSignal: 'SIGKILL',
    });
    const { pid } = child;
    if (pid !== undefined) {
      parentPort?.postMessage(childProcessNotice(pid, true));
      child.once('exit', () => parentPort?.postMessage(childProcessNotice(pid, false)));
      try {
        os.setPriority(pid, NICENESS);
      } catch {
        // Not allowed here (some containers): it still runs, at normal priority.
      }
    }
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < 4096) stderr += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (code === 0) resolve();
      else reject(new Error(`ffmpeg could not make a web copy of ${path.basename(src)} (${signal ?? `exit ${code}`}): ${stderr.trim()}`));
    });
  });
}
