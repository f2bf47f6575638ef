import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import ffmpegInstaller from '@ffmpeg-installer/ffmpeg';
import { expect } from 'chai';
import { createMediaPool, type MediaPool } from '../../server/media/pool.js';
import { quietLogger } from '../support/capture-logger.js';
import { gradient, jpegExiftool, jpegXmpForms, LISBON_EXIF, segment, withSegments } from '../support/corpus-images.js';
import { movIphoneKeys, mp4FfmpegLocation } from '../support/corpus-movies.js';
import { PLACE } from '../support/corpus-place.js';
import { CAMERA_GPS } from '../support/located-media.js';
import { writeTruncatedJpeg } from '../support/media-fixtures.js';
import { makeTempDir, removeTempDir } from '../support/temp-dir.js';

const run = promisify(execFile);
const exiftool = (file: string, args: readonly string[]) => run('exiftool', ['-q', '-q', '-overwrite_original', ...args, file]);

/** A real iPhone HEIC (CC BY-SA 4.0, see test/fixtures/heic/ATTRIBUTION.md): an iPhone 11 Pro Max, near Kansas City. */
const IPHONE = path.join(import.meta.dirname, '..', 'fixtures', 'heic', 'IMG_5195.HEIC');

/** The camera, position and place names the `dimensions` task reads, through a real pool on real files. */
describe('the facts of a file: camera, position, places', function () {
  this.timeout(60_000);
  let dir: string;
  let pool: MediaPool;
  const file = (name: string) => path.join(dir, name);
  const photo = (name: string) => pool.dimensions({ src: file(name), kind: 'image' });

  before(async () => {
    dir = makeTempDir('place-facts-');
    pool = createMediaPool({ workers: 2, maxQueue: 50, log: quietLogger });
    fs.writeFileSync(file('sharp-gps.jpg'), await gradient('jpeg', CAMERA_GPS));
    fs.writeFileSync(file('lisbon.png'), await gradient('png', LISBON_EXIF));
    fs.writeFileSync(file('plain.jpg'), await gradient('jpeg'));
    await jpegExiftool(file('exiftool.jpg'));
    await jpegXmpForms(file('xmp-forms.jpg'));
    fs.writeFileSync(file('iptc-only.jpg'), await gradient('jpeg'));
    await exiftool(file('iptc-only.jpg'), [
      '-IPTC:City=Zürich',
      '-IPTC:Country-PrimaryLocationName=Schweiz',
      '-IPTC:Sub-location=Altstadt',
      '-IPTC:Province-State=ZH',
    ]);
    fs.writeFileSync(file('xmp-gps.jpg'), await gradient('jpeg'));
    await exiftool(file('xmp-gps.jpg'), ['-XMP-exif:GPSLatitude=38.7223 N', '-XMP-exif:GPSLongitude=9.1393 W']);
    fs.copyFileSync(IPHONE, file('iphone.heic'));
    await writeTruncatedJpeg(file('cut.jpg'));
    await exiftool(file('cut.jpg'), [
      '-Make=NIKON CORPORATION',
      '-Model=NIKON D750',
      '-GPSLatitude=35.6895',
      '-GPSLatitudeRef=N',
      '-GPSLongitude=139.6917',
      '-GPSLongitudeRef=E',
    ]).catch(() => undefined);
    await mp4FfmpegLocation(file('ffmpeg.mp4'));
    await movIphoneKeys(file('iphone.mov'));
    await run(ffmpegInstaller.path, [
      ...'-hide_banner -loglevel error -y -f lavfi -i testsrc=duration=1:size=160x120:rate=10 -c:v libx264 -preset ultrafast -pix_fmt yuv420p'.split(' '),
      ...['-metadata', 'location=+38.7223-009.1393/', '-metadata', 'make=Canon', '-metadata', 'model=Canon EOS R5', '-f', 'mov', file('camera.mov')],
    ]);
  });
  after(async () => {
    await pool.close();
    removeTempDir(dir);
  });

  const near = (actual: { lat: number; lon: number } | null | undefined, lat: number, lon: number) => {
    expect(actual, 'a position').to.be.an('object');
    expect(actual!.lat).to.be.closeTo(lat, 1e-3);
    expect(actual!.lon).to.be.closeTo(lon, 1e-3);
  };

  describe('a photo', () => {
    it('should read EXIF GPS with its hemispheres, and the camera as make and model', async () => {
      const facts = await photo('sharp-gps.jpg');
      near(facts.position, 48 + 51 / 60 + 30 / 3600, 2 + 17 / 60 + 40 / 3600);
      expect(facts.camera).to.equal('Canon EOS R5');
      expect(facts.width).to.equal(320);
    });

    it('should read the west of Greenwich as negative, in a PNG', async () => {
      near((await photo('lisbon.png')).position, PLACE.latitude, PLACE.longitude);
    });

    it('should read what ExifTool writes: GPS, XMP photoshop and IPTC Extension, IPTC-IIM, each name once', async () => {
      const facts = await photo('exiftool.jpg');
      near(facts.position, PLACE.latitude, PLACE.longitude);
      expect(facts.places).to.have.members([PLACE.city, PLACE.state, PLACE.country, PLACE.sublocation]);
    });

    it('should read XMP in the forms RDF allows: CDATA, rdf:value, a default namespace, a location structure', async () => {
      const facts = await photo('xmp-forms.jpg');
      expect(facts.places).to.have.members([PLACE.city, PLACE.country, PLACE.sublocation, PLACE.state]);
      // Only a latitude: no position.
      expect(facts.position).to.equal(undefined);
      expect(facts.camera).to.equal('Canon');
    });

    it('should read IPTC-IIM alone (APP13), in UTF-8', async () => {
      expect((await photo('iptc-only.jpg')).places).to.have.members(['Zürich', 'Schweiz', 'Altstadt', 'ZH']);
    });

    it("should take XMP's exif:GPS when EXIF has none", async () => {
      near((await photo('xmp-gps.jpg')).position, 38.7223, -9.1393);
    });

    it("should read a HEIC's EXIF item: Apple's camera and its position", async () => {
      const facts = await pool.dimensions({ src: file('iphone.heic'), kind: 'image' });
      expect(facts.camera).to.equal('Apple iPhone 11 Pro Max');
      near(facts.position, 39 + 3 / 60 + 4.84 / 3600, -(94 + 17 / 60 + 19.58 / 3600));
    });

    it('should give none of them for a photo that carries none', async () => {
      const facts = await photo('plain.jpg');
      expect(facts).to.not.have.any.keys('camera', 'position', 'places');
      expect(facts.width).to.equal(320);
    });

    it('should still read the size of a photo cut short, and what its header says', async () => {
      const facts = await photo('cut.jpg');
      expect(facts.width).to.be.greaterThan(0);
      expect(facts.camera).to.equal('NIKON D750');
      near(facts.position, 35.6895, 139.6917);
    });

    it('should leave out a damaged GPS IFD and XMP, keeping the size and the camera', async () => {
      const jpeg = await gradient('jpeg', { IFD0: { Make: 'Canon', Model: 'EOS R5' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '48/0 51/1 30/1' } });
      const xmp = Buffer.concat([Buffer.from('http://ns.adobe.com/xap/1.0/\0', 'latin1'), Buffer.from('<x:xmpmeta><photoshop:City>never closed'.repeat(1000))]);
      fs.writeFileSync(file('damaged.jpg'), withSegments(jpeg, [segment(0xe1, xmp)]));
      const facts = await photo('damaged.jpg');
      expect(facts).to.include({ width: 320, height: 240, camera: 'Canon EOS R5' });
      expect(facts).to.not.have.any.keys('position', 'places');
    });
  });

  describe('a video', () => {
    it("should read ffmpeg's ISO 6709 location (an MP4's loci)", async () => {
      const info = await pool.videoInfo({ src: file('ffmpeg.mp4') });
      near(info.position, 38.7104, -9.1399);
    });

    it("should read an iPhone's keys: make, model and location", async () => {
      const info = await pool.videoInfo({ src: file('iphone.mov') });
      expect(info.camera).to.equal('Apple iPhone 15');
      near(info.position, 38.7104, -9.1399);
    });

    it("should read a MOV's ©mak, ©mod and ©xyz, and give them to its tile's facts", async () => {
      const info = await pool.videoInfo({ src: file('camera.mov') });
      expect(info.camera).to.equal('Canon EOS R5');
      near(info.position, 38.7223, -9.1393);
      const tile = await pool.dimensions({ src: file('camera.mov'), kind: 'video' });
      expect(tile.camera).to.equal('Canon EOS R5');
      near(tile.position, 38.7223, -9.1393);
    });
  });
});
