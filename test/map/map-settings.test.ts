import { expect } from 'chai';
import { checkSitePatch, MAP_PRECISIONS, normaliseMapTiles, parseSiteFile, siteSettingsOf } from '../../server/core/site-settings.js';
import { mapPagePolicy } from '../../server/public/routes/map-routes.js';

/** site.json's map fields (docs/api.md#sitejson): the precision visitors get, and the owner's tile server. */
describe("site.json's map fields", () => {
  it('should show visitors positions to about 1 km unless the owner says otherwise', () => {
    expect(siteSettingsOf({}).settings).to.include({ mapPrecision: 'city', mapTiles: '', mapAttribution: '' });
  });

  it('should take each precision, and fall back to city for any other, naming the field', () => {
    for (const precision of MAP_PRECISIONS) expect(siteSettingsOf({ mapPrecision: precision }).settings.mapPrecision).to.equal(precision);
    const { settings, ignored } = siteSettingsOf(parseSiteFile('{"mapPrecision": "street"}'));
    expect(settings.mapPrecision).to.equal('city');
    expect(ignored).to.deep.equal(['mapPrecision must be one of exact, city, country, hidden']);
  });

  it('should take an https tile template with {z}, {x}, {y} and refuse anything else', () => {
    expect(normaliseMapTiles(' https://{s}.tile.openstreetmap.org/{z}/{x}/{y}.png ')).to.equal('https://{s}.tile.openstreetmap.org/{z}/{x}/{y}.png');
    expect(normaliseMapTiles('https://tiles.example.org:8443/v1/{z}/{x}/{y}{r}.png?key=abc')).to.be.a('string');
    for (const bad of [
      'http://tile.example.org/{z}/{x}/{y}.png',
      'https://tile.example.org/{z}/{x}.png',
      'https://tile.example.org/{z}/{x}/{y}/{evil}.png',
      'https://{s}/{z}/{x}/{y}.png',
      "https://tile.example.org/{z}/{x}/{y}.png' onerror='x",
      'javascript:{z}{x}{y}',
      '//tile.example.org/{z}/{x}/{y}.png',
    ])
      expect(normaliseMapTiles(bad), bad).to.equal(undefined);
  });

  it("should check the admin's change of the map fields as it checks the others", () => {
    expect(checkSitePatch({ mapPrecision: 'country', mapTiles: '' }).patch).to.deep.equal({ mapPrecision: 'country', mapTiles: undefined });
    expect(checkSitePatch({ mapPrecision: 'street' }).problems).to.deep.equal(['mapPrecision must be one of exact, city, country, hidden']);
    expect(checkSitePatch({ mapTiles: 'http://x.example/{z}/{x}/{y}' }).problems[0]).to.match(/^mapTiles must be an https URL template/);
  });

  it("should let the map page load the tile server's images, and only then", () => {
    expect(mapPagePolicy('')).to.include("img-src 'self' data: blob:;");
    expect(mapPagePolicy('https://{s}.tile.openstreetmap.org/{z}/{x}/{y}.png')).to.include("img-src 'self' https://*.tile.openstreetmap.org data: blob:;");
  });
});
