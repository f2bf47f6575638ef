import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeTempDir, removeTempDir } from './temp-dir.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
/** The maintained configuration: what is tested is this file, with only its addresses and paths changed. */
export const DEPLOY_CONF = path.join(ROOT, 'deploy', 'nginx.conf');

export interface NginxSite {
  /** host:port of each gallery process, in place of the upstream's servers. */
  readonly upstreams: readonly string[];
  readonly httpPort: number;
  readonly httpsPort: number;
  readonly certificate: string;
  readonly key: string;
  readonly cacheDir: string;
  /**
   * False: the HTTPS server block listens without TLS (the benchmarks, measuring the cache
   * against Node's plain HTTP); its rules stay the same. Default true.
   */
  readonly tls?: boolean;
  /**
   * How long a cached thumbnail stays fresh, in place of the shipped 10 minutes: a test of
   * what happens once it has expired cannot wait 10 minutes. Default: as shipped.
   */
  readonly thumbnailCacheSeconds?: number;
}

/** Replaces what `pattern` matches, insisting it matches exactly `count` times: a reshaped file fails loudly. */
function replaceExactly(text: string, pattern: RegExp, replacement: string, count: number): string {
  const found = text.match(new RegExp(pattern.source, `${pattern.flags.replace('g', '')}g`))?.length ?? 0;
  if (found !== count) throw new Error(`deploy/nginx.conf: expected ${count} match(es) of ${pattern}, found ${found}`);
  return text.replace(new RegExp(pattern.source, `${pattern.flags.replace('g', '')}g`), replacement);
}

/**
 * deploy/nginx.conf for a test on loopback: the upstream's servers, the listening ports
 * (IPv4 loopback only), the certificate and the cache directory are the test's own;
 * everything else (the cache rules, compression, headers, limits) is the file as shipped.
 */
export function siteConfig(site: NginxSite): string {
  let conf = fs.readFileSync(DEPLOY_CONF, 'utf8');
  // Commented lines (examples) go first, so they can never be mistaken for directives.
  conf = conf
    .split('\n')
    .filter((line) => !line.trim().startsWith('#'))
    .join('\n');
  conf = replaceExactly(conf, /^\s*server 127\.0\.0\.1:3000;$/m, site.upstreams.map((u) => `    server ${u};`).join('\n'), 1);
  conf = replaceExactly(conf, /^\s*listen \[::\]:(80|443)[^;]*;$/m, '', 2);
  conf = replaceExactly(conf, /listen 80;/, `listen 127.0.0.1:${site.httpPort};`, 1);
  conf = replaceExactly(conf, /listen 443 ssl http2;/, `listen 127.0.0.1:${site.httpsPort}${site.tls === false ? '' : ' ssl http2'};`, 1);
  conf = replaceExactly(conf, /ssl_certificate \s*\S+;/, `ssl_certificate ${site.certificate};`, 1);
  conf = replaceExactly(conf, /ssl_certificate_key \S+;/, `ssl_certificate_key ${site.key};`, 1);
  conf = replaceExactly(conf, /proxy_cache_path \/var\/cache\/nginx\/gallery /, `proxy_cache_path ${site.cacheDir} `, 1);
  if (site.thumbnailCacheSeconds !== undefined) {
    conf = replaceExactly(conf, /proxy_cache_valid 200 10m;/, `proxy_cache_valid 200 ${site.thumbnailCacheSeconds}s;`, 1);
  }
  return conf;
}

/** A self-signed certificate for localhost and 127.0.0.1, made with openssl. */
export function selfSignedCertificate(dir: string): { certificate: string; key: string } {
  const certificate = path.join(dir, 'cert.pem');
  const key = path.join(dir, 'key.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      key,
      '-out',
      certificate,
      '-days',
      '1',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=DNS:localhost,IP:127.0.0.1',
    ],
    { stdio: 'ignore' },
  );
  return { certificate, key };
}

