import { expect } from 'chai';
import request from 'supertest';
import { albumPageUrl, encodePath } from '../../server/core/urls.js';
import { accessCookie, GalleryFixture } from '../support/gallery-fixture.js';

/** The titles and names below the locked album: none may reach a visitor who cannot open it. */
const SECRETS = ['Secret honeymoon in Bali', 'honeymoon', 'Vault of secrets', 'vault', 'Hidden trip', 'h.jpg', 'v.jpg', 't.jpg'];

/**
 * Paths guessed below a locked album (docs/api.md#access): an existing child album (with or
 * without a password of its own, or below a plain folder) and a path that does not exist get
 * the same answer, the locked album's, on pages and on every API; nothing of the child shows.
 */
describe('guessed paths below a locked album', function () {
  this.timeout(30_000);
  const fx = new GalleryFixture();
  let app: ReturnType<typeof request>;

  before(async () => {
    await fx.build({
      fam: { meta: { title: 'Family', password: 'pw', token: 't-family' }, files: ['a.jpg'] },
      'fam/honeymoon': { meta: { title: 'Secret honeymoon in Bali' }, files: ['h.jpg'] },
      'fam/vault': { meta: { title: 'Vault of secrets', password: 'pw2', token: 't-vault' }, files: ['v.jpg'] },
      'fam/2024/trip': { meta: { title: 'Hidden trip' }, files: ['t.jpg'] },
      open: { meta: { title: 'Open house' }, files: ['o.jpg'] },
    });
    await fx.start();
    app = request(fx.gallery.handler);
  });
  after(() => fx.close());

  /** Existing paths below `fam`, each with an unknown one of the same length: the answers must not tell them apart. */
  const PAIRS: ReadonlyArray<readonly [string, string]> = [
    ['fam/honeymoon', 'fam/honeymoox'], // a child without a password of its own
    ['fam/vault', 'fam/vaulx'], // a child with its own password
    ['fam/2024', 'fam/2025'], // a plain folder
    ['fam/2024/trip', 'fam/2024/trix'], // an album below the folder
    ['fam/honeymoon/deeper', 'fam/honeymoox/deeper'], // below the child
  ];

  /** The answer with the address it was asked at (its own words, which the form returns to) taken out. */
  const withoutAsked = (html: string, asked: string) => html.replaceAll(albumPageUrl(asked), '/photos/ASKED');

  describe('GET /photos/{path}', () => {
    let parentForm: string;

    before(async () => {
      const res = await app.get('/photos/fam').expect(200);
      parentForm = withoutAsked(res.text, 'fam');
      expect(parentForm).to.include('<input type="hidden" name="albumPath" value="fam">');
    });

    for (const [existing, unknown] of PAIRS) {
      it(`should answer /photos/${existing} and /photos/${unknown} with the form of the locked album`, async () => {
        const answers = [];
        for (const asked of [existing, unknown]) {
          const res = await app.get(albumPageUrl(asked));
          expect(res.status, asked).to.equal(200);
          expect(res.headers['cache-control'], asked).to.equal('no-store');
          // Back where the visitor asked once the album is open.
          expect(res.text).to.include(`<input type="hidden" name="returnUrl" value="${albumPageUrl(asked)}">`);
          answers.push(withoutAsked(res.text, asked));
        }
        expect(answers[0], 'the existing and the unknown path').to.equal(answers[1]);
        expect(answers[0], "the locked album's own form").to.equal(parentForm);
        for (const secret of SECRETS) expect(answers[0], secret).to.not.include(secret);
      });
    }

    it('should show what is below to a visitor who can open the locked album: a child, its own form, a 404', async () => {
      const cookie = accessCookie(['t-family']);
      expect((await app.get('/photos/fam/honeymoon').set('Cookie', cookie).expect(200)).text)
        .to.include('Secret honeymoon in Bali')
        .and.include('h.jpg');
      const vault = await app.get('/photos/fam/vault').set('Cookie', cookie).expect(200);
      expect(vault.text).to.include('<input type="hidden" name="albumPath" value="fam/vault">').and.include('Vault of secrets');
      await app.get('/photos/fam/honeymoox').set('Cookie', cookie).expect(404);
    });

    it('should still open a child with its own password to a visitor holding only its token', async () => {
      const res = await app
        .get('/photos/fam/vault')
        .set('Cookie', accessCookie(['t-vault']))
        .expect(200);
      expect(res.text).to.include('v.jpg');
    });

    it('should answer 404 for an unknown path where nothing above is locked', async () => {
      await app.get('/photos/open/nothing-here').expect(404);
      await app.get('/photos/nothing/here').expect(404);
    });
  });

  describe('the APIs', () => {
    const file = (albumPath: string, name: string) => `${albumPath}/${name}`;
    const routes: ReadonlyArray<[string, (albumPath: string) => string]> = [
      ['original', (p) => `/albums/${encodePath(file(p, 'x.jpg'))}`],
      ['thumbnail', (p) => `/api/thumbnail?path=${encodeURIComponent(file(p, 'x.jpg'))}&size=small`],
      ['EXIF', (p) => `/api/exif?path=${encodeURIComponent(file(p, 'x.jpg'))}`],
      ['video info', (p) => `/api/video-info?path=${encodeURIComponent(file(p, 'x.mp4'))}`],
      ['ZIP', (p) => `/api/download-album?path=${encodeURIComponent(p)}`],
      ['album media', (p) => `/api/album-media?path=${encodeURIComponent(p)}`],
    ];

    for (const [what, url] of routes) {
      it(`should answer the ${what} of existing and unknown paths below the locked album alike, as for the locked album`, async () => {
        const expected = await app.get(url('fam'));
        expect(expected.status).to.equal(401);
        for (const [existing, unknown] of PAIRS) {
          for (const asked of [existing, unknown]) {
            const res = await app.get(url(asked));
            expect([res.status, res.body], `${what} of ${asked}`).to.deep.equal([401, expected.body]);
          }
        }
      });
    }

    it("should name only the locked album on the page a browser gets for a refused file, never the child's title", async () => {
      const pages = [];
      for (const asked of ['fam', 'fam/honeymoon', 'fam/honeymoox', 'fam/vault']) {
        const res = await app.get(`/albums/${encodePath(file(asked, 'x.jpg'))}`).set('Accept', 'text/html');
        expect(res.status, asked).to.equal(401);
        pages.push(res.text);
      }
      expect(pages[0]).to.include('“Family” is private').and.include('href="/photos/fam"');
      for (const page of pages) expect(page).to.equal(pages[0]);
    });

    it('should still answer 404 where nothing above is locked', async () => {
      await app.get(`/api/thumbnail?path=${encodeURIComponent('open/gone/x.jpg')}&size=small`).expect(404);
      await app.get(`/api/download-album?path=${encodeURIComponent('open/gone')}`).expect(404);
    });
  });
});
