// Requests of the tests of test/cluster/: each on a connection of its own, so nothing is kept between them.
import http from 'node:http';
import https from 'node:https';

export interface Answer {
  readonly status: number;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: Buffer;
}

export interface AskOptions {
  readonly method?: string;
  readonly headers?: Record<string, string>;
  readonly body?: string | Buffer;
  /** The certificate nginx's HTTPS is trusted with. */
  readonly ca?: string;
}

/** One request on a connection of its own: HTTPS to nginx, or plain HTTP to a gallery process. */
export function ask(url: string, opts: AskOptions = {}): Promise<Answer> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const onResponse = (res: http.IncomingMessage) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    };
    const options = { method: opts.method ?? 'GET', headers: opts.headers, agent: false as const };
    const req = u.protocol === 'https:' ? https.request(u, { ...options, ca: opts.ca }, onResponse) : http.request(u, options, onResponse);
    req.on('error', reject);
    req.setTimeout(60_000, () => req.destroy(new Error(`no answer from ${url}`)));
    req.end(opts.body);
  });
}
