import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect } from 'chai';
import request from 'supertest';
import { VIEWS_DIR } from '../../server/core/root-dir.js';
import { LOCKOUT_MS } from '../../server/public/access/password-limiter.js';
import { waitText } from '../../server/public/pages/lockout-notice.js';
import { translatorFor } from '../../server/http/i18n.js';
import { GalleryFixture } from '../support/gallery-fixture.js';

/**
 * The password form while the visitor's network is locked out (docs/api.md#password-endpoints):
 * the real time left, a disabled form, and a right password sent then told it was not checked
 * rather than wrong. The lockout clock is the gallery's (`now`), moved by the tests.
 */
describe('the password form while locked out', function () {
  this.timeout(30_000);
  const fx = new GalleryFixture();
  let clock: number;
  let app: ReturnType<typeof request>;
  const ALBUM = '2024/family/wedding';

  before(async () => {
    await fx.build({ [ALBUM]: { meta: { title: 'Wedding', password: 'Open-Sesame', token: 't-wedding' }, files: ['kiss.jpg'] } });
  });
  beforeEach(async () => {
    clock = Date.now();
    await fx.gallery?.close();
    await fx.start({ now: () => clock });
    app = request(fx.gallery.handler);
  });
  after(() => fx.close());

  const unlock = (password: string) => app.post('/api/unlock').type('form').send({ albumPath: ALBUM, password }).expect(302);
  const page = async (query = '') => (await app.get(`/photos/${ALBUM}${query}`).expect(200)).text;
  const lockOut = async () => {
    for (let i = 0; i < 10; i++) await unlock(`wrong-${i}`);
  };
  const secondsLeft = (html: string) => Number(/data-lockout-seconds="(\d+)"/.exec(html)?.[1]);
  const isDisabled = (html: string) => /<fieldset class="unlock__fields" disabled>/.test(html);

  it('should tell a right password sent during the lockout that it was not checked, not that it was wrong', async () => {
    await lockOut();
    const res = await unlock('Open-Sesame');
    expect(res.headers.location).to.equal(`/photos/${ALBUM}?error=rate-limited`);
    const html = await page('?error=rate-limited');
    expect(html).to.include('Your password was not checked.').and.include('Too many wrong passwords were tried from this network');
    expect(html).to.not.include('Wrong password');
    expect(isDisabled(html)).to.equal(true);
    expect(secondsLeft(html)).to.equal(LOCKOUT_MS / 1000);
    expect(html).to.include('You can try again in <time class="lockout__time" datetime="PT15M0S" aria-live="off">15 min</time> (at <time');
    // Which album, and the moment it ends (the script shows it in the browser's zone).
    const end = new Date(clock + LOCKOUT_MS);
    expect(html).to.include(`<time class="lockout__end" datetime="${end.toISOString()}">`).and.include(') to unlock “Wedding”.</p>');
  });

  it('should count the real time left, not always 15 minutes', async () => {
    await lockOut();
    clock += 6 * 60_000 + 29_500;
    const html = await page('?error=rate-limited');
    // 8 min 30.5 s left, rounded up to the second.
    expect(secondsLeft(html)).to.equal(8 * 60 + 31);
    expect(html).to.include('datetime="PT8M31S" aria-live="off">8 min 31 s</time>');
    clock += 8 * 60_000;
    expect(await page()).to.include('aria-live="off">31 s</time>');
  });

  it('should show the lockout on any visit to the form, and after the 10th wrong password', async () => {
    await lockOut();
    const plain = await page();
    expect(isDisabled(plain)).to.equal(true);
    expect(plain).to.include('Too many wrong passwords').and.not.include('Your password was not checked');
    const tenth = await page('?error=wrong-password');
    expect(tenth).to.include('Wrong password. Too many wrong passwords were tried');
    expect(isDisabled(tenth)).to.equal(true);
  });

  it('should enable the form again when the lockout is over, and let the right password in', async () => {
    await lockOut();
    clock += LOCKOUT_MS;
    const over = await page('?error=rate-limited');
    expect(over).to.include('You can try again now.').and.not.include('data-lockout-seconds');
    expect(isDisabled(over)).to.equal(false);
    expect(over).to.match(/<input id="password"[^>]* autofocus/);
    expect(await page()).to.not.include('role="alert"');
    expect((await unlock('Open-Sesame')).headers.location).to.equal(`/photos/${ALBUM}`);
  });

  it('should warn of the last three attempts, after a wrong password and on any visit to the form', async () => {
    for (let i = 0; i < 6; i++) await unlock(`wrong-${i}`);
    // Four left: no warning yet.
    expect(await page('?error=wrong-password')).to.include('Wrong password. Please try again.');
    expect(await page()).to.not.include('role="alert"');
    await unlock('wrong-7');
    const three = await page('?error=wrong-password');
    expect(three).to.include('Wrong password. 3 attempts left from this network before passwords are paused for 15 minutes.');
    expect(three).to.include('aria-invalid="true"');
    expect(isDisabled(three)).to.equal(false);
    await unlock('wrong-8');
    // A visit, not an attempt (another member of the household): warned, not told it was wrong.
    const visit = await page();
    expect(visit).to.include('role="alert"').and.include('2 attempts left from this network before passwords are paused for 15 minutes.');
    expect(visit).to.not.include('Wrong password').and.not.include('aria-invalid');
    expect(visit).to.match(/<input id="password"[^>]* autofocus/);
    await unlock('wrong-9');
    expect(await page()).to.include('Last attempt from this network before passwords are paused for 15 minutes.');
    // The right password clears it all.
    expect((await unlock('Open-Sesame')).headers.location).to.equal(`/photos/${ALBUM}`);
    expect(await page()).to.not.include('role="alert"');
  });

  it('should keep the form enabled, and say so, for a wrong password before the lockout', async () => {
    await unlock('wrong');
    const html = await page('?error=wrong-password');
    expect(html).to.include('Wrong password. Please try again.').and.include('aria-invalid="true"');
    expect(isDisabled(html)).to.equal(false);
  });

  it('should load the script that counts down and cleans the address bar, and no inline script', async () => {
    await lockOut();
    const html = await page('?error=rate-limited');
    expect(html).to.match(/<script type="module" src="\/assets\/locked\.js\?v=[0-9a-f]{10}"><\/script>/);
    expect(html).to.match(/data-wait-format="\/assets\/wait-format\.js\?v=[0-9a-f]{10}"/);
    expect(html)
      .to.not.match(/<script(?![^>]*\b(?:src=|type="application\/json"))/)
      .and.not.match(/\sstyle=/);
  });

  it('should write the time left the same on the server and in the browser', async () => {
    // A path, not a literal: the browser modules have no type declarations for tsc.
    const assets = (name: string): string => pathToFileURL(path.join(VIEWS_DIR, 'assets', name)).href;
    type Translate = (key: string, vars?: Record<string, unknown>) => string;
    const browser = (await import(assets('wait-format.js'))) as { formatWait: (seconds: number, t: Translate) => string };
    const { translatorOf } = (await import(assets('strings.js'))) as { translatorOf: (data: unknown) => Translate };
    for (const code of ['en', 'de', 'ar']) {
      const translator = translatorFor(code);
      const page = translatorOf(JSON.parse(translator.clientStrings(['wait', 'locked'])));
      for (const seconds of [0, 0.2, 1, 59, 59.5, 60, 61, 119, 120, 599, 900, 3600, -3]) {
        expect(browser.formatWait(seconds, page), `${code} ${seconds}`).to.equal(waitText(seconds, translator));
      }
    }
    const english = translatorFor('en');
    expect(waitText(872, english)).to.equal('14 min 32 s');
    expect(waitText(840, english)).to.equal('14 min');
    expect(waitText(42, english)).to.equal('42 s');
  });
});
