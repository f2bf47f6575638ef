import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { ConfigError, defaultWorkers, loadConfig } from '../../server/core/config.js';

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
      expect(c.instances).to.equal(1);
      expect(c.redisUrl).to.equal(undefined);
      expect(c.watch).to.equal('auto');
      expect(c.watchIntervalMs).to.equal(5000);
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

    it('should parse the settings of several processes', () => {
      const c = loadConfig({ INSTANCES: '2', REDIS_URL: 'redis://:secret@10.0.0.5:6379/1', WATCH: 'poll', WATCH_INTERVAL: '2.5' });
      expect(c).to.include({ instances: 2, redisUrl: 'redis://:secret@10.0.0.5:6379/1', watch: 'poll', watchIntervalMs: 2500 });
      expect(loadConfig({ REDIS_URL: 'rediss://cache.example.org:6380' }).redisUrl).to.equal('rediss://cache.example.org:6380');
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
      ['INSTANCES', '0'],
      ['WATCH', 'inotify'],
      ['WATCH_INTERVAL', '0'],
      ['WATCH_INTERVAL', 'soon'],
      ['REDIS_URL', 'http://cache:6379'],
      ['REDIS_URL', 'not a url'],
    ] as const) {
      it(`should reject ${name}=${value} with a message naming the variable`, () => {
        expect(() => loadConfig({ [name]: value })).to.throw(ConfigError, new RegExp(`^${name} must be`));
      });
    }
  });

  describe('with several processes on one machine', () => {
    it('should refuse INSTANCES above 1 without REDIS_URL, naming both', () => {
      expect(() => loadConfig({ INSTANCES: '2' })).to.throw(ConfigError, /^INSTANCES=2 needs REDIS_URL/);
    });

    it('should share the cores out between the processes by default', () => {
      const c = loadConfig({ INSTANCES: '2', REDIS_URL: 'redis://127.0.0.1:6379' });
      expect(c.workers).to.equal(defaultWorkers(os.availableParallelism(), 2));
      expect(loadConfig({ INSTANCES: '2', REDIS_URL: 'redis://127.0.0.1:6379', WORKERS: '3' }).workers).to.equal(3);
    });

    it('should never give instances × workers more than the cores, nor a process no worker', () => {
      expect(defaultWorkers(2, 1)).to.equal(2);
      expect(defaultWorkers(2, 2)).to.equal(1);
      expect(defaultWorkers(8, 3)).to.equal(2);
      expect(defaultWorkers(2, 4)).to.equal(1);
      for (let cores = 1; cores <= 16; cores++) {
        for (let instances = 1; instances <= cores; instances++) expect(defaultWorkers(cores, instances) * instances).to.be.at.most(cores);
      }
    });
  });
});
