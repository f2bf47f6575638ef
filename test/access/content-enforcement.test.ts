import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { expect } from 'chai';
import request from 'supertest';
import { accessCookie, GalleryFixture } from '../support/gallery-fixture.js';

const ffmpegPath = (createRequire(import.meta.url)('@ffmpeg-installer/ffmpeg') as { path: string }).path;

/** Every route that reveals album content must enforce access, not only the page. */
describe('access enforcement on content routes', () => {
  const fx = new GalleryFixture();
  let app: ReturnType<typeof request>;

  before(async function () {
    this.timeout(60_000);
    await fx.build({
      '2024/x/public': { meta: { title: 'Public', token: 't-public' }, files: ['pub.jpg'] },
      '2024/x/locked': { meta: { title: 'Locked', password: 'pw', token: 't-locked' }, files: ['secret.jpg'] },
      '2024/x/locked/child': { meta: { title: 'Child', token: 't-child' }, files: ['kid.jpg'] },
      '2024/x/shared': { meta: { title: 'Shared', password: 'pw2', allowAnonymous: true, token: 'share-me' }, files: ['s.jpg'] },
    });
    execFileSync(ffmpegPath, [
      '-v',
      'error',
      '-f',
      'lavfi',
      '-i',
      'testsrc=size=160x120:rate=10:duration=1',
      '-pix_fmt',
      'yuv420p',
      '-c:v',
      'libx264',
      fx.path('2024/x/locked/clip.mp4'),
    ]);
    await fx.start();
    app = request(fx.gallery.handler);
  });
  after(() => fx.close());

  const routes = [
    ['thumbnail', (p: string) => `/api/thumbnail?path=${encodeURIComponent(p)}&size=small`, 'secret.jpg'],
    ['EXIF', (p: string) => `/api/exif?path=${encodeURIComponent(p)}`, 'secret.jpg'],
    ['video info', (p: string) => `/api/video-info?path=${encodeURIComponent(p)}`, 'clip.mp4'],
    ['original', (p: string) => `/albums/${p}`, 'secret.jpg'],
  ] as const;

  for (const [name, url, file] of routes) {
    describe(name, () => {
      it('should answer 401 JSON without access, for existing and guessed files alike', async () => {
        const real = await app
          .get(url(`2024/x/locked/${file}`))
          .expect(401)
          .expect('Content-Type', /json/);
        const guessed = await app.get(url(`2024/x/locked/guess-${file}`)).expect(401);
        expect(real.body).to.deep.equal(guessed.body);
        expect(real.body.error).to.be.a('string');
      });

      if (file !== 'clip.mp4') {
        it('should answer 401 for a passwordless child of the locked album', async () => {
          await app.get(url('2024/x/locked/child/kid.jpg')).expect(401);
        });
      }

      it('should answer 200 and private with the cookie', async () => {
        const res = await app
          .get(url(`2024/x/locked/${file}`))
          .set('Cookie', accessCookie(['t-locked']))
          .expect(200);
        expect(res.headers['cache-control'])
          .to.match(/^private/)
          .and.not.match(/public/);
      });

      it('should answer 400 for a traversal attempt', async () => {
        await app.get(url('2024/x/../x/locked/secret.jpg')).expect(400);
      });
    });
  }

  it('should serve public thumbnails as public and immutable', async () => {
    const res = await app.get('/api/thumbnail?path=2024%2Fx%2Fpublic%2Fpub.jpg&size=small').expect(200).expect('Content-Type', 'image/jpeg');
    expect(res.headers['cache-control']).to.equal('public, max-age=31536000, immutable');
  });

  it('should open EXIF and thumbnails of a shared album with its URL token', async () => {
    await app.get('/api/exif?path=2024%2Fx%2Fshared%2Fs.jpg').expect(401);
    await app.get('/api/exif?path=2024%2Fx%2Fshared%2Fs.jpg&token=share-me').expect(200);
    await app.get('/api/thumbnail?path=2024%2Fx%2Fshared%2Fs.jpg&size=small&token=share-me').expect(200);
  });

  describe('download', () => {
    const zipUrl = (p: string) => `/api/download-album?path=${encodeURIComponent(p)}`;

    it('should answer 401 JSON without a token', async () => {
      const res = await app.get(zipUrl('2024/x/locked')).expect(401).expect('Content-Type', /json/);
      expect(res.body.error).to.be.a('string');
      await app.get(zipUrl('2024/x/locked/child')).expect(401);
      await app.get(zipUrl('2024/x/locked')).set('X-Album-Token', 'wrong').expect(401);
    });

    it('should answer 200 with the header token, the cookie, or an allowed URL token', async () => {
      await app.get(zipUrl('2024/x/locked')).set('X-Album-Token', 't-locked').expect(200).expect('Content-Type', 'application/zip');
      const viaCookie = await app
        .get(zipUrl('2024/x/locked/child'))
        .set('Cookie', accessCookie(['t-locked']))
        .expect(200);
      expect(viaCookie.headers['content-disposition']).to.include('filename="child.zip"');
      await app.get(`${zipUrl('2024/x/shared')}&token=share-me`).expect(200);
      await app.get(`${zipUrl('2024/x/locked')}&token=t-locked`).expect(401);
    });

    it('should answer 404 for an unknown album and 400 for a bad path', async () => {
      await app.get(zipUrl('2024/x/nope')).expect(404).expect('Content-Type', /json/);
      await app.get(zipUrl('../etc')).expect(400);
      await app.get('/api/download-album').expect(400);
    });
  });
});
