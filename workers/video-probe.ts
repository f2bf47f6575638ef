/**
 * The media worker's video facts (media-worker.ts): duration, size as displayed, codec, frame
 * rate, when it was recorded and what a playback plan needs, from one ffprobe run with the
 * task's budget as its time limit. The `videoInfo` task, and the video half of `dimensions`.
 */
import path from 'node:path';
import { ffprobe, type ProbeStream, streamRotation } from '../server/core/media/ffprobe.js';
import { takenFromVideoTags } from '../server/core/media/taken-date.js';
import { videoPlaceFacts } from './place-tags.js';
import { type Budget, startTask } from './task-budget.js';
import type { Dimensions, PathTask, TaskClock, TileDimensions, VideoInfo } from './tasks.js';
import { playbackFactsOf } from './web-video.js';

/** Duration, displayed size, codec and frame rate of the first video stream. */
export async function videoInfo(task: PathTask & TaskClock): Promise<VideoInfo> {
  return probeVideo(task.src, startTask(task));
}

/** A video's tile: its size as displayed, when and where it was recorded, with what. Videos have no placeholder: their frame would cost an ffmpeg run per video. */
export async function videoDimensions(src: string, budget: Budget): Promise<TileDimensions> {
  const { width, height, taken, camera, position } = await probeVideo(src, budget);
  return { width, height, ...(taken === null ? {} : { taken }), ...(camera === null ? {} : { camera }), ...(position === null ? {} : { position }) };
}

export async function probeVideo(src: string, budget: Budget): Promise<VideoInfo> {
  const data = await ffprobe(src, budget.ms());
  const stream = data.streams.find((s) => s.codec_type === 'video');
  if (!stream?.width || !stream.height) throw new Error(`No video stream in ${path.basename(src)}`);
  const { width, height } = displayedSize(stream);
  const duration = finite(Number(data.format.duration)) ?? finite(Number(stream.duration)) ?? 0;
  const fps = frameRate(stream.avg_frame_rate) ?? frameRate(stream.r_frame_rate) ?? 0;
  const codec = stream.codec_name ?? 'unknown';
  const taken = takenFromVideoTags(data.format.tags) ?? takenFromVideoTags(stream.tags) ?? null;
  const { camera, position } = videoPlaceFacts(data.format.tags, stream.tags);
  return { duration, width, height, codec, fps: Math.round(fps * 1000) / 1000, taken, camera, position, ...(await playbackFactsOf(src, data, stream)) };
}

function finite(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** '30000/1001' → 29.97…; '0/0' (unknown) → undefined. */
function frameRate(ratio: string | undefined): number | undefined {
  if (!ratio) return undefined;
  const [num, den] = ratio.split('/').map(Number);
  if (den === undefined) return finite(num);
  return num && den ? num / den : undefined;
}

/**
 * Phones store portrait video as landscape frames plus a rotation: older files carry a
 * `rotate` tag, newer ffprobe reports the display matrix's rotation.
 */
function displayedSize(stream: ProbeStream): Dimensions {
  const width = stream.width ?? 0;
  const height = stream.height ?? 0;
  const rotation = streamRotation(stream);
  return Math.abs(rotation) % 180 === 90 ? { width: height, height: width } : { width, height };
}
