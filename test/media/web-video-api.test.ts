import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import { indexPositionOf } from '../../server/core/media/mp4-atoms.js';
import { eventually, GalleryFixture } from '../support/gallery-fixture.js';
import { probeStreams, writeFaststartMp4, writeHevcClip, writeLateIndexMov } from '../support/phone-videos.js';

const PUBLIC = '2024/phone';
const LOCKED = '2024/locked';
/** Albums of their own: viewing an album page starts the web copies of its videos. */
const READY = '2024/ready';
const BACKGROUND = '2024/background';
const q = (rel: string) => encodeURIComponent(rel);

/** The `data-sources` of a video's tile on an album page. */
function sourcesOn(html: string, name: string): unknown {
  const link = new RegExp(`<a class="media__link"[^>]*data-name="${name.replace('.', '\\.')}"[^>]*>`).exec(html)?.[0];
  const raw = link && /data-sources="([^"]*)"/.exec(link)?.[1];
  if (!raw) return undefined;
  return JSON.parse(raw.replace(/&#34;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&'));
}

describe('web copies of videos (GET /api/web-video, /api/video-info, album pages)', function () {
  this.timeout(60_000);
  let fx: GalleryFixture;
  let token: string;
  const copyFile = (rel: string) => `${path.join(fx.cacheDir, 'web-video', ...rel.split('/'))}.mp4`;
  const get = (url: string) => request(fx.gallery.handler).get(url);

  /** Asks for the copy until it is made (the first answers are 503 while it is). */
  async function waitForCopy(rel: string, headers: Record<string, string> = {}): Promise<void> {
    await eventually(async () => (await get(`/api/web-video?path=${q(rel)}`).set(headers)).status === 200, 30_000, `the web copy of ${rel}`);
  }

  before(async function () {
    fx = await new GalleryFixture().build({
      [PUBLIC]: { meta: { title: 'Phone' } },
      [LOCKED]: { meta: { title: 'Locked', password: 'pw' } },
      [READY]: { meta: { title: 'Ready' } },
      [BACKGROUND]: { meta: { title: 'Background' } },
    });
    await Promise.all([
      writeHevcClip(fx.path(PUBLIC, 'IMG_0001.MOV')),
      writeLateIndexMov(fx.path(PUBLIC, 'camera.mov')),
      writeFaststartMp4(fx.path(READY, 'ready.mp4')),
      writeHevcClip(fx.path(BACKGROUND, 'IMG_0003.MOV')),
      writeHevcClip(fx.path(LOCKED, 'IMG_0002.MOV')),
    ]);
    await fx.start();
    token = fx.token(LOCKED);
  });
  after(() => fx.close());

  describe('a video that plays everywhere as it is', function () {
    it('should say in /api/video-info that it needs no copy', async function () {
      const res = await get(`/api/video-info?path=${q(`${READY}/ready.mp4`)}`).expect(200);
      expect(res.body.codec).to.equal('h264');
      expect(res.body.webVideo).to.deep.equal({ kind: null, state: 'none', url: null });
    });

    it('should answer 404 JSON for its web copy', async function () {
      const res = await get(`/api/web-video?path=${q(`${READY}/ready.mp4`)}`).expect(404);
      expect(res.body).to.deep.equal({ error: 'This video plays as it is: it has no web copy' });
    });

    it('should offer only the original on the album page', async function () {
      await fx.knownFacts(READY);
      const res = await get(`/photos/${READY}`).expect(200);
      expect(sourcesOn(res.text, 'ready.mp4')).to.deep.equal([{ src: `/albums/${READY}/ready.mp4` }]);
    });
  });

  describe('H.264 with its index at the end (faststart remux)', function () {
    const rel = `${PUBLIC}/camera.mov`;

    it('should answer 503 with Retry-After while the copy is made, then the copy', async function () {
      const first = await get(`/api/web-video?path=${q(rel)}`);
      expect(first.status).to.equal(503);
      expect(first.headers['retry-after']).to.match(/^\d+$/);
      expect(first.body).to.deep.equal({ error: 'The video is being prepared' });
      await waitForCopy(rel);
      const info = await get(`/api/video-info?path=${q(rel)}`).expect(200);
      expect(info.body.webVideo).to.include({ kind: 'faststart', state: 'ready' });
      expect(info.body.webVideo.url).to.match(/^\/api\/web-video\?path=2024%2Fphone%2Fcamera\.mov&v=/);
    });

    it('should serve an MP4 whose index precedes its media data, the video copied and the sound made AAC', async function () {
      const res = await get(`/api/web-video?path=${q(rel)}`)
        .buffer(true)
        .expect(200);
      expect(res.headers['content-type']).to.equal('video/mp4');
      expect(res.headers['cache-control']).to.equal('public, max-age=31536000, immutable');
      expect(res.headers['accept-ranges']).to.equal('bytes');
      expect(await indexPositionOf(copyFile(rel))).to.equal('front');
      expect(await indexPositionOf(fx.path(rel))).to.equal('end');
      expect(await probeStreams(copyFile(rel))).to.deep.include({ codec: 'h264', audio: 'aac', width: 320, height: 240 });
    });

    it('should answer a Range request with 206 and the bytes of the copy', async function () {
      const res = await get(`/api/web-video?path=${q(rel)}`)
        .set('Range', 'bytes=0-99')
        .buffer(true)
        .expect(206);
      const whole = fs.readFileSync(copyFile(rel));
      expect(res.headers['content-range']).to.equal(`bytes 0-99/${whole.length}`);
      expect(Buffer.compare(res.body as Buffer, whole.subarray(0, 100))).to.equal(0);
      // The copy's first atoms: ftyp then moov, read from the answer itself.
      expect((res.body as Buffer).toString('latin1', 4, 8)).to.equal('ftyp');
    });

    it('should offer the remux first and the original as a fallback on the album page', async function () {
      await fx.knownFacts(PUBLIC);
      const res = await get(`/photos/${PUBLIC}`).expect(200);
      const sources = sourcesOn(res.text, 'camera.mov') as { src: string; type?: string }[];
      expect(sources.map((s) => s.src.split('&v=')[0])).to.deep.equal([`/api/web-video?path=${q(rel)}`, `/albums/${rel}`]);
      expect(sources[0]!.type).to.equal('video/mp4');
    });
  });

  describe('HEVC from a phone (H.264 rendition)', function () {
    const rel = `${PUBLIC}/IMG_0001.MOV`;

    it('should make an H.264/AAC rendition, yuv420p, within 1080p', async function () {
      await waitForCopy(rel);
      const facts = await probeStreams(copyFile(rel));
      expect(facts).to.deep.equal({ codec: 'h264', pixelFormat: 'yuv420p', width: 320, height: 240, audio: 'aac' });
      expect(await indexPositionOf(copyFile(rel))).to.equal('front');
      // Written to a temp name and renamed: only the copies and their dot-named records remain.
      expect(fs.readdirSync(path.dirname(copyFile(rel))).filter((n) => !/^(\.[^.].*\.mp4\.json|[^.].*\.mp4)$/.test(n))).to.deep.equal([]);
    });

    it('should serve the rendition with Range support', async function () {
      const whole = fs.readFileSync(copyFile(rel));
      const res = await get(`/api/web-video?path=${q(rel)}`)
        .set('Range', 'bytes=-64')
        .buffer(true)
        .expect(206);
      expect(res.headers['content-range']).to.equal(`bytes ${whole.length - 64}-${whole.length - 1}/${whole.length}`);
      expect(Buffer.compare(res.body as Buffer, whole.subarray(whole.length - 64))).to.equal(0);
    });

    it('should offer the original with its codec first, then the rendition, on the album page and in /api/album-media', async function () {
      const page = await get(`/photos/${PUBLIC}`).expect(200);
      const expected = [
        { src: `/albums/${rel}`, type: 'video/mp4; codecs="hvc1"' },
        { src: `/api/web-video?path=${q(rel)}`, type: 'video/mp4' },
      ];
      const strip = (sources: { src: string; type?: string }[]) => sources.map((s) => ({ ...s, src: s.src.split('&v=')[0] }));
      expect(strip(sourcesOn(page.text, 'IMG_0001.MOV') as { src: string }[])).to.deep.equal(expected);
      const api = await get(`/api/album-media?path=${q(PUBLIC)}`).expect(200);
      const item = (api.body.items as { name: string; sources?: { src: string }[] }[]).find((i) => i.name === 'IMG_0001.MOV');
      expect(strip(item!.sources!)).to.deep.equal(expected);
    });

    it('should make the rendition again when the original changes', async function () {
      const file = fx.path(rel);
      const later = new Date(Date.now() + 5000);
      fs.utimesSync(file, later, later);
      const res = await get(`/api/web-video?path=${q(rel)}`);
      expect(res.status).to.equal(503);
      await waitForCopy(rel);
    });
  });

  describe('an album page viewed', function () {
    it('should start the web copies of its videos in the background, before anyone plays them', async function () {
      const rel = `${BACKGROUND}/IMG_0003.MOV`;
      expect(fs.existsSync(copyFile(rel))).to.equal(false);
      await get(`/photos/${BACKGROUND}`).expect(200);
      await eventually(() => fs.existsSync(copyFile(rel)), 30_000, 'the rendition started by the page view');
      expect((await probeStreams(copyFile(rel))).codec).to.equal('h264');
    });
  });

  describe('a protected album', function () {
    const rel = `${LOCKED}/IMG_0002.MOV`;

    it('should answer 401 for the web copy of a locked album, whether or not the file exists', async function () {
      for (const name of ['IMG_0002.MOV', 'nothing.mov']) {
        const res = await get(`/api/web-video?path=${q(`${LOCKED}/${name}`)}`).expect(401);
        expect(res.body.error).to.be.a('string');
      }
      expect(fs.existsSync(copyFile(rel))).to.equal(false);
    });

    it('should serve it `private` once unlocked', async function () {
      await waitForCopy(rel, { 'X-Album-Token': token });
      const res = await get(`/api/web-video?path=${q(rel)}`)
        .set('X-Album-Token', token)
        .set('Range', 'bytes=0-9')
        .expect(206);
      expect(res.headers['cache-control']).to.equal('private, max-age=31536000, immutable');
      const info = await get(`/api/video-info?path=${q(rel)}`)
        .set('X-Album-Token', token)
        .expect(200);
      expect(info.headers['cache-control']).to.match(/^private/);
      expect(info.body.webVideo).to.include({ kind: 'h264', state: 'ready' });
    });
  });

  describe('parameters', function () {
    it('should answer 400 JSON without a path, or with a `..` segment', async function () {
      expect((await get('/api/web-video').expect(400)).body).to.deep.equal({ error: 'Missing required parameter: path' });
      const res = await get(`/api/web-video?path=${q(`${READY}/../ready/ready.mp4`)}`).expect(400);
      expect(res.body.error).to.be.a('string');
    });

    it('should answer 404 JSON for a file the album does not have', async function () {
      expect((await get(`/api/web-video?path=${q(`${PUBLIC}/nothing.mov`)}`).expect(404)).body).to.deep.equal({ error: 'File not found' });
    });
  });
});
