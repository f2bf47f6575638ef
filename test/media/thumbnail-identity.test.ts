import crypto from 'node:crypto';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import type { Express } from 'express';
import sharp from 'sharp';
import request from 'supertest';
import { AlbumIndex } from '../../server/core/albums/album-index.js';
import { createAdminApp } from '../../server/admin/app.js';
import { accessCookie, eventually, GalleryFixture } from '../support/gallery-fixture.js';
import { captureLogger, quietLogger } from '../support/capture-logger.js';

type Colour = 'red' | 'blue';
const RGB: Record<Colour, string> = { red: '#ff0000', blue: '#0000ff' };

/** A flat-coloured JPEG: what a thumbnail shows is then beyond doubt. */
async function writeColour(file: string, colour: Colour, width = 640, height = 480): Promise<void> {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  await sharp({ create: { width, height, channels: 3, background: RGB[colour] } })
    .jpeg({ quality: 90 })
    .toFile(file);
}

async function colourOf(jpeg: Buffer): Promise<Colour | 'other'> {
  const { channels } = await sharp(jpeg).stats();
  const [r, g, b] = channels.map((c) => c.mean) as [number, number, number];
  if (r > 200 && g < 60 && b < 60) return 'red';
  if (b > 200 && r < 60 && g < 60) return 'blue';
  return 'other';
}

/** Sets both times of `file` to `at` exactly (whole seconds, so every file system keeps them as given). */
function setTimes(file: string, at: Date): void {
  fs.utimesSync(file, at, at);
}

const LONG_AGO = new Date('2019-03-04T05:06:07Z');
const LONGER_AGO = new Date('2015-01-02T03:04:05Z');

