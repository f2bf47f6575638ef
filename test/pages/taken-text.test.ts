import { expect } from 'chai';
import { isTakenDate, takenFromExif, takenFromVideoTags, wallClockOf } from '../../server/core/media/taken-date.js';
import { altText, dateRangeText, dateTimeText } from '../../server/public/pages/taken-text.js';
import { translatorFor } from '../../server/http/i18n.js';

const english = translatorFor('en');
const german = translatorFor('de');

describe('dates taken', () => {
  describe('takenFromExif', () => {
    it('should keep the camera wall clock as written', () => {
      expect(takenFromExif('2024:06:03 14:03:07')).to.equal('2024-06-03T14:03:07');
      expect(takenFromExif('2024-06-03 14:03:07')).to.equal('2024-06-03T14:03:07');
    });

    for (const unset of ['0000:00:00 00:00:00', '    :  :     :  :  ', '', '2024:02:30 10:00:00', '2024:06:03 25:00:00', 'yesterday']) {
      it(`should read ${JSON.stringify(unset)} as no date`, () => {
        expect(takenFromExif(unset)).to.equal(undefined);
      });
    }

    it('should read null as no date', () => {
      expect(takenFromExif(null)).to.equal(undefined);
    });
  });

  describe('takenFromVideoTags', () => {
    it("should take the wall clock of Apple's local creation date, whatever its offset", () => {
      expect(takenFromVideoTags({ 'com.apple.quicktime.creationdate': '2024-06-03T14:03:00+0200', creation_time: '2024-06-03T12:03:00.000000Z' })).to.equal(
        '2024-06-03T14:03:00',
      );
    });

    it("should read a container's UTC creation time in the server's time zone", () => {
      const instant = '2024-06-03T12:03:00.000000Z';
      const local = new Date(Date.parse(instant));
      const expected = `${local.getFullYear()}-${String(local.getMonth() + 1).padStart(2, '0')}-${String(local.getDate()).padStart(2, '0')}T${String(local.getHours()).padStart(2, '0')}:${String(local.getMinutes()).padStart(2, '0')}:00`;
      expect(takenFromVideoTags({ creation_time: instant })).to.equal(expected);
    });

    it("should read a muxer's zero time (1904, 1970) and no tags as no date", () => {
      expect(takenFromVideoTags({ creation_time: '1970-01-01T00:00:00.000000Z' })).to.equal(undefined);
      expect(takenFromVideoTags({ creation_time: '1904-01-01T00:00:00.000000Z' })).to.equal(undefined);
      expect(takenFromVideoTags({ encoder: 'Lavf58.20.100' })).to.equal(undefined);
      expect(takenFromVideoTags(undefined)).to.equal(undefined);
    });
  });

  describe('wallClockOf', () => {
    it("should give an instant's wall clock in the server's time zone", () => {
      expect(wallClockOf(new Date(2024, 5, 4, 12, 0, 5).getTime())).to.equal('2024-06-04T12:00:05');
    });
  });

  describe('isTakenDate', () => {
    it('should accept real dates only', () => {
      expect(isTakenDate('2024-02-29T23:59:59')).to.equal(true);
      expect(isTakenDate('2023-02-29T10:00:00')).to.equal(false);
      expect(isTakenDate('2024-06-03 14:03:00')).to.equal(false);
      expect(isTakenDate('2024-06-03T14:03:00Z')).to.equal(false);
      expect(isTakenDate('<script>')).to.equal(false);
    });
  });

  describe('dateTimeText', () => {
    it('should write British English', () => {
      expect(dateTimeText('2024-06-03T14:03:59', 'en-GB')).to.equal('3 June 2024 at 14:03');
      expect(dateTimeText('2025-01-12T07:05:00', 'en-GB')).to.equal('12 January 2025 at 07:05');
    });

    it("should write the page's language", () => {
      expect(dateTimeText('2024-06-03T14:03:59', 'de')).to.equal('3. Juni 2024 um 14:03');
      expect(dateTimeText('2024-06-03T14:03:59', 'fr')).to.equal('3 juin 2024 à 14:03');
    });
  });

  describe('altText', () => {
    const base = { kind: 'image', live: false, taken: null, durationText: null, position: 12, total: 48 } as const;

    it('should say what it is and when', () => {
      expect(altText({ ...base, taken: '2024-06-03T14:03:00' }, english)).to.equal('Photo taken 3 June 2024 at 14:03');
      expect(altText({ ...base, live: true, taken: '2024-06-03T14:03:00' }, english)).to.equal('Live Photo taken 3 June 2024 at 14:03');
      expect(altText({ ...base, kind: 'video', durationText: '0:42', taken: '2024-06-03T14:03:00' }, english)).to.equal(
        'Video, 0:42, taken 3 June 2024 at 14:03',
      );
      expect(altText({ ...base, kind: 'video', taken: '2024-06-03T14:03:00' }, english)).to.equal('Video taken 3 June 2024 at 14:03');
    });

    it('should say where it is in the album when the date is not known', () => {
      expect(altText(base, english)).to.equal('Photo 12 of 48');
      expect(altText({ ...base, kind: 'video', durationText: '0:42' }, english)).to.equal('Video 12 of 48, 0:42');
      expect(altText({ ...base, position: 1200, total: 4800 }, english)).to.equal('Photo 1,200 of 4,800');
    });

    it("should say it in the visitor's language", () => {
      expect(altText({ ...base, taken: '2024-06-03T14:03:00' }, german)).to.equal('Foto vom 3. Juni 2024 um 14:03');
      expect(altText({ ...base, kind: 'video', durationText: '0:42' }, german)).to.equal('Video 12 von 48, 0:42');
      expect(altText({ ...base, position: 1200, total: 4800 }, german)).to.equal('Foto 1.200 von 4.800');
    });
  });

  describe('dateRangeText', () => {
    // As Intl writes a range in British English (its spaces are thin ones around a dash between days).
    const cases: [string, string, string][] = [
      ['2024-06-03T08:00:00', '2024-06-03T22:00:00', '3 June 2024'],
      ['2024-06-03T08:00:00', '2024-06-09T22:00:00', '3\u2009–\u20099 June 2024'],
      ['2024-06-28T08:00:00', '2024-07-02T22:00:00', '28 June\u2009–\u20092 July 2024'],
      ['2024-12-28T08:00:00', '2025-01-02T22:00:00', '28 Dec 2024\u2009–\u20092 Jan 2025'],
    ];
    for (const [first, last, text] of cases) {
      it(`should write ${first} to ${last} as "${text}"`, () => {
        expect(dateRangeText(first, last, 'en-GB')).to.equal(text);
      });
    }

    it("should write a range as the page's language does", () => {
      expect(dateRangeText('2024-06-03T08:00:00', '2024-06-09T22:00:00', 'de')).to.equal('3.–9. Juni 2024');
      expect(dateRangeText('2024-12-28T08:00:00', '2025-01-02T22:00:00', 'fr')).to.equal('28 déc. 2024\u2009–\u20092 janv. 2025');
    });
  });
});
