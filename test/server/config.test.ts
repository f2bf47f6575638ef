import path from 'node:path';
import { expect } from 'chai';
import { ConfigError, loadConfig } from '../../server/core/config.js';

describe('loadConfig', () => {
  describe('with an empty environment', () => {
    it('should use the documented defaults', () => {
      const c = loadConfig({}, '/srv/g');
      expect(c.port).to.equal(3000);
      expect(c.host).to.equal(undefined);
      expect(c.albumsDir).to.equal(path.resolve('/srv/g/albums'));
      expect(c.cacheDir).to.equal(path.resolve('/srv/g/cache'));
      expect(c.contentDir).to.equal(path.resolve('/srv/g/content'));
      expect(c.adminPort).to.equal(4444);
      expect(c.production).to.equal(false);
      expect(c.trustProxy).to.equal(false);
      expect(c.workers).to.be.at.least(1);
      expect(Object.isFrozen(c)).to.equal(true);
    });
  });

  describe('with values set', () => {
    it('should parse every variable', () => {
      const c = loadConfig(
        {
          PORT: '8080',
          HOST: '127.0.0.1',
          ALBUMS_DIR: '/data/a',
          CACHE_DIR: 'c',
          CONTENT_DIR: '/x',
          ADMIN_PORT: '5555',
          NODE_ENV: 'production',
          TRUST_PROXY: '1',
          WORKERS: '3',
        },
        '/srv',
      );
      expect(c).to.include({
        port: 8080,
        host: '127.0.0.1',
        albumsDir: '/data/a',
        cacheDir: '/srv/c',
        contentDir: '/x',
        adminPort: 5555,
        production: true,
        trustProxy: 1,
        workers: 3,
      });
    });

    it('should keep a TRUST_PROXY address list as a string', () => {
      expect(loadConfig({ TRUST_PROXY: 'loopback' }).trustProxy).to.equal('loopback');
      expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).to.equal(true);
      expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).to.equal(false);
    });
  });

  describe('with bad values', () => {
    for (const [name, value] of [
      ['PORT', 'abc'],
      ['PORT', '70000'],
      ['PORT', '-1'],
      ['PORT', '80.5'],
      ['ADMIN_PORT', 'x'],
      ['WORKERS', '0'],
      ['WORKERS', 'many'],
    ] as const) {
      it(`should reject ${name}=${value} with a message naming the variable`, () => {
        expect(() => loadConfig({ [name]: value })).to.throw(ConfigError, new RegExp(`^${name} must be`));
      });
    }
  });
});
