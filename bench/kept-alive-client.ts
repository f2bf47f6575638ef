import net from 'node:net';

/**
 * GET requests over kept-alive loopback connections, as light as wrk's client: the request
 * goes out as one prepared string, the answer is read by its status line and Content-Length
 * and its body is counted, never kept. It is for a figure whose server and baseline share this
 * machine's two cores with the client (bench/figures/thumbnails.ts), so whatever the client
 * spends is taken from what is measured: node:http's client took 1.0-1.3 ms of CPU per
 * thumbnail there, and added 0.6 ms to each request's round trip.
 *
 * HTTP/1.1 only as far as the gallery answers it: a response without Content-Length (chunked)
 * is an error, not a case to handle.
 */
export class KeptAliveClient {
  readonly #host: string;
  readonly #port: number;
  readonly #idle: Connection[] = [];
  readonly #all = new Set<Connection>();

  constructor(baseUrl: string) {
    const url = new URL(baseUrl);
    this.#host = url.hostname;
    this.#port = Number(url.port);
  }

  /** Resolves with the status and the body's length once the whole answer has arrived. */
  async get(pathAndQuery: string): Promise<{ status: number; bytes: number }> {
    const conn = this.#idle.pop() ?? this.#open();
    const answer = await conn.get(`GET ${pathAndQuery} HTTP/1.1\r\nHost: ${this.#host}:${this.#port}\r\n\r\n`);
    this.#idle.push(conn);
    return answer;
  }

  close(): void {
    for (const conn of this.#all) conn.destroy();
    this.#all.clear();
    this.#idle.length = 0;
  }

  #open(): Connection {
    const conn = new Connection(net.connect(this.#port, this.#host), () => {
      this.#all.delete(conn);
      const at = this.#idle.indexOf(conn);
      if (at >= 0) this.#idle.splice(at, 1);
    });
    this.#all.add(conn);
    return conn;
  }
}

interface Pending {
  readonly resolve: (answer: { status: number; bytes: number }) => void;
  readonly reject: (err: Error) => void;
}

const HEAD_END = Buffer.from('\r\n\r\n');

class Connection {
  readonly #socket: net.Socket;
  #pending: Pending | undefined;
  #buffered: Buffer = Buffer.alloc(0);
  /** Status and total length (head and body) of the answer being read, once its head is in. */
  #answer: { status: number; bodyBytes: number; length: number } | undefined;

  constructor(socket: net.Socket, onGone: () => void) {
    this.#socket = socket;
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => this.#read(chunk));
    const fail = (err: Error) => {
      onGone();
      this.#settle(err);
    };
    socket.on('error', fail);
    socket.on('close', () => fail(new Error('the connection closed before the answer ended')));
  }

  get(request: string): Promise<{ status: number; bytes: number }> {
    if (this.#pending) return Promise.reject(new Error('one request at a time per connection'));
    return new Promise((resolve, reject) => {
      this.#pending = { resolve, reject };
      this.#socket.write(request);
    });
  }

  destroy(): void {
    this.#socket.destroy();
  }

  #read(chunk: Buffer): void {
    this.#buffered = this.#buffered.length === 0 ? chunk : Buffer.concat([this.#buffered, chunk]);
    if (!this.#answer) {
      const headEnd = this.#buffered.indexOf(HEAD_END);
      if (headEnd < 0) return;
      const head = this.#buffered.subarray(0, headEnd).toString('latin1');
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]);
      const length = /\r\ncontent-length: *(\d+)/i.exec(head)?.[1];
      if (!status || length === undefined) {
        this.#socket.destroy();
        this.#settle(new Error(`an answer without a status or a Content-Length: ${JSON.stringify(head.slice(0, 200))}`));
        return;
      }
      this.#answer = { status, bodyBytes: Number(length), length: headEnd + HEAD_END.length + Number(length) };
    }
    if (this.#buffered.length < this.#answer.length) return;
    const { status, bodyBytes, length } = this.#answer;
    // Nothing follows an answer before the next request is sent.
    this.#buffered = this.#buffered.subarray(length);
    this.#answer = undefined;
    this.#settle(undefined, { status, bytes: bodyBytes });
  }

  #settle(err: Error | undefined, answer?: { status: number; bytes: number }): void {
    const pending = this.#pending;
    this.#pending = undefined;
    if (!pending) return;
    if (err) pending.reject(err);
    else pending.resolve(answer!);
  }
}
