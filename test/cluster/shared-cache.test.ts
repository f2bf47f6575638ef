import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { newShareLinkId } from '../../server/core/albums/share-links.js';
import { accessCookie, eventually, GalleryFixture } from '../support/gallery-fixture.js';
import { type GalleryProcess, startGalleryProcess } from '../support/gallery-process.js';
import { NginxServer } from '../support/nginx.js';
import { freePorts, onPath } from '../support/redis-server.js';
import { type Answer, ask } from './ask.js';

const ALBUM = 'garden';
const TOKEN = 't-garden-party';
/** A cached thumbnail's freshness in nginx for this test, in place of the shipped 10 minutes. */
const CACHE_SECONDS = 2;

/**
 * nginx's thumbnail cache (deploy/nginx.conf) and requests that carry credentials: they never
 * read it, store into it or refresh it, so a thumbnail cached while its album was public is
 * not kept public by a visitor with access revalidating it once the album has a password.
 * A real gallery process behind the real nginx; skipped with a message without nginx.
 */
describe("nginx's thumbnail cache and credentials (deploy/nginx.conf)", function () {
  this.timeout(120_000);
  const fx = new GalleryFixture();
  const linkId = newShareLinkId();
  const meta = {
    title: 'Garden party',
    token: TOKEN,
    allowAnonymous: true,
    shareLinks: [{ id: linkId, name: 'Grandma', created: new Date(Date.now() - 3_600_000).toISOString(), downloads: true }],
  };
  let gallery: GalleryProcess | undefined;
  let nginx: NginxServer | undefined;
  let ca: string;
  let site: string;

  /** Every way a request can carry access: a header or cookie, or a query added to the address. */
  const CREDENTIALS: ReadonlyArray<{ readonly what: string; readonly headers?: Record<string, string>; readonly query?: string }> = [
    { what: 'the album-access cookie', headers: { Cookie: `theme=dark; ${accessCookie([TOKEN])}` } },
    { what: "a share link's album-links cookie", headers: { Cookie: `album-links=${encodeURIComponent(JSON.stringify([linkId]))}` } },
    { what: 'X-Album-Token', headers: { 'X-Album-Token': TOKEN } },
    { what: 'a token in the address', query: `&token=${TOKEN}` },
    { what: 'a token in the address, its name percent-encoded', query: `&%74oken=${TOKEN}` },
  ];

  before(async function () {
    const missing = ['nginx', 'openssl'].filter((c) => !onPath(c));
    if (missing.length > 0) {
      console.log(`    (skipped: ${missing.join(', ')} not installed; Debian: apt-get install nginx-light openssl)`);
      this.skip();
    }
    await fx.build({ [ALBUM]: { meta, files: ['a.jpg', 'b.jpg'] } });
    const [port, httpPort, httpsPort] = (await freePorts(3)) as [number, number, number];
    gallery = await startGalleryProcess({
      HOST: '127.0.0.1',
      PORT: String(port),
      ALBUMS_DIR: fx.albumsDir,
      CACHE_DIR: fx.cacheDir,
      CONTENT_DIR: fx.contentDir,
      NODE_ENV: 'production',
      TRUST_PROXY: 'loopback',
      WATCH: 'poll',
      WATCH_INTERVAL: '0.5',
    });
    nginx = new NginxServer({ upstreams: [`127.0.0.1:${port}`], httpPort, httpsPort, thumbnailCacheSeconds: CACHE_SECONDS });
    await nginx.start();
    ca = fs.readFileSync(nginx.certificate, 'utf8');
    site = nginx.httpsUrl;
  });

  after(async () => {
    await nginx?.close();
    await gallery?.stop();
    await fx.close();
  });

  const thumbnail = (file: string, size: string) => `${site}/api/thumbnail?path=${encodeURIComponent(`${ALBUM}/${file}`)}&size=${size}&v=1`;
  const withCredential = (url: string, c: (typeof CREDENTIALS)[number]): Promise<Answer> => ask(`${url}${c.query ?? ''}`, { ca, headers: c.headers });
  const isJpeg = (a: Answer) => a.body.subarray(0, 2).equals(Buffer.from([0xff, 0xd8]));

  it('should neither answer a request carrying credentials from the cache nor store its answer', async () => {
    const cached = thumbnail('a.jpg', 'small');
    expect((await ask(cached, { ca })).headers['x-cache-status']).to.equal('MISS');
    expect((await ask(cached, { ca })).headers['x-cache-status']).to.equal('HIT');
    const fresh = thumbnail('b.jpg', 'small');
    for (const c of CREDENTIALS) {
      for (const url of [cached, fresh]) {
        const res = await withCredential(url, c);
        expect(res.status, c.what).to.equal(200);
        expect(isJpeg(res), c.what).to.equal(true);
        expect(res.headers['x-cache-status'], `${c.what}: ${url}`).to.equal('BYPASS');
      }
    }
    // None of them stored the thumbnail they were sent.
    expect((await ask(fresh, { ca })).headers['x-cache-status']).to.equal('MISS');
  });

  it('should stop serving a thumbnail cached while its album was public once the album has a password, whoever with access asks for it', async () => {
    const url = thumbnail('a.jpg', 'medium');
    expect((await ask(url, { ca })).headers['x-cache-status']).to.equal('MISS');
    const cachedAt = Date.now();
    expect((await ask(url, { ca })).headers['x-cache-status']).to.equal('HIT');

    // The owner gives the album a password; the gallery sees it within a poll.
    fs.writeFileSync(path.join(fx.path(ALBUM), 'album.json'), JSON.stringify({ ...meta, password: 'Open-Sesame' }));
    const direct = `${gallery!.url}/api/thumbnail?path=${encodeURIComponent(`${ALBUM}/b.jpg`)}&size=large`;
    await eventually(async () => (await ask(direct)).status === 401, 15_000, 'the password seen by the gallery');

    // The cached copy expires (nginx counts whole seconds: up to one more); visitors with
    // access come by, each of whom nginx would have revalidated it with.
    await new Promise((r) => setTimeout(r, Math.max(0, cachedAt + CACHE_SECONDS * 1000 + 1500 - Date.now())));
    for (const c of CREDENTIALS) {
      const res = await withCredential(url, c);
      expect([res.status, res.headers['x-cache-status']], c.what).to.deep.equal([200, 'BYPASS']);
      expect(res.headers['cache-control'], c.what).to.match(/^private/);
    }

    const stranger = await ask(url, { ca });
    expect(stranger.headers['x-cache-status']).to.not.equal('HIT');
    expect(isJpeg(stranger), 'the cached image').to.equal(false);
    expect([stranger.status, JSON.parse(stranger.body.toString())]).to.deep.equal([401, { error: 'This album is protected: unlock it first' }]);
  });
});
