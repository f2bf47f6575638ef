import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import sharp from 'sharp';
import request from 'supertest';
import { writeAlbum } from '../support/temp-dir.js';
import { makeJpeg, openSiteWithAdmin, type SiteWithAdmin } from './support/admin-fixture.js';
import { eventuallyPasses } from '../support/eventually-passes.js';

const binary = (res: request.Response, done: (err: Error | null, body: Buffer) => void) => {
  const chunks: Buffer[] = [];
  res.on('data', (c: Buffer) => chunks.push(c));
  res.on('end', () => done(null, Buffer.concat(chunks)));
};

describe("the owner's tools seen on the public site", function () {
  this.timeout(60_000);
  let fx: SiteWithAdmin;
  const site = () => request(fx.gallery.handler);

  beforeEach(async () => {
    fx = await openSiteWithAdmin('gallery-admin-tools-', async (albums) => {
      const trip = writeAlbum(albums, '2024/trip', { title: 'Trip' });
      fs.writeFileSync(path.join(trip, 'IMG_1.jpg'), await makeJpeg(320, 240));
      fs.writeFileSync(path.join(trip, 'IMG_2.jpg'), await makeJpeg(160, 120));
      writeAlbum(albums, '2024/other', { title: 'Other' });
    });
  });
  afterEach(() => fx.close());

  it('should drop a deleted photo from its page; its original and thumbnail answer 404', async () => {
    await site().get('/api/thumbnail?path=2024/trip/IMG_1.jpg&size=small').expect(200);
    await request(fx.admin).delete('/api/media/2024/trip/IMG_1.jpg').expect(200);
    await eventuallyPasses(async () => {
      const page = await site().get('/photos/2024/trip').expect(200);
      expect(page.text).to.not.include('IMG_1.jpg');
      expect(page.text).to.include('IMG_2.jpg');
    });
    await site().get('/albums/2024/trip/IMG_1.jpg').expect(404);
    await site().get('/api/thumbnail?path=2024/trip/IMG_1.jpg&size=small').expect(404);
  });

  it('should show a renamed photo under its new name only', async () => {
    await request(fx.admin).post('/api/media/2024/trip/IMG_1.jpg?action=rename').send({ name: 'Beach Day (1).jpg' }).expect(200);
    await eventuallyPasses(async () => {
      const page = await site().get('/photos/2024/trip').expect(200);
      expect(page.text).to.include('data-name="Beach Day (1).jpg"');
      expect(page.text).to.not.include('IMG_1.jpg');
    });
    await site().get('/albums/2024/trip/Beach%20Day%20(1).jpg').expect(200).expect('Content-Type', 'image/jpeg');
    await site().get('/albums/2024/trip/IMG_1.jpg').expect(404);
  });

  it('should show a moved photo in the other album', async () => {
    await request(fx.admin).post('/api/media/2024/trip/IMG_2.jpg?action=move').send({ album: '2024/other' }).expect(200);
    await eventuallyPasses(async () => {
      expect((await site().get('/photos/2024/other').expect(200)).text).to.include('data-name="IMG_2.jpg"');
      expect((await site().get('/photos/2024/trip').expect(200)).text).to.not.include('IMG_2.jpg');
    });
    await site().get('/albums/2024/other/IMG_2.jpg').expect(200);
  });

  it('should serve a rotated photo with its thumbnail and page size turned', async () => {
    const before = await site().get('/api/thumbnail?path=2024/trip/IMG_1.jpg&size=small').buffer(true).parse(binary).expect(200);
    expect(await sharp(before.body as Buffer).metadata()).to.include({ width: 320, height: 240 });
    await request(fx.admin).post('/api/media/2024/trip/IMG_1.jpg?action=rotate').send({ degrees: 270 }).expect(200);
    await eventuallyPasses(async () => {
      const res = await site().get('/api/album-media?path=2024/trip').expect(200);
      const item = res.body.items.find((i: { name: string }) => i.name === 'IMG_1.jpg');
      expect([item.width, item.height]).to.deep.equal([240, 320]);
      const thumb = await site().get(item.src).buffer(true).parse(binary).expect(200);
      expect(await sharp(thumb.body as Buffer).metadata()).to.include({ width: 240, height: 320 });
    });
    // The original keeps its pixels; its EXIF orientation turns it in the browser.
    const original = await site().get('/albums/2024/trip/IMG_1.jpg').buffer(true).parse(binary).expect(200);
    expect(await sharp(original.body as Buffer).metadata()).to.include({ width: 320, height: 240, orientation: 8 });
  });

  it('should give a captioned photo its caption in the page and the album media, as alt text too', async () => {
    await request(fx.admin).post('/api/media/2024/trip/IMG_1.jpg?action=caption').send({ caption: 'Grandma\'s 90th <b>"party"</b>' }).expect(200);
    await eventuallyPasses(async () => {
      const page = await site().get('/photos/2024/trip').expect(200);
      expect(page.text).to.include('data-caption="Grandma&#39;s 90th &lt;b&gt;&#34;party&#34;&lt;/b&gt;"');
      expect(page.text).to.include('alt="Grandma&#39;s 90th &lt;b&gt;&#34;party&#34;&lt;/b&gt;"');
    });
    const media = await site().get('/api/album-media?path=2024/trip').expect(200);
    const [one, two] = media.body.items;
    expect(one).to.include({ name: 'IMG_1.jpg', caption: 'Grandma\'s 90th <b>"party"</b>', alt: 'Grandma\'s 90th <b>"party"</b>' });
    // Without a caption, the alt text says what it is and when (never its file name).
    expect(two).to.include({ name: 'IMG_2.jpg', caption: null });
    expect(two.alt).to.match(/^Photo (taken |2 of 2)/);
  });

  it("should show the album's description under its title and its date in the header", async () => {
    await request(fx.admin).put('/api/albums/2024/trip').send({ description: 'Three days by the sea.', date: '2024-07-14' }).expect(200);
    await eventuallyPasses(async () => {
      const page = await site().get('/photos/2024/trip').expect(200);
      expect(page.text).to.include('<p class="album-description">Three days by the sea.</p>');
      expect(page.text).to.include('<time datetime="2024-07-14">14 July 2024</time>');
    });
  });

  it('should show a month or a year as the album date, as precise as it is written', async () => {
    await request(fx.admin).put('/api/albums/2024/trip').send({ date: '2024-07' }).expect(200);
    await eventuallyPasses(async () => {
      expect((await site().get('/photos/2024/trip').expect(200)).text).to.include('<time datetime="2024-07">July 2024</time>');
    });
    await request(fx.admin).put('/api/albums/2024/trip').send({ date: '2024' }).expect(200);
    await eventuallyPasses(async () => {
      expect((await site().get('/photos/2024/trip').expect(200)).text).to.include('<time datetime="2024">2024</time>');
    });
  });

  it('should list child albums in the order set through the admin', async () => {
    writeAlbum(path.join(fx.root, 'albums'), '2024/zoo', { title: 'A zoo' });
    await request(fx.admin)
      .put('/api/album-order')
      .send({ parent: '2024', albums: ['zoo', 'trip', 'other'] })
      .expect(200);
    await eventuallyPasses(async () => {
      const text = (await site().get('/photos').expect(200)).text;
      const at = (title: string) => text.indexOf(`>${title}<`);
      expect(at('A zoo')).to.be.greaterThan(-1);
      expect(at('A zoo')).to.be.lessThan(at('Trip'));
      expect(at('Trip')).to.be.lessThan(at('Other'));
    });
  });

  it('should show the chosen hero image on /home, and the first again once the choice is reset', async () => {
    const hero = path.join(fx.root, 'content', 'assets', 'hero');
    fs.mkdirSync(hero, { recursive: true });
    fs.writeFileSync(path.join(hero, 'a-first.jpg'), await makeJpeg());
    fs.writeFileSync(path.join(hero, 'b second.jpg'), await makeJpeg());
    await eventuallyPasses(async () => {
      expect((await site().get('/home').expect(200)).text).to.include('/content/hero/a-first.jpg');
    });
    await request(fx.admin).put('/api/home/hero').send({ image: 'b second.jpg' }).expect(200);
    await eventuallyPasses(async () => {
      const text = (await site().get('/home').expect(200)).text;
      expect(text).to.include('/content/hero/b%20second.jpg').and.not.include('a-first.jpg');
    });
    await request(fx.admin).put('/api/home/hero').send({ image: null }).expect(200);
    await eventuallyPasses(async () => {
      expect((await site().get('/home').expect(200)).text).to.include('/content/hero/a-first.jpg');
    });
  });
});
