import { expect } from 'chai';
import { parseNewAlbumPath } from '../../server/admin/album-paths.js';
import { HttpError } from '../../server/core/errors.js';

function errorOf(fn: () => unknown): HttpError {
  try {
    fn();
  } catch (err) {
    if (err instanceof HttpError) return err;
    throw err;
  }
  throw new Error('expected an HttpError');
}

describe('parseNewAlbumPath', () => {
  for (const ok of [
    'holidays',
    '2024/lisbon',
    'Été',
    '2024/travel/lisbon',
    '2024/travel/lisbon/day-1',
    '2024/Été/São Paulo',
    '2024/東京/夏 2',
    '2024/a_b/v1.2',
    '2024/trip/lisbon/',
  ]) {
    it(`should accept ${JSON.stringify(ok)}`, () => {
      expect(parseNewAlbumPath(ok)).to.equal(ok.replace(/\/$/, ''));
    });
  }

  for (const bad of [
    '..',
    '../a/b',
    'a/../b/c',
    '/a/b/c',
    'a\\b/c/d',
    '',
    '.trash',
    '.trash/x',
    '/',
    'x'.repeat(101),
    'a\u0007b',
    'a/\u001fb',
    'a\u007f',
    'a/.b/c',
    'a/b/c.',
    'a/b/ c',
    'a/b/c ',
    'a/b/c?',
    'a/b/c#',
    'a/b/c%',
    'a/b/c\u0000',
  ]) {
    it(`should refuse ${JSON.stringify(bad)} with a 400`, () => {
      expect(errorOf(() => parseNewAlbumPath(bad)).status).to.equal(400);
    });
  }
});
