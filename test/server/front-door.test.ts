import type { ServerResponse } from 'node:http';
import { expect } from 'chai';
import request from 'supertest';
import { createFrontDoor, type EarlyAnswer } from '../../server/public/front-door.js';
import { captureLogger } from '../support/capture-logger.js';

/** The public server's request listener (server/public/front-door.ts), without any gallery. */
describe('front door', () => {
  const app = (_req: unknown, res: ServerResponse) => void res.writeHead(200, { 'Content-Type': 'text/plain' }).end('app');
  const early =
    (answer: 'yes' | 'no' | 'fail' | 'skip'): EarlyAnswer =>
    (_req, res) => {
      if (answer === 'skip') return false;
      if (answer === 'fail') return Promise.reject(new Error('broken'));
      if (answer === 'no') return Promise.resolve(false);
      res.writeHead(200, { 'Content-Type': 'text/plain' }).end('early');
      return Promise.resolve(true);
    };

  it('should log and set the security headers for an early answer as for the app', async () => {
    const { logger, raw: lines } = captureLogger();
    const door = createFrontDoor({ app, requestLog: logger, earlyAnswers: [early('yes')] });
    const res = await request(door).get('/x?token=secret').expect(200);
    expect(res.text).to.equal('early');
    expect(res.headers['x-content-type-options']).to.equal('nosniff');
    expect(lines).to.have.length(1);
    expect(JSON.parse(lines[0]!)).to.include({ level: 'info', method: 'GET', url: '/x?token=***', status: 200 });
  });

  it('should hand to the app whatever no early answer takes, and when one fails before sending', async () => {
    for (const answers of [[], [early('skip')], [early('no')], [early('fail')], [early('no'), early('skip')]]) {
      const res = await request(createFrontDoor({ app, earlyAnswers: answers }))
        .get('/x')
        .expect(200);
      expect(res.text).to.equal('app');
      expect(res.headers['x-frame-options']).to.equal('DENY');
    }
  });

  it('should ask the early answers in order until one answers', async () => {
    const res = await request(createFrontDoor({ app, earlyAnswers: [early('no'), early('yes')] }))
      .get('/x')
      .expect(200);
    expect(res.text).to.equal('early');
  });
});
