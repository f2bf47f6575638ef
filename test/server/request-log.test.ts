import { expect } from 'chai';
import request from 'supertest';
import { newShareLinkId } from '../../server/core/albums/share-links.js';
import { scrubUrl } from '../../server/http/request-log.js';
import { captureLogger } from '../support/capture-logger.js';
import { GalleryFixture } from '../support/gallery-fixture.js';

/** The request log (server/http/request-log.ts) as the real gallery writes it: no secret of a URL reaches it. */
describe('request log', function () {
  this.timeout(30_000);
  const fx = new GalleryFixture();
  const linkId = newShareLinkId();
  const unknownId = newShareLinkId();
  const requests = captureLogger();
  const events = captureLogger();

  before(async () => {
    await fx.build({
      fam: {
        meta: {
          title: 'Family',
          password: 'pw',
          token: 't-family',
          shareLinks: [{ id: linkId, name: 'Grandma', created: new Date().toISOString(), downloads: true }],
        },
        files: ['a.jpg'],
      },
    });
    await fx.start({ requestLog: requests.logger, log: events.logger });
  });
  after(() => fx.close());

  describe('for a share link address', () => {
    it('should write /s/*** for the link, whatever follows it, and never its id', async () => {
      const asked = [`/s/${linkId}`, `/s/${linkId}/`, `/s/${linkId}?utm_source=mail`, `/S/${linkId}`, `/s/${unknownId}`, `/s/${linkId}/more/below?token=abc`];
      for (const url of asked) await request(fx.gallery.handler).get(url);
      const urls = requests.lines.slice(-asked.length).map((l) => l.url);
      expect(urls).to.deep.equal(['/s/***', '/s/***/', '/s/***?utm_source=mail', '/S/***', '/s/***', '/s/***/more/below?token=***']);
      // The lines really are about these requests: the link opened its album, the unknown one did not.
      expect(requests.lines.slice(-asked.length).map((l) => l.status)).to.deep.equal([200, 200, 200, 404, 404, 404]);
      for (const line of [...requests.raw, ...events.raw]) {
        expect(line).to.not.include(linkId).and.not.include(unknownId);
      }
    });
  });

  describe('scrubUrl', () => {
    it('should leave other addresses alone, and scrub secret query values', () => {
      expect(scrubUrl('/photos/s/x?page=2')).to.equal('/photos/s/x?page=2');
      expect(scrubUrl('/api/thumbnail?path=s%2Fa.jpg&size=small')).to.equal('/api/thumbnail?path=s%2Fa.jpg&size=small');
      expect(scrubUrl('/s/')).to.equal('/s/');
      expect(scrubUrl('/photos/fam?Token=secret&x=1')).to.equal('/photos/fam?Token=***&x=1');
      expect(scrubUrl('/photos/fam?%74oken=secret')).to.equal('/photos/fam?token=***');
    });
  });
});
