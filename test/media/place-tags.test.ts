import { expect } from 'chai';
import { readExifPosition } from '../../workers/exif-reader.js';
import { cameraName, iptcPlaces, positionFromIso6709, uniqueNames, videoPlaceFacts, xmpPlaceFacts } from '../../workers/place-tags.js';
import { TiffLayout, writeGpsIfd } from '../support/located-media.js';

/** An IPTC-IIM dataset: 0x1C, record, dataset, a 2-byte length, the value. */
const dataset = (record: number, number: number, value: Buffer | string) => {
  const bytes = typeof value === 'string' ? Buffer.from(value, 'utf8') : value;
  const head = Buffer.from([0x1c, record, number, 0, 0]);
  head.writeUInt16BE(bytes.length, 3);
  return Buffer.concat([head, bytes]);
};

/** Photoshop's image resources as a JPEG's APP13 holds them: the header, then 8BIM resources. */
const photoshopResources = (...resources: { id: number; data: Buffer }[]) =>
  Buffer.concat([
    Buffer.from('Photoshop 3.0\0', 'latin1'),
    ...resources.map(({ id, data }) => {
      const head = Buffer.alloc(12);
      head.write('8BIM', 0, 'latin1');
      head.writeUInt16BE(id, 4);
      // An empty Pascal name, padded to even: two zero bytes.
      head.writeUInt32BE(data.length, 8);
      return Buffer.concat([head, data, Buffer.alloc(data.length % 2)]);
    }),
  ]);

describe('place tags', () => {
  describe('cameraName', () => {
    const cases: [string | null, string | null, string | undefined][] = [
      ['Apple', 'iPhone 15 Pro', 'Apple iPhone 15 Pro'],
      ['Canon', 'Canon EOS R5', 'Canon EOS R5'],
      ['NIKON CORPORATION', 'NIKON D750', 'NIKON D750'],
      ['OLYMPUS IMAGING CORP.', 'E-M10', 'OLYMPUS E-M10'],
      ['samsung', 'SM-G991B', 'samsung SM-G991B'],
      ['FUJIFILM', 'X-T4', 'FUJIFILM X-T4'],
      ['Google', null, 'Google'],
      [null, 'Pixel 8', 'Pixel 8'],
      ['  ', '\0', undefined],
      [null, null, undefined],
    ];
    for (const [make, model, expected] of cases) {
      it(`should name ${JSON.stringify(make)} + ${JSON.stringify(model)} as ${JSON.stringify(expected)}`, () => {
        expect(cameraName(make, model)).to.equal(expected);
      });
    }
  });

  describe('positionFromIso6709', () => {
    it('should read degrees with an altitude or not, either sign', () => {
      expect(positionFromIso6709('+38.7223-009.1393/')).to.deep.equal({ lat: 38.7223, lon: -9.1393 });
      expect(positionFromIso6709('-33.8688+151.2093+012.000/')).to.deep.equal({ lat: -33.8688, lon: 151.2093 });
    });

    it('should read degrees and minutes, and degrees, minutes and seconds', () => {
      const dm = positionFromIso6709('+3843.338-00908.358/')!;
      expect(dm.lat).to.be.closeTo(38.7223, 1e-4);
      expect(dm.lon).to.be.closeTo(-9.1393, 1e-4);
      const dms = positionFromIso6709('+384320.28-0090821.48/')!;
      expect(dms.lat).to.be.closeTo(38.7223, 1e-4);
      expect(dms.lon).to.be.closeTo(-9.1393, 1e-4);
    });

    it('should give none for text that is not a point, one off the Earth, or 0°, 0°', () => {
      for (const text of ['', 'Lisbon', '+38.7-9.1', '+95.0000+010.0000/', '+00.0000+000.0000/', `+${'1'.repeat(5000)}`]) {
        expect(positionFromIso6709(text), text.slice(0, 20)).to.equal(null);
      }
    });
  });

  describe('videoPlaceFacts', () => {
    it("should prefer Apple's keys, then QuickTime's, then the stream's", () => {
      const facts = videoPlaceFacts(
        { 'com.apple.quicktime.make': 'Apple', 'com.apple.quicktime.model': 'iPhone 15 Pro', make: 'Other' },
        { location: '+38.7223-009.1393/' },
      );
      expect(facts).to.deep.equal({ camera: 'Apple iPhone 15 Pro', position: { lat: 38.7223, lon: -9.1393 } });
      expect(videoPlaceFacts(undefined, undefined)).to.deep.equal({ camera: null, position: null });
    });
  });

  describe('xmpPlaceFacts', () => {
    it('should read attributes under any prefix bound to the namespace, with entities decoded', () => {
      const packet = Buffer.from(
        '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">' +
          '<rdf:Description xmlns:ps="http://ns.adobe.com/photoshop/1.0/" xmlns:exif="http://ns.adobe.com/exif/1.0/" ps:City="S&#xE3;o Paulo" ps:Country="Brasil" exif:GPSLatitude="23,33.0S" exif:GPSLongitude="46,38.0W"/>' +
          '<rdf:Description xmlns:dc="http://purl.org/dc/elements/1.1/" dc:City="not a place property"/></rdf:RDF></x:xmpmeta>',
      );
      const facts = xmpPlaceFacts(packet);
      expect(facts.places).to.deep.equal(['São Paulo', 'Brasil']);
      expect(facts.position!.lat).to.be.closeTo(-23.55, 1e-6);
      expect(facts.position!.lon).to.be.closeTo(-46.6333, 1e-4);
    });

    it('should read a large hostile packet within bounds', () => {
      const packet = Buffer.from(`<a xmlns:p="http://ns.adobe.com/photoshop/1.0/">${'<p:City '.repeat(200_000)}`);
      const started = performance.now();
      expect(xmpPlaceFacts(packet).places).to.deep.equal([]);
      expect(performance.now() - started).to.be.below(2000);
    });
  });

  describe('iptcPlaces', () => {
    it('should find the IPTC resource among Photoshop resources and read its place datasets', () => {
      const iim = Buffer.concat([
        dataset(1, 90, Buffer.from([0x1b, 0x25, 0x47])),
        dataset(2, 5, 'A title'),
        dataset(2, 90, 'Kraków'),
        dataset(2, 101, 'Polska'),
      ]);
      const block = photoshopResources({ id: 0x03ed, data: Buffer.alloc(15) }, { id: 0x0404, data: iim });
      expect(iptcPlaces(block)).to.deep.equal(['Kraków', 'Polska']);
    });

    it('should read Latin-1 text that is not UTF-8', () => {
      expect(iptcPlaces(dataset(2, 90, Buffer.from('Zürich', 'latin1')))).to.deep.equal(['Zürich']);
    });

    it('should stop at a length that runs past the block, or a resource that does', () => {
      const cut = dataset(2, 90, 'Lisbon').subarray(0, 8);
      expect(iptcPlaces(cut)).to.deep.equal(['Lis']);
      const lying = photoshopResources({ id: 0x0404, data: dataset(2, 90, 'Lisbon') });
      lying.writeUInt32BE(0xffffffff, 14 + 8);
      expect(iptcPlaces(lying)).to.deep.equal([]);
    });
  });

  describe('uniqueNames', () => {
    it('should keep the first spelling of names that differ only in case and accents, and drop what is not a name', () => {
      expect(uniqueNames(['Belém', 'BELEM', ' Lisboa\n', '', 'x'.repeat(300), undefined, 'Lisboa'])).to.deep.equal(['Belém', 'Lisboa']);
    });
  });
});

