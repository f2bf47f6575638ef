/**
 * What a video needs before every browser can play it, decided in one place from what the
 * probe found (docs/api.md#get-apiweb-videopath, README "Phone videos"):
 *
 * - `direct`: served as it is. H.264 (8-bit 4:2:0) with AAC or MP3 or no sound in MP4/MOV
 *   whose index comes first; VP8/VP9/AV1 with Opus/Vorbis or no sound in WebM.
 * - `faststart`: H.264 whose index (`moov`) comes after the media data, or whose sound MP4
 *   players do not all take (PCM from cameras): a lossless remux with the index first, video
 *   copied, the sound made AAC when it must be. Seconds of work; served instead of the original.
 * - `transcode`: anything else (HEVC from iPhones, 10-bit H.264, MPEG-4 Part 2, ProRes…): one
 *   H.264/AAC rendition, offered after the original so browsers that play it (Safari) keep it.
 *
 * Both sides of the pool read this: the worker to choose ffmpeg's arguments, the main thread
 * to know which sources a page offers.
 */

export type PlaybackPlan = 'direct' | 'faststart' | 'transcode';

/** The probe's facts about a video that the plan depends on (workers/tasks.ts VideoInfo fits). */
export interface PlaybackFacts {
  /** ffprobe's format_name: 'mov,mp4,m4a,3gp,3g2,mj2', 'matroska,webm'. */
  readonly container: string;
  /** ffprobe's codec_name of the first video stream: 'h264', 'hevc', 'vp9'. */
  readonly codec: string;
  /** Its pixel format: 'yuv420p', 'yuv420p10le'; null when unknown. */
  readonly pixelFormat: string | null;
  /** The first audio stream's codec_name; null without sound. */
  readonly audioCodec: string | null;
  /** True when the MP4/MOV index comes after the media data; null when not an MP4/MOV or not found. */
  readonly indexAtEnd: boolean | null;
}

const QUICKTIME_AUDIO = new Set(['aac', 'mp3']);
const WEBM_VIDEO = new Set(['vp8', 'vp9', 'av1']);
const WEBM_AUDIO = new Set(['opus', 'vorbis']);

export const isQuickTimeFamily = (container: string): boolean => container.split(',').some((n) => n === 'mov' || n === 'mp4');
const isWebmFamily = (container: string): boolean => container.split(',').some((n) => n === 'webm' || n === 'matroska');

/** Every browser decodes 8-bit 4:2:0 H.264; High 10 and 4:2:2 profiles are another matter. */
const isPlainH264 = (facts: PlaybackFacts): boolean =>
  facts.codec === 'h264' && (facts.pixelFormat === null || facts.pixelFormat === 'yuv420p' || facts.pixelFormat === 'yuvj420p');

export function playbackPlan(facts: PlaybackFacts): PlaybackPlan {
  if (isWebmFamily(facts.container) && WEBM_VIDEO.has(facts.codec) && (facts.audioCodec === null || WEBM_AUDIO.has(facts.audioCodec))) {
    return 'direct';
  }
  if (!isQuickTimeFamily(facts.container) || !isPlainH264(facts)) return 'transcode';
  const audioPlays = facts.audioCodec === null || QUICKTIME_AUDIO.has(facts.audioCodec);
  return audioPlays && facts.indexAtEnd !== true ? 'direct' : 'faststart';
}

/** The rendition's longer and shorter sides at most: 1080p either way round. */
export const RENDITION_MAX = Object.freeze({ long: 1920, short: 1080 });

/**
 * The rendition's size for a video displayed at `width`×`height`: within 1920×1080 (or
 * 1080×1920 upright), the aspect kept, never enlarged, both sides even (H.264 4:2:0 wants it).
 */
export function renditionSize(width: number, height: number): { width: number; height: number } {
  const landscape = width >= height;
  const maxW = landscape ? RENDITION_MAX.long : RENDITION_MAX.short;
  const maxH = landscape ? RENDITION_MAX.short : RENDITION_MAX.long;
  const scale = Math.min(1, maxW / width, maxH / height);
  const even = (n: number) => Math.max(2, 2 * Math.floor((n * scale) / 2));
  return { width: even(width), height: even(height) };
}

/**
 * The `type` of a `<source>` for the original: the real codec tag, so a browser that cannot
 * decode it (Chrome and Firefox with HEVC) skips to the next source without fetching a byte,
 * while Safari keeps the original. MP4 for the QuickTime family: Safari answers for
 * 'video/mp4; codecs="hvc1"' where it may not for video/quicktime.
 */
export function sourceTypeOf(facts: Pick<PlaybackFacts, 'container' | 'codec'> & { readonly codecTag: string | null }): string | undefined {
  const container = isQuickTimeFamily(facts.container) ? 'video/mp4' : isWebmFamily(facts.container) ? 'video/webm' : undefined;
  if (!container) return undefined;
  const tag = facts.codecTag ?? (facts.codec === 'hevc' ? 'hvc1' : undefined);
  return tag && /^[a-z0-9.]{4,32}$/i.test(tag) ? `${container}; codecs="${tag}"` : container;
}
