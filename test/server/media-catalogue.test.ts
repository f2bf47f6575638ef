import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect } from 'chai';
import request from 'supertest';
import { albumCacheStats, cacheStats, clearAlbumCache, removeAlbumTreeCache } from '../../server/admin/cache-usage.js';
import {
  LIGHTBOX_THUMBNAIL,
  MEDIA_EXTENSIONS,
  THUMBNAIL_SIZE_NAMES,
  THUMBNAIL_SIZES,
  TILE_THUMBNAIL,
  WEB_IMAGE_EXTENSIONS,
  contentTypeOf,
  dimensionsFile,
  isWebImage,
  mediaKind,
  thumbnailFile,
  fullSizeFile,
  webVideoFile,
} from '../../server/core/media-catalogue.js';
import { VIEWS_DIR } from '../../server/core/root-dir.js';
import { createThumbnailCache } from '../../server/media/thumbnails.js';
import { DimensionsCache } from '../../server/media/dimensions.js';
import { formatDuration } from '../../server/public/pages/media-items.js';
import { thumbnailSrcset } from '../../server/core/urls.js';
import { createAdminFixture } from '../admin/support/admin-fixture.js';
import { GalleryFixture } from '../support/gallery-fixture.js';
import { makeTempDir, removeTempDir } from '../support/temp-dir.js';
import { quietLogger } from '../support/capture-logger.js';

