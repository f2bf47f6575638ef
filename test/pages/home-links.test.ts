import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import { parseHomeContent } from '../../server/core/home-content.js';
import { GalleryFixture } from '../support/gallery-fixture.js';

/** Links a hand-edited home.json may hold that must never become an `href`. */
const UNSAFE_LINKS = [
  'javascript:alert(1)',
  ' JavaScript:alert(2)',
  'java\tscript:alert(3)',
  'data:text/html,<script>alert(4)</script>',
  'vbscript:msgbox(5)',
  '//evil.example/six',
  '/\\evil.example/seven',
  'ftp://evil.example/eight',
  'photos/relative',
];
const SAFE_LINKS = ['/photos/2024/travel', 'https://example.org/a?b=c', 'http://example.org/'];

describe('home page links', () => {
  describe('parseHomeContent', () => {
    it('should keep site paths and http(s) URLs', () => {
      const content = parseHomeContent(JSON.stringify({ cards: SAFE_LINKS.map((link) => ({ title: 't', link })) }));
      expect(content.cards.map((c) => c.link)).to.deep.equal(SAFE_LINKS);
    });

    it('should drop every other link', () => {
      const content = parseHomeContent(JSON.stringify({ cards: UNSAFE_LINKS.map((link) => ({ title: 't', link })) }));
      expect(content.cards.map((c) => c.link)).to.deep.equal(UNSAFE_LINKS.map(() => ''));
    });
  });

  describe('GET /home with a hand-edited home.json', () => {
    const fx = new GalleryFixture();
    before(async () => {
      await fx.build({ '2024/travel/lisbon': { meta: { title: 'Lisbon' }, files: ['a.jpg'] } });
      const cards = [...UNSAFE_LINKS, ...SAFE_LINKS].map((link, i) => ({ id: `c${i}`, title: `Card ${i}`, link }));
      fs.writeFileSync(path.join(fx.contentDir, 'home.json'), JSON.stringify({ intro: { title: 'Home' }, cards }));
      await fx.start();
    });
    after(() => fx.close());

    it('should render only site paths and http(s) URLs as links, and the other cards without theirs', async () => {
      const res = await request(fx.gallery.handler).get('/home').expect(200);
      const hrefs = [...res.text.matchAll(/<a [^>]*href="([^"]*)"/g)].map((m) => m[1]!.replace(/&amp;/g, '&'));
      for (let i = 0; i < UNSAFE_LINKS.length + SAFE_LINKS.length; i++) expect(res.text).to.include(`Card ${i}`);
      expect(hrefs).to.include.members(SAFE_LINKS);
      expect(res.text.toLowerCase()).to.not.include('script:');
      expect(res.text).to.not.include('evil.example');
      expect(res.text).to.not.include('data:text');
    });
  });
});
