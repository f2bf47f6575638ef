import fs from 'node:fs/promises';
import path from 'node:path';
import { expect } from 'chai';
import express from 'express';
import request from 'supertest';
import { errorHandler } from '../../server/http/error-handler.js';
import { VIEWS_DIR } from '../../server/core/root-dir.js';
import { makeTempDir, removeTempDir } from '../support/temp-dir.js';

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
    app.use(errorHandler({ log: () => {} }));
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
});
