import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import sharp from 'sharp';
import request from 'supertest';
import { accessCookie, eventually, GalleryFixture } from '../support/gallery-fixture.js';

/** The <meta> tags of a page whose name or property starts with `og:`/`twitter:`, plus its description. */
function previewTags(html: string): Record<string, string> {
  const tags: Record<string, string> = {};
  for (const m of html.matchAll(/<meta (?:name|property)="((?:og|twitter):[\w:]+|description)" content="([^"]*)">/g)) tags[m[1]!] = m[2]!;
  return tags;
}

const PUBLIC_URL = 'https://photos.example.com';

describe('site identity on the public pages', () => {
  describe('without site.json', () => {
    const fx = new GalleryFixture();
    let app: ReturnType<typeof request>;
    before(async () => {
      await fx.build({ '2024/travel/lisbon': { meta: { title: 'Lisbon' }, files: ['a.jpg', 'b.jpg'] } });
      await fx.start();
      app = request(fx.gallery.handler);
    });
    after(() => fx.close());

    it('should show the default name, a real favicon, the manifest and theme colours on every page', async () => {
      for (const [url, title] of [
        ['/', 'Gallery'],
        ['/home', 'Home · Gallery'],
        ['/photos', 'Photos · Gallery'],
        ['/photos/2024', '2024 · Gallery'],
        ['/photos/2024/travel/lisbon', 'Lisbon · Gallery'],
        ['/nowhere', 'Not found · Gallery'],
      ] as const) {
        const res = await app.get(url);
        expect(res.text, url).to.include(`<title>${title}</title>`);
        expect(res.text, url).to.match(/<a class="brand" href="\/">.*<span class="brand__name">Gallery<\/span><\/a>/);
        expect(res.text, url).to.not.include('data:,');
        expect(res.text, url).to.match(/<link rel="icon" href="\/favicon\.svg\?v=[0-9a-f]{10}" type="image\/svg\+xml">/);
        expect(res.text, url).to.match(/<link rel="manifest" href="\/manifest\.webmanifest\?v=[0-9a-f]{10}">/);
        expect(res.text, url).to.match(/<link rel="apple-touch-icon" href="\/icons\/icon-180\.png\?v=[0-9a-f]{10}">/);
        expect(res.text, url).to.include('<meta name="theme-color" media="(prefers-color-scheme: dark)" content="#0e0f11">');
      }
    });

    it('should give previews without an address: no og:url, no og:image', async () => {
      const tags = previewTags((await app.get('/photos/2024/travel/lisbon').expect(200)).text);
      expect(tags['og:title']).to.equal('Lisbon');
      expect(tags).to.not.have.property('og:url');
      expect(tags).to.not.have.property('og:image');
      expect(tags['twitter:card']).to.equal('summary');
    });
  });

  describe('with site.json', () => {
    const fx = new GalleryFixture();
    let app: ReturnType<typeof request>;
    before(async function () {
      this.timeout(30_000);
      await fx.build({
        '2024/travel/lisbon': { meta: { title: 'Lisbon in October', allowAnonymous: false }, files: ['a.jpg', 'b.jpg'] },
        '2024/family/secret': { meta: { title: 'Grandma Birthday', password: 'pw', allowAnonymous: true }, files: ['cake.jpg'] },
        '2024/family/secret/kids': { meta: { title: 'Kids Table' }, files: ['kid.jpg'] },
        '2024/family/secret/more/deep': { meta: { title: 'Deep Inside' }, files: ['deep.jpg'] },
      });
      fs.writeFileSync(
        path.join(fx.contentDir, 'site.json'),
        JSON.stringify({ name: 'Silva & Sons', subtitle: 'Our family since 1998', accent: '#2A6F97', publicUrl: `${PUBLIC_URL}/` }),
      );
      await fx.start();
      app = request(fx.gallery.handler);
    });
    after(() => fx.close());

    it('should put the name in the header and the title, and the subtitle on the landing page', async () => {
      const landing = (await app.get('/').expect(200)).text;
      expect(landing).to.include('<title>Silva &amp; Sons</title>').and.include('<span class="brand__name">Silva &amp; Sons</span>');
      expect(landing).to.include('<p class="lead">Our family since 1998</p>');
      expect(landing).to.not.include('Photos and videos, kept private.');
      expect((await app.get('/photos').expect(200)).text).to.include('<title>Photos · Silva &amp; Sons</title>');
      expect((await app.get('/photos/2024/travel/lisbon').expect(200)).text).to.include('<title>Lisbon in October · Silva &amp; Sons</title>');
    });

    it('should serve the accent as a stylesheet, versioned and cached for a year', async () => {
      const page = (await app.get('/photos').expect(200)).text;
      const href = /<link rel="stylesheet" href="(\/site-theme\.css\?v=[0-9a-f]+)">/.exec(page)?.[1];
      expect(href).to.be.a('string');
      const css = await app
        .get(href!)
        .expect(200)
        .expect('Content-Type', /text\/css/);
      expect(css.text).to.include('--accent: #2a6f97;').and.include('--accent-ink: #ffffff;');
      expect(css.headers['cache-control']).to.equal('public, max-age=31536000, immutable');
      const unversioned = await app.get('/site-theme.css').expect(200);
      expect(unversioned.headers['cache-control']).to.equal('no-cache');
      await app.get('/site-theme.css').set('If-None-Match', unversioned.headers.etag!).expect(304);
    });

    it('should draw the favicon from the first letter and the accent', async () => {
      const res = await app
        .get('/favicon.svg')
        .expect(200)
        .expect('Content-Type', /image\/svg\+xml/);
      const svg = res.text || res.body.toString();
      expect(svg)
        .to.include('fill="#2a6f97"')
        .and.match(/>S<\/text>/);
      const png = await sharp(Buffer.from(svg)).png().toBuffer();
      expect((await sharp(png).metadata()).width).to.equal(64);
    });

    it('should serve a web app manifest with the name, colours and icons', async () => {
      const page = (await app.get('/photos').expect(200)).text;
      const href = /<link rel="manifest" href="([^"]+)">/.exec(page)![1]!;
      const res = await app
        .get(href)
        .expect(200)
        .expect('Content-Type', /application\/manifest\+json/);
      const manifest = JSON.parse(res.text) as Record<string, unknown> & { icons: { src: string; sizes: string; type: string; purpose?: string }[] };
      expect(manifest).to.deep.include({
        name: 'Silva & Sons',
        short_name: 'Silva & Sons',
        description: 'Our family since 1998',
        start_url: '/photos',
        scope: '/',
        display: 'standalone',
        background_color: '#0e0f11',
        theme_color: '#0e0f11',
      });
      expect(manifest.icons.map((i) => `${i.sizes} ${i.type} ${i.purpose ?? 'any'}`)).to.deep.equal([
        'any image/svg+xml any',
        '192x192 image/png any',
        '512x512 image/png any',
        '512x512 image/png maskable',
      ]);
      for (const icon of manifest.icons.filter((i) => i.type === 'image/png')) {
        const png = await app.get(icon.src).buffer(true).expect(200).expect('Content-Type', 'image/png');
        expect(png.headers['cache-control']).to.equal('public, max-age=31536000, immutable');
        const meta = await sharp(png.body as Buffer).metadata();
        expect(`${meta.width}x${meta.height}`).to.equal(icon.sizes);
        // A full square in the accent colour (a phone cuts its own shape).
        const { dominant } = await sharp(png.body as Buffer).stats();
        expect(dominant).to.deep.equal({ r: 40, g: 104, b: 152 });
      }
    });

    it('should make each icon once and then serve it from the cache', async () => {
      await app.get('/icons/icon-180.png').expect(200);
      const files = fs.readdirSync(path.join(fx.cacheDir, 'site-icons'));
      expect(files.filter((f) => f.endsWith('-180.png'))).to.have.length(1);
      const before = fx.gallery.pool.tasksRun;
      await Promise.all([app.get('/icons/icon-180.png').expect(200), app.get('/icons/icon-180.png').expect(200)]);
      expect(fx.gallery.pool.tasksRun).to.equal(before);
      await app.get('/icons/icon-64.png').expect(404);
      await app.get('/icons/..%2Fsite-icons.png').expect(404);
    });

    it('should give a public album a preview: its title, counts, address and cover thumbnail', async () => {
      const html = (await app.get('/photos/2024/travel/lisbon').expect(200)).text;
      const tags = previewTags(html);
      expect(tags).to.deep.include({
        'og:site_name': 'Silva &amp; Sons',
        'og:title': 'Lisbon in October',
        'og:description': '2 photos',
        'og:url': `${PUBLIC_URL}/photos/2024/travel/lisbon`,
        'twitter:card': 'summary_large_image',
        'twitter:title': 'Lisbon in October',
      });
      const image = tags['og:image']!.replaceAll('&amp;', '&');
      expect(image.startsWith(`${PUBLIC_URL}/api/thumbnail?path=2024%2Ftravel%2Flisbon%2Fa.jpg&size=medium&v=`), image).to.equal(true);
      expect(tags['twitter:image']).to.equal(tags['og:image']);
      const thumb = await app.get(image.slice(PUBLIC_URL.length)).expect(200).expect('Content-Type', 'image/jpeg');
      expect(thumb.headers['cache-control']).to.match(/^public/);
    });

    it('should give /photos and a public folder a preview of their own', async () => {
      expect(previewTags((await app.get('/photos').expect(200)).text)).to.deep.include({ 'og:title': 'Photos', 'og:url': `${PUBLIC_URL}/photos` });
      const folder = previewTags((await app.get('/photos/2024/travel').expect(200)).text);
      expect(folder).to.deep.include({ 'og:title': 'Travel', 'og:description': '1 album', 'og:url': `${PUBLIC_URL}/photos/2024/travel` });
      expect(folder['og:image']).to.include('/api/thumbnail?path=2024%2Ftravel%2Flisbon%2Fa.jpg');
    });

    describe('for a protected album', () => {
      const secretWords = ['Grandma', 'Birthday', 'Kids Table', 'Deep Inside', 'cake.jpg', 'kid.jpg', 'deep.jpg', '/api/thumbnail', '2024/family/secret'];

      /** A preview says nothing of the album: the site's name, a neutral sentence, the site's icon at most. */
      function expectNeutral(html: string, what: string) {
        const tags = previewTags(html);
        expect(tags['og:title'], what).to.equal('Silva &amp; Sons');
        expect(tags['twitter:title'], what).to.equal('Silva &amp; Sons');
        expect(tags['og:description'], what).to.equal('A private album. Open the link to see it.');
        expect(tags, what).to.not.have.property('og:url');
        expect(tags['og:image'] ?? '', what).to.match(/^(https:\/\/photos\.example\.com\/icons\/icon-512\.png\?v=[0-9a-f]+)?$/);
        expect(tags['twitter:card'], what).to.equal('summary');
        for (const word of secretWords) expect(JSON.stringify(tags), `${what}: ${word}`).to.not.include(word);
      }

      it('should give the password form a neutral preview', async () => {
        expectNeutral((await app.get('/photos/2024/family/secret').expect(200)).text, 'locked album');
        expectNeutral((await app.get('/photos/2024/family/secret/kids').expect(200)).text, 'locked child');
        expectNeutral((await app.get('/photos/2024/family/secret/more').expect(200)).text, 'locked folder inside');
      });

      it('should give the reload page of a cross-site visit a neutral preview', async () => {
        const html = (await app.get('/photos/2024/family/secret').set('Sec-Fetch-Site', 'cross-site').expect(200)).text;
        expect(html).to.include('http-equiv="refresh"');
        expectNeutral(html, 'reload page');
      });

      it('should keep the preview neutral for whoever opens it: a share link (what a messenger fetches) or the cookie', async () => {
        const token = fx.token('2024/family/secret');
        const shared = (await app.get(`/photos/2024/family/secret?token=${encodeURIComponent(token)}`).expect(200)).text;
        expect(shared).to.include('cake.jpg');
        expectNeutral(shared, 'share link');
        const unlocked = (
          await app
            .get('/photos/2024/family/secret/kids')
            .set('Cookie', accessCookie([token]))
            .expect(200)
        ).text;
        expect(unlocked).to.include('kid.jpg');
        expectNeutral(unlocked, 'unlocked child');
        const folder = (
          await app
            .get('/photos/2024/family/secret/more')
            .set('Cookie', accessCookie([token]))
            .expect(200)
        ).text;
        expect(folder).to.include('Deep Inside');
        expectNeutral(folder, 'unlocked folder');
      });
    });

    describe('after a change', () => {
      it('should show a change of site.json once the content is reloaded', async () => {
        fs.writeFileSync(path.join(fx.contentDir, 'site.json'), JSON.stringify({ name: 'Renamed', accent: '#123456' }));
        await fx.gallery.home.load();
        const html = (await app.get('/photos/2024/travel/lisbon').expect(200)).text;
        expect(html).to.include('<title>Lisbon in October · Renamed</title>').and.include('<span class="brand__mark" aria-hidden="true">R</span>');
        expect(previewTags(html)).to.not.have.property('og:url');
        expect((await app.get('/favicon.svg').expect(200)).body.toString())
          .to.include('fill="#123456"')
          .and.include('>R</text>');
        expect((await app.get('/').expect(200)).text).to.include('<p class="lead">Photos and videos, kept private.</p>');
      });
    });
  });
});

