import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { HttpError } from '../../server/core/errors.js';
import { decodeUrlPath, isInside, parseRelativePath, resolveInside } from '../../server/core/paths.js';
import { makeTempDir, removeTempDir } from '../support/temp-dir.js';

function statusOf(fn: () => unknown): number | undefined {
  try {
    fn();
  } catch (err) {
    return err instanceof HttpError ? err.status : -1;
  }
  return undefined;
}

describe('parseRelativePath', () => {
  it('should return a clean relative path unchanged', () => {
    expect(parseRelativePath('2024/trip/IMG_1.jpg')).to.equal('2024/trip/IMG_1.jpg');
    expect(parseRelativePath('2024/trip/')).to.equal('2024/trip');
    expect(parseRelativePath('2024/trip/Café São Paulo – 日本.jpg')).to.equal('2024/trip/Café São Paulo – 日本.jpg');
  });

  it('should name the missing parameter', () => {
    expect(() => parseRelativePath(undefined)).to.throw('Missing required parameter: path');
    expect(() => parseRelativePath('', 'albumPath')).to.throw('Missing required parameter: albumPath');
  });

  for (const bad of ['../etc/passwd', 'a/../../b', 'a/..', '..', '/etc/passwd', 'a\\b', '..\\x', 'a\u0000b', 'a//b', './a', 'a/./b']) {
    it(`should reject ${JSON.stringify(bad)} with 400`, () => {
      expect(statusOf(() => parseRelativePath(bad))).to.equal(400);
    });
  }

  it('should reject a repeated query parameter (an array) with 400', () => {
    expect(statusOf(() => parseRelativePath(['a', 'b']))).to.equal(400);
  });

  it('should allow names that merely contain dots', () => {
    expect(parseRelativePath('a/..b/c..jpg')).to.equal('a/..b/c..jpg');
  });
});

describe('decodeUrlPath', () => {
  it('should decode percent escapes before validating', () => {
    expect(decodeUrlPath('2024/Caf%C3%A9.jpg')).to.equal('2024/Café.jpg');
    expect(statusOf(() => decodeUrlPath('..%2fsecret'))).to.equal(400);
    expect(statusOf(() => decodeUrlPath('a%5cb'))).to.equal(400);
    expect(statusOf(() => decodeUrlPath('a%00b'))).to.equal(400);
  });

  it('should answer 400 for an undecodable escape', () => {
    expect(statusOf(() => decodeUrlPath('a/%E0%A4%A.jpg'))).to.equal(400);
    expect(statusOf(() => decodeUrlPath('a/%zz'))).to.equal(400);
  });
});

describe('resolveInside', () => {
  let root: string;
  let outside: string;
  before(() => {
    root = makeTempDir();
    outside = makeTempDir();
    fs.mkdirSync(path.join(root, 'a'));
    fs.writeFileSync(path.join(root, 'a', 'x.jpg'), 'x');
    fs.writeFileSync(path.join(outside, 'secret.jpg'), 's');
    fs.symlinkSync(path.join(outside, 'secret.jpg'), path.join(root, 'a', 'link.jpg'));
    fs.symlinkSync(path.join(root, 'a', 'x.jpg'), path.join(root, 'a', 'inner.jpg'));
  });
  after(() => {
    removeTempDir(root);
    removeTempDir(outside);
  });

  it('should return the real path of a file inside the root', async () => {
    expect(await resolveInside(root, 'a/x.jpg')).to.equal(fs.realpathSync(path.join(root, 'a', 'x.jpg')));
  });

  it('should follow a symlink that stays inside', async () => {
    expect(await resolveInside(root, 'a/inner.jpg')).to.equal(fs.realpathSync(path.join(root, 'a', 'x.jpg')));
  });

  it('should answer 404 for a symlink leading outside the root', async () => {
    const err = await resolveInside(root, 'a/link.jpg').catch((e: unknown) => e);
    expect(err).to.be.instanceOf(HttpError).with.property('status', 404);
  });

  it('should answer 404 for a missing file', async () => {
    const err = await resolveInside(root, 'a/none.jpg').catch((e: unknown) => e);
    expect(err).to.be.instanceOf(HttpError).with.property('status', 404);
  });
});

describe('isInside', () => {
  it('should tell children from siblings and parents', () => {
    expect(isInside('/srv/albums', '/srv/albums')).to.equal(true);
    expect(isInside('/srv/albums', '/srv/albums/a/b.jpg')).to.equal(true);
    expect(isInside('/srv/albums', '/srv/albums/..foo.jpg')).to.equal(true);
    expect(isInside('/srv/albums', '/srv/albums-other/x.jpg')).to.equal(false);
    expect(isInside('/srv/albums', '/srv')).to.equal(false);
    expect(isInside('/srv/albums', '/etc/passwd')).to.equal(false);
  });
});
