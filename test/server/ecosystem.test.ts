import { execFileSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { defaultWorkers, loadConfig } from '../../server/core/config.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

interface App {
  readonly exec_mode: string;
  readonly instances: number;
  readonly wait_ready: boolean;
  readonly kill_timeout: number;
  readonly env: Record<string, string | number>;
}

/** The app of ecosystem.config.cjs as PM2 reads it, in a process of its own with `env`. */
function appWith(env: Record<string, string>): App {
  const { GALLERY_INSTANCES: _unset, ...base } = process.env;
  const out = execFileSync(process.execPath, ['-e', 'process.stdout.write(JSON.stringify(require("./ecosystem.config.cjs").apps[0]))'], {
    cwd: ROOT,
    env: { ...base, ...env },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return JSON.parse(out) as App;
}

describe('ecosystem.config.cjs', () => {
  describe('by default', () => {
    it('should run one process in fork mode', () => {
      const app = appWith({});
      expect(app).to.include({ exec_mode: 'fork', instances: 1, wait_ready: true });
      expect(app.env.INSTANCES).to.equal('1');
    });
  });

  describe('with the cluster profile (GALLERY_INSTANCES)', () => {
    it('should run that many processes in cluster mode, each told how many there are', () => {
      const app = appWith({ GALLERY_INSTANCES: '3' });
      expect(app).to.include({ exec_mode: 'cluster', instances: 3, wait_ready: true });
      expect(app.env.INSTANCES).to.equal('3');
      // Long enough for server/main.ts to drain and finish its requests before PM2 kills it.
      expect(app.kill_timeout).to.be.greaterThan(10_000);
    });

    it('should take max as one process per core, whose pools then share the cores out', () => {
      const app = appWith({ GALLERY_INSTANCES: 'max' });
      expect(app.instances).to.equal(os.availableParallelism());
      const config = loadConfig({ INSTANCES: String(app.env.INSTANCES), REDIS_URL: 'redis://127.0.0.1:6379' });
      expect(config.workers).to.equal(defaultWorkers(os.availableParallelism(), app.instances));
      expect(config.workers * app.instances).to.be.at.most(os.availableParallelism());
    });

    it('should refuse a value that is not a count', () => {
      expect(() => appWith({ GALLERY_INSTANCES: 'lots' })).to.throw(/GALLERY_INSTANCES must be a positive integer or "max"/);
    });
  });
});
