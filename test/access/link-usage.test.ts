import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { FileLinkUsageStore, linkUsageFile } from '../../server/core/access/link-usage.js';
import { captureLogger, quietLogger } from '../support/capture-logger.js';
import { eventually } from '../support/gallery-fixture.js';
import { makeTempDir, removeTempDir } from '../support/temp-dir.js';

const ID = 'abcdefghijklmnopqrstuvwx';
const OTHER = 'ABCDEFGHIJKLMNOPQRSTUVWX';
const T0 = Date.parse('2025-03-01T12:00:00Z');

describe('FileLinkUsageStore', () => {
  let cacheDir: string;
  beforeEach(() => {
    cacheDir = makeTempDir('gallery-usage-');
  });
  afterEach(() => removeTempDir(cacheDir));

  it('should add visits up, keep the latest use, and read what is not written yet', async () => {
    const store = new FileLinkUsageStore({ cacheDir, log: quietLogger, flushDelayMs: 60_000 });
    store.recordVisit(ID, { at: T0 + 1000, newVisit: true });
    store.recordVisit(ID, { at: T0, newVisit: false });
    store.recordVisit(ID, { at: T0 + 5000, newVisit: false });
    store.recordVisit(OTHER, { at: T0, newVisit: true });
    expect(fs.existsSync(linkUsageFile(cacheDir))).to.equal(false);
    const usage = await store.read();
    expect(usage.get(ID)).to.deep.equal({ visits: 1, lastUsed: '2025-03-01T12:00:05.000Z' });
    expect(usage.get(OTHER)).to.deep.equal({ visits: 1, lastUsed: '2025-03-01T12:00:00.000Z' });
  });

  it('should write a little while after the first unwritten view, atomically, under CACHE_DIR/share-links', async () => {
    const store = new FileLinkUsageStore({ cacheDir, log: quietLogger, flushDelayMs: 50 });
    store.recordVisit(ID, { at: T0, newVisit: true });
    await eventually(() => fs.existsSync(linkUsageFile(cacheDir)), 2000, 'the usage file');
    await store.flush();
    expect(path.dirname(linkUsageFile(cacheDir))).to.equal(path.join(cacheDir, 'share-links'));
    expect(JSON.parse(fs.readFileSync(linkUsageFile(cacheDir), 'utf8'))).to.deep.equal({
      links: { [ID]: { visits: 1, lastUsed: '2025-03-01T12:00:00.000Z' } },
    });
    expect(fs.readdirSync(path.join(cacheDir, 'share-links'))).to.deep.equal(['usage.json']);
  });

  it('should carry on from the file after a restart, and from a damaged file start again with a warning', async () => {
    const first = new FileLinkUsageStore({ cacheDir, log: quietLogger });
    first.recordVisit(ID, { at: T0, newVisit: true });
    await first.flush();
    const second = new FileLinkUsageStore({ cacheDir, log: quietLogger });
    second.recordVisit(ID, { at: T0 + 60_000, newVisit: true });
    await second.flush();
    expect((await new FileLinkUsageStore({ cacheDir, log: quietLogger }).read()).get(ID)).to.deep.equal({ visits: 2, lastUsed: '2025-03-01T12:01:00.000Z' });

    fs.writeFileSync(linkUsageFile(cacheDir), '{ damaged');
    const { logger, lines } = captureLogger();
    const third = new FileLinkUsageStore({ cacheDir, log: logger });
    third.recordVisit(OTHER, { at: T0, newVisit: true });
    await third.flush();
    expect(lines.some((l) => l.level === 'warn' && /not valid JSON/.test(l.msg ?? ''))).to.equal(true);
    expect([...(await third.read()).keys()]).to.deep.equal([OTHER]);
  });

  it('should keep the views it could not write for the next write', async () => {
    // A file where the folder should be: the write fails.
    fs.writeFileSync(path.join(cacheDir, 'share-links'), 'in the way');
    const { logger, lines } = captureLogger();
    const store = new FileLinkUsageStore({ cacheDir, log: logger });
    store.recordVisit(ID, { at: T0, newVisit: true });
    await store.flush();
    expect(lines.some((l) => l.level === 'warn')).to.equal(true);
    fs.rmSync(path.join(cacheDir, 'share-links'));
    store.recordVisit(ID, { at: T0 + 1, newVisit: true });
    await store.flush();
    expect(JSON.parse(fs.readFileSync(linkUsageFile(cacheDir), 'utf8')).links[ID].visits).to.equal(2);
  });
});
