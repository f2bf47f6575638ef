import fs from 'node:fs/promises';
import path from 'node:path';
import { expect } from 'chai';
import express from 'express';
import request from 'supertest';
import { errorHandler } from '../../server/http/error-handler.js';
import { notFound } from '../../server/core/errors.js';
import { VIEWS_DIR } from '../../server/core/root-dir.js';
import { MediaTaskError, PoolBusyError } from '../../server/media/pool-errors.js';
import { makeTempDir, removeTempDir } from '../support/temp-dir.js';
import { captureLogger, quietLogger } from '../support/capture-logger.js';

describe('errorHandler', () => {
  let dir: string;
  before(() => {
    dir = makeTempDir();
  });
  after(() => removeTempDir(dir));

  /** An app whose routes fail the way real file work does: with Node's own fs errors. */
  function createApp() {
    const app = express();
    app.set('view engine', 'ejs');
    app.set('views', VIEWS_DIR);
    app.locals.asset = (p: string) => p;
    const readMissing = async () => fs.readFile(path.join(dir, 'gone', 'IMG_1.jpg'));
    // What send does with a file that is gone at open: the fs error itself, given a 404 (http-errors).
    const sendMissing = async () => {
      try {
        await readMissing();
      } catch (err) {
        throw Object.assign(err as Error, { status: 404, statusCode: 404, expose: true });
      }
    };
    app.get('/api/missing', sendMissing);
    app.get('/api/unexpected', async () => void (await readMissing()));
    app.get('/page/missing', sendMissing);
    app.use(errorHandler({ log: quietLogger }));
    return app;
  }

  describe('with an fs error', () => {
    it('should answer a missing file given a 404 with 404 and no path', async () => {
      const res = await request(createApp()).get('/api/missing').expect(404);
      expect(res.body).to.deep.equal({ error: 'Not found' });
      expect(res.headers['cache-control']).to.equal('no-store');
    });

    it('should answer an fs error without a status with 500 and no path', async () => {
      const res = await request(createApp()).get('/api/unexpected').expect(500);
      expect(res.body).to.deep.equal({ error: 'Internal server error' });
    });

    it('should keep the path out of the HTML error page', async () => {
      const res = await request(createApp()).get('/page/missing').set('Accept', 'text/html').expect(404);
      expect(res.text).to.not.include(dir);
      expect(res.text).to.not.include('ENOENT');
    });
  });

  describe('with a domain error', () => {
    /** Routes that fail the way the media pool does; the log gets what was thrown. */
    function createDomainApp(log = quietLogger) {
      const app = express();
      app.get('/api/busy', () => {
        throw new PoolBusyError(7);
      });
      app.get('/api/failed', () => {
        throw new MediaTaskError('thumbnail', new Error('VipsJpeg: premature end of /srv/albums/a.jpg'));
      });
      app.get('/api/timed-out', () => {
        throw new MediaTaskError('videoInfo', new Error('deadline'), { timedOut: true });
      });
      app.get('/api/gone', () => {
        throw notFound('File not found');
      });
      app.use(errorHandler({ log }));
      return app;
    }

    it('should answer a busy pool with 503 and its Retry-After, logged as one warning without a stack', async () => {
      const { logger, lines: logged } = captureLogger();
      const res = await request(createDomainApp(logger)).get('/api/busy').expect(503);
      expect(res.headers['retry-after']).to.equal('7');
      expect(res.body).to.deep.equal({ error: 'Server busy, try again shortly' });
      expect(logged).to.have.length(1);
      expect(logged[0]).to.include({ level: 'warn', retryAfter: '7' });
      expect(logged[0]?.err).to.equal(undefined);
    });

    it('should answer a failed media task with a neutral 500 and log the task error', async () => {
      const { logger, lines: logged } = captureLogger();
      const res = await request(createDomainApp(logger)).get('/api/failed').expect(500);
      expect(res.body).to.deep.equal({ error: 'Could not process the media file' });
      expect(res.headers).to.not.have.property('retry-after');
      expect(logged).to.have.length(1);
      expect(logged[0]?.err?.type).to.equal('MediaTaskError');
    });

    it('should answer a media task past its deadline with 500, not 503', async () => {
      const res = await request(createDomainApp()).get('/api/timed-out').expect(500);
      expect(res.body).to.deep.equal({ error: 'The media file took too long to process' });
    });

    it('should answer a source deleted meanwhile with 404', async () => {
      const res = await request(createDomainApp()).get('/api/gone').expect(404);
      expect(res.body).to.deep.equal({ error: 'File not found' });
    });
  });
});
