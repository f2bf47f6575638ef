import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { parseAlbumRecord, AlbumRecordError } from '../../server/core/albums/album-record.js';
import { AlbumIndex } from '../../server/core/albums/album-index.js';
import { ancestorsOf, breadcrumbsOf, coverOf, descendantsOf, isProtected } from '../../server/core/albums/album-tree.js';
import { eventually, writeJpeg } from '../support/gallery-fixture.js';
import { makeTempDir, removeTempDir, writeAlbum } from '../support/temp-dir.js';
import { loggerInto } from '../support/capture-logger.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('parseAlbumRecord', () => {
  it('should apply the documented defaults', () => {
    const meta = parseAlbumRecord('{"title":"Trip"}');
    expect(meta).to.deep.equal({
      title: 'Trip',
      password: undefined,
      thumbnail: undefined,
      order: undefined,
      hidden: false,
      isCollection: false,
      allowAnonymous: false,
      style: 'grid',
      sort: 'name',
      token: undefined,
      hideLocation: undefined,
      description: undefined,
      date: undefined,
      captions: new Map(),
      rotations: new Map(),
      shareLinks: [],
    });
  });

  it('should read rotations by file name, leaving out the zeros', () => {
    const meta = parseAlbumRecord(JSON.stringify({ title: 'T', rotations: { 'IMG_1.heic': 90, 'b.png': 0, 'c.png': 270, constructor: 180 } }));
    expect([...meta.rotations]).to.deep.equal([
      ['IMG_1.heic', 90],
      ['c.png', 270],
      ['constructor', 180],
    ]);
    expect(meta.rotations.get('toString')).to.equal(undefined);
  });

  for (const rotations of [{ 'a.png': 45 }, { 'a.png': '90' }, { 'a.png': -90 }, { 'x/a.png': 90 }, [90], 'a.png']) {
    it(`should refuse rotations ${JSON.stringify(rotations)}, naming the field`, () => {
      expect(() => parseAlbumRecord(JSON.stringify({ title: 'T', rotations }))).to.throw(
        AlbumRecordError,
        'rotations must be an object of file names to 90, 180 or 270 (degrees clockwise)',
      );
    });
  }

  it('should read a description, a date and captions by file name', () => {
    const meta = parseAlbumRecord(
      JSON.stringify({
        title: 'T',
        description: 'A day at the sea',
        date: '2024-02-29',
        captions: { 'IMG_1.jpg': "Grandma's 90th", constructor: 'a file named so' },
      }),
    );
    expect(meta).to.include({ description: 'A day at the sea', date: '2024-02-29' });
    expect([...meta.captions]).to.deep.equal([
      ['IMG_1.jpg', "Grandma's 90th"],
      ['constructor', 'a file named so'],
    ]);
    expect(meta.captions.get('toString')).to.equal(undefined);
  });

  it('should ignore unknown fields named like Object.prototype members', () => {
    const meta = parseAlbumRecord('{"title":"T","constructor":"x","toString":1,"hasOwnProperty":null,"__proto__":{"password":"p"},"valueOf":[]}');
    expect(meta).to.include({ title: 'T', password: undefined, hidden: false });
  });

  it('should accept a token of 256 characters', () => {
    expect(parseAlbumRecord(`{"title":"T","token":"${'t'.repeat(256)}"}`).token).to.have.length(256);
  });

  it('should treat an empty password as no password', () => {
    expect(parseAlbumRecord('{"title":"T","password":""}').password).to.equal(undefined);
  });

  for (const [text, message] of [
    ['{bad json', /not valid JSON/],
    ['[]', /must be a JSON object/],
    ['{"password":"x"}', /title is required/],
    ['{"title":""}', /title must be a non-empty string/],
    ['{"title":"T","style":"carousel"}', /style must be one of grid, masonry, single/],
    ['{"title":"T","hidden":"yes"}', /hidden must be a boolean/],
    ['{"title":"T","order":"1"}', /order must be a finite number/],
    ['{"title":"T","password":5}', /password must be a string/],
    ['{"title":"T","token":""}', /token must be 1 to 256 characters/],
    [`{"title":"T","token":"${'t'.repeat(257)}"}`, /token must be 1 to 256 characters/],
    ['{"title":"T","token":"new\\nline-0123456789"}', /without control characters/],
    ['{"title":"T","description":5}', /description must be a string/],
    ['{"title":"T","date":"2023-02-29"}', /date must be a date written YYYY-MM-DD/],
    ['{"title":"T","date":"1 May 2024"}', /date must be a date written YYYY-MM-DD/],
    ['{"title":"T","date":"2024-05-01T10:00:00Z"}', /date must be a date written YYYY-MM-DD/],
    ['{"title":"T","captions":["a"]}', /captions must be an object of file names to caption strings/],
    ['{"title":"T","captions":{"a.jpg":1}}', /captions must be an object of file names to caption strings/],
    ['{"title":"T","captions":{"sub/a.jpg":"x"}}', /captions must be an object of file names to caption strings/],
  ] as const) {
    it(`should reject ${text} with a message naming the problem`, () => {
      expect(() => parseAlbumRecord(text)).to.throw(AlbumRecordError, message);
    });
  }
});

