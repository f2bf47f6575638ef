import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import { isRandomToken } from '../../server/core/access/secret-directory.js';
import { ROOT_DIR } from '../../server/core/root-dir.js';
import { LOCKOUT_MS, MAX_FAILED_ATTEMPTS } from '../../server/public/access/password-limiter.js';
import { accessCookie, GalleryFixture } from '../support/gallery-fixture.js';

const FAMILY_TOKEN = crypto.randomUUID();
/** A token written by hand into album.json, as the sample album once shipped one: as guessable as a password. */
const HAND_WRITTEN = 'garden-party-by-hand';

/** The `album-access` cookie a response sets: its tokens, or null when it removes the cookie. */
function accessSet(res: { headers: Record<string, unknown> }): string[] | null | undefined {
  const all = res.headers['set-cookie'];
  const cookies = (Array.isArray(all) ? (all as string[]) : []).filter((c) => c.startsWith('album-access='));
  expect(cookies.length, 'one album-access cookie at most').to.be.below(2);
  const [cookie] = cookies;
  if (cookie === undefined) return undefined;
  const value = decodeURIComponent(cookie.split(';')[0]!.slice('album-access='.length));
  return value === '' ? null : (JSON.parse(value) as string[]);
}

/**
 * Tokens are guesses too (docs/api.md#password-endpoints): a token that opens nothing counts
 * toward the password lockout, at most once per request, and leaves the cookie; a random token
 * (what the gallery makes) opens even while the address is locked out, a token written by hand
 * only while it is not. The lockout's clock is the gallery's, moved by the tests.
 */
