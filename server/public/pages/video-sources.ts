import { originalUrl, type MediaVersion, webVideoUrl } from '../../core/urls.js';
import type { VideoPlayback } from '../../media/dimensions.js';

/** One `<source>` of a video in the lightbox, in the order the browser tries them. */
export interface VideoSourceView {
  readonly src: string;
  /** Lets a browser skip a source it cannot decode without fetching it. */
  readonly type?: string;
}

/** The web copy is always an H.264/AAC MP4 (workers/web-video.ts). */
const WEB_COPY_TYPE = 'video/mp4';

/**
 * The sources of a video, by its playback plan (server/core/media/playback-plan.ts):
 * - direct: the original alone, as always;
 * - faststart: the remux first (it starts at once), the original while the remux is not made
 *   (its URL answers 503 then, and the browser moves on);
 * - transcode: the original first with its real codec in `type` (Safari plays HEVC and keeps
 *   it), then the H.264 rendition for every other browser;
 * - not probed yet: the original, then the web copy as a fallback (a 404 when none is needed).
 */
export function videoSources(mediaPath: string, version: MediaVersion | undefined, playback: VideoPlayback | undefined): VideoSourceView[] {
  const original = originalUrl(mediaPath);
  const copy = { src: webVideoUrl(mediaPath, version), type: WEB_COPY_TYPE };
  switch (playback?.plan) {
    case 'direct':
      return [{ src: original }];
    case 'faststart':
      return [copy, { src: original }];
    case 'transcode':
      return [playback.type ? { src: original, type: playback.type } : { src: original }, copy];
    default:
      return [{ src: original }, copy];
  }
}
