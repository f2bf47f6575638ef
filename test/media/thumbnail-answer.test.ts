import http, { type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import express from 'express';
import { isNotModified } from '../../server/public/routes/thumbnail-answer.js';

/**
 * The thumbnail answer (server/public/routes/thumbnail-answer.ts) decides its 304s without
 * Express, for the front door and the Express route alike: it must decide every one as
 * Express's `req.fresh` does for the same request and ETag, or the two paths would differ.
 */
describe('thumbnail answer', () => {
  describe('isNotModified', () => {
    const etag = 'W/"abc-1k"';
    const cases: readonly Record<string, string>[] = [
      {},
      { 'If-None-Match': etag },
      { 'If-None-Match': '"abc-1k"' },
      { 'If-None-Match': 'W/"other"' },
      { 'If-None-Match': `W/"other", ${etag}` },
      { 'If-None-Match': `W/"other",${etag}   ` },
      { 'If-None-Match': `  ${etag} ,W/"x"` },
      { 'If-None-Match': `W/"a b", ${etag}` },
      { 'If-None-Match': `\t${etag}` },
      { 'If-None-Match': '*' },
      { 'If-None-Match': ' *' },
      { 'If-None-Match': '' },
      { 'If-None-Match': ',' },
      { 'If-None-Match': etag, 'Cache-Control': 'no-cache' },
      { 'If-None-Match': etag, 'Cache-Control': 'max-age=0, no-cache' },
      { 'If-None-Match': etag, 'Cache-Control': 'no-cache-please' },
      { 'If-None-Match': etag, 'Cache-Control': 'max-age=0' },
      { 'If-None-Match': '*', 'Cache-Control': 'no-cache' },
      { 'If-Modified-Since': new Date(Date.now() + 60_000).toUTCString() },
      { 'If-None-Match': etag, 'If-Modified-Since': 'Thu, 01 Jan 1970 00:00:00 GMT' },
      { 'If-None-Match': 'W/"other"', 'If-Modified-Since': new Date(Date.now() + 60_000).toUTCString() },
    ];

    /** What Express's req.fresh and isNotModified say of one request, answered with `etag`. */
    let server: http.Server;
    let port: number;
    before(async () => {
      const app = express();
      app.get('/', (req, res) => {
        res.setHeader('ETag', etag);
        // Written raw: res.json would answer a fresh request 304 itself, without the verdicts.
        res.end(JSON.stringify({ express: req.fresh, ours: isNotModified(req, etag) }));
      });
      server = http.createServer(app);
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      port = (server.address() as AddressInfo).port;
    });
    after(() => server.close());

    const verdicts = (headers: Record<string, string>) =>
      new Promise<{ express: boolean; ours: boolean }>((resolve, reject) => {
        http
          .get({ host: '127.0.0.1', port, path: '/', headers }, (res) => {
            let body = '';
            res.setEncoding('utf8');
            res.on('data', (chunk: string) => (body += chunk));
            res.on('end', () => resolve(JSON.parse(body) as { express: boolean; ours: boolean }));
          })
          .on('error', reject);
      });

    for (const headers of cases) {
      it(`should decide as Express's req.fresh for ${JSON.stringify(headers)}`, async () => {
        const { express: expressSays, ours } = await verdicts(headers);
        expect(ours).to.equal(expressSays);
      });
    }

    it('should find the cases above split between fresh and not, so the comparison means something', () => {
      const asked = cases.map((h) =>
        isNotModified({ headers: Object.fromEntries(Object.entries(h).map(([k, v]) => [k.toLowerCase(), v])) } as IncomingMessage, etag),
      );
      expect(asked.filter(Boolean).length).to.be.within(4, cases.length - 4);
    });
  });
});
