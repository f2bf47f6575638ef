import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import { newShareLinkId } from '../../server/core/albums/share-links.js';
import { GalleryFixture } from '../support/gallery-fixture.js';

const linksCookie = (ids: readonly string[]) => `album-links=${encodeURIComponent(JSON.stringify(ids))}`;
const shareLink = (name: string, language?: string) => ({
  id: newShareLinkId(),
  name,
  created: new Date(Date.now() - 3_600_000).toISOString(),
  downloads: true,
  ...(language ? { language } : {}),
});

/** `<html lang dir>` of a page. */
const htmlTag = (html: string) => /<html lang="([^"]+)" dir="([^"]+)">/.exec(html)?.slice(1);
/** The download button's label, which counts and sizes in the page's language. */
const downloadLabel = (html: string) => /<a class="button button--secondary button--download"[^>]*>[\s\S]*?<span>([^<]*)<\/span>/.exec(html)?.[1];

/**
 * Which language a visitor reads (README "Languages", server/public/pages/visitor-language.ts),
 * over the real app: the switcher's cookie, else the share link's language, else
 * Accept-Language, else site.json's; `<html lang dir>` say it, Vary says what it depends on,
 * and the page cache keeps one copy per language.
 */
describe('languages of the pages', function () {
  this.timeout(60_000);
  const fx = new GalleryFixture();
  const grandma = shareLink('Grandma', 'de');
  const cousin = shareLink('Cousin');

  before(async () => {
    await fx.build({
      '2024/lisbon': { meta: { title: 'Lisboa' }, files: ['a.jpg', 'b.jpg'] },
      '2024/family': { meta: { title: 'Family', password: 'pw', shareLinks: [grandma, cousin] }, files: ['c.jpg'] },
    });
    await fx.start();
  });
  after(() => fx.close());

  const get = (url: string, headers: Record<string, string> = {}) => request(fx.gallery.handler).get(url).set(headers);

  describe('from the browser (Accept-Language)', () => {
    it('should write the page in the best language the browser names', async () => {
      const res = await get('/photos/2024/lisbon', { 'Accept-Language': 'de-CH, de;q=0.9, en;q=0.5' }).expect(200);
      expect(htmlTag(res.text)).to.deep.equal(['de', 'ltr']);
      expect(downloadLabel(res.text)).to.match(/^2 Fotos herunterladen · [\d.,]+\s(Byte|kB)$/);
      expect(res.text).to.include('<p class="album-meta">2 Fotos</p>');
    });

    it('should write Arabic right to left', async () => {
      const res = await get('/photos/2024/lisbon', { 'Accept-Language': 'ar-EG' }).expect(200);
      expect(htmlTag(res.text)).to.deep.equal(['ar', 'rtl']);
      expect(res.text).to.include('<p class="album-meta">صورتان</p>');
    });

    it("should fall back to the site's language for a language the gallery does not have, and without the header", async () => {
      expect(htmlTag((await get('/photos', { 'Accept-Language': 'ja, zh;q=0.8' }).expect(200)).text)).to.deep.equal(['en', 'ltr']);
      expect(htmlTag((await get('/photos').expect(200)).text)).to.deep.equal(['en', 'ltr']);
    });

    it('should say in Vary what a page depends on, on pages kept for everyone and pages made for one', async () => {
      for (const url of ['/', '/photos', '/photos/2024', '/photos/2024/lisbon', '/photos/2024/family', '/no/such/page']) {
        const res = await get(url, { Accept: 'text/html' });
        expect(res.headers.vary, url)
          .to.match(/Accept-Language/)
          .and.match(/Cookie/);
      }
    });

    it('should keep one copy of a page per language, never sending one language to another', async () => {
      const german = await get('/photos/2024/lisbon', { 'Accept-Language': 'de' }).expect(200);
      const french = await get('/photos/2024/lisbon', { 'Accept-Language': 'fr' }).expect(200);
      const germanAgain = await get('/photos/2024/lisbon', { 'Accept-Language': 'de' }).expect(200);
      expect(htmlTag(french.text)).to.deep.equal(['fr', 'ltr']);
      expect(germanAgain.text).to.equal(german.text);
      expect(french.headers.etag).to.not.equal(german.headers.etag);
      // A browser's copy in one language is not fresh in another.
      await get('/photos/2024/lisbon', { 'Accept-Language': 'fr', 'If-None-Match': german.headers.etag! }).expect(200);
      for (const url of ['/', '/home', '/photos']) {
        const [de, sv] = await Promise.all([get(url, { 'Accept-Language': 'de' }), get(url, { 'Accept-Language': 'sv' })]);
        expect([htmlTag(de.text), htmlTag(sv.text)], url).to.deep.equal([
          ['de', 'ltr'],
          ['sv', 'ltr'],
        ]);
      }
    });

    it('should give each page the words its scripts show, in its language, and no others', async () => {
      const stringsOf = (html: string) =>
        JSON.parse(/<script type="application\/json" id="strings"[^>]*>([^<]*)<\/script>/.exec(html)![1]!) as {
          locale: string;
          strings: Record<string, string>;
        };
      const album = stringsOf((await get('/photos/2024/lisbon', { 'Accept-Language': 'sv' })).text);
      expect(album.locale).to.equal('sv');
      expect(album.strings['viewer.close']).to.equal('Stäng (Esc)');
      expect(album.strings).to.not.have.property('wait.minutes');
      const photos = stringsOf((await get('/photos', { 'Accept-Language': 'sv' })).text);
      // photos.js's word and the "new" marks' (new-marks.js), nothing else.
      expect(Object.keys(photos.strings)).to.deep.equal(['photos.unlocked', 'newMarks.new', 'newMarks.newTitle']);
      // A page without scripts carries none.
      expect((await get('/', { 'Accept-Language': 'sv' })).text).to.not.include('id="strings"');
    });

    it("should write the album-media API's alt texts in the language too", async () => {
      const res = await get(`/api/album-media?path=${encodeURIComponent('2024/lisbon')}`, { 'Accept-Language': 'pl' }).expect(200);
      expect(res.headers.vary).to.match(/Accept-Language/);
      // "Zdjęcie 1 z 2", or once its date is read "Zdjęcie zrobione 28 listopada 2026 03:54".
      for (const { alt } of (res.body as { items: { alt: string }[] }).items) expect(alt).to.match(/^Zdjęcie (zrobione \d+ \p{L}+ \d{4} \d\d:\d\d|\d z 2)$/u);
    });
  });

  describe('from the switcher (POST /language, the lang cookie)', () => {
    it('should keep the choice in a cookie and go back to the page', async () => {
      const res = await request(fx.gallery.handler).post('/language').type('form').send({ lang: 'it', back: '/photos/2024/lisbon?page=1' }).expect(303);
      expect(res.headers.location).to.equal('/photos/2024/lisbon?page=1');
      const cookie = (res.headers['set-cookie'] as unknown as string[]).find((c) => c.startsWith('lang='));
      expect(cookie).to.match(/^lang=it; Max-Age=31536000; Path=\/; Expires=[^;]+; HttpOnly; SameSite=Lax$/);
    });

    it('should win over the browser and a share link', async () => {
      const res = await get(`/s/${grandma.id}`, { Cookie: 'lang=sv', 'Accept-Language': 'fr' }).expect(200);
      expect(htmlTag(res.text)).to.deep.equal(['sv', 'ltr']);
      expect(res.text).to.include('<button name="lang" value="sv" lang="sv" aria-current="true">Svenska</button>');
    });

    it('should go back only to a page of this site, and refuse a language the gallery does not have', async () => {
      for (const back of ['https://evil.example/', '//evil.example/', '/\\evil', undefined]) {
        const res = await request(fx.gallery.handler).post('/language').type('form').send({ lang: 'de', back }).expect(303);
        expect(res.headers.location, String(back)).to.equal('/photos');
      }
      const res = await request(fx.gallery.handler).post('/language').type('form').send({ lang: 'xx', back: '/' }).expect(400);
      expect(res.headers['set-cookie']).to.equal(undefined);
    });

    it('should put the page it is on in the form, never a share link or a token', async () => {
      const viaLink = await get(`/s/${grandma.id}`).expect(200);
      expect(viaLink.text).to.include('<input type="hidden" name="back" value="/photos/2024/family">').and.not.include(`value="/s/`);
      const token = fx.token('2024/lisbon');
      const withToken = await get(`/photos/2024/lisbon?token=${token}`).expect(200);
      expect(withToken.text).to.include('<input type="hidden" name="back" value="/photos/2024/lisbon">');
    });
  });

  describe("from the share link (its album.json's language)", () => {
    it("should write the link's pages in its language, whatever the browser says", async () => {
      const res = await get(`/s/${grandma.id}`, { 'Accept-Language': 'en-US' }).expect(200);
      expect(htmlTag(res.text)).to.deep.equal(['de', 'ltr']);
      expect(res.text).to.include('1 Foto');
    });

    it('should keep to it on the pages the visitor goes on to, through the album-links cookie', async () => {
      const res = await get('/photos', { Cookie: linksCookie([cousin.id, grandma.id]), 'Accept-Language': 'en' }).expect(200);
      expect(htmlTag(res.text)).to.deep.equal(['de', 'ltr']);
    });

    it('should leave a link without a language to the browser', async () => {
      expect(htmlTag((await get(`/s/${cousin.id}`, { 'Accept-Language': 'nl' }).expect(200)).text)).to.deep.equal(['nl', 'ltr']);
    });

    it('should not read a language from a link that no longer works', async () => {
      const gone = await get(`/s/${newShareLinkId()}`, { 'Accept-Language': 'es' }).expect(404);
      expect(htmlTag(gone.text)).to.deep.equal(['es', 'ltr']);
      expect(gone.text).to.include('Este enlace ya no funciona');
    });
  });

  describe("from the site's settings (site.json language)", () => {
    it("should be the language of a visitor whose browser names none of the gallery's", async () => {
      fs.writeFileSync(path.join(fx.contentDir, 'site.json'), JSON.stringify({ name: 'Família', language: 'pt' }));
      await fx.gallery.home.load();
      const res = await get('/photos/2024/lisbon').expect(200);
      expect(htmlTag(res.text)).to.deep.equal(['pt', 'ltr']);
      expect(res.text).to.include('<p class="album-meta">2 fotos</p>');
      // The browser's own language still comes first.
      expect(htmlTag((await get('/photos', { 'Accept-Language': 'tr' })).text)).to.deep.equal(['tr', 'ltr']);
    });
  });
});