describe('AlbumIndex', () => {
  let root: string;
  let logs: string[];
  let index: AlbumIndex | undefined;

  beforeEach(async () => {
    root = makeTempDir();
    logs = [];
    writeAlbum(root, '2024/travel/lisbon', { title: 'Lisbon', order: 2, token: 'tok-lisbon' });
    writeAlbum(root, '2024/travel/alps', { title: 'Alps', order: 1, token: 'tok-alps' });
    writeAlbum(root, '2024/travel/zeta', { title: 'Zeta', token: 'tok-zeta' });
    writeAlbum(root, '2023/family/wedding', { title: 'Wedding', password: 'pw', token: 'tok-wedding' });
    writeAlbum(root, '2023/family/wedding/party', { title: 'Party', token: 'tok-party' });
    writeAlbum(root, '2023/family/wedding/party/late', { title: 'Late night', token: 'tok-late' });
    writeAlbum(root, '2023/family/wedding/vip', { title: 'VIP', password: 'vip', token: 'tok-vip' });
    for (const n of ['IMG_10.jpg', 'IMG_2.jpg', 'img_1.JPG', 'clip.MP4', 'notes.txt', '.hidden.jpg', 'album.json.bak']) {
      const file = path.join(root, '2024/travel/lisbon', n);
      if (n.endsWith('.jpg') || n.endsWith('.JPG')) await writeJpeg(file);
      else fs.writeFileSync(file, 'x');
    }
    await writeJpeg(path.join(root, '2023/family/wedding/party/p1.jpg'));
    await writeJpeg(path.join(root, '2023/family/wedding/vip/v1.jpg'));
  });

  afterEach(() => {
    index?.close();
    index = undefined;
    removeTempDir(root);
  });

  const open = async (watch = false) => (index = await AlbumIndex.open({ albumsDir: root, watch, debounceMs: 50, log: loggerInto(logs) }));

  it('should list only media files, in natural order, ignoring dotfiles and other types', async () => {
    const idx = await open();
    expect(idx.album('2024/travel/lisbon')!.media.map((m) => m.name)).to.deep.equal(['clip.MP4', 'img_1.JPG', 'IMG_2.jpg', 'IMG_10.jpg']);
    expect(idx.album('2024/travel/lisbon')!.media.map((m) => m.kind)).to.deep.equal(['video', 'image', 'image', 'image']);
  });

  it('should order child albums by order, then title, and folders newest year first', async () => {
    const idx = await open();
    expect(idx.node('2024/travel')!.children.map((c) => c.name)).to.deep.equal(['alps', 'lisbon', 'zeta']);
    expect(idx.root.children.map((c) => c.name)).to.deep.equal(['2024', '2023']);
  });

  it('should know ancestors, descendants and breadcrumbs', async () => {
    const idx = await open();
    const late = idx.album('2023/family/wedding/party/late')!;
    expect(ancestorsOf(late).map((a) => a.path)).to.deep.equal(['2023/family/wedding/party', '2023/family/wedding']);
    expect(descendantsOf(idx.album('2023/family/wedding')!).map((a) => a.path)).to.deep.equal([
      '2023/family/wedding/party',
      '2023/family/wedding/party/late',
      '2023/family/wedding/vip',
    ]);
    expect(breadcrumbsOf(late)).to.deep.equal([
      { path: '2023', title: '2023', isAlbum: false },
      // A folder without folder.json: its name with a capital (server/core/albums/folder-record.ts).
      { path: '2023/family', title: 'Family', isAlbum: false },
      { path: '2023/family/wedding', title: 'Wedding', isAlbum: true },
      { path: '2023/family/wedding/party', title: 'Party', isAlbum: true },
      { path: '2023/family/wedding/party/late', title: 'Late night', isAlbum: true },
    ]);
    expect(isProtected(late)).to.equal(true);
    expect(isProtected(idx.album('2024/travel/alps')!)).to.equal(false);
  });

  it('should never take a cover from a descendant behind its own password', async () => {
    writeAlbum(root, '2022/c/col', { title: 'Col', isCollection: true, thumbnail: 'secret/s.jpg', token: 't' });
    writeAlbum(root, '2022/c/col/secret', { title: 'S', password: 'x', token: 't2' });
    writeAlbum(root, '2022/c/col/open', { title: 'O', token: 't3' });
    await writeJpeg(path.join(root, '2022/c/col/secret/s.jpg'));
    await writeJpeg(path.join(root, '2022/c/col/open/o.jpg'));
    const idx = await open();
    const cover = coverOf(idx.album('2022/c/col')!, (p) => idx.node(p))!;
    expect(`${cover.node.path}/${cover.item.name}`).to.equal('2022/c/col/open/o.jpg');
  });

  it('should skip a broken album.json, log its path, and keep the rest', async () => {
    fs.writeFileSync(path.join(root, '2024/travel/zeta/album.json'), '{ "title": ');
    writeAlbum(root, '2024/travel/notitle', { password: 'x' });
    const idx = await open();
    expect(idx.album('2024/travel/zeta')).to.equal(undefined);
    expect(idx.album('2024/travel/notitle')).to.equal(undefined);
    expect(idx.album('2024/travel/lisbon')).to.not.equal(undefined);
    expect(logs.join('\n')).to.include(path.join(root, '2024/travel/zeta/album.json')).and.include('not valid JSON');
    expect(logs.join('\n')).to.include('title is required');
  });

  it('should drop the children of a broken protected album rather than expose them', async () => {
    fs.writeFileSync(path.join(root, '2023/family/wedding/album.json'), '{ "title": "Wedding", "password": ');
    const idx = await open();
    expect(idx.album('2023/family/wedding/party')).to.equal(undefined);
  });

  it('should keep an album whose album.json has keys named constructor, toString or __proto__, children included', async () => {
    fs.writeFileSync(
      path.join(root, '2023/family/wedding/album.json'),
      '{"title":"Wedding","password":"pw","token":"tok-wedding","constructor":"c","toString":"s","__proto__":{"hidden":true}}',
    );
    writeAlbum(root, '2024/travel/alps', { title: 'Alps', order: 1, token: 'tok-alps', constructor: { note: 'kept' } });
    const idx = await open();
    expect(idx.album('2023/family/wedding')!.meta).to.include({ title: 'Wedding', password: 'pw', hidden: false });
    expect(idx.album('2023/family/wedding/party')).not.to.equal(undefined);
    expect(idx.album('2023/family/wedding/party/late')).not.to.equal(undefined);
    expect(idx.album('2024/travel/alps')!.meta.title).to.equal('Alps');
    expect(logs).to.deep.equal([]);
  });

  it('should generate a missing token and write it back atomically', async () => {
    writeAlbum(root, '2024/travel/new', { title: 'New', style: 'masonry' });
    const idx = await open();
    const token = idx.album('2024/travel/new')!.meta.token;
    expect(token).to.match(UUID);
    const onDisk = JSON.parse(fs.readFileSync(path.join(root, '2024/travel/new/album.json'), 'utf8'));
    expect(onDisk).to.deep.equal({ title: 'New', style: 'masonry', token });
    expect(fs.readdirSync(path.join(root, '2024/travel/new')).filter((n) => n.endsWith('.tmp'))).to.deep.equal([]);
    // The same token after a restart: share links survive.
    idx.close();
    const again = await open();
    expect(again.album('2024/travel/new')!.meta.token).to.equal(token);
  });

  it('should keep a generated token in memory when the tree is read-only', async () => {
    const dir = writeAlbum(root, '2024/travel/ro', { title: 'RO' });
    // root ignores file modes, so make the directory immutable instead (ext4 chattr).
    const asRoot = process.getuid?.() === 0;
    if (asRoot) execFileSync('chattr', ['+i', dir]);
    else fs.chmodSync(dir, 0o555);
    try {
      const idx = await open();
      const token = idx.album('2024/travel/ro')!.meta.token;
      expect(token).to.match(UUID);
      expect(JSON.parse(fs.readFileSync(path.join(dir, 'album.json'), 'utf8')).token).to.equal(undefined);
      expect(logs.join('\n')).to.include('keeping it in memory');
      await idx.rescan();
      expect(idx.album('2024/travel/ro')!.meta.token).to.equal(token);
    } finally {
      if (asRoot) execFileSync('chattr', ['-i', dir]);
      else fs.chmodSync(dir, 0o755);
    }
  });

  it('should pick up new photos, edited album.json and new or removed albums while watching', async () => {
    const idx = await open(true);
    const before = idx.version;
    await writeJpeg(path.join(root, '2024/travel/alps/new.jpg'));
    await eventually(() => idx.album('2024/travel/alps')!.media.some((m) => m.name === 'new.jpg'), 5000, 'new photo');
    writeAlbum(root, '2024/travel/alps', { title: 'Alps renamed', order: 1, token: 'tok-alps' });
    await eventually(() => idx.album('2024/travel/alps')!.meta.title === 'Alps renamed', 5000, 'edited title');
    writeAlbum(root, '2021/x/fresh', { title: 'Fresh', token: 'f' });
    await eventually(() => idx.album('2021/x/fresh') !== undefined, 5000, 'new album in a new folder');
    fs.rmSync(path.join(root, '2024/travel/zeta'), { recursive: true });
    await eventually(() => idx.album('2024/travel/zeta') === undefined, 5000, 'removed album');
    expect(idx.version).to.be.greaterThan(before);
  });
});