async function waitForPort(port: number, ms: number): Promise<void> {
  const end = Date.now() + ms;
  for (;;) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    if (Date.now() > end) throw new Error(`nothing listens on 127.0.0.1:${port} after ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * A real nginx (Debian's) of the test's own: deploy/nginx.conf inside a main configuration
 * whose pid, logs and temp directories are under a temp prefix, in the foreground, stopped by
 * its PID.
 */
export class NginxServer {
  readonly prefix = makeTempDir('gallery-nginx-');
  readonly #site: NginxSite;
  #child: ChildProcess | undefined;
  #stderr = '';

  constructor(site: Omit<NginxSite, 'cacheDir' | 'certificate' | 'key'> & Partial<Pick<NginxSite, 'certificate' | 'key'>>) {
    // As written: its ssl_certificate lines stay even where the block listens without TLS.
    const tls = site.certificate && site.key ? { certificate: site.certificate, key: site.key } : selfSignedCertificate(this.prefix);
    this.#site = { ...site, ...tls, cacheDir: path.join(this.prefix, 'cache') };
  }

  get certificate(): string {
    return this.#site.certificate;
  }

  /** The gallery's server block (HTTPS, or plain HTTP with `tls: false`). */
  get httpsUrl(): string {
    return `${this.#site.tls === false ? 'http' : 'https'}://127.0.0.1:${this.#site.httpsPort}`;
  }

  get httpUrl(): string {
    return `http://127.0.0.1:${this.#site.httpPort}`;
  }

  /** The main configuration around the site; written into the prefix. */
  #writeConfig(): string {
    const p = (name: string) => path.join(this.prefix, name);
    for (const dir of ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi', 'cache']) fs.mkdirSync(p(dir), { recursive: true });
    const main = [
      // As root, nginx's workers would become `nobody`, who cannot write the temp dirs.
      process.getuid?.() === 0 ? 'user root root;' : '',
      'worker_processes 2;',
      'daemon off;',
      `pid ${p('nginx.pid')};`,
      `error_log ${p('error.log')} warn;`,
      'events { worker_connections 1024; }',
      'http {',
      `  access_log ${p('access.log')};`,
      `  client_body_temp_path ${p('client_body')};`,
      `  proxy_temp_path ${p('proxy')};`,
      `  fastcgi_temp_path ${p('fastcgi')};`,
      `  uwsgi_temp_path ${p('uwsgi')};`,
      `  scgi_temp_path ${p('scgi')};`,
      siteConfig(this.#site),
      '}',
      '',
    ].join('\n');
    fs.writeFileSync(p('nginx.conf'), main);
    return p('nginx.conf');
  }

  async start(): Promise<void> {
    const conf = this.#writeConfig();
    const args = ['-p', this.prefix, '-c', conf, '-e', path.join(this.prefix, 'error.log')];
    execFileSync('nginx', [...args, '-t', '-q'], { stdio: 'pipe' });
    const child = spawn('nginx', args, { stdio: ['ignore', 'ignore', 'pipe'] });
    child.stderr!.on('data', (d: Buffer) => {
      this.#stderr += d.toString();
    });
    this.#child = child;
    await Promise.race([
      Promise.all([waitForPort(this.#site.httpPort, 10_000), waitForPort(this.#site.httpsPort, 10_000)]),
      new Promise((_, reject) => child.once('exit', (code) => reject(new Error(`nginx exited with ${code}: ${this.#stderr}${this.errorLog()}`)))),
    ]);
  }

  errorLog(): string {
    try {
      return fs.readFileSync(path.join(this.prefix, 'error.log'), 'utf8');
    } catch {
      return '';
    }
  }

  async close(): Promise<void> {
    const child = this.#child;
    this.#child = undefined;
    if (child && child.exitCode === null && child.signalCode === null) {
      const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      // SIGTERM: a fast shutdown of the master and its workers.
      child.kill('SIGTERM');
      const force = setTimeout(() => child.kill('SIGKILL'), 5000);
      await gone;
      clearTimeout(force);
    }
    removeTempDir(this.prefix);
  }
}
