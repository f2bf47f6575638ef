import { expect } from 'chai';
import request from 'supertest';
import { LOCKOUT_MS } from '../../server/public/access/password-limiter.js';
import { accessCookie, GalleryFixture } from '../support/gallery-fixture.js';

/** The `album-access` cookie of a response, as a request header value, and its attributes. */
function cookieOf(res: request.Response): { header: string; attrs: string; tokens: string[] } | undefined {
  const raw = ([] as string[]).concat(res.headers['set-cookie'] ?? []).find((c) => c.startsWith('album-access='));
  if (!raw) return undefined;
  const [pair, ...attrs] = raw.split(';');
  return { header: pair!, attrs: attrs.join(';'), tokens: JSON.parse(decodeURIComponent(pair!.slice('album-access='.length))) as string[] };
}

const TREE = {
  '2024/open/public': { meta: { title: 'Public', token: 't-public' }, files: ['pub.jpg'] },
  '2024/family/wedding': { meta: { title: 'Wedding', password: 'Open-Sesame', token: 't-wedding' }, files: ['wedding-kiss.jpg'] },
  '2024/family/wedding/reception': { meta: { title: 'Reception', token: 't-reception' }, files: ['reception-cake.jpg'] },
  '2024/family/wedding/reception/late': { meta: { title: 'Late', token: 't-late' }, files: ['late-dance.jpg'] },
  '2024/family/wedding/vip': { meta: { title: 'VIP', password: 'vip-only', token: 't-vip' }, files: ['vip-table.jpg'] },
  '2024/family/garden': { meta: { title: 'Garden', password: 'garden', allowAnonymous: true, token: 'share-garden' }, files: ['garden-rose.jpg'] },
  '2024/family/garden/shed': { meta: { title: 'Shed', token: 't-shed' }, files: ['shed.jpg'] },
  '2024/family/closed': { meta: { title: 'Closed', password: 'closed', allowAnonymous: false, token: 'share-closed' }, files: ['closed.jpg'] },
};

