import { expect } from 'chai';
import request from 'supertest';
import { spanText } from '../../server/public/pages/card-dates.js';
import { accessCookie, type GalleryFixture } from '../support/gallery-fixture.js';
import { datedGallery, exifDate } from './dated-gallery.js';

/** The dates cards show, thin spaces as plain ones (Intl puts U+2009 around a range's dash). */
function cardDates(html: string): string[] {
  return [...html.matchAll(/<span class="card__title">([^<]*)<\/span><span class="card__meta card__dates">([^<]*)<\/span>/g)].map(
    (m) => `${m[1]}: ${m[2]!.replace(/\u2009/g, ' ')}`,
  );
}

/**
 * Dates on album cards (README "Albums"): /photos and folder pages say when an album's photos
 * were taken, from its facts, in the visitor's language; a locked album's card says nothing.
 */
describe('dates on album cards', function () {
  this.timeout(60_000);
  let fx: GalleryFixture;

  before(async () => {
    fx = await datedGallery({
      summer: { meta: { title: 'Summer' }, files: { 'a.jpg': exifDate(2023, 6, 10), 'b.jpg': exifDate(2023, 8, 2) } },
      christmas: { meta: { title: 'Christmas' }, files: { 'tree.jpg': exifDate(2023, 12, 24) } },
      newyear: { meta: { title: 'New Year' }, files: { 'eve.jpg': exifDate(2022, 12, 31), 'day.jpg': exifDate(2023, 1, 1) } },
      family: { meta: { title: 'Family', isCollection: true }, files: {} },
      'family/early': { meta: { title: 'Early' }, files: { 'baby.jpg': exifDate(2022, 5, 1) } },
      'family/later': { meta: { title: 'Later' }, files: { 'school.jpg': exifDate(2024, 9, 3) } },
      // Neither may stretch the family's span: one has a password, the other is hidden.
      'family/locked': { meta: { title: 'Locked', password: 'pw' }, files: { 'old.jpg': exifDate(1999, 1, 1) } },
      'family/hidden': { meta: { title: 'Hidden', hidden: true }, files: { 'future.jpg': exifDate(2030, 1, 1) } },
      vault: { meta: { title: 'Vault', password: 'pw' }, files: { 'secret.jpg': exifDate(2001, 3, 3) } },
    });
  });
  after(() => fx.close());

  it('should write a month, a span of months and a span of years on /photos', async () => {
    const res = await request(fx.gallery.handler).get('/photos').expect(200);
    const dates = cardDates(res.text);
    expect(dates).to.include.members(['Summer: Jun – Aug 2023', 'Christmas: Dec 2023', 'New Year: Dec 2022 – Jan 2023', 'Family: 2022 – 2024']);
    expect(res.text).not.to.match(/1999|2001|2030/);
    expect(dates.some((d) => d.startsWith('Vault'))).to.equal(false);
  });

  it('should write them in the visitor’s language', async () => {
    const res = await request(fx.gallery.handler).get('/photos').set('Cookie', 'lang=de').expect(200);
    expect(cardDates(res.text)).to.include.members(['Summer: Juni–Aug. 2023', 'Christmas: Dez. 2023']);
  });

  it('should date the cards of a collection’s page, a locked child only for a visitor who opened it', async () => {
    const anonymous = await request(fx.gallery.handler).get('/photos/family').expect(200);
    expect(cardDates(anonymous.text)).to.deep.equal(['Early: May 2022', 'Later: Sept 2024']);
    expect(anonymous.text).not.to.include('1999');
    const opened = await request(fx.gallery.handler)
      .get('/photos/family')
      .set('Cookie', accessCookie([fx.token('family/locked')]))
      .expect(200);
    expect(cardDates(opened.text)).to.include('Locked: Jan 1999');
  });

  it('should write spans as the card does', () => {
    const months = new Intl.DateTimeFormat('en-GB', { month: 'short', year: 'numeric', timeZone: 'UTC' });
    const years = new Intl.DateTimeFormat('en-GB', { year: 'numeric', timeZone: 'UTC' });
    const span = (a: string, b: string) => spanText(a, b, months, years).replace(/\u2009/g, ' ');
    expect(span('2023-12', '2023-12')).to.equal('Dec 2023');
    expect(span('2023-01', '2023-12')).to.equal('Jan – Dec 2023');
    expect(span('2022-11', '2023-10')).to.equal('Nov 2022 – Oct 2023');
    expect(span('2022-11', '2023-11')).to.equal('2022 – 2023');
  });
});
