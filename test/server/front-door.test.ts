import type { IncomingMessage, ServerResponse } from 'node:http';
import { expect } from 'chai';
import request from 'supertest';
import { createFrontDoor, type EarlyAnswer, type ErrorAnswer } from '../../server/public/front-door.js';
import { captureLogger } from '../support/capture-logger.js';

/** The public server's request listener (server/public/front-door.ts), without any gallery. */
describe('front door', () => {
  const app = (_req: unknown, res: ServerResponse) => void res.writeHead(200, { 'Content-Type': 'text/plain' }).end('app');
  /** The app's answer to an error: here, its message with status 500. */
  const answerError: ErrorAnswer = (_req: IncomingMessage, res: ServerResponse, err: unknown) =>
    void res.writeHead(500, { 'Content-Type': 'text/plain' }).end(`error: ${(err as Error).message}`);
  const early =
    (answer: 'yes' | 'no' | 'fail' | 'skip' | 'fail-late'): EarlyAnswer =>
    (_req, res) => {
      if (answer === 'skip') return false;
      if (answer === 'fail') return Promise.reject(new Error('broken'));
      if (answer === 'no') return Promise.resolve(false);
      if (answer === 'fail-late') {
        res.writeHead(200, { 'Content-Type': 'text/plain' }).write('half');
        return Promise.reject(new Error('broken mid-way'));
      }
      res.writeHead(200, { 'Content-Type': 'text/plain' }).end('early');
      return Promise.resolve(true);
    };

  it('should log and set the headers of every response for an early answer as for the app', async () => {
    const { logger, raw: lines } = captureLogger();
    const door = createFrontDoor({ app, answerError, requestLog: logger, earlyAnswers: [early('yes')] });
    const res = await request(door).get('/x?token=secret').expect(200);
    expect(res.text).to.equal('early');
    expect(res.headers['x-content-type-options']).to.equal('nosniff');
    expect(res.headers['referrer-policy']).to.equal('same-origin');
    expect(lines).to.have.length(1);
    expect(JSON.parse(lines[0]!)).to.include({ level: 'info', method: 'GET', url: '/x?token=***', status: 200 });
  });

  it('should hand to the app whatever no early answer takes', async () => {
    for (const answers of [[], [early('skip')], [early('no')], [early('no'), early('skip')]]) {
      const res = await request(createFrontDoor({ app, answerError, earlyAnswers: answers }))
        .get('/x')
        .expect(200);
      expect(res.text).to.equal('app');
      expect(res.headers['x-content-type-options']).to.equal('nosniff');
    }
  });

  it('should leave the document-only headers to the app: the front door does not know what it answers', async () => {
    const res = await request(createFrontDoor({ app, answerError })).get('/x').expect(200);
    for (const name of ['content-security-policy', 'x-frame-options', 'cross-origin-opener-policy']) expect(res.headers).to.not.have.property(name);
  });

  it("should have the app's error answer answer an error an early answer met, not the app's routes", async () => {
    const res = await request(createFrontDoor({ app, answerError, earlyAnswers: [early('fail'), early('yes')] }))
      .get('/x')
      .expect(500);
    expect(res.text).to.equal('error: broken');
  });

  it('should drop the connection when an early answer fails after its head went out', async () => {
    const failed = await request(createFrontDoor({ app, answerError, earlyAnswers: [early('fail-late')] }))
      .get('/x')
      .then(
        () => undefined,
        (err: unknown) => err,
      );
    expect(failed, 'a truncated answer must not read as a success').to.be.an('error');
  });

  it('should ask the early answers in order until one answers', async () => {
    const res = await request(createFrontDoor({ app, answerError, earlyAnswers: [early('no'), early('yes')] }))
      .get('/x')
      .expect(200);
    expect(res.text).to.equal('early');
  });
});
