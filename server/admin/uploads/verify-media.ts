import sharp from 'sharp';
import { ffprobe, type ProbeData } from '../../core/media/ffprobe.js';
import { type MediaKind, decodedFormatsOf, isHevcHeader } from '../../core/media-catalogue.js';

/** An upload that is not what its name claims; the message is shown to the user. */
export class RejectedUpload extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RejectedUpload';
  }
}

/** sharp's names of the formats the gallery serves. */
const IMAGE_FORMATS = decodedFormatsOf('image');
/** ffprobe's container names of the gallery's video types. */
const VIDEO_CONTAINERS = decodedFormatsOf('video');

/**
 * Each check runs in this process on a file nobody has vetted yet: a decode or a probe that
 * takes longer than this is refused rather than left to hold the upload (and ffprobe) open.
 * Generous: a 100-megapixel panorama decodes in seconds even on a small board.
 */
const IMAGE_CHECK_SECONDS = 60;
const VIDEO_CHECK_MS = 30_000;

export interface ImageCheck {
  readonly format: string;
  readonly width: number;
  readonly height: number;
}

/** Decodes a HEIC whole, where libvips cannot (the media pool's decodeCheck task); throws when it cannot be decoded. */
export type HeifDecodeCheck = (file: string) => Promise<unknown>;

/**
 * Proves the file is an image the gallery can show: sharp must read its header and decode
 * its pixels (a small resize decodes the whole image, cheaply with JPEG shrink-on-load), so a
 * text file renamed .jpg or a truncated JPEG is refused before it reaches an album. A HEIC's
 * HEVC pixels are decoded by `decodeHeif`; where none is given, HEIC is refused.
 */
export async function verifyImage(file: string, decodeHeif?: HeifDecodeCheck): Promise<ImageCheck> {
  let format: string | undefined;
  let width: number | undefined;
  let height: number | undefined;
  let hevc = false;
  try {
    const meta = await sharp(file).metadata();
    ({ format, width, height } = meta);
    hevc = isHevcHeader(meta);
    if (hevc && decodeHeif) await decodeHeif(file);
    else if (!hevc) await sharp(file).timeout({ seconds: IMAGE_CHECK_SECONDS }).resize(32, 32, { fit: 'inside' }).raw().toBuffer();
  } catch {
    throw new RejectedUpload('Not a decodable image');
  }
  if (format === undefined || !IMAGE_FORMATS.has(format)) {
    throw new RejectedUpload(`Not an image format the gallery shows (${format ?? 'unknown'})`);
  }
  if (hevc && !decodeHeif) throw new RejectedUpload('HEIC photos are not accepted here');
  if (!width || !height) throw new RejectedUpload('Not a decodable image (no size)');
  return { format, width, height };
}

export interface VideoCheck {
  readonly container: string;
  readonly codec: string;
  readonly width: number;
  readonly height: number;
  readonly duration: number;
}

/**
 * Proves the file is a video: ffprobe must find a video container of a served type with a
 * video stream that has a size and a duration. A still image renamed .mp4 is refused too
 * (ffprobe reads it as a one-frame 'image2' or '*_pipe' stream, not a video container).
 */
export async function verifyVideo(file: string): Promise<VideoCheck> {
  let data: ProbeData;
  try {
    data = await ffprobe(file, VIDEO_CHECK_MS);
  } catch {
    throw new RejectedUpload('Not a playable video (ffprobe could not read it)');
  }
  const containers = String(data.format.format_name ?? '').split(',');
  const container = containers.find((c) => VIDEO_CONTAINERS.has(c));
  if (container === undefined) throw new RejectedUpload(`Not a video container the gallery plays (${containers.join(',') || 'unknown'})`);
  const stream = data.streams.find((s) => s.codec_type === 'video' && (s.width ?? 0) > 0 && (s.height ?? 0) > 0);
  if (!stream) throw new RejectedUpload('Not a playable video (no video stream)');
  const duration = Number(data.format.duration ?? stream.duration);
  if (!Number.isFinite(duration) || duration <= 0) throw new RejectedUpload('Not a playable video (no duration)');
  return { container, codec: stream.codec_name ?? 'unknown', width: stream.width ?? 0, height: stream.height ?? 0, duration };
}

/** The check that matches a kind of media. */
export function verifierFor(kind: MediaKind, decodeHeif: HeifDecodeCheck | undefined): (file: string) => Promise<unknown> {
  return kind === 'image' ? (file) => verifyImage(file, decodeHeif) : verifyVideo;
}
