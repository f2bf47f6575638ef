import { expect } from 'chai';
import request from 'supertest';
import { newShareLinkId } from '../../server/core/albums/share-links.js';
import { GalleryFixture } from '../support/gallery-fixture.js';

/** The `album-links` cookie as the server writes it. */
const linksCookie = (ids: readonly string[]) => `album-links=${encodeURIComponent(JSON.stringify(ids))}`;

/** The ids of the `album-links` cookie a response sets. */
function linksSet(res: { headers: Record<string, unknown> }): { ids: string[] } {
  const all = res.headers['set-cookie'];
  const cookie = (Array.isArray(all) ? (all as string[]) : []).find((c) => c.startsWith('album-links='));
  if (!cookie) throw new Error('no album-links cookie set');
  return { ids: JSON.parse(decodeURIComponent(cookie.split(';')[0]!.slice('album-links='.length))) as string[] };
}

/**
 * Share links and the password lockout (docs/api.md#share-links): a link that works always
 * opens, even for an address locked out; one that opens nothing is a failed attempt only when
 * the browser navigates to it, never when another site's page merely points at it.
 */
describe('share links that open nothing, and the lockout', function () {
  this.timeout(30_000);
  const fx = new GalleryFixture();
  const full = { id: newShareLinkId(), name: 'Grandma', created: new Date(Date.now() - 3_600_000).toISOString(), downloads: true };
  let nextIp = 1;
  /** Each test its own client address: the lockout counts per address. */
  let ip = '';

  before(async () => {
    await fx.build({
      fam: { meta: { title: 'Family', password: 'pw', token: 't-family-token', shareLinks: [full] }, files: ['a.jpg'] },
      'fam/kids': { meta: { title: 'Kids' }, files: ['k.jpg'] },
    });
    await fx.start({ env: { TRUST_PROXY: '1' } });
  });
  after(() => fx.close());
  beforeEach(() => {
    ip = `198.51.100.${nextIp++}`;
  });

  const get = (url: string, cookies: readonly string[] = []) => {
    const r = request(fx.gallery.handler).get(url).set('X-Forwarded-For', ip);
    return cookies.length ? r.set('Cookie', cookies.join('; ')) : r;
  };
  const media = { thumbnail: (p: string) => `/api/thumbnail?path=${encodeURIComponent(p)}&size=small` };

  const wrongPassword = () => request(fx.gallery.handler).post('/api/check-password').set('X-Forwarded-For', ip).send({ albumPath: 'fam', password: 'nope' });

  it('should lock a client out after 10 guesses, as wrong passwords do, and only that client', async () => {
    for (let i = 0; i < 10; i++) await get(`/s/${newShareLinkId()}`).expect(404);
    const locked = await get(`/s/${newShareLinkId()}`).expect(429);
    expect(locked.text).to.include('Too many wrong links or passwords').and.not.include('data-name');
    expect(locked.text).to.match(/You can try again in <time class="lockout__time" datetime="PT1[45]M\d+S" aria-live="off">1[45] min/);
    expect(locked.text).to.match(/\(at <time class="lockout__end" datetime="\d{4}-\d\d-\d\dT[\d:.]+Z">\d\d:\d\d \S+<\/time>\)/);
    expect(locked.text).to.match(/<script type="module" src="\/assets\/locked\.js\?v=/);
    expect(Number(locked.headers['retry-after'])).to.be.within(800, 900);
    // The same lockout as the password endpoints.
    const password = await request(fx.gallery.handler)
      .post('/api/check-password')
      .set('X-Forwarded-For', ip)
      .send({ albumPath: 'fam', password: 'pw' })
      .expect(429);
    expect(password.body.rateLimited).to.equal(true);
    ip = '198.51.100.250';
    await get(`/s/${newShareLinkId()}`).expect(404);
  });

  it('should open a working link for an address locked out by wrong passwords: a 144-bit secret is no guess', async () => {
    for (let i = 0; i < 10; i++) await wrongPassword().expect(401);
    await wrongPassword().expect(429);
    const page = await get(`/s/${full.id}`).expect(200);
    expect(page.text).to.include('<h1>Family</h1>').and.include('data-name="a.jpg"');
    // Its cookie opens the album's media and pages meanwhile, as on any other day.
    const cookie = [linksCookie(linksSet(page).ids)];
    await get(media.thumbnail('fam/a.jpg'), cookie).expect(200);
    await get('/photos/fam/kids', cookie).expect(200);
    // A wrong one is still refused with the lockout page, without being looked at.
    await get(`/s/${newShareLinkId()}`).expect(429);
  });

  // What another site's page can make a browser ask for, with what the browser says of it.
  const fromAnotherSite = {
    image: { 'Sec-Fetch-Site': 'cross-site', 'Sec-Fetch-Mode': 'no-cors', 'Sec-Fetch-Dest': 'image' },
    fetch: { 'Sec-Fetch-Site': 'cross-site', 'Sec-Fetch-Mode': 'cors', 'Sec-Fetch-Dest': 'empty' },
    frame: { 'Sec-Fetch-Site': 'cross-site', 'Sec-Fetch-Mode': 'navigate', 'Sec-Fetch-Dest': 'iframe' },
    script: { 'Sec-Fetch-Site': 'cross-site', 'Sec-Fetch-Mode': 'no-cors', 'Sec-Fetch-Dest': 'script' },
  };

  for (const [what, headers] of Object.entries(fromAnotherSite)) {
    it(`should answer a link that opens nothing asked for by another site's ${what} with 404, and count none of 10`, async () => {
      for (let i = 0; i < 10; i++) {
        const res = await get(`/s/${newShareLinkId()}`).set(headers).expect(404);
        expect(res.text).to.include('This link has expired or was revoked');
      }
      // Nothing was counted: the first wrong password is the first failure.
      expect((await wrongPassword().expect(401)).body.remainingAttempts).to.equal(9);
    });
  }

  it('should count a top-level navigation, from another site or typed, and a client without Sec-Fetch headers', async () => {
    await get(`/s/${newShareLinkId()}`).set({ 'Sec-Fetch-Site': 'cross-site', 'Sec-Fetch-Mode': 'navigate', 'Sec-Fetch-Dest': 'document' }).expect(404);
    await get(`/s/${newShareLinkId()}`)
      .set({ 'Sec-Fetch-Site': 'none', 'Sec-Fetch-Mode': 'navigate', 'Sec-Fetch-Dest': 'document', 'Sec-Fetch-User': '?1' })
      .expect(404);
    await get(`/s/${newShareLinkId()}`).expect(404);
    expect((await wrongPassword().expect(401)).body.remainingAttempts).to.equal(6);
  });

  it('should not count a link that works', async () => {
    for (let i = 0; i < 12; i++) await get(`/s/${full.id}`).expect(200);
    await get(`/s/${newShareLinkId()}`).expect(404);
  });
});
