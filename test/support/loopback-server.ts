import http, { type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A real HTTP server for a request listener (a gallery's handler) on a free loopback port. */
export interface LoopbackServer {
  readonly url: string;
  /** Stops listening and ends open connections (a browser keeps some alive). */
  close(): Promise<void>;
}

export async function listenOnLoopback(handler: RequestListener): Promise<LoopbackServer> {
  const server = http.createServer(handler).listen(0, '127.0.0.1');
  await new Promise<void>((resolve, reject) => server.once('listening', resolve).once('error', reject));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      return closed;
    },
  };
}