const unescapeHtml = (s: string) => s.replace(/&#34;|&quot;/g, '"').replace(/&amp;/g, '&');

/** Every consumer of a fact the media catalogue holds must say what the catalogue says. */
describe('media catalogue and its consumers', () => {
  describe('thumbnail presets', () => {
    it('should be ordered smallest first, with the tile and lightbox sizes among them', () => {
      const widths = THUMBNAIL_SIZE_NAMES.map((s) => THUMBNAIL_SIZES[s]);
      expect(widths).to.deep.equal([...widths].sort((a, b) => a - b));
      expect(THUMBNAIL_SIZE_NAMES).to.include.members([TILE_THUMBNAIL, LIGHTBOX_THUMBNAIL]);
    });

    it('should give the page srcset every size, in order, by its width', () => {
      const srcset = thumbnailSrcset('2024/trip/a.jpg', undefined);
      const candidates = srcset.split(', ').map((c) => c.split(' '));
      expect(candidates.map(([url]) => new URL(url!, 'http://x').searchParams.get('size'))).to.deep.equal([...THUMBNAIL_SIZE_NAMES]);
      expect(candidates.map(([, w]) => w)).to.deep.equal(THUMBNAIL_SIZE_NAMES.map((s) => `${THUMBNAIL_SIZES[s]}w`));
    });

    it('should give the lightbox the width of the size it shows, on the album page', async () => {
      const fx = new GalleryFixture();
      try {
        await fx.build({ '2024/trip': { meta: { title: 'Trip' }, files: ['a.jpg'] } });
        await fx.start();
        const res = await request(fx.gallery.handler).get('/photos/2024/trip').expect(200);
        expect(res.text).to.include(`data-lightbox-width="${THUMBNAIL_SIZES[LIGHTBOX_THUMBNAIL]}"`);
        expect(res.text).to.include(`size=${LIGHTBOX_THUMBNAIL}`);
      } finally {
        await fx.close();
      }
      // The lightbox and its top bar (which offers the original past that width).
      const viewer = ['lightbox.js', 'viewer-toolbar.js'].map((file) => fs.readFileSync(path.join(VIEWS_DIR, 'assets', file), 'utf8')).join('\n');
      expect(viewer).to.include('dataset.lightboxWidth');
      expect(viewer).not.to.include(String(THUMBNAIL_SIZES[LIGHTBOX_THUMBNAIL]));
    });
  });

  describe('cache layout', () => {
    let cacheDir: string;
    beforeEach(() => {
      cacheDir = makeTempDir('gallery-catalogue-');
    });
    afterEach(() => removeTempDir(cacheDir));

    const put = (file: string, bytes = 10) => {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, Buffer.alloc(bytes));
    };

    it('should put the thumbnail cache files where the catalogue says', () => {
      const cache = createThumbnailCache({ cacheDir, pool: { submit: () => expect.fail('not used') } });
      for (const size of THUMBNAIL_SIZE_NAMES) {
        expect(cache.pathOf('2024/trip/a.jpg', size)).to.equal(path.join(cacheDir, 'thumbnails', size, '2024', 'trip', 'a.jpg.jpg'));
        expect(cache.pathOf('2024/trip/a.jpg', size)).to.equal(thumbnailFile(cacheDir, size, '2024/trip/a.jpg'));
        expect(cache.pathOf('2024/trip/a.jpg', size, 'webp')).to.equal(path.join(cacheDir, 'thumbnails', size, '2024', 'trip', 'a.jpg.webp'));
        expect(cache.pathOf('2024/trip/a.jpg', size, 'webp')).to.equal(thumbnailFile(cacheDir, size, '2024/trip/a.jpg', 'webp'));
      }
    });

    it('should put the page sizes where the catalogue says', () => {
      const dims = new DimensionsCache({
        locate: async () => undefined,
        cacheDir,
        reader: { dimensions: async () => ({ width: 1, height: 1 }), videoInfo: async () => ({ width: 1, height: 1, duration: 1 }) },
        log: quietLogger,
      });
      expect(dims.fileOf('2024/trip')).to.equal(dimensionsFile(cacheDir, '2024/trip'));
      expect(dimensionsFile(cacheDir, '2024/trip')).to.equal(path.join(cacheDir, 'dimensions', '2024', 'trip', '.dimensions.json'));
    });

    it('should count, clear and remove the admin cache statistics by every size the catalogue lists', async () => {
      THUMBNAIL_SIZE_NAMES.forEach((size, i) => {
        put(thumbnailFile(cacheDir, size, '2024/trip/a.jpg'), 100 * (i + 1));
        put(thumbnailFile(cacheDir, size, '2024/trip/child/b.jpg'));
      });
      put(dimensionsFile(cacheDir, '2024/trip'));

      const all = await cacheStats(cacheDir);
      expect(Object.keys(all.sizes)).to.deep.equal([...THUMBNAIL_SIZE_NAMES]);
      expect(all.files).to.equal(2 * THUMBNAIL_SIZE_NAMES.length);
      const own = await albumCacheStats(cacheDir, '2024/trip');
      THUMBNAIL_SIZE_NAMES.forEach((size, i) => {
        expect(own.sizes[size]).to.deep.equal({ files: 1, bytes: 100 * (i + 1) });
      });

      await clearAlbumCache(cacheDir, '2024/trip');
      for (const size of THUMBNAIL_SIZE_NAMES) {
        expect(fs.existsSync(thumbnailFile(cacheDir, size, '2024/trip/a.jpg'))).to.equal(false);
        expect(fs.existsSync(thumbnailFile(cacheDir, size, '2024/trip/child/b.jpg'))).to.equal(true);
      }
      put(webVideoFile(cacheDir, '2024/trip/child/clip.mov'));
      put(fullSizeFile(cacheDir, '2024/trip/child/IMG_1.HEIC'));
      expect((await cacheStats(cacheDir)).webVideo.files).to.equal(1);
      expect((await cacheStats(cacheDir)).fullSize.files).to.equal(1);
      await removeAlbumTreeCache(cacheDir, '2024/trip');
      expect((await cacheStats(cacheDir)).files).to.equal(0);
      expect((await cacheStats(cacheDir)).webVideo.files).to.equal(0);
      expect((await cacheStats(cacheDir)).fullSize.files).to.equal(0);
      expect(fs.existsSync(dimensionsFile(cacheDir, '2024/trip'))).to.equal(false);
    });
  });

  describe('extensions', () => {
    it('should know each extension, in any case, with its kind and content type', () => {
      for (const kind of ['image', 'video'] as const) {
        for (const ext of MEDIA_EXTENSIONS[kind]) {
          expect(mediaKind(`x${ext.toUpperCase()}`)).to.equal(kind);
          expect(contentTypeOf(`x${ext}`)).to.match(new RegExp(`^${kind}/`));
        }
      }
      expect(mediaKind('notes.txt')).to.equal(undefined);
      expect(mediaKind('.jpg')).to.equal(undefined); // a hidden file, not a photo
      expect(WEB_IMAGE_EXTENSIONS.every((ext) => MEDIA_EXTENSIONS.image.includes(ext) && isWebImage(`x${ext}`))).to.equal(true);
    });

    it('should give the admin page the catalogue lists, and no browser script a list of its own', async () => {
      const fx = await createAdminFixture();
      try {
        const res = await request(fx.app).get('/').expect(200);
        const attr = /data-media-extensions="([^"]*)"/.exec(res.text)?.[1];
        expect(JSON.parse(unescapeHtml(attr ?? '{}'))).to.deep.equal({ ...MEDIA_EXTENSIONS, web: WEB_IMAGE_EXTENSIONS });
      } finally {
        fx.close();
      }
      const scripts = ['admin/upload.js', 'admin/assets.js', 'lightbox.js', 'viewer-toolbar.js', 'video-slides.js', 'album.js', 'album-items.js'];
      for (const script of scripts) {
        const text = fs.readFileSync(path.join(VIEWS_DIR, 'assets', script), 'utf8');
        for (const ext of [...MEDIA_EXTENSIONS.image, ...MEDIA_EXTENSIONS.video]) expect(text, script).not.to.match(new RegExp(`[\\s'"\`|(,]\\${ext}\\b`, 'i'));
        expect(text, script).not.to.match(/jpe\?g/i);
      }
    });
  });

  describe("a video's length", () => {
    it('should read the same on its tile (server) and in its details panel (browser)', async () => {
      // A path, not a literal: the browser module has no type declarations for tsc.
      const modulePath: string = pathToFileURL(path.join(VIEWS_DIR, 'assets', 'exif-format.js')).href;
      const browser = (await import(modulePath)) as { duration: (seconds: unknown) => string | null };
      const cases: unknown[] = [0, 0.2, 0.5, 1, 7.4, 59.6, 65, 90.5, 3599.4, 3600, 3723, 86_400, -1, null, undefined, NaN, Infinity, '12'];
      for (const seconds of cases) {
        const server = formatDuration(typeof seconds === 'number' || seconds == null ? seconds : undefined);
        expect(browser.duration(seconds), String(seconds)).to.equal(typeof seconds === 'number' || seconds == null ? server : null);
      }
      expect(formatDuration(0.2)).to.equal('0:01');
      expect(formatDuration(3723)).to.equal('1:02:03');
    });
  });
});
