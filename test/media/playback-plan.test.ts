import { expect } from 'chai';
import { type PlaybackFacts, playbackPlan, renditionSize, sourceTypeOf } from '../../server/core/media/playback-plan.js';
import { videoSources } from '../../server/public/pages/video-sources.js';

const MP4 = 'mov,mp4,m4a,3gp,3g2,mj2';
const WEBM = 'matroska,webm';
const facts = (over: Partial<PlaybackFacts>): PlaybackFacts => ({
  container: MP4,
  codec: 'h264',
  pixelFormat: 'yuv420p',
  audioCodec: 'aac',
  indexAtEnd: false,
  ...over,
});

describe('playback plan (server/core/media/playback-plan.ts)', function () {
  describe('playbackPlan', function () {
    it('should serve H.264 with AAC, MP3 or no sound and the index first as it is', function () {
      expect(playbackPlan(facts({}))).to.equal('direct');
      expect(playbackPlan(facts({ audioCodec: 'mp3' }))).to.equal('direct');
      expect(playbackPlan(facts({ audioCodec: null }))).to.equal('direct');
      expect(playbackPlan(facts({ pixelFormat: null }))).to.equal('direct');
    });

    it('should serve WebM with VP8, VP9 or AV1 as it is', function () {
      for (const codec of ['vp8', 'vp9', 'av1'])
        expect(playbackPlan(facts({ container: WEBM, codec, audioCodec: 'opus', indexAtEnd: null })), codec).to.equal('direct');
    });

    it('should remux H.264 whose index is at the end', function () {
      expect(playbackPlan(facts({ indexAtEnd: true }))).to.equal('faststart');
    });

    it('should remux H.264 whose sound MP4 players do not all take (PCM), wherever its index', function () {
      expect(playbackPlan(facts({ audioCodec: 'pcm_s16le' }))).to.equal('faststart');
      expect(playbackPlan(facts({ audioCodec: 'pcm_s16le', indexAtEnd: true }))).to.equal('faststart');
    });

    it('should transcode HEVC, whatever its tag, index or sound', function () {
      expect(playbackPlan(facts({ codec: 'hevc' }))).to.equal('transcode');
      expect(playbackPlan(facts({ codec: 'hevc', indexAtEnd: true, audioCodec: null }))).to.equal('transcode');
    });

    it('should transcode H.264 that browsers do not all decode (10-bit, 4:2:2)', function () {
      expect(playbackPlan(facts({ pixelFormat: 'yuv420p10le' }))).to.equal('transcode');
      expect(playbackPlan(facts({ pixelFormat: 'yuv422p' }))).to.equal('transcode');
    });

    it('should transcode other codecs and containers', function () {
      expect(playbackPlan(facts({ codec: 'mpeg4' }))).to.equal('transcode');
      expect(playbackPlan(facts({ codec: 'prores' }))).to.equal('transcode');
      expect(playbackPlan(facts({ container: WEBM, codec: 'h264' }))).to.equal('transcode');
      expect(playbackPlan(facts({ container: WEBM, codec: 'vp9', audioCodec: 'aac' }))).to.equal('transcode');
    });
  });

  describe('renditionSize', function () {
    it('should keep a video within 1080p either way round, the aspect kept and sides even', function () {
      expect(renditionSize(3840, 2160)).to.deep.equal({ width: 1920, height: 1080 });
      expect(renditionSize(2160, 3840)).to.deep.equal({ width: 1080, height: 1920 });
      expect(renditionSize(4032, 3024)).to.deep.equal({ width: 1440, height: 1080 });
      expect(renditionSize(1921, 1081)).to.deep.equal({ width: 1918, height: 1080 });
    });

    it('should never enlarge, only make sides even', function () {
      expect(renditionSize(320, 240)).to.deep.equal({ width: 320, height: 240 });
      expect(renditionSize(321, 241)).to.deep.equal({ width: 320, height: 240 });
    });
  });

  describe('sourceTypeOf', function () {
    it('should name the real codec tag, as MP4 for the QuickTime family', function () {
      expect(sourceTypeOf({ container: MP4, codec: 'hevc', codecTag: 'hvc1' })).to.equal('video/mp4; codecs="hvc1"');
      expect(sourceTypeOf({ container: MP4, codec: 'hevc', codecTag: 'hev1' })).to.equal('video/mp4; codecs="hev1"');
      expect(sourceTypeOf({ container: MP4, codec: 'hevc', codecTag: null })).to.equal('video/mp4; codecs="hvc1"');
      expect(sourceTypeOf({ container: 'avi', codec: 'mpeg4', codecTag: 'FMP4' })).to.equal(undefined);
    });
  });

  describe('videoSources (server/public/pages/video-sources.ts)', function () {
    const v = { mtimeMs: 1000, size: 10, ino: 7 };
    const copy = { src: '/api/web-video?path=a%2Fclip.mov&v=1000-a-7', type: 'video/mp4' };
    it('should offer the original alone when it plays everywhere', function () {
      expect(videoSources('a/clip.mov', v, { plan: 'direct' })).to.deep.equal([{ src: '/albums/a/clip.mov' }]);
    });
    it('should offer the remux first, the original as a fallback', function () {
      expect(videoSources('a/clip.mov', v, { plan: 'faststart' })).to.deep.equal([copy, { src: '/albums/a/clip.mov' }]);
    });
    it('should offer the original with its codec first, then the rendition', function () {
      expect(videoSources('a/clip.mov', v, { plan: 'transcode', type: 'video/mp4; codecs="hvc1"' })).to.deep.equal([
        { src: '/albums/a/clip.mov', type: 'video/mp4; codecs="hvc1"' },
        copy,
      ]);
    });
    it('should offer the original, then the web copy, while the plan is not known', function () {
      expect(videoSources('a/clip.mov', v, undefined)).to.deep.equal([{ src: '/albums/a/clip.mov' }, copy]);
    });
  });
});