describe('thumbnails follow the identity of their original', function () {
  this.timeout(30_000);
  const fx = new GalleryFixture();
  const { logger, lines: logged } = captureLogger();
  let app: ReturnType<typeof request>;
  const thumb = (p: string, size = 'small') => `/api/thumbnail?path=${encodeURIComponent(p)}&size=${size}`;
  const cacheFile = (size: string, rel: string) => `${path.join(fx.cacheDir, 'thumbnails', size, ...rel.split('/'))}.jpg`;

  before(async () => {
    await fx.build({
      '2024/x/public': { meta: { title: 'Public', token: 't-public-0123456789' } },
      '2024/x/family': { meta: { title: 'Family', password: 'pw', token: 't-family-0123456789' } },
    });
    await fx.start({ env: { WORKERS: '1' }, log: logger, backgroundDelayMs: 0 });
    app = request(fx.gallery.handler);
  });
  after(() => fx.close());

  /** The thumbnail as an anonymous visitor gets it (cached ones answered by the front door, before Express). */
  async function anonymousThumbnail(rel: string): Promise<{ colour: Colour | 'other'; etag: string; cacheControl: string }> {
    const res = await app.get(thumb(rel)).expect(200);
    return { colour: await colourOf(res.body as Buffer), etag: res.headers.etag as string, cacheControl: res.headers['cache-control'] as string };
  }

  describe('a replaced photo', () => {
    it('should get a new thumbnail when the new file has an older mtime (cp -p, rsync -a)', async () => {
      const rel = '2024/x/public/older.jpg';
      await writeColour(fx.path(rel), 'red');
      setTimes(fx.path(rel), LONG_AGO);
      await fx.gallery.index.rescan();
      const first = await anonymousThumbnail(rel);
      expect(first.colour).to.equal('red');
      expect((await anonymousThumbnail(rel)).colour, 'served from the cache').to.equal('red');

      // Copied in with its old times kept, by rename as rsync does.
      const incoming = fx.path('2024/x/public/.incoming.jpg');
      await writeColour(incoming, 'blue');
      setTimes(incoming, LONGER_AGO);
      fs.renameSync(incoming, fx.path(rel));

      const second = await anonymousThumbnail(rel);
      expect(second.colour).to.equal('blue');
      expect(second.etag).to.not.equal(first.etag);
      expect((await anonymousThumbnail(rel)).colour, 'and cached again').to.equal('blue');
    });

    it('should get a new thumbnail when the new file has the same mtime but another size', async () => {
      const rel = '2024/x/public/same-mtime.jpg';
      await writeColour(fx.path(rel), 'red');
      setTimes(fx.path(rel), LONG_AGO);
      await fx.gallery.index.rescan();
      const first = await anonymousThumbnail(rel);
      expect(first.colour).to.equal('red');

      // Overwritten in place (same inode), then given the very same mtime.
      await writeColour(fx.path(rel), 'blue', 600, 400);
      setTimes(fx.path(rel), LONG_AGO);
      const second = await anonymousThumbnail(rel);
      expect(second.colour).to.equal('blue');
      expect(second.etag).to.not.equal(first.etag);
    });

    it('should get a new thumbnail when a file of the same size and mtime takes its place', async () => {
      const rel = '2024/x/public/same-size.jpg';
      await writeColour(fx.path(rel), 'red');
      setTimes(fx.path(rel), LONG_AGO);
      await fx.gallery.index.rescan();
      expect((await anonymousThumbnail(rel)).colour).to.equal('red');

      // Same bytes count, same mtime, another file (another inode): only its identity tells.
      const incoming = fx.path('2024/x/public/.incoming.jpg');
      await writeColour(incoming, 'blue', 600, 400);
      const bytes = fs.readFileSync(incoming);
      const redSize = fs.statSync(fx.path(rel)).size;
      // Pad or trim the tail after the JPEG's end marker: decoders stop at EOI.
      const sized = bytes.length <= redSize ? Buffer.concat([bytes, Buffer.alloc(redSize - bytes.length)]) : undefined;
      if (!sized) throw new Error('the blue JPEG came out larger than the red one: adjust the fixture');
      fs.writeFileSync(incoming, sized);
      setTimes(incoming, LONG_AGO);
      fs.renameSync(incoming, fx.path(rel));
      expect(fs.statSync(fx.path(rel)).size).to.equal(redSize);

      expect((await anonymousThumbnail(rel)).colour).to.equal('blue');
    });

    it('should get a new page version (&v=) when the new file has the same mtime but another size', async () => {
      const rel = '2024/x/public/versioned.jpg';
      await writeColour(fx.path(rel), 'red');
      setTimes(fx.path(rel), LONG_AGO);
      await fx.gallery.index.rescan();
      const versionOnPage = async () => {
        const page = await app.get('/photos/2024/x/public').expect(200);
        const match = /versioned\.jpg&amp;size=small&amp;v=([^"&\s]+)/.exec(page.text);
        expect(match, 'a versioned thumbnail URL').to.not.equal(null);
        return match![1];
      };
      const before = await versionOnPage();

      await writeColour(fx.path(rel), 'blue', 600, 400);
      setTimes(fx.path(rel), LONG_AGO);
      await fx.gallery.index.rescan();
      expect(await versionOnPage()).to.not.equal(before);
    });
  });

  describe('an album deleted and made again at the same path', () => {
    let adminIndex: AlbumIndex;
    let admin: Express;
    before(async () => {
      adminIndex = await AlbumIndex.open({ albumsDir: fx.albumsDir, watch: false, log: quietLogger });
      admin = createAdminApp(fx.config, { index: adminIndex, log: quietLogger });
    });
    after(() => adminIndex.close());

    const tokens: string[] = [];

    /** A protected album holding a red IMG_0001.jpg whose thumbnails (all sizes) and page sizes are cached. */
    async function protectedAlbumSeen(albumPath: string): Promise<void> {
      // A token as the gallery makes them: the cookie below also holds those of albums deleted
      // meanwhile, each request counts them as one failed guess, and a hand-written token would
      // stop opening once the test's address is locked out (README "Protection in detail").
      const token = crypto.randomUUID();
      const dir = fx.path(albumPath);
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, 'album.json'), JSON.stringify({ title: 'Secret', password: 'pw', token }));
      await writeColour(path.join(dir, 'IMG_0001.jpg'), 'red');
      await Promise.all([fx.gallery.index.rescan(), adminIndex.rescan()]);
      tokens.push(token);
      const cookie = accessCookie(tokens);
      // Each size is made when asked (the others later, in the background): ask for all of them.
      for (const size of ['small', 'medium', 'large']) {
        const res = await app
          .get(thumb(`${albumPath}/IMG_0001.jpg`, size))
          .set('Cookie', cookie)
          .expect(200);
        expect(await colourOf(res.body as Buffer)).to.equal('red');
      }
      await app.get(`/photos/${albumPath}`).set('Cookie', cookie).expect(200);
      await eventually(() => fs.existsSync(path.join(fx.cacheDir, 'dimensions', ...albumPath.split('/'), '.dimensions.json')), 5000, 'the page sizes cached');
      for (const size of ['small', 'medium', 'large']) expect(fs.existsSync(cacheFile(size, `${albumPath}/IMG_0001.jpg`)), size).to.equal(true);
    }

    /** A public album at the same path whose IMG_0001.jpg is blue and older than the deleted red one. */
    async function publicAlbumAt(albumPath: string): Promise<void> {
      const dir = fx.path(albumPath);
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, 'album.json'), JSON.stringify({ title: 'Open to all' }));
      await writeColour(path.join(dir, 'IMG_0001.jpg'), 'blue');
      setTimes(path.join(dir, 'IMG_0001.jpg'), LONGER_AGO);
      await Promise.all([fx.gallery.index.rescan(), adminIndex.rescan()]);
    }

    it('should show the new public photo, not the deleted protected one, after an admin delete', async () => {
      const albumPath = '2024/family/party';
      await protectedAlbumSeen(albumPath);
      await request(admin).delete(`/api/albums/${albumPath}`).expect(200);
      await publicAlbumAt(albumPath);
      const shown = await anonymousThumbnail(`${albumPath}/IMG_0001.jpg`);
      expect(shown.colour).to.equal('blue');
      expect(shown.cacheControl).to.equal('public, max-age=31536000, immutable');
    });

    it('should show the new public photo after the album was removed by hand', async () => {
      const albumPath = '2024/family/picnic';
      await protectedAlbumSeen(albumPath);
      fs.rmSync(fx.path(albumPath), { recursive: true });
      await publicAlbumAt(albumPath);
      expect((await anonymousThumbnail(`${albumPath}/IMG_0001.jpg`)).colour).to.equal('blue');
      const large = await app.get(thumb(`${albumPath}/IMG_0001.jpg`, 'large')).expect(200);
      expect(await colourOf(large.body as Buffer)).to.equal('blue');
    });

    it("should clear the album's cached thumbnails (every size, child albums too) and page sizes when the admin deletes it", async () => {
      const albumPath = '2024/family/wedding';
      await protectedAlbumSeen(albumPath);
      await protectedAlbumSeen(`${albumPath}/party`);
      await protectedAlbumSeen('2024/family/wedding-eve');
      await request(admin).delete(`/api/albums/${albumPath}`).expect(200);
      for (const size of ['small', 'medium', 'large']) {
        expect(fs.existsSync(path.join(fx.cacheDir, 'thumbnails', size, ...albumPath.split('/'))), size).to.equal(false);
        expect(fs.existsSync(cacheFile(size, '2024/family/wedding-eve/IMG_0001.jpg')), `a sibling's ${size}`).to.equal(true);
      }
      expect(fs.existsSync(path.join(fx.cacheDir, 'dimensions', ...albumPath.split('/')))).to.equal(false);
      expect(fs.existsSync(path.join(fx.cacheDir, 'dimensions', '2024', 'family', 'wedding-eve', '.dimensions.json'))).to.equal(true);
    });
  });

  describe('a photo deleted while its thumbnail is being made', () => {
    it('should answer 404 JSON, not 500, and log no error', async () => {
      const rel = '2024/x/public/vanishing.jpg';
      await writeColour(fx.path(rel), 'red');
      await fx.gallery.index.rescan();
      const { pool } = fx.gallery;

      // The only worker waits on a FIFO nobody writes to yet, so the thumbnail task queues
      // behind it: the photo is deleted after the server has looked at it and before any
      // worker reads it.
      // Background work of the earlier tests (the sizes nobody asked for) done first.
      await eventually(() => pool.inFlight('main') === 0, 10_000, 'the pool to be idle');
      const fifo = path.join(fx.root, 'blocker.fifo');
      execFileSync('mkfifo', [fifo]);
      // A video task: its ffprobe opens the FIFO (image tasks refuse anything but a regular file).
      const blocker = pool.videoInfo({ src: fifo }).catch(() => undefined);
      const release = () => {
        // This open waits for ffprobe to open the read end, then neither blocks; the FIFO's
        // path is gone before anything is written, so nothing can open it again.
        const writer = fs.openSync(fifo, 'w');
        fs.rmSync(fifo);
        fs.writeSync(writer, Buffer.from('not a photo'));
        fs.closeSync(writer);
        return blocker;
      };
      try {
        await eventually(() => pool.tasksRun > 0 && pool.queueSize === 0 && pool.inFlight('main') === 1, 5000, 'the worker to take the blocking task');
        logged.length = 0;
        const pending = app.get(thumb(rel)).then((res) => res);
        await eventually(() => pool.queueSize > 0, 5000, 'the thumbnail task to be queued');
        expect(pool.queueSize, 'the thumbnail task waits for the busy worker').to.equal(1);
        fs.rmSync(fx.path(rel));
        await release();

        const res = await pending;
        expect(res.status).to.equal(404);
        expect(res.headers['content-type']).to.match(/application\/json/);
        expect(res.body).to.have.property('error').that.is.a('string');
        expect(logged.filter((line) => line.level === 'error' && JSON.stringify(line).includes('vanishing'))).to.deep.equal([]);
      } finally {
        if (fs.existsSync(fifo)) await release();
      }
    });
  });
});
