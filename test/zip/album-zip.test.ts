import fs from 'node:fs';
import path from 'node:path';
import { ClientClosedError, planZip, writeZip, zipLayout, type ZipPlan } from '../../server/public/zip/album-zip.js';
import { eventually, expect, makeTempDir, openFds, unzip, writeRandomImages } from './support.js';
import { expectRefusedWhenChanged, rejection, ZipSink, zipSources } from './zip-writing.js';

describe('album-zip', function () {
  let root: string;
  let dir: string;

  beforeEach(function () {
    root = makeTempDir();
    dir = path.join(root, 'album');
    fs.mkdirSync(dir);
  });

  afterEach(function () {
    fs.rmSync(root, { recursive: true, force: true });
  });

  describe('planZip()', function () {
    it('should stat each file and size the archive exactly', async function () {
      fs.writeFileSync(path.join(dir, 'a.jpg'), 'abc');
      fs.writeFileSync(path.join(dir, 'é.png'), '');
      const plan = await planZip(zipSources(dir, ['a.jpg', 'é.png']));
      expect(plan.entries.map((e) => [e.name, e.size])).to.deep.equal([
        ['a.jpg', 3],
        ['é.png', 0],
      ]);
      expect(plan.size).to.equal(zipLayout(plan.entries).size);
      expect(plan.entries[0]?.mtime.getTime()).to.equal(fs.statSync(path.join(dir, 'a.jpg')).mtime.getTime());
    });

    it('should rename what archiver would rewrite (\\ and :) and keep names unique', async function () {
      for (const name of ['a:b.jpg', 'a_b.jpg', 'x\\y.jpg', 'C:photo.jpg']) fs.writeFileSync(path.join(dir, name), name);
      const plan = await planZip(zipSources(dir, ['a:b.jpg', 'a_b.jpg', 'x\\y.jpg', 'C:photo.jpg']));
      expect(plan.entries.map((e) => e.name)).to.deep.equal(['a_b.jpg', 'a_b (2).jpg', 'x_y.jpg', 'C_photo.jpg']);
      const sink = new ZipSink();
      await writeZip(plan, sink);
      const entries = await unzip(sink.body);
      expect(entries.get('a_b (2).jpg')?.data.toString()).to.equal('a_b.jpg');
      expect(sink.received).to.equal(plan.size);
    });

    it('should leave out files that are gone or not regular, and follow no symlink', async function () {
      fs.writeFileSync(path.join(dir, 'ok.jpg'), 'ok');
      fs.mkdirSync(path.join(dir, 'folder.jpg'));
      fs.symlinkSync(path.join(dir, 'ok.jpg'), path.join(dir, 'link.jpg'));
      const skipped: string[] = [];
      const plan = await planZip(zipSources(dir, ['ok.jpg', 'gone.jpg', 'folder.jpg', 'link.jpg']), {
        onSkip: (file, reason) => skipped.push(`${file}: ${reason}`),
      });
      expect(plan.entries.map((e) => e.name)).to.deep.equal(['ok.jpg']);
      expect(skipped.sort()).to.deep.equal(['folder.jpg: not a regular file', 'gone.jpg: no longer exists', 'link.jpg: not a regular file']);
    });
  });

  describe('writeZip()', function () {
    it('should write exactly the planned bytes, and an archive that reads back', async function () {
      const names = writeRandomImages(dir, 3, 700_000);
      const plan = await planZip(zipSources(dir, names));
      const sink = new ZipSink();
      await writeZip(plan, sink);
      expect(sink.received).to.equal(plan.size);
      const entries = await unzip(sink.body);
      for (const name of names) expect(entries.get(name)?.data.equals(fs.readFileSync(path.join(dir, name))), name).to.equal(true);
    });

    it('should write an empty archive for an empty plan', async function () {
      const sink = new ZipSink();
      await writeZip(await planZip(zipSources(dir, [])), sink);
      expect(sink.received).to.equal(22);
    });

    describe('when a file no longer matches the plan', function () {
      let plan: ZipPlan;

      beforeEach(async function () {
        plan = await planZip(zipSources(dir, writeRandomImages(dir, 2, 16 * 1024 * 1024)));
      });

      // Each case changes IMG_02 while IMG_01 is being sent, or IMG_01 while it is read.
      const cases: [string, (file: (name: string) => string) => void, RegExp][] = [
        ['it vanished', (f) => fs.rmSync(f('IMG_02.jpg')), /IMG_02\.jpg: cannot be opened any more/],
        ['it grew before it was opened', (f) => fs.appendFileSync(f('IMG_02.jpg'), 'more'), /IMG_02\.jpg: size changed/],
        ['it shrank before it was opened', (f) => fs.truncateSync(f('IMG_02.jpg'), 5), /IMG_02\.jpg: size changed/],
        ['it grew while it was read', (f) => fs.appendFileSync(f('IMG_01.jpg'), 'more'), /IMG_01\.jpg: grew past/],
        ['it shrank while it was read', (f) => fs.truncateSync(f('IMG_01.jpg'), 5), /IMG_01\.jpg: shrank/],
      ];

      for (const [label, change, message] of cases) {
        it(`should reject and destroy the output when ${label}`, async function () {
          await expectRefusedWhenChanged(plan, dir, change, message);
        });
      }
    });

    it('should fail rather than end cleanly when the output does not have the planned length', async function () {
      const plan = await planZip(zipSources(dir, writeRandomImages(dir, 1, 1000)));
      const sink = new ZipSink();
      const err = await rejection(writeZip({ ...plan, size: plan.size + 1 }, sink));
      expect(err.message).to.match(/does not match the planned/);
      expect(sink.writableFinished).to.equal(false);
      expect(sink.destroyed).to.equal(true);
    });

    it('should reject at once, opening nothing, when the output is already closed', async function () {
      const plan = await planZip(zipSources(dir, writeRandomImages(dir, 1, 1000)));
      const sink = new ZipSink();
      sink.destroy();
      expect(await rejection(writeZip(plan, sink))).to.be.instanceOf(ClientClosedError);
    });

    it('should stop and close the file when the output is destroyed mid-way', async function () {
      const plan = await planZip(zipSources(dir, writeRandomImages(dir, 2, 16 * 1024 * 1024)));
      const fdsBefore = openFds();
      const sink: ZipSink = new ZipSink((received) => {
        if (received > 1_000_000) sink.destroy();
      });
      const err = await rejection(writeZip(plan, sink));
      expect(err).to.be.instanceOf(ClientClosedError);
      expect(await eventually(() => openFds() <= fdsBefore), 'the file is closed').to.equal(true);
    });
  });
});