describe('the first letter of the site name', () => {
  const fx = new GalleryFixture();
  after(() => fx.close());

  it('should be escaped in the favicon and taken whole (an accented letter, a flag)', async () => {
    await fx.build({ a: { meta: { title: 'A' }, files: ['a.jpg'] } });
    fs.writeFileSync(path.join(fx.contentDir, 'site.json'), JSON.stringify({ name: '<script>' }));
    await fx.start();
    const app = request(fx.gallery.handler);
    const svg = (await app.get('/favicon.svg').expect(200)).body.toString();
    expect(svg).to.include('>&#60;</text>').and.not.include('<script');
    expect((await app.get('/photos').expect(200)).text)
      .to.include('&lt;script&gt;')
      .and.not.include('<script>');
    fs.writeFileSync(path.join(fx.contentDir, 'site.json'), JSON.stringify({ name: 'élan' }));
    await fx.gallery.home.load();
    expect((await app.get('/favicon.svg').expect(200)).body.toString()).to.include('>É</text>');
  });
});

describe('album card covers', () => {
  const fx = new GalleryFixture();
  after(() => fx.close());

  /** A photo of a flat wall with one bright, detailed subject at (cx, cy), in fractions of the frame. */
  async function subjectPhoto(file: string, width: number, height: number, cx: number, cy: number): Promise<void> {
    const r = Math.min(width, height) * 0.14;
    const svg =
      `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="#7d7d7d"/>` +
      `<circle cx="${cx * width}" cy="${cy * height}" r="${r}" fill="#e0a080"/><circle cx="${cx * width - r / 3}" cy="${cy * height - r / 5}" r="${r / 8}" fill="#222"/>` +
      `<circle cx="${cx * width + r / 3}" cy="${cy * height - r / 5}" r="${r / 8}" fill="#222"/><rect x="${cx * width - r / 2}" y="${cy * height + r / 3}" width="${r}" height="${r / 8}" fill="#a02020"/></svg>`;
    fs.mkdirSync(path.dirname(file), { recursive: true });
    await sharp(Buffer.from(svg)).jpeg({ quality: 85 }).toFile(file);
  }

  const coverClass = (html: string, name: string) => new RegExp(`<img class="(focus-x-\\d+ focus-y-\\d+)" src="[^"]*${name}`).exec(html)?.[1];

  it('should crop each cover where sharp finds the subject, never holding a page for it, and remember it across restarts', async function () {
    this.timeout(60_000);
    await fx.build({
      'people/portrait': { meta: { title: 'Portrait' } },
      'places/wide': { meta: { title: 'Wide' } },
      'places/plain': { meta: { title: 'Plain' }, files: ['plain.jpg'] },
    });
    // A portrait with the face near the top: a centre crop would show the wall below it.
    await subjectPhoto(fx.path('people/portrait/face.jpg'), 800, 1200, 0.5, 0.16);
    // A panorama with its subject at the right edge.
    await subjectPhoto(fx.path('places/wide/right.jpg'), 1800, 600, 0.88, 0.5);
    await fx.start();
    const app = request(fx.gallery.handler);
    // The first pages do not wait for the crops: their covers are centred meanwhile.
    const first = (await app.get('/photos').expect(200)).text;
    expect(first).to.include('face.jpg').and.include('right.jpg');
    expect(coverClass(first, 'face.jpg')).to.equal(undefined);
    expect(coverClass(first, 'right.jpg')).to.equal(undefined);
    expect(coverClass((await app.get('/photos/people').expect(200)).text, 'face.jpg')).to.equal(undefined);

    // Worked out in the background, and the pages made again with them.
    let photos = first;
    await eventually(
      async () => {
        photos = (await app.get('/photos').expect(200)).text;
        return coverClass(photos, 'face.jpg') !== undefined && coverClass(photos, 'right.jpg') !== undefined;
      },
      20_000,
      'the crops on /photos',
    );
    expect(coverClass(photos, 'face.jpg')).to.match(/^focus-x-5 focus-y-[0-2]$/);
    expect(coverClass(photos, 'right.jpg')).to.match(/^focus-x-(8|9|10) focus-y-5$/);
    // The same crops on a folder page.
    let folder = '';
    await eventually(
      async () => {
        folder = (await app.get('/photos/people').expect(200)).text;
        return coverClass(folder, 'face.jpg') !== undefined;
      },
      20_000,
      'the crop on the folder page',
    );
    expect(coverClass(folder, 'face.jpg')).to.equal(coverClass(photos, 'face.jpg'));

    // Kept in the cache directory: after a restart nothing is computed again.
    await fx.gallery.close();
    await fx.start();
    const again = request(fx.gallery.handler);
    expect((await again.get('/photos').expect(200)).text).to.equal(photos);
    expect(fx.gallery.pool.tasksRun).to.equal(0);
  });
});
