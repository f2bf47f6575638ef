import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { HomeContentStore } from '../../server/core/home-content.js';
import {
  DEFAULT_SITE_SETTINGS,
  SiteFileError,
  loadSiteSettings,
  normaliseAccent,
  normalisePublicUrl,
  parseSiteFile,
  publicUrlWarning,
  siteSettingsOf,
} from '../../server/core/site-settings.js';
import { loggerInto, quietLogger } from '../support/capture-logger.js';
import { makeTempDir, removeTempDir } from '../support/temp-dir.js';

describe('site.json (server/core/site-settings.ts)', () => {
  describe('normaliseAccent', () => {
    it('should take #rgb and #rrggbb in any case, as #rrggbb in lower case', () => {
      expect(normaliseAccent('#ABC')).to.equal('#aabbcc');
      expect(normaliseAccent(' #E8B86B ')).to.equal('#e8b86b');
    });
    it('should refuse names, other lengths and anything after the colour', () => {
      for (const bad of ['red', '#abcd', '#12345g', 'e8b86b', '#e8b86b;', 'url(x)', '']) expect(normaliseAccent(bad), bad).to.equal(undefined);
    });
  });

  describe('normalisePublicUrl', () => {
    it('should keep the origin of an http(s) address at the root', () => {
      expect(normalisePublicUrl('https://Photos.Example.com/')).to.equal('https://photos.example.com');
      expect(normalisePublicUrl('http://192.168.1.20:3000')).to.equal('http://192.168.1.20:3000');
      expect(normalisePublicUrl('https://photos.example.com:443')).to.equal('https://photos.example.com');
    });
    it('should refuse relative addresses, other schemes, paths, credentials, queries and fragments', () => {
      for (const bad of [
        '/photos',
        'photos.example.com',
        'javascript:alert(1)',
        'data:text/html,x',
        'ftp://a.example',
        'https://a.example/sub',
        'https://u:p@a.example',
        'https://a.example/?q',
        'https://a.example/#f',
        'https://a.example\\x',
      ]) {
        expect(normalisePublicUrl(bad), bad).to.equal(undefined);
      }
    });
  });

  describe('publicUrlWarning', () => {
    it('should warn while unset and for names only this computer answers to', () => {
      expect(publicUrlWarning('')).to.match(/not set/);
      for (const local of [
        'http://localhost:3000',
        'http://127.0.0.1',
        'http://127.1.2.3:8080',
        'http://[::1]:3000',
        'http://0.0.0.0:3000',
        'http://my.localhost',
      ]) {
        expect(publicUrlWarning(local), local).to.match(/only works on this computer/);
      }
    });
    it('should not warn for a LAN or public address', () => {
      expect(publicUrlWarning('http://192.168.1.20:3000')).to.equal(undefined);
      expect(publicUrlWarning('https://photos.example.com')).to.equal(undefined);
    });
  });

  describe('parseSiteFile and siteSettingsOf', () => {
    it('should throw SiteFileError for a file that is not a JSON object', () => {
      for (const text of ['[1]', 'null', '"x"', '{oops']) expect(() => parseSiteFile(text), text).to.throw(SiteFileError);
    });
    it('should take the good values and fall back to the default for each bad one, naming it', () => {
      const { settings, ignored } = siteSettingsOf(
        parseSiteFile(JSON.stringify({ name: 'Ours', accent: 'red', publicUrl: 'https://a.example/', subtitle: 5, extra: true })),
      );
      expect(settings).to.deep.equal({
        name: 'Ours',
        subtitle: DEFAULT_SITE_SETTINGS.subtitle,
        accent: DEFAULT_SITE_SETTINGS.accent,
        publicUrl: 'https://a.example',
        language: 'en',
      });
      expect(ignored).to.deep.equal(['subtitle must be a string', 'accent must be a hex colour such as "#e8b86b"']);
    });
    it('should take a language the gallery has, and fall back to English for any other', () => {
      expect(siteSettingsOf(parseSiteFile(JSON.stringify({ language: 'ar' }))).settings.language).to.equal('ar');
      const { settings, ignored } = siteSettingsOf(parseSiteFile(JSON.stringify({ language: 'klingon' })));
      expect(settings.language).to.equal('en');
      expect(ignored).to.deep.equal(['language must be one of en, de, fr, es, it, pt, nl, pl, sv, tr, ar']);
    });

    it('should never let markup through a hand-edited accent', () => {
      const { settings } = siteSettingsOf({ accent: '#fff"><script>' });
      expect(settings.accent).to.equal(DEFAULT_SITE_SETTINGS.accent);
    });
  });

  describe('loading', () => {
    let dir: string;
    beforeEach(() => {
      dir = makeTempDir('gallery-site-');
    });
    afterEach(() => removeTempDir(dir));

    it('should give the defaults for a missing file, silently', async () => {
      const messages: string[] = [];
      expect(await loadSiteSettings(dir, loggerInto(messages))).to.deep.equal(DEFAULT_SITE_SETTINGS);
      expect(messages).to.deep.equal([]);
    });

    it('should give the defaults for a broken file and log why', async () => {
      fs.writeFileSync(path.join(dir, 'site.json'), '[');
      const messages: string[] = [];
      expect(await loadSiteSettings(dir, loggerInto(messages))).to.deep.equal(DEFAULT_SITE_SETTINGS);
      expect(messages.join('\n')).to.match(/site\.json.*not a JSON object/);
    });

    it('should be held by the content store and read again on load', async () => {
      const store = new HomeContentStore(dir, quietLogger);
      await store.load();
      expect(store.site.name).to.equal('Gallery');
      const version = store.version;
      fs.writeFileSync(path.join(dir, 'site.json'), JSON.stringify({ name: 'The Silvas', accent: '#123456' }));
      await store.load();
      expect(store.site).to.deep.include({ name: 'The Silvas', accent: '#123456' });
      expect(store.version).to.be.greaterThan(version);
    });
  });
});