describe('readExifPosition', () => {
  /** IFD0 with a GPS pointer at 8, the GPS IFD at 40, its rationals at 100. */
  const block = (littleEndian: boolean) => {
    const t = new TiffLayout(160, littleEndian);
    t.ifd(8, [[0x8825, 4, 1, 40]]);
    writeGpsIfd(t, 40, 100);
    return t;
  };

  it('should read the GPS IFD in either byte order', () => {
    for (const littleEndian of [true, false]) {
      const position = readExifPosition(block(littleEndian).bytes)!;
      expect(position.lat).to.be.closeTo(48 + 51 / 60 + 30 / 3600, 1e-9);
      expect(position.lon).to.be.closeTo(2 + 17 / 60 + 40 / 3600, 1e-9);
    }
  });

  it('should read the southern and western hemispheres as negative', () => {
    const t = block(true);
    t.bytes.write('S', 40 + 2 + 8, 'latin1');
    t.bytes.write('W', 40 + 2 + 24 + 8, 'latin1');
    const position = readExifPosition(t.bytes)!;
    expect(position.lat).to.be.below(-48);
    expect(position.lon).to.be.below(-2);
  });

  it('should give none for a GPS pointer back at IFD0, past the block, or degrees over zero', () => {
    expect(readExifPosition(block(true).u32(8 + 2 + 8, 8).bytes)).to.equal(null);
    expect(readExifPosition(block(true).u32(8 + 2 + 8, 5000).bytes)).to.equal(null);
    expect(readExifPosition(block(true).u32(100 + 4, 0).bytes)).to.equal(null);
    expect(readExifPosition(Buffer.from('not exif'))).to.equal(null);
  });
});