describe('tokens as guesses', function () {
  this.timeout(30_000);
  const fx = new GalleryFixture();
  let clock = Date.now();
  let nextIp = 1;
  let ip = '';

  before(async () => {
    await fx.build({
      fam: { meta: { title: 'Family', password: 'pw', allowAnonymous: true, token: FAMILY_TOKEN }, files: ['a.jpg'] },
      'fam/kids': { meta: { title: 'Kids' }, files: ['k.jpg'] },
      garden: { meta: { title: 'Garden', password: 'g', allowAnonymous: true, token: HAND_WRITTEN }, files: ['r.jpg'] },
      pub: { meta: { title: 'Public' }, files: ['p.jpg'] },
    });
    await fx.start({ now: () => clock, env: { TRUST_PROXY: '1' } });
  });
  after(() => fx.close());
  beforeEach(() => {
    ip = `203.0.113.${nextIp++}`;
    clock = Date.now();
  });

  const app = () => request(fx.gallery.handler);
  const get = (url: string, cookie?: string) => {
    const r = app().get(url).set('X-Forwarded-For', ip);
    return cookie === undefined ? r : r.set('Cookie', cookie);
  };
  const checkAccess = (body: Record<string, unknown>, cookie?: string) => {
    const r = app().post('/api/check-access').set('X-Forwarded-For', ip);
    return (cookie === undefined ? r : r.set('Cookie', cookie)).send(body);
  };
  /** Failed attempts the address has left, as a wrong password reports them (that attempt counted). */
  const leftAfterWrongPassword = async () => {
    const res = await app().post('/api/check-password').set('X-Forwarded-For', ip).send({ albumPath: 'fam', password: 'wrong' });
    return res.status === 429 ? 'locked out' : (res.body.remainingAttempts as number);
  };
  const lockOut = async () => {
    for (let i = 0; i < MAX_FAILED_ATTEMPTS; i++) await leftAfterWrongPassword();
    expect(await leftAfterWrongPassword()).to.equal('locked out');
  };
  const thumb = (path: string) => `/api/thumbnail?path=${encodeURIComponent(path)}&size=small`;

  describe('a token that opens nothing', () => {
    it('should count once per request, whichever way it came', async () => {
      await get(`/photos/fam?token=${crypto.randomUUID()}`).expect(200);
      await get(thumb('fam/a.jpg')).set('X-Album-Token', crypto.randomUUID()).expect(401);
      await checkAccess({ albumPath: 'fam', providedToken: 'guess-1' }).expect(401);
      await get(thumb('fam/a.jpg'), accessCookie(['guess-2', 'guess-3'])).expect(401);
      // 64 guesses in one request are one failure, not 64.
      await checkAccess({ albumPath: 'fam', unlockedTokens: Array.from({ length: 64 }, (_, i) => `guess-${i}`) }).expect(401);
      expect(await leftAfterWrongPassword()).to.equal(MAX_FAILED_ATTEMPTS - 6);
    });

    it('should lock the address out after 10 such requests, as wrong passwords do', async () => {
      for (let i = 0; i < MAX_FAILED_ATTEMPTS; i++) await get(thumb('fam/a.jpg')).set('X-Album-Token', crypto.randomUUID()).expect(401);
      expect(await leftAfterWrongPassword()).to.equal('locked out');
    });

    it('should not count where nothing is protected, nor a token of another album, nor a URL token the album does not need', async () => {
      await get(`/photos/pub?token=${crypto.randomUUID()}`).expect(200);
      await get(thumb('pub/p.jpg'), accessCookie([crypto.randomUUID()])).expect(200);
      // The family's token, held by a visitor asking about the garden: real, so no guess.
      await get(thumb('garden/r.jpg'), accessCookie([FAMILY_TOKEN])).expect(401);
      expect(await leftAfterWrongPassword()).to.equal(MAX_FAILED_ATTEMPTS - 1);
    });

    it('should leave the cookie in the answer, and the list check-access answers', async () => {
      const stale = [crypto.randomUUID(), crypto.randomUUID()];
      // A cookie from before a rotation: the album's old token, with the one that still works.
      const res = await get('/photos/fam/kids', accessCookie([stale[0]!, FAMILY_TOKEN, stale[1]!])).expect(200);
      expect(res.text).to.include('data-name="k.jpg"');
      expect(accessSet(res)).to.deep.equal([FAMILY_TOKEN]);
      // Dropped, so the next requests present nothing in vain: the household is counted once.
      await get(thumb('fam/kids/k.jpg'), accessCookie([FAMILY_TOKEN])).expect(200);
      const only = await get('/photos/fam', accessCookie(stale)).expect(200);
      expect(accessSet(only)).to.equal(null);
      const answer = await checkAccess({ albumPath: 'fam', unlockedTokens: [stale[0], FAMILY_TOKEN] }).expect(200);
      expect(answer.body.unlockedTokens).to.deep.equal([FAMILY_TOKEN]);
      expect(await leftAfterWrongPassword()).to.equal(MAX_FAILED_ATTEMPTS - 4);
    });

    it('should keep what a grant adds without the tokens it dropped', async () => {
      const res = await get(`/photos/fam?token=${FAMILY_TOKEN}`, accessCookie(['stale-one'])).expect(200);
      expect(accessSet(res)).to.deep.equal([FAMILY_TOKEN]);
      expect(res.text).to.include('data-name="a.jpg"');
    });

    it('should not be counted while the address is locked out: nothing is added', async () => {
      await lockOut();
      clock += LOCKOUT_MS - 60_000;
      for (let i = 0; i < 5; i++) await get(thumb('fam/a.jpg'), accessCookie([crypto.randomUUID()])).expect(401);
      clock += 60_001;
      // The lockout ended when it would have: a fresh record.
      expect(await leftAfterWrongPassword()).to.equal(MAX_FAILED_ATTEMPTS - 1);
    });
  });

  describe('a token the gallery made (a random UUID)', () => {
    it('should open while the address is locked out: from the cookie, the header and the URL', async () => {
      await lockOut();
      const page = await get('/photos/fam/kids', accessCookie([FAMILY_TOKEN])).expect(200);
      expect(page.text).to.include('data-name="k.jpg"');
      await get(thumb('fam/a.jpg')).set('X-Album-Token', FAMILY_TOKEN).expect(200);
      await get(`/api/download-album?path=fam`).set('X-Album-Token', FAMILY_TOKEN).expect(200);
      const viaUrl = await get(`/photos/fam?token=${FAMILY_TOKEN}`).expect(200);
      expect(viaUrl.text).to.include('data-name="a.jpg"');
      const asked = await checkAccess({ albumPath: 'fam', providedToken: FAMILY_TOKEN }).expect(200);
      expect(asked.body.unlockedTokens).to.deep.equal([FAMILY_TOKEN]);
    });
  });

  describe('a token written by hand', () => {
    it('should open like any token while the address is not locked out', async () => {
      const page = await get(`/photos/garden?token=${HAND_WRITTEN}`).expect(200);
      expect(page.text).to.include('data-name="r.jpg"');
      await get(thumb('garden/r.jpg'), accessCookie([HAND_WRITTEN])).expect(200);
    });

    it('should open nothing while the address is locked out, as a password is not checked then, and open again after', async () => {
      await lockOut();
      const page = await get(`/photos/garden?token=${HAND_WRITTEN}`).expect(200);
      expect(page.text).to.include('id="password"').and.include('data-lockout-seconds').and.not.include('r.jpg');
      await get(thumb('garden/r.jpg'), accessCookie([HAND_WRITTEN])).expect(401);
      await get(thumb('garden/r.jpg')).set('X-Album-Token', HAND_WRITTEN).expect(401);
      await checkAccess({ albumPath: 'garden', unlockedTokens: [HAND_WRITTEN] }).expect(401);
      // Nor is it a way round the lockout through the password endpoints.
      await app()
        .post('/api/check-password')
        .set('X-Forwarded-For', ip)
        .set('Cookie', accessCookie([HAND_WRITTEN]))
        .send({ albumPath: 'garden', password: 'x' })
        .expect(429);
      // A real token, not a guess: it stays in the cookie for when the lockout ends.
      expect(accessSet(await get('/photos/garden', accessCookie([HAND_WRITTEN])).expect(200))).to.equal(undefined);
      clock += LOCKOUT_MS;
      await get(thumb('garden/r.jpg'), accessCookie([HAND_WRITTEN])).expect(200);
    });
  });

  describe('the sample albums', () => {
    it('should ship a random token on every protected album, the shared garden party included', () => {
      const albumsDir = path.join(ROOT_DIR, 'albums');
      const records = new Map<string, { password?: string; token?: string }>();
      for (const file of fs.readdirSync(albumsDir, { recursive: true, encoding: 'utf8' })) {
        if (path.basename(file) === 'album.json')
          records.set(path.dirname(file).split(path.sep).join('/'), JSON.parse(fs.readFileSync(path.join(albumsDir, file), 'utf8')));
      }
      const isProtected = (albumPath: string) =>
        [...records].some(([p, meta]) => meta.password !== undefined && (albumPath === p || albumPath.startsWith(`${p}/`)));
      const protectedAlbums = [...records].filter(([p]) => isProtected(p));
      expect(protectedAlbums.map(([p]) => p)).to.include('2023/events/garden-party');
      for (const [albumPath, meta] of protectedAlbums) expect(isRandomToken(meta.token ?? ''), albumPath).to.equal(true);
    });
  });
});
