import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import { AlbumIndex } from '../../server/core/albums/album-index.js';
import { breadcrumbsOf, titleOf } from '../../server/core/albums/album-tree.js';
import { FolderRecordError, folderNameTitle, parseFolderRecord } from '../../server/core/albums/folder-record.js';
import { eventually, GalleryFixture } from '../support/gallery-fixture.js';
import { loggerInto } from '../support/capture-logger.js';

describe('folder.json (server/core/albums/folder-record.ts)', () => {
  describe('parseFolderRecord', () => {
    it('should give the title, trimmed, and ignore other keys', () => {
      expect(parseFolderRecord('{"title": "  Travel  ", "note": 1}')).to.deep.equal({ title: 'Travel' });
    });

    for (const [text, problem] of [
      ['{oops', 'not valid JSON'],
      ['["Travel"]', 'not a JSON object'],
      ['null', 'not a JSON object'],
      ['{}', 'title must be a non-empty string'],
      ['{"title": "   "}', 'title must be a non-empty string'],
      ['{"title": 5}', 'title must be a non-empty string'],
      [JSON.stringify({ title: 'x'.repeat(201) }), 'title must be at most 200 characters'],
      [JSON.stringify({ title: 'Tra\u0000vel' }), 'title must not contain control characters'],
    ] as const) {
      it(`should refuse ${text.slice(0, 30)}: ${problem}`, () => {
        expect(() => parseFolderRecord(text)).to.throw(FolderRecordError, problem);
      });
    }
  });

  describe('folderNameTitle', () => {
    it('should put the first letter in capitals, whatever the script, and leave the rest', () => {
      expect(folderNameTitle('travel')).to.equal('Travel');
      expect(folderNameTitle('été 2024')).to.equal('Été 2024');
      expect(folderNameTitle('2024')).to.equal('2024');
      expect(folderNameTitle('iPhone photos')).to.equal('IPhone photos');
    });
  });

  describe('in the album index', () => {
    const fx = new GalleryFixture();
    let index: AlbumIndex;
    const messages: string[] = [];
    before(async () => {
      await fx.build({
        '2024/travel/lisbon': { meta: { title: 'Lisbon' }, files: ['a.jpg'] },
        '2024/family/weekend': { meta: { title: 'Weekend' }, files: ['b.jpg'] },
        '2024/broken/one': { meta: { title: 'One' }, files: ['c.jpg'] },
      });
      fs.writeFileSync(fx.path('2024/travel/folder.json'), JSON.stringify({ title: 'Travels abroad' }));
      fs.writeFileSync(fx.path('2024/broken/folder.json'), '{"title": 5}');
      // An album's own title wins: folder.json is for plain folders only.
      fs.writeFileSync(fx.path('2024/travel/lisbon/folder.json'), JSON.stringify({ title: 'Not this' }));
      index = await AlbumIndex.open({ albumsDir: fx.albumsDir, watch: false, log: loggerInto(messages) });
    });
    after(async () => {
      index.close();
      await fx.close();
    });

    it('should read a folder title at scan time, as album.json is read', () => {
      expect(titleOf(index.node('2024/travel')!)).to.equal('Travels abroad');
      expect(titleOf(index.node('2024/travel/lisbon')!)).to.equal('Lisbon');
      expect(breadcrumbsOf(index.node('2024/travel/lisbon')!).map((c) => c.title)).to.deep.equal(['2024', 'Travels abroad', 'Lisbon']);
    });

    it('should fall back to the name with a capital, logging a bad folder.json', () => {
      expect(titleOf(index.node('2024/family')!)).to.equal('Family');
      expect(titleOf(index.node('2024/broken')!)).to.equal('Broken');
      expect(messages.join('\n')).to.match(/ignoring .*broken.folder\.json: title must be a non-empty string/);
      // The folder and its albums are still listed.
      expect(index.node('2024/broken/one')).to.not.equal(undefined);
    });
  });

  describe('on the pages', () => {
    const fx = new GalleryFixture();
    let app: ReturnType<typeof request>;
    before(async () => {
      await fx.build({
        '2024/travel/lisbon': { meta: { title: 'Lisbon' }, files: ['a.jpg'] },
        '2024/travel/porto': { meta: { title: 'Porto' }, files: ['b.jpg'] },
      });
      fs.writeFileSync(fx.path('2024/travel/folder.json'), JSON.stringify({ title: 'Travels <abroad>' }));
      await fx.start({ watch: true });
      app = request(fx.gallery.handler);
    });
    after(() => fx.close());

    it('should head the category page, its breadcrumbs and /photos with the title', async () => {
      const folder = (await app.get('/photos/2024/travel').expect(200)).text;
      expect(folder).to.include('<h1>Travels &lt;abroad&gt;</h1>').and.include('<title>Travels &lt;abroad&gt; · Gallery</title>');
      const album = (await app.get('/photos/2024/travel/lisbon').expect(200)).text;
      expect(album).to.include('<a href="/photos/2024/travel">Travels &lt;abroad&gt;</a>');
      expect((await app.get('/photos').expect(200)).text).to.include('<h3><a href="/photos/2024/travel">Travels &lt;abroad&gt;</a></h3>');
    });

    it('should see a new or edited folder.json without a restart', async () => {
      const file = fx.path('2024/folder.json');
      fs.writeFileSync(`${file}.tmp`, JSON.stringify({ title: 'The year 2024' }));
      fs.renameSync(`${file}.tmp`, file);
      await eventually(async () => (await app.get('/photos/2024').expect(200)).text.includes('<h1>The year 2024</h1>'), 8000, 'new folder title');
      fs.rmSync(path.join(fx.path('2024/travel'), 'folder.json'));
      await eventually(async () => (await app.get('/photos/2024/travel').expect(200)).text.includes('<h1>Travel</h1>'), 8000, 'title gone');
    });

    it('should never serve folder.json', async () => {
      await app.get('/albums/2024/travel/folder.json').expect(404);
      await app.get('/albums/2024/folder.json').expect(404);
    });
  });
});