describe('access control', () => {
  const fx = new GalleryFixture();
  let clock: number;
  let app: ReturnType<typeof request>;

  before(async () => {
    await fx.build(TREE);
  });
  beforeEach(async () => {
    clock = Date.now();
    await fx.gallery?.close();
    await fx.start({ now: () => clock });
    app = request(fx.gallery.handler);
  });
  after(() => fx.close());

  const unlock = (password: string, albumPath = '2024/family/wedding', extra: Record<string, string> = {}) =>
    app
      .post('/api/unlock')
      .type('form')
      .send({ albumPath, password, ...extra });
  const checkPassword = (password: string, albumPath = '2024/family/wedding') => app.post('/api/check-password').send({ albumPath, password });

  describe('a locked album page', () => {
    it('should render only the password form, with no media URL or file name of the album or its descendants', async () => {
      const res = await app.get('/photos/2024/family/wedding').expect(200);
      expect(res.text).to.include('<form method="post" action="/api/unlock"').and.include('Wedding');
      for (const leak of [
        'wedding-kiss',
        'reception-cake',
        'late-dance',
        'vip-table',
        '/albums/',
        '/api/thumbnail',
        'Reception',
        'VIP',
        'srcset',
        't-wedding',
      ]) {
        expect(res.text, leak).to.not.include(leak);
      }
      expect(res.headers['cache-control']).to.equal('no-store');
      expect(res.headers['referrer-policy']).to.equal('same-origin');
    });

    it('should lock a passwordless child of a protected album and a grandchild', async () => {
      for (const p of ['2024/family/wedding/reception', '2024/family/wedding/reception/late']) {
        const res = await app.get(`/photos/${p}`).expect(200);
        expect(res.text).to.include('action="/api/unlock"').and.not.include('.jpg');
        expect(res.headers['cache-control']).to.equal('no-store');
      }
    });

    it('should show the message of ?error=', async () => {
      expect((await app.get('/photos/2024/family/wedding?error=wrong-password')).text).to.include('Wrong password');
      // Nobody is locked out here: the message says the wait is over (test/pages/locked-states.test.ts has the lockout).
      const limited = await app.get('/photos/2024/family/wedding?error=rate-limited');
      expect(limited.text).to.include('Too many wrong passwords').and.include('You can try again now.');
    });

    it('should treat a malformed cookie as holding nothing', async () => {
      for (const cookie of ['album-access=not-json', 'album-access=%7B%22a%22%3A1%7D', 'album-access=%5B1%2C2%5D', 'album-access=']) {
        const res = await app.get('/photos/2024/family/wedding').set('Cookie', cookie).expect(200);
        expect(res.text, cookie).to.include('action="/api/unlock"');
      }
    });

    it('should make a cross-site arrival without the cookie reload once, same-site', async () => {
      const res = await app.get('/photos/2024/family/wedding').set('Sec-Fetch-Site', 'cross-site').expect(200);
      // No password form (the header's language switcher is a form of its own).
      expect(res.text).to.include('http-equiv="refresh"').and.not.include('wedding-kiss').and.not.include('class="unlock__form"');
      // The reload is same-origin, so it gets the form (or the album, with the cookie).
      const again = await app.get('/photos/2024/family/wedding').set('Sec-Fetch-Site', 'same-origin').expect(200);
      expect(again.text).to.include('class="unlock__form"').and.not.include('http-equiv="refresh"');
    });
  });

  describe('POST /api/unlock', () => {
    it('should set the cookie with the documented flags and redirect to the album', async () => {
      const res = await unlock('Open-Sesame').expect(302);
      expect(res.headers.location).to.equal('/photos/2024/family/wedding');
      const c = cookieOf(res)!;
      expect(c.tokens).to.deep.equal(['t-wedding']);
      expect(c.attrs)
        .to.match(/Max-Age=86400/)
        .and.match(/Path=\//)
        .and.match(/HttpOnly/)
        .and.match(/SameSite=Strict/);
      expect(c.attrs).to.not.match(/Secure/);
      const page = await app.get('/photos/2024/family/wedding').set('Cookie', c.header).expect(200);
      expect(page.text).to.include('wedding-kiss.jpg').and.include('Reception').and.not.include('action="/api/unlock"');
      // The child with its own password shows as a locked card, with nothing of its content.
      expect(page.text).to.include('VIP').and.not.include('vip-table');
    });

    it('should compare case-sensitively', async () => {
      const res = await unlock('open-sesame').expect(302);
      expect(res.headers.location).to.equal('/photos/2024/family/wedding?error=wrong-password');
      expect(cookieOf(res)).to.equal(undefined);
    });

    it('should open the passwordless child and grandchild, not the child with its own password', async () => {
      const c = cookieOf(await unlock('Open-Sesame'))!;
      expect((await app.get('/photos/2024/family/wedding/reception').set('Cookie', c.header)).text).to.include('reception-cake.jpg');
      expect((await app.get('/photos/2024/family/wedding/reception/late').set('Cookie', c.header)).text).to.include('late-dance.jpg');
      await app.get('/albums/2024/family/wedding/reception/late/late-dance.jpg').set('Cookie', c.header).expect(200);
      const vip = await app.get('/photos/2024/family/wedding/vip').set('Cookie', c.header);
      expect(vip.text).to.include('action="/api/unlock"').and.not.include('vip-table');
      await app.get('/albums/2024/family/wedding/vip/vip-table.jpg').set('Cookie', c.header).expect(401);
    });

    it('should check a child password against the album that blocks it (the parent)', async () => {
      const res = await unlock('Open-Sesame', '2024/family/wedding/reception').expect(302);
      expect(res.headers.location).to.equal('/photos/2024/family/wedding/reception');
      expect(cookieOf(res)!.tokens).to.deep.equal(['t-wedding']);
    });

    it('should add to the tokens already held', async () => {
      const first = cookieOf(await unlock('Open-Sesame'))!;
      const second = await unlock('vip-only', '2024/family/wedding/vip').set('Cookie', first.header).expect(302);
      expect(cookieOf(second)!.tokens).to.deep.equal(['t-wedding', 't-vip']);
    });

    it('should succeed without counting for a public or already unlocked album', async () => {
      const res = await unlock('anything', '2024/open/public').expect(302);
      expect(res.headers.location).to.equal('/photos/2024/open/public');
      const held = await unlock('wrong', '2024/family/wedding')
        .set('Cookie', accessCookie(['t-wedding']))
        .expect(302);
      expect(held.headers.location).to.equal('/photos/2024/family/wedding');
      const r = await checkPassword('bad').expect(401);
      expect(r.body.remainingAttempts).to.equal(9);
    });

    it('should redirect to a safe returnUrl on this site', async () => {
      const res = await unlock('Open-Sesame', '2024/family/wedding', { returnUrl: '/photos/2024/family/wedding/reception#photo=x' });
      expect(res.headers.location).to.equal('/photos/2024/family/wedding/reception#photo=x');
    });

    for (const evil of [
      '//evil.example',
      'https://evil.example',
      '/\\evil.example',
      '\\\\evil.example',
      '/\\/evil.example',
      'javascript:alert(1)',
      '/\r\nSet-Cookie:x',
      '/ok\u0000',
      '/\tevil',
      'evil.example',
    ]) {
      it(`should not redirect to ${JSON.stringify(evil)}`, async () => {
        const res = await unlock('Open-Sesame', '2024/family/wedding', { returnUrl: evil }).expect(302);
        expect(res.headers.location).to.equal('/photos/2024/family/wedding');
      });
    }

    it('should answer a missing field or a bad path with 400 JSON and an unknown album with 404 JSON', async () => {
      expect((await app.post('/api/unlock').type('form').send({ password: 'x' }).expect(400)).body).to.deep.equal({
        error: 'Missing required parameter: albumPath',
      });
      expect((await app.post('/api/unlock').type('form').send({ albumPath: '2024/family/wedding' }).expect(400)).body).to.deep.equal({
        error: 'Missing required parameter: password',
      });
      await unlock('x', '../etc').expect(400);
      await unlock('x', '/etc').expect(400);
      expect((await unlock('x', '2024/none/here').expect(404)).body.error).to.be.a('string');
      await app.post('/api/unlock').send({ albumPath: '2024/family/wedding', password: 'x' }).expect(400);
    });

    it('should set a secure cookie in production', async () => {
      await fx.gallery.close();
      await fx.start({ env: { NODE_ENV: 'production' } });
      const res = await request(fx.gallery.handler).post('/api/unlock').type('form').send({ albumPath: '2024/family/wedding', password: 'Open-Sesame' });
      expect(cookieOf(res)!.attrs).to.match(/Secure/);
    });
  });

  describe('URL token sharing', () => {
    it('should render an allowAnonymous album for its token, add it to the cookie, and never redirect', async () => {
      const res = await app.get('/photos/2024/family/garden?token=share-garden').expect(200);
      expect(res.text).to.include('garden-rose.jpg').and.not.include('action="/api/unlock"');
      expect(res.text).to.include('/assets/album.js');
      expect(cookieOf(res)!.tokens).to.deep.equal(['share-garden']);
      expect((await app.get('/photos/2024/family/garden/shed?token=share-garden')).text).to.include('shed.jpg');
    });

    it('should ignore a wrong token', async () => {
      const res = await app.get('/photos/2024/family/garden?token=share-gardex').expect(200);
      expect(res.text).to.include('action="/api/unlock"').and.not.include('garden-rose');
      expect(cookieOf(res)).to.equal(undefined);
    });

    it('should ignore the token of an album whose allowAnonymous is false', async () => {
      const res = await app.get('/photos/2024/family/closed?token=share-closed').expect(200);
      expect(res.text).to.include('action="/api/unlock"').and.not.include('closed.jpg');
      await app.get('/albums/2024/family/closed/closed.jpg?token=share-closed').expect(401);
    });

    it('should open media URLs of the shared album', async () => {
      await app.get('/albums/2024/family/garden/garden-rose.jpg?token=share-garden').expect(200);
    });
  });

  describe('POST /api/check-password', () => {
    it('should answer success with the cookie', async () => {
      const res = await checkPassword('Open-Sesame').expect(200);
      expect(res.body).to.deep.equal({ success: true });
      expect(cookieOf(res)!.tokens).to.deep.equal(['t-wedding']);
    });

    it('should count down remainingAttempts and then answer 429', async () => {
      for (let i = 9; i >= 0; i--) {
        const res = await checkPassword(`wrong-${i}`).expect(401);
        expect(res.body).to.include({ success: false, remainingAttempts: i });
      }
      const limited = await checkPassword('Open-Sesame').expect(429);
      expect(limited.body).to.deep.include({ success: false, rateLimited: true });
      expect(limited.body.error).to.match(/retry in 15 minutes/);
      expect(cookieOf(limited)).to.equal(undefined);
    });

    it('should answer bad JSON, a wrong content type and a huge body with JSON errors', async () => {
      const bad = await app.post('/api/check-password').set('Content-Type', 'application/json').send('{"albumPath":').expect(400);
      expect(bad.body.error).to.be.a('string');
      expect(bad.text).to.not.include('at ');
      await app.post('/api/check-password').type('form').send({ albumPath: '2024/family/wedding', password: 'x' }).expect(400);
      const huge = await app
        .post('/api/check-password')
        .send({ albumPath: '2024/family/wedding', password: 'x'.repeat(150_000) })
        .expect(413);
      expect(huge.body).to.deep.equal({ error: 'Request body too large' });
      await app.post('/api/check-password').send({ albumPath: 5, password: 'x' }).expect(400);
    });
  });

  describe('POST /api/check-access', () => {
    const checkAccess = (body: Record<string, unknown>) => app.post('/api/check-access').send(body);

    it('should grant a public album', async () => {
      expect((await checkAccess({ albumPath: '2024/open/public' }).expect(200)).body).to.deep.equal({ success: true, unlockedTokens: [] });
    });

    it('should name the blocking album when a password is required', async () => {
      const res = await checkAccess({ albumPath: '2024/family/wedding/reception/late', unlockedTokens: [] }).expect(401);
      expect(res.body).to.deep.equal({ success: false, requiresPassword: true, blockingAlbum: { path: '2024/family/wedding', title: 'Wedding' } });
    });

    it('should grant with held tokens and with the right password, returning the token list', async () => {
      expect((await checkAccess({ albumPath: '2024/family/wedding/reception', unlockedTokens: ['t-wedding'] }).expect(200)).body).to.deep.equal({
        success: true,
        unlockedTokens: ['t-wedding'],
      });
      const res = await checkAccess({ albumPath: '2024/family/wedding/vip', unlockedTokens: ['t-wedding'], password: 'vip-only' }).expect(200);
      expect(res.body).to.deep.equal({ success: true, unlockedTokens: ['t-wedding', 't-vip'] });
      expect(cookieOf(res)!.tokens).to.include('t-vip');
    });

    it('should add remainingAttempts to a wrong password', async () => {
      const res = await checkAccess({ albumPath: '2024/family/wedding', password: 'nope' }).expect(401);
      expect(res.body).to.deep.equal({
        success: false,
        requiresPassword: true,
        blockingAlbum: { path: '2024/family/wedding', title: 'Wedding' },
        remainingAttempts: 9,
      });
    });

    it('should accept a provided URL token only for an allowAnonymous album', async () => {
      const res = await checkAccess({ albumPath: '2024/family/garden/shed', providedToken: 'share-garden' }).expect(200);
      expect(res.body).to.deep.equal({ success: true, unlockedTokens: ['share-garden'] });
      expect(cookieOf(res)!.tokens).to.deep.equal(['share-garden']);
      await checkAccess({ albumPath: '2024/family/closed', providedToken: 'share-closed' }).expect(401);
    });

    it('should not count a request without a password', async () => {
      for (let i = 0; i < 12; i++) await checkAccess({ albumPath: '2024/family/wedding' }).expect(401);
      expect((await checkPassword('nope').expect(401)).body.remainingAttempts).to.equal(9);
    });

    it('should reject a malformed unlockedTokens with 400', async () => {
      await checkAccess({ albumPath: '2024/family/wedding', unlockedTokens: 'x' }).expect(400);
      await checkAccess({ albumPath: '2024/family/wedding', unlockedTokens: [1] }).expect(400);
    });
  });

  describe('cross-site password attempts', () => {
    const rightPassword = () => unlock('Open-Sesame').expect(302).expect('Location', '/photos/2024/family/wedding');

    for (const [what, headers] of [
      ['Sec-Fetch-Site: cross-site', { 'Sec-Fetch-Site': 'cross-site', Origin: 'https://evil.example' }],
      ['a foreign Origin', { Origin: 'https://evil.example' }],
      ['Origin: null', { Origin: 'null' }],
      ['an Origin naming another port of this host', { Host: 'gallery.example', Origin: 'http://gallery.example:8080' }],
    ] as const) {
      it(`should refuse ${what} with 403 JSON on the three endpoints, without counting`, async () => {
        for (let i = 0; i < 12; i++) {
          const res = await unlock(`wrong-${i}`)
            .set(headers)
            .expect(403)
            .expect('Content-Type', /application\/json/);
          expect(res.body.error).to.be.a('string').and.not.empty;
          expect(cookieOf(res)).to.equal(undefined);
        }
        await checkPassword('Open-Sesame').set(headers).expect(403);
        await app.post('/api/check-access').set(headers).send({ albumPath: '2024/family/wedding', password: 'bad' }).expect(403);
        expect((await checkPassword('bad').expect(401)).body.remainingAttempts).to.equal(9);
        await rightPassword();
      });
    }

    it('should let same-origin and same-site browsers through, and count their failures', async () => {
      const sameOrigin = { 'Sec-Fetch-Site': 'same-origin', Origin: 'https://gallery.example', Host: 'gallery.example' };
      const sameSite = { 'Sec-Fetch-Site': 'same-site', Origin: 'https://www.gallery.example', Host: 'photos.gallery.example' };
      await unlock('bad')
        .set(sameOrigin)
        .expect(302)
        .expect('Location', /error=wrong-password/);
      await unlock('bad')
        .set(sameSite)
        .expect(302)
        .expect('Location', /error=wrong-password/);
      expect((await checkPassword('bad').expect(401)).body.remainingAttempts).to.equal(7);
      const res = await unlock('Open-Sesame').set(sameOrigin).expect(302).expect('Location', '/photos/2024/family/wedding');
      expect(cookieOf(res)).to.not.equal(undefined);
    });

    it('should let an older browser through whose Origin is this site, whatever its scheme and default port', async () => {
      await unlock('Open-Sesame')
        .set({ Host: 'gallery.example', Origin: 'https://gallery.example' })
        .expect(302)
        .expect('Location', '/photos/2024/family/wedding');
      await unlock('Open-Sesame')
        .set({ Host: 'gallery.example:443', Origin: 'https://gallery.example' })
        .expect(302)
        .expect('Location', '/photos/2024/family/wedding');
      await checkPassword('Open-Sesame').set({ Host: 'gallery.example:8443', Origin: 'https://gallery.example:8443' }).expect(200);
    });

    it('should compare Origin with X-Forwarded-Host only with TRUST_PROXY', async () => {
      const viaProxy = { Host: '127.0.0.1:3000', 'X-Forwarded-Host': 'photos.example', 'X-Forwarded-Proto': 'https', Origin: 'https://photos.example' };
      await unlock('Open-Sesame').set(viaProxy).expect(403);
      await fx.gallery.close();
      await fx.start({ env: { TRUST_PROXY: 'loopback' } });
      await request(fx.gallery.handler)
        .post('/api/unlock')
        .type('form')
        .set(viaProxy)
        .send({ albumPath: '2024/family/wedding', password: 'Open-Sesame' })
        .expect(302)
        .expect('Location', '/photos/2024/family/wedding');
    });
  });

  describe('rate limiting', () => {
    const failTimes = async (n: number) => {
      for (let i = 0; i < n; i++) await unlock(`wrong-${i}`).expect(302);
    };

    it('should refuse the 11th attempt even with the right password, with error=rate-limited', async () => {
      await failTimes(10);
      const res = await unlock('Open-Sesame').expect(302);
      expect(res.headers.location).to.equal('/photos/2024/family/wedding?error=rate-limited');
      expect(cookieOf(res)).to.equal(undefined);
    });

    it('should count failures across the three endpoints', async () => {
      await failTimes(4);
      for (let i = 0; i < 3; i++) await checkPassword('bad');
      for (let i = 0; i < 2; i++) await app.post('/api/check-access').send({ albumPath: '2024/family/wedding', password: 'bad' });
      expect((await checkPassword('bad').expect(401)).body.remainingAttempts).to.equal(0);
      await app.post('/api/check-access').send({ albumPath: '2024/family/wedding', password: 'Open-Sesame' }).expect(429);
    });

    it('should end the lockout 15 minutes after the 10th failure', async () => {
      await failTimes(9);
      clock += 60_000;
      await failTimes(1);
      clock += LOCKOUT_MS - 1;
      expect((await unlock('Open-Sesame')).headers.location).to.include('error=rate-limited');
      clock += 1;
      const res = await unlock('Open-Sesame').expect(302);
      expect(res.headers.location).to.equal('/photos/2024/family/wedding');
      expect(cookieOf(res)).to.not.equal(undefined);
    });

    it('should forget failures older than 15 minutes', async () => {
      await failTimes(9);
      clock += LOCKOUT_MS;
      expect((await checkPassword('bad').expect(401)).body.remainingAttempts).to.equal(9);
    });

    it('should clear the count on success', async () => {
      await failTimes(9);
      await unlock('Open-Sesame').expect(302);
      expect((await checkPassword('bad').expect(401)).body.remainingAttempts).to.equal(9);
    });

    it('should not count malformed requests or unknown albums', async () => {
      for (let i = 0; i < 12; i++) {
        await app.post('/api/unlock').type('form').send({ albumPath: '2024/family/wedding' }).expect(400);
        await unlock('x', '2024/nope/nope').expect(404);
      }
      expect((await checkPassword('bad').expect(401)).body.remainingAttempts).to.equal(9);
    });

    it('should be cleared by a server restart', async () => {
      await failTimes(10);
      await fx.gallery.close();
      await fx.start();
      const res = await request(fx.gallery.handler).post('/api/unlock').type('form').send({ albumPath: '2024/family/wedding', password: 'Open-Sesame' });
      expect(res.headers.location).to.equal('/photos/2024/family/wedding');
    });

    it('should give exactly 10 wrong-password answers to concurrent guesses', async () => {
      const results = await Promise.all(Array.from({ length: 30 }, (_, i) => unlock(`guess-${i}`)));
      const wrong = results.filter((r) => r.headers.location?.endsWith('error=wrong-password')).length;
      const limited = results.filter((r) => r.headers.location?.endsWith('error=rate-limited')).length;
      expect(wrong).to.equal(10);
      expect(limited).to.equal(20);
    });

    it('should ignore a spoofed X-Forwarded-For without TRUST_PROXY', async () => {
      for (let i = 0; i < 10; i++) await unlock('bad').set('X-Forwarded-For', `10.0.0.${i}`);
      const res = await unlock('Open-Sesame').set('X-Forwarded-For', '10.9.9.9');
      expect(res.headers.location).to.include('error=rate-limited');
    });

    it('should use X-Forwarded-For as the client IP with TRUST_PROXY', async () => {
      await fx.gallery.close();
      await fx.start({ env: { TRUST_PROXY: 'loopback' } });
      const proxied = request(fx.gallery.handler);
      for (let i = 0; i < 10; i++)
        await proxied.post('/api/unlock').type('form').set('X-Forwarded-For', '203.0.113.7').send({ albumPath: '2024/family/wedding', password: 'bad' });
      const blocked = await proxied
        .post('/api/unlock')
        .type('form')
        .set('X-Forwarded-For', '203.0.113.7')
        .send({ albumPath: '2024/family/wedding', password: 'Open-Sesame' });
      expect(blocked.headers.location).to.include('error=rate-limited');
      const other = await proxied
        .post('/api/unlock')
        .type('form')
        .set('X-Forwarded-For', '203.0.113.8')
        .send({ albumPath: '2024/family/wedding', password: 'Open-Sesame' });
      expect(other.headers.location).to.equal('/photos/2024/family/wedding');
    });
  });
});