describe('AlbumIndex.setContentIds', () => {
  let root: string;
  let index: AlbumIndex;
  const shown = () => (index.album('a')?.media ?? []).map((m) => (m.motion ? `${m.name}+${m.motion.name}` : m.name));

  before(async () => {
    root = makeTempDir('content-ids-');
    const dir = writeAlbum(root, 'a', { title: 'A' });
    writeAlbum(root, 'a/b', { title: 'B' });
    for (const name of ['IMG_1.JPG', 'IMG_1.MOV', 'IMG_2.JPG', 'IMG_9.MOV']) fs.writeFileSync(path.join(dir, name), name);
    index = await AlbumIndex.open({ albumsDir: root, watch: false, log: loggerInto([]) });
  });
  after(() => {
    index.close();
    removeTempDir(root);
  });

  it('should pair the album again with the identifiers, as a new snapshot with a change event', () => {
    expect(shown()).to.deep.equal(['IMG_1.JPG+IMG_1.MOV', 'IMG_2.JPG', 'IMG_9.MOV']);
    const events: number[] = [];
    const onChange = (v: number) => events.push(v);
    index.on('change', onChange);
    const oldRoot = index.root;
    const ids = new Map([
      ['IMG_1.JPG', 'A'],
      ['IMG_1.MOV', 'B'],
      ['IMG_9.MOV', 'A'],
    ]);
    expect(index.setContentIds('a', ids)).to.equal(true);
    expect(shown()).to.deep.equal(['IMG_1.JPG+IMG_9.MOV', 'IMG_1.MOV', 'IMG_2.JPG']);
    expect(events).to.deep.equal([index.version]);
    expect(index.root).to.not.equal(oldRoot);
    expect(index.node('a/b')?.parent).to.equal(index.album('a'));
    // The same identifiers again: nothing changes, no event.
    expect(index.setContentIds('a', new Map(ids))).to.equal(false);
    expect(events).to.have.length(1);
    index.off('change', onChange);
  });

  it('should keep them across a rescan, and go back to names with none', async () => {
    await index.rescan();
    expect(shown()).to.deep.equal(['IMG_1.JPG+IMG_9.MOV', 'IMG_1.MOV', 'IMG_2.JPG']);
    index.setContentIds('a', new Map());
    expect(shown()).to.deep.equal(['IMG_1.JPG+IMG_1.MOV', 'IMG_2.JPG', 'IMG_9.MOV']);
    expect(index.contentIds('a')).to.equal(undefined);
  });
});
